// Two checkouts' ingest compared in alternating processes (diagnostic, not a
// target): each run is one checkout's ingest rig alone in a fresh Node process
// (bench/lib/ingestRig.ts: the 10k-desk server, every view open, the finder's
// index built), warmed up, then rounds of one kind of live change (or the mix)
// in 10-change packets, each round's CPU time including its persistence. The
// checkouts take turns, so a moving load falls on both alike; each pair of
// runs gives a ratio of medians, and the median of those is printed. In one
// process (bench/ingestAB.ts) the rigs share a heap and the order they were
// made in showed in the result (±10 % between orders at load 6, issue 14).
//   node --import tsx bench/ingestAlternate.ts <kind|mix> <changes a round> <rounds> <pairs> <checkout> <checkout>
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { indexBuilt, pushPackets, type IngestRig } from './lib/ingestRig.js';
import { fmt, median } from './lib/report.js';
import type { TrafficKind } from './lib/traffic.js';

interface Run { root: string; median: number; best: number; load: number }

async function one(root: string, kind: TrafficKind | 'mix', n: number, rounds: number): Promise<Run> {
  const mod = await import(`${root}/bench/lib/ingestRig.ts`) as { openIngestRig(): Promise<IngestRig> };
  const rig = await mod.openIngestRig();
  await indexBuilt(rig.engine);
  const take = (count: number) => rig.packets(kind === 'mix' ? rig.traffic.take(count) : rig.traffic.take(count, kind), 10);
  const push = (payloads: string[]) => pushPackets(rig, payloads, { persist: true });
  await push(take(4_000));
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) times.push(await push(take(n)));
  await rig.engine.dispose();
  await rig.server.close();
  return { root, median: n / (median(times) / 1000), best: n / (Math.min(...times) / 1000), load: loadavg()[0]! };
}

const args = process.argv.slice(2);
if (args[0] === '--one') {
  const [, root, kind, n, rounds] = args;
  console.log(JSON.stringify(await one(root!, kind as TrafficKind | 'mix', Number(n), Number(rounds))));
} else {
  const [kind = 'occupancy', n = '3000', rounds = '16', pairs = '4', a, b] = args;
  if (!a || !b) throw new Error('usage: ingestAlternate.ts <kind|mix> <changes> <rounds> <pairs> <checkout> <checkout>');
  const self = fileURLToPath(import.meta.url);
  const run = (root: string): Run => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', self, '--one', root, kind, n, rounds], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${root}: ${r.stderr}`);
    return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Run;
  };
  const ratios: number[] = [];
  const bestRatios: number[] = [];
  for (let i = 0; i < Number(pairs); i++) {
    // each pair in the other order than the one before
    const [first, second] = i % 2 ? [run(b), run(a)] : [run(a), run(b)];
    const [ra, rb] = first.root === a ? [first, second] : [second, first];
    ratios.push(rb.median / ra.median);
    bestRatios.push(rb.best / ra.best);
    console.log(`pair ${i + 1}: ${a} ${fmt(ra.median)} ch/s median (best ${fmt(ra.best)}), ${b} ${fmt(rb.median)} (best ${fmt(rb.best)}): `
      + `${(rb.median / ra.median).toFixed(3)}×; load ${ra.load.toFixed(2)} / ${rb.load.toFixed(2)}`);
  }
  console.log(`${b} vs ${a}, ${kind}: ${median(ratios).toFixed(3)}× the median rate (${median(bestRatios).toFixed(3)}× the best), median of ${pairs} pairs of processes, ${rounds} rounds of ${fmt(Number(n))} changes each`);
}
