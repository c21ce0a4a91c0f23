// Where ingest's time goes, stage by stage (diagnostic, not a target; issue 14, ingest slice 9): the ingest
// rig takes rounds of each kind of live change alone and of the mix, in 10-change packets, in turns in one
// process, and times each stage on its own in CPU time: the decode ceiling of the round's packets (base64,
// inflate, JSON.parse), the engine taking them without a turn of the event loop (decode, packet checks,
// stream validation, the store, routing: no flush or write can fire in between), one view flush of
// everything they marked, and the persister writing what they queued. Medians of the rounds, in µs a
// change; for the mix also what its kinds' medians predict at its weights (bench/lib/traffic.ts), stage by
// stage, so a cost of mixing shows in the stage where it is paid. The flush here is one per round (every
// marked asset once), the live path's one per 50 ms.
//   node --import tsx bench/ingestStages.ts [changes a round, 3000] [rounds, 8]
import { payloadText } from '../src/worker/decode.js';
import { indexBuilt, openIngestRig } from './lib/ingestRig.js';
import { cpuMs, median } from './lib/report.js';
import { TRAFFIC_WEIGHTS, type TrafficKind } from './lib/traffic.js';
import { loadavg } from 'node:os';

const n = Number(process.argv[2] ?? 3_000);
const rounds = Number(process.argv[3] ?? 8);
const STAGES = ['decode', 'apply', 'flush', 'persist'] as const;
type Stage = typeof STAGES[number];
const STREAMS: Array<TrafficKind | 'mix'> = ['occupancy', 'environment', 'move', 'heartbeat', 'asset', 'mix'];

const rig = await openIngestRig();
await indexBuilt(rig.engine);
const { transport, loc, engine } = rig;
const take = (s: TrafficKind | 'mix', count: number) => rig.packets(s === 'mix' ? rig.traffic.take(count) : rig.traffic.take(count, s), 10);

async function round(s: TrafficKind | 'mix'): Promise<Record<Stage, number>> {
  const payloads = take(s, n);
  let c = cpuMs();
  for (const p of payloads) JSON.parse(payloadText(p));
  const decode = cpuMs() - c;
  c = cpuMs();
  for (const p of payloads) transport.push(loc.scope, p);
  const taken = cpuMs() - c;
  c = cpuMs();
  engine.internals.hub.flush();
  const flush = cpuMs() - c;
  c = cpuMs();
  await engine.internals.persister.flush();
  const persist = cpuMs() - c;
  return { decode, apply: taken - decode, flush, persist };
}

// warm-up: JIT, facts, the views' first patches, the persister's first (full) write
for (const s of STREAMS) await round(s);
const times = new Map<string, Record<Stage, number[]>>(STREAMS.map((s) => [s, { decode: [], apply: [], flush: [], persist: [] }]));
const load0 = loadavg()[0]!;
for (let r = 0; r < rounds; r++) {
  for (const s of STREAMS) {
    const t = await round(s);
    for (const stage of STAGES) times.get(s)![stage].push(t[stage]);
  }
}
const us = (ms: number) => (ms / n) * 1000;
const med = new Map([...times].map(([s, t]) => [s, Object.fromEntries(STAGES.map((st) => [st, us(median(t[st]))])) as Record<Stage, number>]));
const total = TRAFFIC_WEIGHTS.reduce((sum, [, w]) => sum + w, 0);
const predicted = Object.fromEntries(STAGES.map((st) => [st, TRAFFIC_WEIGHTS.reduce((sum, [k, w]) => sum + (w / total) * med.get(k)![st], 0)])) as Record<Stage, number>;
const f = (v: number) => v.toFixed(2);
console.log(`${rounds} rounds of ${n} changes of each stream, medians in µs a change (CPU time)\n`);
console.log('| stream | decode (ceiling) | engine less decode | flush | own ÷ decode | persist (each write) |');
console.log('|---|---|---|---|---|---|');
const row = (label: string, m: Record<Stage, number>) => console.log(`| ${label} | ${f(m.decode)} | ${f(m.apply)} | ${f(m.flush)} | ${f((m.apply + m.flush) / m.decode)}× | ${f(m.persist)} |`);
for (const s of STREAMS) row(s === 'mix' ? 'the mix' : s, med.get(s)!);
row('the mix as its kinds predict', predicted);
const mix = med.get('mix')!;
console.log(`\nthe mix ÷ its kinds: engine less decode ${f(mix.apply / predicted.apply)}×, flush ${f(mix.flush / predicted.flush)}×, decode ${f(mix.decode / predicted.decode)}×`);
console.log(`own ÷ decode: 1.00× is the 0.5× ceiling target; persist is a write of every entity a round touched, which the live path throttles to ${'5,000'} a second`);
console.log(`load average ${load0.toFixed(2)} → ${loadavg()[0]!.toFixed(2)} on 2 cores`);
await engine.dispose();
await rig.server.close();
