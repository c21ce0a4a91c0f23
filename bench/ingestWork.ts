// What ingest does, counted (diagnostic, not a target): the ingest bench's
// engine, location and app views take one kind of live change (or the mix)
// in 10-change packets three times; it prints the finder's query runs, the
// scheduler's (re)schedules, the patch entries sent and the best CPU rate.
// Counts do not depend on the machine's load, so they compare two commits
// where CPU-time rates cannot.
//   node --import tsx bench/ingestWork.ts [occupancy|environment|move|heartbeat|asset|mix] [changes]
import MiniSearch from 'minisearch';
import { openIngestRig } from './lib/ingestRig.js';
import { cpuMs, fmt, yieldToLoop } from './lib/report.js';
import type { TrafficKind } from './lib/traffic.js';

const kind = (process.argv[2] ?? 'mix') as TrafficKind | 'mix';
const n = Number(process.argv[3] ?? 15_000);
const { server, loc, transport, engine, counter, traffic, packets } = await openIngestRig();
let searches = 0;
const orig = MiniSearch.prototype.search;
MiniSearch.prototype.search = function (...a: Parameters<typeof orig>) { searches++; return orig.apply(this, a); };
const sched = engine.internals.scheduler;
let schedules = 0;
const origAt = sched.scheduleAt.bind(sched);
sched.scheduleAt = (k, d, t) => { schedules++; origAt(k, d, t); };
async function push(count: number) {
  const payloads = packets(kind === 'mix' ? traffic.take(count) : traffic.take(count, kind), 10);
  let slice = performance.now();
  const c0 = cpuMs();
  for (const p of payloads) { transport.push(loc.scope, p); if (performance.now() - slice > 2) { await yieldToLoop(); slice = performance.now(); } }
  engine.internals.hub.flush();
  return cpuMs() - c0;
}
await push(2000);
searches = 0; schedules = 0;
const patches0 = counter.patchEntries;
let best = Infinity;
for (let r = 0; r < 3; r++) best = Math.min(best, await push(n));
console.log(`${kind}: ${fmt(3 * n)} changes: finder query runs ${searches}, scheduler schedules ${schedules}, patch entries ${counter.patchEntries - patches0}; best CPU ${fmt(best)} ms = ${fmt(n / (best / 1000))} ch/s`);
await engine.dispose();
await server.close();
