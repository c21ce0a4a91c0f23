// The batch applier alone, two checkouts compared in one process (diagnostic,
// not a target): each checkout's ingest rig (the 10k-desk server's location
// loaded into its store) takes the same kind of live changes as 10-change
// batches straight into its own `applyBatch`, in alternating rounds, so both
// see the same load. Each change is parsed from its own JSON text as decode
// would hand it over; only the applier's CPU time is counted (no views, no
// persistence). Prints the best and the median rate of each, and the median
// of the paired rounds' ratios against the first checkout.
//   node --import tsx bench/applyAB.ts <kind|mix> <changes per round> <rounds> <checkout dir> <checkout dir>…
import { loadavg } from 'node:os';
import type { LiveChange } from '../src/shared/protocol.js';
import type { ApplyOptions, applyBatch as ApplyBatch } from '../src/worker/store/applyBatch.js';
import type { IngestRig } from './lib/ingestRig.js';
import { cpuMs, fmt, median } from './lib/report.js';
import type { TrafficKind } from './lib/traffic.js';

const [kindArg = 'occupancy', nArg = '5000', roundsArg = '10', ...roots] = process.argv.slice(2);
const kind = kindArg as TrafficKind | 'mix';
const n = Number(nArg);
const rounds = Number(roundsArg);
const PER_BATCH = 10;
if (roots.length < 2) throw new Error('usage: applyAB.ts <kind|mix> <changes> <rounds> <checkout> <checkout>…');

interface Side { root: string; rig: IngestRig; apply: typeof ApplyBatch; rounds: number[] }
const sides: Side[] = [];
for (const root of roots) {
  const rigs = await import(`${root}/bench/lib/ingestRig.ts`) as { openIngestRig(): Promise<IngestRig> };
  const store = await import(`${root}/src/worker/store/applyBatch.ts`) as { applyBatch: typeof ApplyBatch };
  sides.push({ root, rig: await rigs.openIngestRig(), apply: store.applyBatch, rounds: [] });
}
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const options: ApplyOptions = { logger: quiet as ApplyOptions['logger'], now: () => Date.now(), manualLocationTimeoutMs: 3_600_000 };

function run(s: Side, texts: string[]): number {
  const scope = s.rig.loc.scope;
  const store = s.rig.engine.internals.store;
  const batches = texts.map((t) => ({ scope, changes: JSON.parse(t) as LiveChange[] }));
  const c0 = cpuMs();
  for (const batch of batches) s.apply(store, batch, options);
  return cpuMs() - c0;
}
const take = (s: Side, count: number): string[] => {
  const changes = kind === 'mix' ? s.rig.traffic.take(count) : s.rig.traffic.take(count, kind);
  const out: string[] = [];
  for (let i = 0; i < changes.length; i += PER_BATCH) out.push(JSON.stringify(changes.slice(i, i + PER_BATCH)));
  return out;
};

for (const s of sides) run(s, take(s, 4_000));
const loads: number[] = [];
for (let round = 0; round < rounds; round++) {
  for (const s of round % 2 ? [...sides].reverse() : sides) s.rounds.push(run(s, take(s, n)));
  loads.push(loadavg()[0]!);
}
for (const s of sides) {
  const best = Math.min(...s.rounds);
  console.log(`${s.root}: applyBatch, ${kind}, best ${fmt(n / (best / 1000))} ch/s (${fmt((best * 1000) / n)} µs a change), `
    + `median ${fmt(n / (median(s.rounds) / 1000))} ch/s`);
}
// each round's pair ran back to back: the median of their ratios holds better than either rate under a moving load
for (const s of sides.slice(1)) {
  const ratios = s.rounds.map((t, i) => sides[0]!.rounds[i]! / t);
  console.log(`${s.root} vs ${sides[0]!.root}: ${median(ratios).toFixed(3)}× the rate, median of ${rounds} paired rounds`);
}
console.log(`${rounds} rounds of ${fmt(n)} changes each in batches of ${PER_BATCH}; load average ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}`);
for (const s of sides) { await s.rig.engine.dispose(); await s.rig.server.close(); }
