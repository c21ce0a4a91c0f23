// Where the ingest bench's CPU goes on its own path (diagnostic, not a target; issue 14): the rig of
// bench/ingest.ts (every view open, packets pushed as the transport gives them, a turn of the event loop every
// 2 ms, the hub's 50 ms flush timer and the persister's timer firing between), each round's CPU split into
// the transport's pushes (decode, packet checks, stream validation, the store, routing), the view flushes,
// persistence (the storage's prepare and write calls) and the rest (turns of the loop, other timers), with
// the main thread's collections beside them (they fall inside whichever stage allocated past the limit).
// Medians of the rounds in µs a change and as multiples of the round's decode ceiling (base64, inflate,
// JSON.parse of the same packets): the 0.5× target needs the total at 2× the decode. Unlike
// bench/ingestStages.ts (each stage in a tight loop), the stages here run interleaved as on the live path.
//   node --import tsx bench/ingestSplit.ts [occupancy|environment|move|heartbeat|asset|mix] [changes a round, 5000] [rounds, 10]
import { loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { payloadText } from '../src/worker/decode.js';
import { createCloneStorage } from './lib/cloneStorage.js';
import { aDesk, appViews, benchLocation, createCaptureTransport, createViewCounter, floorsByAssets, openEngine, startBenchServer } from './lib/fixture.js';
import { indexBuilt } from './lib/ingestRig.js';
import { cpuMs, yieldToLoop } from './lib/report.js';
import { createTraffic, encodePackets } from './lib/traffic.js';
const kind = (process.argv[2] ?? 'mix') as any;
const n = Number(process.argv[3] ?? 5000);
const rounds = Number(process.argv[4] ?? 10);
const server = await startBenchServer();
const loc = benchLocation(server);
const transport = createCaptureTransport();
const storage = createCloneStorage();
const engine = await openEngine(server, { transportFactory: transport.factory, storage });
const floorId = floorsByAssets(engine)[0]!;
const counter = createViewCounter();
for (const spec of appViews(floorId, aDesk(engine, floorId))) await engine.subscribe(spec, counter.listener);
await indexBuilt(engine);
const traffic = createTraffic(server, loc.locationId);
const position = server.publisher.position(loc.scope);
let seq = position.stream_sequence;
const packets = (c: number) => { const p = encodePackets(position.stream_id, seq + 1, kind === 'mix' ? traffic.take(c) : traffic.take(c, kind), 10); seq += p.length; return p; };
const acc = { push: 0, flush: 0, persist: 0, gc: 0 };
// the main thread's collections, by duration (they fall inside whichever stage allocated past the limit)
new PerformanceObserver((list) => { for (const e of list.getEntries()) acc.gc += e.duration; }).observe({ entryTypes: ['gc'] });
const hub = engine.internals.hub;
const flush0 = hub.flush.bind(hub);
hub.flush = () => { const c = cpuMs(); flush0(); acc.flush += cpuMs() - c; };
const prep0 = storage.prepare.bind(storage);
storage.prepare = (p, ch) => { const c = cpuMs(); const r = prep0(p, ch); acc.persist += cpuMs() - c; return r; };
const write0 = storage.write.bind(storage);
storage.write = async (k, w, o) => { const c = cpuMs(); const p = write0(k, w, o); acc.persist += cpuMs() - c; return p; };
async function run(ps: string[]) {
  let slice = performance.now();
  for (const p of ps) {
    const c = cpuMs(); transport.push(loc.scope, p); acc.push += cpuMs() - c;
    if (performance.now() - slice > 2) { await yieldToLoop(); slice = performance.now(); }
  }
  hub.flush();
}
await run(packets(4000));
const res: Array<Record<string, number>> = [];
for (let r = 0; r < rounds; r++) {
  const ps = packets(n);
  let c = cpuMs();
  for (const p of ps) JSON.parse(payloadText(p));
  const decode = cpuMs() - c;
  acc.push = acc.flush = acc.persist = acc.gc = 0;
  c = cpuMs();
  await run(ps);
  const total = cpuMs() - c;
  await new Promise((r) => setImmediate(r));
  res.push({ decode, total, push: acc.push, flush: acc.flush, persist: acc.persist, rest: total - acc.push - acc.flush - acc.persist, gc: acc.gc });
}
const us = (ms: number) => ((ms / n) * 1000).toFixed(2);
const med = (k: string) => { const v = res.map((r) => r[k]!).sort((a, b) => a - b); return v[Math.floor(v.length / 2)]!; };
const d = med('decode');
console.log(`${kind}, ${rounds} rounds of ${n}, µs a change (CPU, medians) and as multiples of the decode:`);
const LABELS: Record<string, string> = {
  decode: 'decode (ceiling)', total: 'engine in all', push: 'pushes', flush: 'view flushes', persist: 'persistence', rest: 'the rest',
  gc: 'collections (in the above)',
};
for (const k of Object.keys(LABELS)) console.log(`  ${LABELS[k]!.padEnd(26)} ${us(med(k)).padStart(6)} µs  ${(med(k) / d).toFixed(2)}×`);
console.log(`  ratio decode ÷ total (the bench's): ${(d / med('total')).toFixed(2)}×, best round ${Math.max(...res.map((r) => r.decode / r.total)).toFixed(2)}×; load ${loadavg()[0]!.toFixed(2)}`);
await engine.dispose(); await server.close();
