// The engine's minute timer (docs/engine.md §3 "engine:timeline") on the
// 10,000-desk location loaded through the real REST path, with every view of
// the app open (one floor with the heatmap too, people, rooms, a popup, the
// finder). One task of the timer is the marks it makes and the views' flush
// that follows. Compared in the same run, in alternating rounds on the same
// engine: the old way (every continuous asset derived afresh on the assets'
// channel, and every person marked) against engine/timeline.ts (the
// continuous assets only, their readings' part, on the readings' channel).
// No target: the row says what the change saves.

import { DEFAULT_LAYERS } from '../src/shared/constants.js';
import { timelineMinute } from '../src/worker/engine/timeline.js';
import type { Engine } from '../src/worker/engine.js';
import { aDesk, appViews, createViewCounter, floorsByAssets, openEngine, startBenchServer } from './lib/fixture.js';
import { cpuMs, fmt, median, publish, yieldToLoop, type BenchRow } from './lib/report.js';

const ROUNDS = 30;

/** The minute as the engine ran it before: continuous assets forgotten and marked changed, every person re-read. */
function oldMinute(engine: Engine): void {
  const { facts, hub } = engine.internals;
  const ids = facts.continuous();
  facts.invalidate(ids);
  hub.markDirty('assets', ids);
  hub.markDirty('users', 'all');
}

function newMinute(engine: Engine): void {
  const { facts, hub } = engine.internals;
  timelineMinute(facts, hub);
}

const server = await startBenchServer();
const engine = await openEngine(server);
const { store, hub, facts } = engine.internals;
const floorId = floorsByAssets(engine)[0]!;
const counter = createViewCounter();
for (const spec of appViews(floorId, aDesk(engine, floorId))) await engine.subscribe(spec, counter.listener);
await engine.subscribe({ view: 'floor', floorId, layers: [...DEFAULT_LAYERS, 'co-workers-heatmap'] }, counter.listener);
await engine.internals.modules.settled();
hub.flush();
await yieldToLoop();

interface Round { cpu: number; wall: number; entries: number; continuous: number }
const measure = async (minute: (e: Engine) => void): Promise<Round> => {
  await yieldToLoop();
  const continuous = facts.continuous().length;
  const sent = counter.patchEntries;
  const c0 = cpuMs();
  const t0 = performance.now();
  minute(engine);
  hub.flush();
  return { cpu: cpuMs() - c0, wall: performance.now() - t0, entries: counter.patchEntries - sent, continuous };
};

// a warm-up of each, then alternating rounds (the load of the shared cores falls on both alike)
await measure(oldMinute);
await measure(newMinute);
const olds: Round[] = [];
const news: Round[] = [];
for (let r = 0; r < ROUNDS; r++) {
  if (r % 2 === 0) { olds.push(await measure(oldMinute)); news.push(await measure(newMinute)); } else { news.push(await measure(newMinute)); olds.push(await measure(oldMinute)); }
}

const desks = [...store.assets.values()].filter((a) => a.subtype === 'desk').length;
const size = `${desks.toLocaleString('en-US')} desks, ${store.users.size} people, ${median(news.map((r) => r.continuous))} continuous`;
const row = (what: string, pick: (r: Round) => number, unit: string): BenchRow => {
  const value = median(news.map(pick));
  const baseline = median(olds.map(pick));
  return {
    bench: 'timeline', case: `minute timer task: ${what}`, size, value, unit, baseline, baselineLabel: `${unit} (old)`,
    ratio: baseline > 0 ? value / baseline : null, target: 'info', pass: null,
  };
};
publish('The minute timer: what the passing minute can change vs every person and continuous asset afresh (same run)', [
  row('CPU, marks + flush (median)', (r) => r.cpu, 'ms'),
  row('wall, marks + flush (median)', (r) => r.wall, 'ms'),
  row('entries sent', (r) => r.entries, 'entries'),
], [
  `${ROUNDS} alternating rounds on one engine; p90 CPU new ${fmt(news.map((r) => r.cpu).sort((a, b) => a - b)[Math.floor(ROUNDS * 0.9)]!)} ms, old ${fmt(olds.map((r) => r.cpu).sort((a, b) => a - b)[Math.floor(ROUNDS * 0.9)]!)} ms`,
  'views open: the floor (default layers and again with the heatmap), structure, connection, session, feed, notifications, people, rooms, a desk popup, the finder ("meeting room")',
]);
await engine.dispose();
await server.close();
