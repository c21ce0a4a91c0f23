// Two checkouts' engines compared in one process (diagnostic, not a target):
// each checkout's ingest rig (bench/lib/ingestRig.ts: the 10k-desk server,
// every view open) takes the same kind of live changes in 10-change packets,
// in alternating rounds, so both see the same load on the shared cores.
// Each round's time is CPU time and includes the rig's own persistence,
// written before the next rig runs (no write lands in the other's round).
// Prints the best and the median rate of each and the decode ceiling, and the
// median of the paired rounds' ratios against the first checkout.
//   node --import tsx bench/ingestAB.ts <kind|mix> <changes per round> <rounds> <checkout dir> <checkout dir>…
import { loadavg } from 'node:os';
import { payloadText } from '../src/worker/decode.js';
import { indexBuilt, type IngestRig } from './lib/ingestRig.js';
import { cpuMs, fmt, median, yieldToLoop } from './lib/report.js';
import type { TrafficKind } from './lib/traffic.js';

const [kindArg = 'occupancy', nArg = '5000', roundsArg = '10', ...roots] = process.argv.slice(2);
const kind = kindArg as TrafficKind | 'mix';
const n = Number(nArg);
const rounds = Number(roundsArg);
const YIELD_EVERY_MS = 2;
if (roots.length < 2) throw new Error('usage: ingestAB.ts <kind|mix> <changes> <rounds> <checkout> <checkout>…');

interface Side { root: string; rig: IngestRig; rounds: number[]; ceiling: number }
const sides: Side[] = [];
for (const root of roots) {
  const mod = await import(`${root}/bench/lib/ingestRig.ts`) as { openIngestRig(): Promise<IngestRig> };
  sides.push({ root, rig: await mod.openIngestRig(), rounds: [], ceiling: Infinity });
}
// every side alike, whether its own rig waits for the finder's index or not
for (const s of sides) await indexBuilt(s.rig.engine);
const take = (s: Side, count: number) => s.rig.packets(kind === 'mix' ? s.rig.traffic.take(count) : s.rig.traffic.take(count, kind), 10);

async function push(s: Side, payloads: string[]): Promise<number> {
  const { transport, loc, engine } = s.rig;
  let slice = performance.now();
  const c0 = cpuMs();
  for (const p of payloads) {
    transport.push(loc.scope, p);
    if (performance.now() - slice > YIELD_EVERY_MS) { await yieldToLoop(); slice = performance.now(); }
  }
  engine.internals.hub.flush();
  await engine.internals.persister.flush();
  return cpuMs() - c0;
}

for (const s of sides) await push(s, take(s, 4_000));
const loads: number[] = [];
for (let round = 0; round < rounds; round++) {
  for (const s of round % 2 ? [...sides].reverse() : sides) {
    const payloads = take(s, n);
    const t0 = cpuMs();
    for (const p of payloads) JSON.parse(payloadText(p));
    s.ceiling = Math.min(s.ceiling, cpuMs() - t0);
    s.rounds.push(await push(s, payloads));
  }
  loads.push(loadavg()[0]!);
}
for (const s of sides) {
  const best = Math.min(...s.rounds);
  console.log(`${s.root}: ${kind}, best ${fmt(n / (best / 1000))} ch/s, median ${fmt(n / (median(s.rounds) / 1000))} ch/s; `
    + `decode ceiling ${fmt(n / (s.ceiling / 1000))} ch/s (best ratio ${(s.ceiling / best).toFixed(2)}×)`);
}
// each round's pair ran back to back: the median of their ratios holds better than either rate under a moving load
for (const s of sides.slice(1)) {
  const ratios = s.rounds.map((t, i) => sides[0]!.rounds[i]! / t);
  console.log(`${s.root} vs ${sides[0]!.root}: ${median(ratios).toFixed(3)}× the rate, median of ${rounds} paired rounds`);
}
console.log(`${rounds} rounds of ${fmt(n)} changes each; load average ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}`);
for (const s of sides) { await s.rig.engine.dispose(); await s.rig.server.close(); }
