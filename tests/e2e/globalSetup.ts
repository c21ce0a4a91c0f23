// Builds the viewer once for every e2e file (each runs in a worker of its
// own, and a build per file cost a quarter of the suite), handing the build's
// folder to the files through vitest's provide/inject.

import type { TestProject } from 'vitest/node';
import { buildViewer } from './harness.js';

declare module 'vitest' {
  export interface ProvidedContext {
    viewerDist: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  project.provide('viewerDist', await buildViewer());
}
