// Memory (DESIGN §7): the worker heap the engine holds for the seeded
// 10,000-desk / 20,000-sensor location, measured as V8 heap used after a
// full GC (run with --expose-gc), next to the raw JSON the REST loads carry.
// The reference server runs in this process too, so every number is a
// difference: heap after minus heap before, both with the server in place.

import type { ViewMessage } from '../src/shared/api.js';
import { aDesk, appViews, benchLocation, floorsByAssets, openEngine, startBenchServer } from './lib/fixture.js';
import { fmt, publish, type BenchRow } from './lib/report.js';

const gc = (globalThis as { gc?: () => void }).gc;

async function heapUsed(settle?: () => Promise<void>): Promise<number> {
  if (!gc) throw new Error('run with node --expose-gc (npm run bench does)');
  // the engine's timers (the hub's 50 ms flush, the persister's throttle) run first: what they
  // send or write and then drop is not what the view holds
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  // a cache rewrite is made ahead in paced slices over ~2–6 s and holds its prepared records until it
  // is stored (docs/engine.md §6): finished first, or its ~13 MB counted as the view opened meanwhile
  await settle?.();
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

const MB = 1024 * 1024;
/** issue 14: what the floor view holds (derived facts and the draw states it sent) per drawn asset */
const FLOOR_BYTES_PER_ASSET = 2 * 1024;

async function main(): Promise<void> {
  const server = await startBenchServer();
  const loc = benchLocation(server);
  // the raw JSON of the location's initial loads, as the regular user receives it
  const token = await (await fetch(`${server.baseUrl}/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: loc.account.email, password: loc.account.password }),
  })).json() as { token: string };
  const base = `${server.baseUrl}/organizations/${loc.organizationId}/locations/${loc.locationId}`;
  const raw = async (path: string) => (await (await fetch(`${base}/${path}`, { headers: { authorization: `Bearer ${token.token}` } })).text()).length;
  const assetsBytes = await raw('assets');
  const sensorsBytes = await raw('sensors');

  const before = await heapUsed();
  const engine = await openEngine(server);
  const settle = () => engine.internals.persister.flush();
  const loaded = await heapUsed(settle);
  const floors = floorsByAssets(engine);
  const perView: Array<[string, number]> = [];
  let last = loaded;
  let drawn = 0;
  for (const spec of appViews(floors[0]!, aDesk(engine, floors[0]!))) {
    await engine.subscribe(spec, (message: ViewMessage) => {
      if (spec.view === 'floor' && message.type !== 'patch') drawn += Object.keys(message.entries).length;
    });
    const now = await heapUsed(settle);
    perView.push([spec.view, now - last]);
    last = now;
  }
  const withViews = last;
  const { store } = engine.internals;
  const counts = `${fmt(store.assets.size)} assets, ${fmt(store.sensors.size)} sensors`;
  const rawTotal = assetsBytes + sensorsBytes;

  const rows: BenchRow[] = [
    {
      bench: 'memory', case: 'raw JSON of the initial loads (assets + sensors)', size: counts, value: rawTotal / MB, unit: 'MB',
      baseline: null, baselineLabel: '', ratio: null, target: 'baseline', pass: null,
    },
    {
      bench: 'memory', case: 'engine heap: store, indexes, caches', size: counts, value: (loaded - before) / MB, unit: 'MB',
      baseline: rawTotal / MB, baselineLabel: 'MB JSON', ratio: (loaded - before) / rawTotal, target: 'report', pass: null,
    },
    {
      bench: 'memory', case: 'engine heap with the app views open', size: `floor of ${fmt(store.assetsByFloor.get(floors[0]!)?.size ?? 0)} assets`, value: (withViews - before) / MB, unit: 'MB',
      baseline: rawTotal / MB, baselineLabel: 'MB JSON', ratio: (withViews - before) / rawTotal, target: 'report', pass: null,
    },
    {
      bench: 'memory', case: '  of which the floor view', size: 'facts + sent draw states', value: perView[0]![1] / MB, unit: 'MB',
      baseline: null, baselineLabel: '', ratio: null, target: 'report', pass: null,
    },
    {
      bench: 'memory', case: '  floor view per drawn asset', size: `${fmt(drawn)} drawn`, value: perView[0]![1] / drawn, unit: 'B',
      baseline: null, baselineLabel: '', ratio: null, target: `≤ ${fmt(FLOOR_BYTES_PER_ASSET)} B`, pass: perView[0]![1] / drawn <= FLOOR_BYTES_PER_ASSET,
    },
    {
      // each of these is within GC noise alone, so they are reported together
      bench: 'memory', case: '  of which the other app views', size: perView.slice(1).map(([v]) => v).join(' '),
      value: perView.slice(1).reduce((sum, [, b]) => sum + b, 0) / MB, unit: 'MB',
      baseline: null, baselineLabel: '', ratio: null, target: 'report', pass: null,
    },
  ];
  publish('Memory: worker heap for 10,000 desks + 20,000 sensors (V8 heap used after GC)', rows, [
    `raw JSON: assets ${fmt(assetsBytes / MB)} MB + sensors ${fmt(sensorsBytes / MB)} MB, as GET …/assets and …/sensors answer the regular user`,
    `heap used before the engine ${fmt(before / MB)} MB (Node, tsx, the reference server and its seeded store), after ${fmt(withViews / MB)} MB`,
  ]);
  await engine.dispose();
  await server.close();
}

await main();
