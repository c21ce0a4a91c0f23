// Floor playback (docs/reports.md "Playback"): what a step of a replay costs
// in the worker on the 10,000-desk location loaded through the real REST
// path, the last working day replayed on its busiest floor (about 5,800 assets), with the
// live floor view open underneath as the app keeps it. A step is
// setPlaybackTime (every sensor the floor reads and every located person set
// to the instant) and the hub's flush of the playback view (facts, draw
// states, diff, patch). Baseline in the same run: the live engine taking one
// new reading of every desk sensor of the same floor (decode-free: store,
// facts, flush), the most a live flush of that floor can have to do.
// Breakdown: the same steps on a second replay of the same floor and day,
// driven directly as the hub drives it (apply, then the marked entries'
// facts and draw states), so the hub's diff is what remains. Target: a step within a 50 ms task (no long
// task: a drag and 3600× play stay responsive).

import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { DrawState, PlaybackMeta, ViewMessage } from '../src/shared/api.js';
import { DEFAULT_LAYERS } from '../src/shared/constants.js';
import { calendarDay, wallToEpoch } from '../src/shared/reports/calendar.js';
import { createPlaybackService } from '../src/worker/reports/playback.js';
import { basisOf, unchanged } from '../src/worker/reports/playbackBasis.js';
import { benchLocation, createViewCounter, floorsByAssets, openEngine, startBenchServer, waitUntil } from './lib/fixture.js';
import { fmt, median, percentile, publish, yieldToLoop, type BenchRow } from './lib/report.js';
import { lastWorkingDay, replayedDayNote, WORKING_DAY_HISTORY_DAYS } from './lib/workingDay.js';

const LONG_TASK_MS = 50;

/**
 * The step's tasks as the worker runs them: its apply, the hub's flushes, and the slices a step goes on in
 * (the engine's `clock.setTimeout(fn, 0)`, wrapped here), each timed while a series runs: how long it ran
 * (wall) and the CPU time of this thread in it (`/proc/thread-self/schedstat`, ns). On this shared machine a
 * task's wall time also counts the time the thread was preempted, and the event loop's delay the time it
 * waited for a core; the thread's CPU time is what the task costs, which on a quiet machine is its length.
 */
interface Task { wall: number; cpu: number }
const timerTasks: Task[] = [];
let timingTasks = false;
const threadCpuMs = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
/** Runs `fn` as a timed task. */
function timed<T>(fn: () => T, into: Task[]): T {
  const c0 = threadCpuMs();
  const t0 = performance.now();
  try { return fn(); } finally { into.push({ wall: performance.now() - t0, cpu: threadCpuMs() - c0 }); }
}
const realSetTimeout = globalThis.setTimeout;
globalThis.setTimeout = ((fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => realSetTimeout(() => {
  // 0 ms: a slice of a step (the engine's other timers have delays of their own)
  if (timingTasks && !ms) timed(() => fn(...args), timerTasks); else fn(...args);
}, ms)) as typeof setTimeout;

const LAYERS = [...DEFAULT_LAYERS, 'desks' as const];

// readings back to the last working day (yesterday only would leave a Monday's Friday empty)
const server = await startBenchServer(undefined, undefined, { historyDays: WORKING_DAY_HISTORY_DAYS });
const engine = await openEngine(server);
const loc = benchLocation(server);
const { store, hub, sink } = engine.internals;
const floorId = floorsByAssets(engine)[0]!;
const onFloor = store.assetsByFloor.get(floorId)?.size ?? 0;
const tz = store.locations.get(loc.locationId)!.timezone;
// the last working day: on a Sunday or a Monday, yesterday is a nearly empty weekend day
const day = lastWorkingDay(Date.now(), tz);
const cal = calendarDay(day, tz);
const size = `${onFloor.toLocaleString('en-US')} assets on the floor, ${store.sensors.size.toLocaleString('en-US')} sensors`;
const rows: BenchRow[] = [];
const info = (label: string, value: number, unit = 'ms'): void => {
  rows.push({ bench: 'playback', case: label, size, value, unit, baseline: null, baselineLabel: '', ratio: null, target: 'reported', pass: null });
};

// the live floor stays open underneath, as in the app
const live = createViewCounter();
await engine.subscribe({ view: 'floor', floorId, layers: LAYERS }, live.listener);

/** Opens the replay view and waits until its day is read; returns ms from subscribe to done and the subscription. */
async function openReplay(): Promise<{ ms: number; id: number; counter: ReturnType<typeof createViewCounter>; entries: () => number; meta: () => PlaybackMeta | undefined }> {
  const counter = createViewCounter();
  let meta: PlaybackMeta | undefined;
  const drawn = new Set<string>();
  const t0 = performance.now();
  const id = await engine.subscribe({ view: 'playback', floorId, layers: LAYERS, day }, (message: ViewMessage) => {
    counter.listener(message);
    if (message.type === 'snapshot') drawn.clear();
    if (message.type === 'snapshot') meta = message.meta as PlaybackMeta;
    if (message.type !== 'patch') {
      for (const k of Object.keys(message.entries)) drawn.add(k);
    } else {
      if (message.meta) meta = message.meta as PlaybackMeta;
      for (const k of Object.keys(message.upserted)) drawn.add(k);
      for (const k of message.removed) drawn.delete(k);
    }
  });
  await waitUntil(() => { hub.flush(); return meta?.progress.state === 'done' && drawn.size > 0; }, 'the replay read', 300_000);
  return { ms: performance.now() - t0, id, counter, entries: () => drawn.size, meta: () => meta };
}

const first = await openReplay();
info(`first open of ${day}: every page over loopback, no page cache (${first.entries()} drawn)`, first.ms);

/**
 * Steps through the day: apply is setPlaybackTime (the sensors set, the step's derivation begun), flush the
 * hub's flush of the playback view, each a task of its own as in the worker; a step whose derivation goes on
 * in slices (tasks of its own) counts until the floor view shows its instant. The longest task of the
 * series (apply, a flush, a slice) is what live work arriving meanwhile would wait at most.
 * `times` are the instants stepped to, in order.
 */
async function series(times: readonly number[]) {
  const apply: number[] = [];
  const flush: number[] = [];
  const total: number[] = [];
  const tasks: Task[] = [];
  let sliced = 0;
  const before = first.counter.patchEntries;
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  timerTasks.length = 0;
  timingTasks = true;
  for (const t of times) {
    const t0 = performance.now();
    // apply is the engine's task of the step (the API call is synchronous up to its promise)
    const applied = timed(() => engine.setPlaybackTime(floorId, day, t), tasks);
    await applied;
    const t1 = performance.now();
    await yieldToLoop();
    const t2 = performance.now();
    timed(() => hub.flush(), tasks);
    const t3 = performance.now();
    if (first.meta()?.time !== t) sliced += 1;
    while (first.meta()?.time !== t) { await yieldToLoop(); timed(() => hub.flush(), tasks); }
    apply.push(t1 - t0); flush.push(t3 - t2); total.push(performance.now() - t0);
  }
  loop.disable();
  timingTasks = false;
  tasks.push(...timerTasks);
  // the longest task of the series (the step's apply, the hub's flush, a slice of a step): its CPU time, and the longest wall time of any
  const longest = tasks.reduce((a, b) => (b.cpu > a.cpu ? b : a));
  const longestWall = Math.max(...tasks.map((x) => x.wall));
  const changed = (first.counter.patchEntries - before) / times.length;
  const detail = `${fmt(changed, 0)} entries changed a step; ${fmt(median(total))} ms median until shown: apply ${fmt(median(apply))}, flush ${fmt(median(flush))}; ${sliced} of ${times.length} in slices`;
  const tasksLine = `${tasks.length} tasks, the longest ${fmt(longest.cpu)} ms of the thread's CPU (${fmt(longest.wall)} ms wall); the longest wall ${fmt(longestWall)} ms, the event loop's longest delay ${fmt(loop.max / 1e6)} ms`;
  return { p95: percentile(total, 0.95), longest: longest.cpu, tasksLine, detail, count: times.length };
}

/** Forward steps of one size: the step until the floor view shows it, against the 50 ms of a task. */
async function steps(label: string, stepMs: number, count: number, from: number) {
  const times = Array.from({ length: count }, (_, i) => Math.min(cal.end - 1, from + (i + 1) * stepMs));
  const r = await series(times);
  rows.push({
    bench: 'playback', case: `step of ${label} (${r.detail})`,
    size, value: r.p95, unit: 'ms p95', baseline: liveP95, baselineLabel: 'ms live flush', ratio: r.p95 / liveP95,
    target: `≤ ${LONG_TASK_MS} ms`, pass: r.p95 <= LONG_TASK_MS,
  });
  info(`step of ${label}: the longest task of the ${count} steps, apply, flush or a slice (${r.tasksLine})`, r.longest, 'ms CPU');
  return r;
}

/**
 * Steps back and jumps: every sensor and every asset of the floor may change, so the step is sliced and is
 * shown after several tasks; what counts is that no task of it is long. The longest task against the
 * forward 15 min step's of the same run.
 */
async function leaps(label: string, times: readonly number[], forward: { longest: number }) {
  const r = await series(times);
  rows.push({
    bench: 'playback', case: `${label}: the longest task, apply, flush or a slice (${r.detail}; ${fmt(r.p95)} ms p95 until shown; ${r.tasksLine})`,
    size, value: r.longest, unit: 'ms CPU', baseline: forward.longest, baselineLabel: 'ms CPU forward 15 min step', ratio: r.longest / forward.longest,
    target: `≤ ${LONG_TASK_MS} ms`, pass: r.longest <= LONG_TASK_MS,
  });
}

// baseline: one new reading of every desk sensor of the floor, through the live sink, then the hub's flush
const deskSensors: Array<{ id: string; type: string }> = [];
for (const id of store.assetsByFloor.get(floorId) ?? []) {
  const asset = store.assets.get(id);
  if (asset?.subtype !== 'desk') continue;
  for (const sid of asset.data_providers) {
    const s = store.sensors.get(sid);
    if (s && s.type === 'occupancy') deskSensors.push({ id: sid, type: s.type });
  }
}
const liveTimes: number[] = [];
for (let round = 0; round < 20; round += 1) {
  const time = Date.now();
  const changes = deskSensors.map((s, i) => ({
    collection: 'measurements' as const, kind: 'created' as const, id: s.id,
    data: { sensor_id: s.id, type: s.type, value: { time, valid_for: 3_600_000, value: (i + round) % 2 } },
  }));
  const t0 = performance.now();
  sink.apply({ scope: loc.scope, changes });
  hub.flush();
  liveTimes.push(performance.now() - t0);
}
const liveP95 = percentile(liveTimes, 0.95);
rows.push({
  bench: 'playback', case: `baseline: live, a reading of each of the floor's ${deskSensors.length.toLocaleString('en-US')} desk sensors applied and flushed`,
  size, value: liveP95, unit: 'ms p95', baseline: null, baselineLabel: '', ratio: null, target: 'reported', pass: null,
});

const nine = wallToEpoch(cal, 9);
await steps('2.5 min (600× play, a tick)', 150_000, 120, wallToEpoch(cal, 7));
await steps('1 min (a drag, ←/→)', 60_000, 120, nine);
const forward = await steps('15 min (Page Up, or a tick of 3600× play)', 15 * 60_000, 48, wallToEpoch(cal, 6));
// Page Down from 18:00 back to 06:00, then the slider clicked far away: 08:00, 17:00, 08:00…
await leaps('step back of 15 min (Page Down)', Array.from({ length: 48 }, (_, i) => wallToEpoch(cal, 18) - (i + 1) * 15 * 60_000), forward);
await leaps('jump between 08:00 and 17:00 (a click on the slider)', Array.from({ length: 24 }, (_, i) => wallToEpoch(cal, i % 2 === 0 ? 8 : 17)), forward);

// where a step's time goes: a second replay of the same floor and day, driven directly
const session = engine.internals.session()!;
const direct = createPlaybackService({
  live: store, roles: () => ['regular'], viewerUserId: () => loc.account.userId,
  fetchPage: (type, q) => session.rest.measurements(loc.organizationId, loc.locationId, type, q),
  // the breakdown derives a step in one go: what it measures is the work, not its slicing
  cache: null, now: () => Date.now(), markDirty: () => undefined, defer: (fn) => { setTimeout(fn, 0); }, sliceMs: Infinity,
});
const source = direct.source({ view: 'playback', floorId, layers: LAYERS, day });
await waitUntil(() => (source.meta() as PlaybackMeta).progress.state === 'done', 'the direct replay read', 300_000);
const applyMs: number[] = [];
const deriveMs: number[] = [];
const markedCounts: number[] = [];
const dirtyReplay = new Map([['playback', 'all']]) as Parameters<typeof source.affected>[0];
const allKeys = () => [...source.keys()];
source.affected(dirtyReplay);
let t = wallToEpoch(cal, 7);
for (let i = 0; i < 120; i += 1) {
  t += 150_000;
  const t0 = performance.now();
  direct.setTime(floorId, day, t);
  const t1 = performance.now();
  // what the hub asks: the keys that may have changed, then their entries
  const marked = source.affected(dirtyReplay);
  const keys = marked === 'all' ? allKeys() : [...(marked ?? [])];
  for (const key of keys) source.entry(key);
  deriveMs.push(performance.now() - t1);
  applyMs.push(t1 - t0);
  markedCounts.push(keys.length);
}
if (!allKeys().some((key) => source.entry(key) as DrawState | undefined)) throw new Error('the direct replay drew nothing');
info('breakdown, 2.5 min step: apply (sensors and people set to the instant)', median(applyMs), 'ms median');
info(`breakdown, 2.5 min step: the marked entries' facts and draw states (${fmt(median(markedCounts), 0)} of ${allKeys().length} marked)`, median(deriveMs), 'ms median');

// reopen: Back to live, then the same day again
await engine.unsubscribe(first.id);
const basis = basisOf(store);
const checks: number[] = [];
for (let i = 0; i < 30; i += 1) {
  const t0 = performance.now();
  if (!unchanged(basis, store)) throw new Error('the location changed');
  checks.push(performance.now() - t0);
}
info(`reopen: is the kept replay still the floor as it is (${(store.assets.size + store.sensors.size).toLocaleString('en-US')} records compared)`, median(checks), 'ms median');
const again = await openReplay();
rows.push({
  bench: 'playback', case: 'reopen of the unchanged day: subscribe → the kept replay drawn', size, value: again.ms, unit: 'ms',
  baseline: first.ms, baselineLabel: 'ms first open', ratio: again.ms / first.ms, target: 'reported', pass: null,
});
if (live.messages === 0) throw new Error('the live view got nothing');

publish('Floor playback: a replay step in the worker vs a live flush of the same floor', rows, [
  `The ${replayedDayNote(day, Date.now(), tz)}, on the busiest floor, layers ${LAYERS.join(', ')}; the live floor view open underneath.`,
  'A step: setPlaybackTime (apply) and the hub\'s flush of the playback view (facts, draw states, diff, patch to the page).',
  'Baseline: the live sink taking one new reading of every desk sensor of the floor, then the same flush for the live view.',
  `Load average while measuring: ${loadavg().map((l) => l.toFixed(1)).join(', ')} on this machine's cores.`,
]);
await engine.dispose();
await server.close();
