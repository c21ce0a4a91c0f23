// The ingest bench's engine worker (bench/ingestBrowser.ts): the app's own
// engine (createProductionEngine: real idbStorage on the browser's IndexedDB,
// its calls counted, the report page cache, the tab channel) in a dedicated
// worker, with the capturing transport in place of Pusher so the bench hands
// it live payloads.
// The page subscribes every view of the app through Comlink proxies, as the
// app does. Each timed phase sits between two user-timing marks, which the
// bench finds in its Chrome trace to read this thread's CPU time.

import * as Comlink from 'comlink';
import type { ViewListener } from '../../src/shared/api.js';
import type { Engine } from '../../src/worker/engine.js';
import { createProductionEngine } from '../../src/worker/engineCode.js';
import type { Logger } from '../../src/worker/ports.js';
import { registerViewPortReceiver } from '../../src/worker/views/viewPort.js';
import { createIdbStorage } from '../../src/worker/storage/idbStorage.js';
import type { StoragePort } from '../../src/worker/storage/index.js';
import {
  aDesk, appViews, createCaptureTransport, decodeAll, expectOk, floorsByAssets, indexBuilt, loadBenchLocation, type BenchLocation,
} from '../lib/benchEngine.js';

/** The worker's event loop gets a turn this often while packets are pushed, as a transport's message tasks give it. */
const YIELD_EVERY_MS = 2;

export interface Opened {
  assets: number;
  sensors: number;
  views: string[];
}

/** What the persister asked of IndexedDB: writes begun (full rewrites among them), entities in them, records made ahead. */
export interface Persisted {
  writes: number;
  full: number;
  entities: number;
  prepared: number;
  /** worker-thread wall ms inside `prepare` (the serialization of a full rewrite's records) */
  prepareMs: number;
}

export interface PhaseResult {
  changes: number;
  wallMs: number;
  /** during the phase */
  persisted: Persisted;
}

const transport = createCaptureTransport();
/** what the engine logged at warn or error level (the bench prints it) */
const logged: string[] = [];
const logger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (message) => { logged.push(`warn: ${message}`); },
  error: (message) => { logged.push(`error: ${message}`); },
};

// the real idbStorage, its calls counted, so the bench can say when the persister's work fell in a window
const counts: Persisted = { writes: 0, full: 0, entities: 0, prepared: 0, prepareMs: 0 };
const idb = createIdbStorage();
const storage: StoragePort = {
  ...idb,
  prepare(part, changes) {
    const t0 = performance.now();
    try { return idb.prepare(part, changes); } finally { counts.prepared += 1; counts.prepareMs += performance.now() - t0; }
  },
  write(key, write, options) {
    counts.writes += 1;
    if (write.full) counts.full += 1;
    counts.entities += write.changes.length;
    return idb.write(key, write, options);
  },
};

let engine: Engine | null = null;
let location: BenchLocation | null = null;
/** the payloads of the next window, handed over before it (not timed) */
let held: string[] = [];

// a turn of the event loop as a message task: setTimeout is clamped to 4 ms once nested, a MessageChannel is not
const turns = new MessageChannel();
const waiting: Array<() => void> = [];
turns.port1.onmessage = () => waiting.shift()?.();
const turn = () => new Promise<void>((resolve) => { waiting.push(resolve); turns.port2.postMessage(null); });

function opened(): { engine: Engine; location: BenchLocation } {
  if (!engine || !location) throw new Error('the bench engine is not open');
  return { engine, location };
}

/** Times `run` between the marks `${mark}:start` and `${mark}:end`. */
async function phase(mark: string, run: () => Promise<number> | number): Promise<PhaseResult> {
  const before = { ...counts };
  performance.mark(`${mark}:start`);
  const t0 = performance.now();
  const changes = await run();
  const wallMs = performance.now() - t0;
  performance.mark(`${mark}:end`);
  performance.clearMarks();
  const persisted = Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v - before[k as keyof Persisted]])) as unknown as Persisted;
  return { changes, wallMs, persisted };
}

const api = {
  /** Signs in, loads the location as the app does, opens every view of the app (their messages to `listener`), builds the finder's index. */
  async open(host: string, loc: BenchLocation, listener: ViewListener): Promise<Opened> {
    engine = createProductionEngine({ transportFactory: transport.factory, storage, logger });
    location = loc;
    await engine.init({ host });
    expectOk(await engine.signIn(loc.account.email, loc.account.password), 'signIn');
    await loadBenchLocation(engine, loc);
    const floorId = floorsByAssets(engine)[0]!;
    const views = appViews(floorId, aDesk(engine, floorId));
    for (const spec of views) await engine.subscribe(spec, listener);
    await indexBuilt(engine);
    return { assets: engine.internals.store.assets.size, sensors: engine.internals.store.sensors.size, views: views.map((v) => v.view) };
  },

  /** The next window's payloads. */
  give(payloads: string[]): void {
    held = payloads;
  },

  /** The decode ceiling on the held payloads, in one task. */
  ceiling(mark: string): Promise<PhaseResult> {
    return phase(mark, () => decodeAll(held));
  },

  /**
   * The engine takes the held payloads through its transport listener, a turn of the event loop every ~2 ms
   * (the hub's and the persister's timers run between), then the hub flushes; the stream must stand at
   * `sequence` after it, or a packet was dropped.
   */
  async ingest(mark: string, sequence: number): Promise<PhaseResult> {
    const { engine: e, location: loc } = opened();
    const payloads = held;
    held = [];
    const result = await phase(mark, async () => {
      let slice = performance.now();
      for (const p of payloads) {
        if (!transport.push(loc.scope, p)) throw new Error('the engine is not listening to the transport');
        if (performance.now() - slice > YIELD_EVERY_MS) { await turn(); slice = performance.now(); }
      }
      e.internals.hub.flush();
      return payloads.length;
    });
    const reached = e.internals.session()?.position(loc.scope)?.stream_sequence;
    if (reached !== sequence) throw new Error(`stream position ${reached} after the window, expected ${sequence}: packets were dropped`);
    return result;
  },

  /** Waits for the persister's queued writes (the location's first full write after the load among them). */
  async persisted(): Promise<void> {
    await opened().engine.internals.persister.flush();
  },

  logged(): string[] {
    return logged.splice(0);
  },
};

export type IngestWorkerApi = typeof api;

registerViewPortReceiver();
Comlink.expose(api);
