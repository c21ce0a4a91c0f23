// Where ingest's time goes (diagnostic, not a target): the ingest bench's
// engine, location and app views, one kind of live change (or the mix) in
// 10-change packets under V8's sampling profiler, summarised as self time
// per function and as total time of the engine's main entry points.
//   node --import tsx bench/profileIngest.ts [occupancy|environment|move|heartbeat|asset|mix] [changes] [changes per packet, 10]
// PHASE=<words of a phase> also lists the self time inside that phase (e.g. PHASE='flush: other').
// PROFILE_OUT=<file> writes the window's raw profile (.cpuprofile: open it in DevTools; its nodes'
// positionTicks give line ticks when this script is bundled, e.g. by esbuild, so lines are kept).

import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { openIngestRig } from './lib/ingestRig.js';
import { cpuMs, fmt, yieldToLoop } from './lib/report.js';
import type { TrafficKind } from './lib/traffic.js';

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

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
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
const c0 = cpuMs();
const ms = await push(payloads);
const cpu = cpuMs() - c0;
const { profile } = await session.post('Profiler.stop') as { profile: Profile };
session.disconnect();
if (process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
/** samples taken while the inspector collected the profile itself (Profiler.stop) are not the engine's */
const inspector = (id: number) => {
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) if (byId.get(at)!.callFrame.url === 'node:inspector') return true;
  return false;
};
const self = new Map<number, number>();
profile.samples.forEach((id, i) => { if (!inspector(id)) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000); });
const label = (node: ProfileNode) => {
  const file = node.callFrame.url.replace(/^.*\/(src|bench|node_modules)\//, '$1/');
  return `${node.callFrame.functionName || '(anonymous)'} ${file}:${node.callFrame.lineNumber + 1}`;
};
const selfBy = new Map<string, number>();
for (const [id, t] of self) { const l = label(byId.get(id)!); selfBy.set(l, (selfBy.get(l) ?? 0) + t); }
// total (inclusive) time per function, counted once per stack
const totalBy = new Map<string, number>();
for (const [id, t] of self) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const l = label(byId.get(at)!);
    if (seen.has(l)) continue;
    seen.add(l);
    totalBy.set(l, (totalBy.get(l) ?? 0) + t);
  }
}
const all = [...self.values()].reduce((a, b) => a + b, 0);
// each sample goes to the first phase found walking up from the sampled function
const PHASES: Array<[string, string[]]> = [
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
const phaseBy = new Map<string, number>();
const inPhase = new Map<string, number>();
for (const [id, t] of self) {
  let phase = 'other (stream checks, timers, bench loop)';
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const name = byId.get(at)!.callFrame.functionName;
    const hit = PHASES.find(([, names]) => names.includes(name));
    if (hit) { phase = hit[0]; break; }
  }
  phaseBy.set(phase, (phaseBy.get(phase) ?? 0) + t);
  if (process.env.PHASE && phase.includes(process.env.PHASE)) { const l = label(byId.get(id)!); inPhase.set(l, (inPhase.get(l) ?? 0) + t); }
}
const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k)
  .map(([l, t]) => `${fmt(t).padStart(8)} ms ${fmt((100 * t) / all).padStart(5)} %  ${l}`).join('\n');
console.log(`${fmt(n)} changes (${kind}, ${perPacket} a packet) in ${fmt(ms)} ms = ${fmt(n / (ms / 1000))} ch/s wall, ${fmt(cpu)} ms CPU (profiler on); ${fmt(all)} ms sampled`);
console.log(`\n## by phase\n${top(phaseBy, 20)}`);
if (process.env.PHASE) console.log(`\n## in phase\n${top(inPhase, 30)}`);
console.log(`\n## self time\n${top(selfBy, 40)}`);
console.log(`\n## total time (src/ only)\n${top(new Map([...totalBy].filter(([l]) => l.includes(' src/'))), 45)}`);
await engine.dispose();
await server.close();
