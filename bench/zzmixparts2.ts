import { openIngestRig, indexBuilt } from './lib/ingestRig.js';
import { cpuMs, yieldToLoop, median } from './lib/report.js';
import type { TrafficKind } from './lib/traffic.js';
import type { LiveChange, LivePacket } from '../src/shared/protocol.js';
import { inflate } from 'pako';
import { base64ToBytes } from '../src/worker/decode.js';
function decodeAll(ps: string[]) { const c0 = cpuMs(); for (const p of ps) JSON.parse(inflate(base64ToBytes(p), { toText: true }) as string) as LivePacket; return cpuMs() - c0; }
const dec = new Map<string, number[]>();
const rig = await openIngestRig();
await indexBuilt(rig.engine);
const N = 3000;
async function push(payloads: string[]) {
  let slice = performance.now();
  const c0 = cpuMs();
  for (const p of payloads) { rig.transport.push(rig.loc.scope, p); if (performance.now() - slice > 2) { await yieldToLoop(); slice = performance.now(); } }
  rig.engine.internals.hub.flush();
  return cpuMs() - c0;
}
let seed = 7;
const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
function mixOf(weights: Array<[TrafficKind, number]>, n: number): LiveChange[] {
  const total = weights.reduce((s, [, w]) => s + w, 0);
  const out: LiveChange[] = [];
  for (let i = 0; i < n; i++) { let r = rnd() * total; for (const [k, w] of weights) { if ((r -= w) < 0) { out.push(rig.traffic.next(k)); break; } } }
  return out;
}
const mixes: Record<string, Array<[TrafficKind, number]>> = {
  occ: [['occupancy', 1]], env: [['environment', 1]], move: [['move', 1]], beat: [['heartbeat', 1]], asset: [['asset', 1]],
  'occ+env': [['occupancy', 43], ['environment', 25]],
  'occ+asset': [['occupancy', 43], ['asset', 12]],
  'occ+move': [['occupancy', 43], ['move', 10]],
  'occ+beat': [['occupancy', 43], ['heartbeat', 10]],
  full: [['occupancy', 43], ['environment', 25], ['move', 10], ['heartbeat', 10], ['asset', 12]],
};
const times = new Map<string, number[]>();
await push(rig.packets(rig.traffic.take(4000), 10));
for (let r = 0; r < 8; r++) for (const [name, w] of Object.entries(mixes)) { const ps = rig.packets(mixOf(w, N), 10); (dec.get(name) ?? dec.set(name, []).get(name)!).push(decodeAll(ps)); (times.get(name) ?? times.set(name, []).get(name)!).push(await push(ps)); }
const single: Record<string, string> = { occupancy: 'occ', environment: 'env', move: 'move', heartbeat: 'beat', asset: 'asset' };
for (const [name, w] of Object.entries(mixes)) {
  const total = w.reduce((s, [, x]) => s + x, 0);
  const pred = w.reduce((s, [k, x]) => s + (x / total) * median(times.get(single[k]!)!), 0);
  const m = median(times.get(name)!);
  const d = median(dec.get(name)!);
  const predOwn = w.reduce((s, [k, x]) => s + (x / total) * (median(times.get(single[k]!)!) - median(dec.get(single[k]!)!)), 0);
  console.log(name.padEnd(10), m.toFixed(1), 'ms; predicted', pred.toFixed(1), 'ratio', (m / pred).toFixed(3), '| decode', d.toFixed(1), 'own', (m - d).toFixed(1), 'own predicted', predOwn.toFixed(1), 'ratio', ((m - d) / predOwn).toFixed(3), 'vs ceiling', (d / m).toFixed(3));
}
await rig.engine.dispose(); await rig.server.close();
