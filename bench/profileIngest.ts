// Where ingest's time goes (diagnostic, not a target): the ingest bench's
// engine, location and app views, one kind of live change (or the mix) in
// 10-change packets under V8's sampling profiler, summarised as self time
// per function and as total time of the engine's main entry points.
//   node --import tsx bench/profileIngest.ts [occupancy|environment|move|heartbeat|asset|mix] [changes] [changes per packet, 10]
// PHASE=<words of a phase> also lists the self time inside that phase (e.g. PHASE='flush: other').
// PROFILE_OUT=<file> writes the window's raw profile (.cpuprofile: open it in DevTools; its nodes'
// positionTicks give line ticks when this script is bundled, e.g. by esbuild, so lines are kept).

import { profiled, summarize, type Phases } from './lib/cpuProfile.js';
import { openIngestRig } from './lib/ingestRig.js';
import { cpuMs, fmt, yieldToLoop } from './lib/report.js';
import type { TrafficKind } from './lib/traffic.js';

const kind = (process.argv[2] ?? 'occupancy') as TrafficKind | 'mix';
const n = Number(process.argv[3] ?? 20_000);
const perPacket = Number(process.argv[4] ?? 10);
const YIELD_EVERY_MS = 2;

const { server, loc, transport, engine, traffic, packets } = await openIngestRig();

/** the packets are encoded before the profiler starts: the server's deflate is not the engine's work */
function encode(count: number): string[] {
  return packets(kind === 'mix' ? traffic.take(count) : traffic.take(count, kind), perPacket);
}

async function push(payloads: string[]): Promise<number> {
  const t0 = performance.now();
  let slice = t0;
  for (const p of payloads) {
    transport.push(loc.scope, p);
    if (performance.now() - slice > YIELD_EVERY_MS) { await yieldToLoop(); slice = performance.now(); }
  }
  engine.internals.hub.flush();
  return performance.now() - t0;
}

await push(encode(2_000));
const payloads = encode(n);
const c0 = cpuMs();
const { result: ms, profile } = await profiled(() => push(payloads));
const cpu = cpuMs() - c0;

// each sample goes to the first phase found walking up from the sampled function
const PHASES: Phases = [
  ['garbage collection', ['(garbage collector)']],
  ['decode: base64, inflate, JSON.parse (the ceiling\'s work)', ['decodePayload']],
  ['decode: packet checks (normalizeLivePacket)', ['normalizeLivePacket']],
  ['view flush: facts derived', ['computeFacts', 'refreshFacts']],
  ['view flush: draw state built', ['toDrawState']],
  ['view flush: compared with what was sent', ['dequal']],
  ['view flush: finder', ['searchSource', 'search']],
  ['view flush: other', ['flush']],
  ['store: applyBatch', ['applyBatch']],
  ['routing: facts, dirty keys, persister queue', ['routeDelta']],
  ['finder index notes', ['noteForSearch']],
  ['persistence: writes', ['write', 'placeChanges']],
];
console.log(`${fmt(n)} changes (${kind}, ${perPacket} a packet) in ${fmt(ms)} ms = ${fmt(n / (ms / 1000))} ch/s wall, ${fmt(cpu)} ms CPU (profiler on)`);
console.log(summarize(profile, PHASES, 'other (stream checks, timers, bench loop)', process.env.PHASE));
await engine.dispose();
await server.close();
