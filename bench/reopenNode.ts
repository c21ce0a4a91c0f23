// Reopen, the engine alone (a breakdown of bench/reopen.ts, no target of its
// own): time to the first floor view snapshot served from IndexedDB for the
// seeded 10,000-desk location, vs a cold network load of the same location
// from the local reference server, in the same run, in Node. IndexedDB here
// is fake-indexeddb (pure JS): the targets are judged in real Chromium by
// bench/reopen.ts; this shows what the engine's own part costs.

import 'fake-indexeddb/auto';
import type { FloorViewMeta, ViewMessage } from '../src/shared/api.js';
import { DEFAULT_LAYERS } from '../src/shared/constants.js';
import type { Id } from '../src/shared/types.js';
import { createEngine, type Engine } from '../src/worker/engine.js';
import { systemClock } from '../src/worker/systemClock.js';
import { createIdbStorage } from '../src/worker/storage/idbStorage.js';
import { createTransport } from '../src/worker/transports/index.js';
import type { StoreyServer } from '../server/app.js';
import {
  benchLocation, expectOk, floorsByAssets, loadBenchLocation, quietLogger, startBenchServer, waitUntil,
} from './lib/fixture.js';
import { fmt, median, publish, type BenchRow } from './lib/report.js';

const COLD_RUNS = 2;
const WARM_RUNS = 3;

function newEngine(dbName: string): Engine {
  return createEngine({
    clock: systemClock, fetch: globalThis.fetch, transportFactory: createTransport,
    storage: createIdbStorage({ name: dbName }), logger: quietLogger,
  });
}

/** Subscribes to the floor and resolves once its first snapshot arrived whole (a large one comes in parts). */
function firstSnapshot(engine: Engine, floorId: Id): Promise<{ entries: number; meta: FloorViewMeta }> {
  return new Promise((resolve, reject) => {
    let entries = 0;
    let missing = -1;
    let meta: FloorViewMeta | null = null;
    engine.subscribe({ view: 'floor', floorId, layers: DEFAULT_LAYERS }, (message: ViewMessage) => {
      if (message.type === 'snapshot' && missing < 0) {
        entries = Object.keys(message.entries).length;
        meta = message.meta as FloorViewMeta;
        missing = (message.parts ?? 1) - 1;
      } else if (message.type === 'snapshotPart' && missing > 0) {
        entries += Object.keys(message.entries).length;
        missing -= 1;
      } else return;
      if (missing === 0) { missing = -2; resolve({ entries, meta: meta! }); }
    }).catch(reject);
  });
}

/** Cold: an empty IndexedDB; sign in, connect, load organization and location over REST and the live transport. */
async function cold(server: StoreyServer, dbName: string): Promise<{ ms: number; floorId: Id; entries: number }> {
  const loc = benchLocation(server);
  const t0 = performance.now();
  const engine = newEngine(dbName);
  await engine.init({ host: server.url });
  expectOk(await engine.signIn(loc.account.email, loc.account.password), 'signIn');
  await loadBenchLocation(engine, loc);
  const floorId = floorsByAssets(engine)[0]!;
  const snap = await firstSnapshot(engine, floorId);
  const ms = performance.now() - t0;
  // what a user does next (the floor is kept in the stored session), then let the cache be written
  await engine.selectFloor(floorId);
  await engine.internals.persister.flush();
  await engine.dispose();
  return { ms, floorId, entries: snap.entries };
}

/** Warm: a new engine over the same database resumes the stored session and serves the cached floor. */
async function warm(server: StoreyServer, dbName: string, floorId: Id): Promise<{ ms: number; entries: number; fromCache: boolean }> {
  const t0 = performance.now();
  const engine = newEngine(dbName);
  await engine.init({ host: server.url });
  if (!(await engine.resume())) throw new Error('resume found no stored session');
  const snap = await firstSnapshot(engine, floorId);
  const ms = performance.now() - t0;
  // let the background network reload finish before the next run, so runs do not overlap
  await waitUntil(() => engine.internals.session()?.subscriptionState(benchLocation(server).scope) === 'loaded', 'reload after resume');
  await engine.dispose();
  return { ms, entries: snap.entries, fromCache: snap.meta.fromCache };
}

async function main(): Promise<void> {
  const server = await startBenchServer();
  const colds: number[] = [];
  const warms: number[] = [];
  let floorId: Id = '';
  let entries = 0;
  let warmEntries = 0;
  for (let i = 0; i < COLD_RUNS; i++) {
    const dbName = `storey-bench-${i}`;
    const c = await cold(server, dbName);
    colds.push(c.ms);
    floorId = c.floorId;
    entries = c.entries;
  }
  for (let i = 0; i < WARM_RUNS; i++) {
    const w = await warm(server, `storey-bench-${COLD_RUNS - 1}`, floorId);
    if (!w.fromCache) throw new Error('the first snapshot after resume was not served from the cache');
    warms.push(w.ms);
    warmEntries = w.entries;
  }
  // how much of the warm time is the storage read alone (the rest is the engine restoring and deriving the floor)
  const reads: number[] = [];
  const loc = benchLocation(server);
  for (let i = 0; i < WARM_RUNS; i++) {
    const storage = createIdbStorage({ name: `storey-bench-${COLD_RUNS - 1}` });
    await storage.open();
    const t0 = performance.now();
    const cached = await storage.loadLocation({ userId: loc.account.userId, locationId: loc.locationId }, () => undefined);
    reads.push(performance.now() - t0);
    if (!cached) throw new Error('nothing cached');
    await storage.close();
  }
  const coldMs = median(colds);
  const warmMs = median(warms);
  const rows: BenchRow[] = [
    {
      bench: 'reopenNode', case: 'cold network load → first floor snapshot', size: `${fmt(entries)} on floor`, value: coldMs, unit: 'ms',
      baseline: null, baselineLabel: '', ratio: null, target: 'breakdown', pass: null,
    },
    {
      bench: 'reopenNode', case: 'reopen from IndexedDB → first floor snapshot', size: `${fmt(warmEntries)} on floor`, value: warmMs, unit: 'ms',
      baseline: null, baselineLabel: '', ratio: null, target: 'breakdown', pass: null,
    },
    {
      bench: 'reopenNode', case: 'IndexedDB read of the whole location (every part)', size: 'fake-indexeddb', value: median(reads), unit: 'ms',
      baseline: warmMs, baselineLabel: 'ms warm', ratio: median(reads) / warmMs, target: 'breakdown', pass: null,
    },
    {
      bench: 'reopenNode', case: 'reopen speed-up over cold', size: '10k desks, 20k sensors', value: coldMs / warmMs, unit: '×',
      baseline: coldMs, baselineLabel: 'ms cold', ratio: coldMs / warmMs, target: 'breakdown', pass: null,
    },
  ];
  publish('Reopen breakdown: the engine alone in Node (fake-indexeddb), no targets', rows, [
    `cold runs ${colds.map((m) => fmt(m)).join(', ')} ms; warm runs ${warms.map((m) => fmt(m)).join(', ')} ms (medians above)`,
    'cold = new engine, empty database: init, sign-in, connect (Pusher over loopback), organization, location (assets + sensors over REST), floor snapshot',
    'warm = new engine over the saved database: init, resume() serves the cached location, floor snapshot (fromCache: true); the network reload follows in the background',
    'fake-indexeddb is a pure-JS IndexedDB; a browser reads faster, so the warm numbers are pessimistic',
    'snapshot = every part of the floor\'s first snapshot; a reopen reads the saved floor view, the session and the shared part first and the other floors after it, so the whole read can exceed the warm time',
  ]);
  await server.close();
}

await main();
