// The ingest bench's page (bench/ingestBrowser.ts): starts the engine worker
// and, as the app does, gives it a one-way port for the views' messages;
// counts what they carry. The bench drives it through `window.__ingest`.

import * as Comlink from 'comlink';
import type { BenchLocation } from '../lib/benchEngine.js';
import { createViewCounter } from '../lib/benchEngine.js';
import { oneWayListener, registerViewPortSender } from '../../src/ui/engine/viewPort.js';
import type { IngestWorkerApi } from './worker.js';

registerViewPortSender();
const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
const remote = Comlink.wrap<IngestWorkerApi>(worker);
const counter = createViewCounter();

const bench = {
  open: (host: string, loc: BenchLocation) => remote.open(host, loc, oneWayListener(counter.listener)),
  give: (payloads: string[]) => remote.give(payloads),
  ceiling: (mark: string) => remote.ceiling(mark),
  ingest: (mark: string, sequence: number) => remote.ingest(mark, sequence),
  persisted: () => remote.persisted(),
  logged: () => remote.logged(),
  views: () => ({ messages: counter.messages, patchEntries: counter.patchEntries, snapshotEntries: counter.snapshotEntries }),
};

export type IngestPage = typeof bench;

(window as unknown as { __ingest: IngestPage }).__ingest = bench;
