// Where a replay step's time goes (diagnostic, not a target): the playback
// bench's location, the last working day replayed on its busiest floor with the live
// floor view open underneath, then forward steps of one size (as Page Up or
// 3600× play makes them) under V8's sampling profiler: setPlaybackTime and
// the hub's flush, as the worker runs them.
//   node --import tsx bench/profilePlayback.ts [step minutes, 15] [steps, 48]
// PROFILE_OUT=<file> keeps the raw .cpuprofile.

import type { PlaybackMeta, ViewMessage } from '../src/shared/api.js';
import { DEFAULT_LAYERS } from '../src/shared/constants.js';
import { calendarDay, wallToEpoch } from '../src/shared/reports/calendar.js';
import { profiled, summarize, type Phases } from './lib/cpuProfile.js';
import { benchLocation, floorsByAssets, openEngine, startBenchServer, waitUntil } from './lib/fixture.js';
import { fmt, median, percentile, yieldToLoop } from './lib/report.js';
import { lastWorkingDay, replayedDayNote, WORKING_DAY_HISTORY_DAYS } from './lib/workingDay.js';

const stepMin = Number(process.argv[2] ?? 15);
const count = Number(process.argv[3] ?? 48);
const LAYERS = [...DEFAULT_LAYERS, 'desks' as const];

// readings back to the last working day (yesterday only would leave a Monday's Friday empty)
const server = await startBenchServer(undefined, undefined, { historyDays: WORKING_DAY_HISTORY_DAYS });
const engine = await openEngine(server);
const loc = benchLocation(server);
const { store, hub } = engine.internals;
const floorId = floorsByAssets(engine)[0]!;
const tz = store.locations.get(loc.locationId)!.timezone;
// the last working day: on a Sunday or a Monday, yesterday is a nearly empty weekend day
const day = lastWorkingDay(Date.now(), tz);
const cal = calendarDay(day, tz);

await engine.subscribe({ view: 'floor', floorId, layers: LAYERS }, () => undefined);
let meta: PlaybackMeta | undefined;
await engine.subscribe({ view: 'playback', floorId, layers: LAYERS, day }, (message: ViewMessage) => {
  if (message.type === 'snapshot') meta = message.meta as PlaybackMeta;
  else if (message.type === 'patch' && message.meta) meta = message.meta as PlaybackMeta;
});
await waitUntil(() => { hub.flush(); return meta?.progress.state === 'done'; }, 'the replay read', 300_000);

const start = wallToEpoch(cal, 6);
/** a pass of forward steps from 06:00 (the first step back to 06:00 is not timed) */
async function pass(times: number[]): Promise<void> {
  await engine.setPlaybackTime(floorId, day, start);
  do { await yieldToLoop(); hub.flush(); } while (meta?.time !== start);
  let t = start;
  for (let i = 0; i < count; i += 1) {
    t = Math.min(cal.end - 1, t + stepMin * 60_000);
    const t0 = performance.now();
    await engine.setPlaybackTime(floorId, day, t);
    // the hub's flush, and the step's later slices, are tasks of their own
    do { await yieldToLoop(); hub.flush(); } while (meta?.time !== t);
    times.push(performance.now() - t0);
  }
}
// warm up, then profile one pass
await pass([]);
const times: number[] = [];
const { profile } = await profiled(() => pass(times));
const PHASES: Phases = [
  ['garbage collection', ['(garbage collector)']],
  ['apply: sensors set to the instant', ['setSensorAt']],
  ['apply: people placed', ['placeAsset']],
  ['apply: other (marking)', ['applyInstant', 'markSetAnew']],
  ['derive: facts of the marked assets (in slices)', ['prepareStep']],
  ['flush: facts derived', ['computeFacts', 'refreshFacts', 'factsOf']],
  ['flush: draw state built', ['toDrawState']],
  ['flush: compared with what was sent', ['dequal']],
  ['flush: other', ['flush']],
];
console.log(replayedDayNote(day, Date.now(), tz));
console.log(`${count} steps of ${stepMin} min on ${day}: ${fmt(median(times))} ms median, ${fmt(percentile(times, 0.95))} ms p95 (profiler on)`);
console.log(summarize(profile, PHASES));
await engine.dispose();
await server.close();
