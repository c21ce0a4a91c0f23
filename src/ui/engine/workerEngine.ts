// Starts the engine worker and wraps it with Comlink (DESIGN §1): the only
// place the UI touches src/worker, and only through the entry's URL. View
// listeners cross as Comlink proxies; the worker releases them on unsubscribe.
// Online/offline events reach the worker's own global, so the entry forwards them.

import * as Comlink from 'comlink';
import type { EngineApi, ViewListener } from '../../shared/api.js';
import { createEngineClient, type EngineClient, type EngineLike } from './engineClient.js';

export interface WorkerEngine {
  client: EngineClient;
  /** stops the worker and releases the Comlink proxy */
  terminate(): void;
}

export function createWorkerEngine(): WorkerEngine {
  const worker = new Worker(new URL('../../worker/entry.ts', import.meta.url), { type: 'module' });
  const remote = Comlink.wrap<EngineApi>(worker);
  const client = createEngineClient(remote as unknown as EngineLike, {
    markCallback: (listener: ViewListener) => Comlink.proxy(listener),
  });
  return {
    client,
    terminate() {
      client.dispose();
      remote[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}
