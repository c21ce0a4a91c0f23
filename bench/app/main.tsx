// The app for bench/engineThread.ts: the real App with the engine either in
// its worker (`?engine=worker`, what ships) or on the main thread
// (`?engine=main`: the same engine, IndexedDB and transports, called
// directly by the same client, so the UI gets the very same view messages
// without a structured clone). Served from the reference server's origin.

import { createRoot } from 'react-dom/client';
import { App } from '../../src/ui/App.js';
import { createEngineClient, type EngineClient, type EngineLike } from '../../src/ui/engine/engineClient.js';
import { createWorkerEngine, isSavedSnapshot, nextTask } from '../../src/ui/engine/workerEngine.js';
import { createEngine } from '../../src/worker/engine.js';
import { systemClock } from '../../src/worker/ports.js';
import { createIdbStorage } from '../../src/worker/storage/idbStorage.js';
import { createTransport } from '../../src/worker/transports/index.js';
import '../../src/ui/styles.css';

const onMain = new URLSearchParams(location.search).get('engine') === 'main';
const host = location.origin;

function mainThreadClient(): EngineClient {
  const engine = createEngine({
    clock: systemClock,
    fetch: (input, init) => globalThis.fetch(input, init),
    transportFactory: createTransport,
    storage: createIdbStorage(),
    logger: { debug: () => undefined, info: () => undefined, warn: (m) => console.warn(m), error: (m) => console.error(m) },
  });
  return createEngineClient(engine as unknown as EngineLike, { mirror: { schedule: nextTask(), now: () => performance.now(), atOnce: isSavedSnapshot } });
}

const client = onMain ? mainThreadClient() : createWorkerEngine().client;
await client.api.init({ host });
createRoot(document.getElementById('root')!).render(<App client={client} apiHost={host} />);
