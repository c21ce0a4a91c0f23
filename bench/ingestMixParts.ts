// Does the mix cost what its parts cost? (diagnostic, not a target; issue 14, ingest slice 7). The ingest
// rig takes rounds of each kind of live change alone and of mixes of them, in 10-change packets, in
// turns in one process; each round's decode ceiling (the same packets: base64, inflate, JSON.parse) is
// timed before it. For a mix, "predicted" is the weighted sum of its kinds' median rounds; the engine's
// own work is a round's CPU time less its decode. A ratio over 1 is what mixing itself costs.
//   node --import tsx bench/ingestMixParts.ts [changes a round, 3000] [rounds, 8]
import type { LiveChange, LivePacket } from '../src/shared/protocol.js';
import { payloadText } from '../src/worker/decode.js';
import { indexBuilt, openIngestRig, pushPackets } from './lib/ingestRig.js';
import { cpuMs, median } from './lib/report.js';
import type { TrafficKind } from './lib/traffic.js';

const n = Number(process.argv[2] ?? 3_000);
const rounds = Number(process.argv[3] ?? 8);

const MIXES: Record<string, Array<[TrafficKind, number]>> = {
  occupancy: [['occupancy', 1]], environment: [['environment', 1]], move: [['move', 1]], heartbeat: [['heartbeat', 1]], asset: [['asset', 1]],
  'occupancy + environment': [['occupancy', 43], ['environment', 25]],
  'occupancy + asset': [['occupancy', 43], ['asset', 12]],
  'occupancy + move': [['occupancy', 43], ['move', 10]],
  'occupancy + heartbeat': [['occupancy', 43], ['heartbeat', 10]],
  'the mix (bench/lib/traffic.ts weights)': [['occupancy', 43], ['environment', 25], ['move', 10], ['heartbeat', 10], ['asset', 12]],
};

const rig = await openIngestRig();
await indexBuilt(rig.engine);

function decodeMs(payloads: string[]): number {
  const c0 = cpuMs();
  for (const p of payloads) JSON.parse(payloadText(p)) as LivePacket;
  return cpuMs() - c0;
}

const pushMs = (payloads: string[]) => pushPackets(rig, payloads);

// a fixed-seed draw of kinds by weight, so every run mixes alike
let seed = 7;
const next = () => { seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff; return seed / 0x7fffffff; };
function mixOf(weights: Array<[TrafficKind, number]>, count: number): LiveChange[] {
  const total = weights.reduce((s, [, w]) => s + w, 0);
  const out: LiveChange[] = [];
  for (let i = 0; i < count; i++) {
    let r = next() * total;
    for (const [kind, w] of weights) if ((r -= w) < 0) { out.push(rig.traffic.next(kind)); break; }
  }
  return out;
}

const whole = new Map<string, number[]>();
const decode = new Map<string, number[]>();
const add = (m: Map<string, number[]>, k: string, v: number) => (m.get(k) ?? m.set(k, []).get(k)!).push(v);
await pushMs(rig.packets(rig.traffic.take(4_000), 10));
for (let r = 0; r < rounds; r++) {
  for (const [name, weights] of Object.entries(MIXES)) {
    const payloads = rig.packets(mixOf(weights, n), 10);
    add(decode, name, decodeMs(payloads));
    add(whole, name, await pushMs(payloads));
  }
}

const med = (m: Map<string, number[]>, k: string) => median(m.get(k)!);
const own = (k: string) => med(whole, k) - med(decode, k);
console.log(`${rounds} rounds of ${n} changes each, medians (CPU ms)\n`);
console.log('| stream | engine | its decode | engine ÷ ceiling | own work | own, predicted from the kinds | own ÷ predicted |');
console.log('|---|---|---|---|---|---|---|');
for (const [name, weights] of Object.entries(MIXES)) {
  const total = weights.reduce((s, [, w]) => s + w, 0);
  const predicted = weights.length > 1 ? weights.reduce((s, [kind, w]) => s + (w / total) * own(kind), 0) : null;
  console.log(`| ${name} | ${med(whole, name).toFixed(1)} | ${med(decode, name).toFixed(1)} | ${(med(decode, name) / med(whole, name)).toFixed(2)}× `
    + `| ${own(name).toFixed(1)} | ${predicted === null ? '—' : predicted.toFixed(1)} | ${predicted === null ? '—' : `${(own(name) / predicted).toFixed(2)}×`} |`);
}
await rig.engine.dispose();
await rig.server.close();
