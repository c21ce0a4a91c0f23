// Ingest where the user's engine runs it (DESIGN §7, §10; issue 14): the app's
// own engine in a dedicated Web Worker in Chromium (headless, the e2e flags),
// on real IndexedDB in a persistent profile, signed in as the regular demo
// user to the 10,000-desk / 20,000-sensor reference server, the location
// loaded as the app loads it and every view of the app open. Live packets of
// the ingest mix (bench/lib/traffic.ts), numbered on from the position the
// engine loaded, are made here and handed to the worker before each window;
// in the window the worker decodes them (the ceiling), then its engine takes
// them through the transport listener with a turn of its event loop every
// ~2 ms, then the hub flushes. Each side is timed by CPU, read from a Chrome
// trace: the worker thread's own, and with the renderer's thread pool (V8's
// GC and compile helpers) beside it. bench/ingest.ts keeps the Node numbers
// as a breakdown.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { buildPage, launchProfile, ROOT } from './lib/browser.js';
import { benchLocation, startBenchServer } from './lib/fixture.js';
import { cpuOf, openIngestSide, rate, TAIL_MS, type Measure, type PhaseCpu, type TraceEvent, type Window } from './lib/ingestPage.js';
import { fmt, publish, type BenchRow } from './lib/report.js';
import { summarise } from './lib/trace.js';
import {
  createTraffic, encodePackets, INGEST_CHANGES_PER_RUN as CHANGES_PER_RUN, INGEST_KIND_CHANGES as KIND_CHANGES, INGEST_KIND_LABELS as KIND_LABELS, INGEST_PACKET_SIZES as PACKET_SIZES, INGEST_RUNS as RUNS,
  INGEST_TARGET_10_PER_S as TARGET_10_PER_S, INGEST_TARGET_OCCUPANCY_RATIO as TARGET_OCCUPANCY_RATIO, INGEST_TARGET_RATIO as TARGET_RATIO,
  INGEST_WARM_UP_CHANGES as WARM_UP_CHANGES, INGEST_WARM_UP_WINDOWS as WARM_UP_WINDOWS, meanChangeBytes, TRAFFIC_WEIGHTS, type TrafficKind,
} from './lib/traffic.js';

/**
 * STOREY_INGEST_PROFILE=1 (diagnostic): the 10-change windows are traced with V8's sampling profiler too, and the
 * worker thread's self time per function during the engine's phase is printed after the tables (the windows of
 * another packet size with STOREY_INGEST_PROFILE_SIZE=1 or 100). The profiler costs
 * the worker time of its own: the rows of such a run are not the targets' reading.
 */
const PROFILE = !!process.env.STOREY_INGEST_PROFILE;
const PROFILE_TOP = 45;
/** STOREY_INGEST_PROFILE_SIZE: the packet size whose windows are profiled (10 unless told) */
const PROFILE_SIZE = Number(process.env.STOREY_INGEST_PROFILE_SIZE ?? 10);
/** STOREY_INGEST_PROFILE_KIND: profile the windows of one kind of change (e.g. occupancy) instead of a packet size */
const PROFILE_KIND = process.env.STOREY_INGEST_PROFILE_KIND as TrafficKind | undefined;

async function main(): Promise<void> {
  const t0 = performance.now();
  const dist = mkdtempSync(join(tmpdir(), 'storey-bench-ingest-page-'));
  const profile = mkdtempSync(join(tmpdir(), 'storey-bench-ingest-profile-'));
  // a profiled run keeps the functions' names
  await buildPage(join(ROOT, 'bench/ingest'), dist, { minify: !PROFILE });
  const server = await startBenchServer(undefined, undefined, { staticDir: dist });
  let context: BrowserContext | null = null;
  try {
    const loc = benchLocation(server);
    context = await launchProfile(profile);
    const side = await openIngestSide(context, `${server.url}/index.html`, server.url, loc);
    const { call, opened } = side;
    const traffic = createTraffic(server, loc.locationId);
    const position = server.publisher.position(loc.scope);
    let sequence = position.stream_sequence;
    const packets = (changes: ReturnType<typeof traffic.take>, perPacket: number) => {
      const payloads = encodePackets(position.stream_id, sequence + 1, changes, perPacket);
      sequence += payloads.length;
      return payloads;
    };

    /** the worker thread's self ms per function in the profiled windows' engine phases (STOREY_INGEST_PROFILE) */
    const profiled = new Map<string, number>();
    /** and the total (inclusive) time per function, for where a phase's time goes */
    const profiledTotal = new Map<string, number>();
    let profiledMs = 0;
    /** one window: the payloads handed over, then traced: the ceiling on them, the engine taking them */
    async function timedWindow(payloads: string[], changes: number, profile = false): Promise<Window> {
      const { window: w, events, id } = await side.window(payloads, changes, sequence, profile ? ['disabled-by-default-v8.cpu_profiler'] : []);
      if (process.env.STOREY_TRACE_DUMP) dump(events);
      if (profile && process.env.STOREY_TRACE_OUT) writeFileSync(`${process.env.STOREY_TRACE_OUT}.${id}.json`, JSON.stringify(events));
      if (profile) {
        const mark = (name: string) => events.find((x) => x.name === name && x.cat.includes('blink.user_timing'))!;
        const worker = summarise(events as never, mark(`${id}:engine:start`).ts, mark(`${id}:engine:end`).ts)
          .find((t) => t.thread === 'DedicatedWorker thread');
        for (const f of worker?.self ?? []) profiled.set(f.fn, (profiled.get(f.fn) ?? 0) + f.ms);
        for (const f of worker?.total ?? []) profiledTotal.set(f.fn, (profiledTotal.get(f.fn) ?? 0) + f.ms);
        profiledMs += worker?.sampledMs ?? 0;
      }
      if (process.env.STOREY_INGEST_WINDOWS) {
        const f = (p: PhaseCpu) => `worker ${fmt(p.worker)} (GC ${fmt(p.minorGc)} minor, ${fmt(p.majorGc)} major) pool ${fmt(p.pool)} (+${fmt(p.poolTail)} after) page ${fmt(p.page)} browser ${fmt(p.browser)} wall ${fmt(p.wallMs)} ms`;
        const q = w.persisted;
        console.log(`${id} ${fmt(changes)} ch: ceiling ${f(w.ceiling)} | engine ${f(w.engine)} | persisted ${q.writes} writes (${q.full} full) ${q.entities} ent, ${q.prepared} rec ${fmt(q.prepareMs)} ms | ratio ${fmt(w.ceiling.worker / w.engine.worker)}× (worker), ${fmt((w.ceiling.worker + w.ceiling.pool) / (w.engine.worker + w.engine.pool))}× (+ helpers)`);
      }
      return w;
    }

    // warm-up: JIT, facts cache, the views' first patches; then the location's first full write is let finish
    const warm0 = performance.now();
    const warmUp: Window[] = [];
    for (let i = 0; i < WARM_UP_WINDOWS; i++) warmUp.push(await timedWindow(packets(traffic.take(WARM_UP_CHANGES), 10), WARM_UP_CHANGES));
    await call((b) => b.persisted());
    const warmMs = performance.now() - warm0;
    const viewsBefore = await call((b) => Promise.resolve(b.views()));

    const best = (runs: Window[], side: 'ceiling' | 'engine', m: Measure) => Math.max(...runs.map((w) => rate(w.changes, cpuOf(w[side], m))));
    const rows: BenchRow[] = [];
    const sample = traffic.take(2_000);
    const all: Window[] = [];
    let at10: Window[] = [];
    /**
     * A case's rows: the ceiling and the engine on the worker thread (the target's reading), and the engine with
     * the thread pool beside it against the ceiling measured the same way (best of the windows, like the Node bench)
     */
    const caseRows = (label: string, size: string, runs: Window[], target: number | null, targetLabel = target === null ? 'breakdown' : `≥ ${target.toFixed(2)}× ceiling`) => {
      const ceiling = best(runs, 'ceiling', 'worker');
      const engine = best(runs, 'engine', 'worker');
      const ceilingAll = best(runs, 'ceiling', 'all');
      const engineAll = best(runs, 'engine', 'all');
      const out: BenchRow[] = [
        {
          bench: 'ingestBrowser', case: `engine, ${label} (worker thread)`, size, value: engine, unit: 'ch/s',
          baseline: ceiling, baselineLabel: 'ch/s', ratio: engine / ceiling, target: targetLabel, pass: target === null ? null : engine / ceiling >= target,
        },
        {
          bench: 'ingestBrowser', case: `engine, ${label} (worker + helpers)`, size, value: engineAll, unit: 'ch/s',
          baseline: ceilingAll, baselineLabel: 'ch/s', ratio: engineAll / ceilingAll, target: 'breakdown', pass: null,
        },
      ];
      return { ceiling, engine, out };
    };
    for (const size of PACKET_SIZES) {
      const n = CHANGES_PER_RUN[size]!;
      const runs: Window[] = [];
      for (let run = 0; run < RUNS; run++) runs.push(await timedWindow(packets(traffic.take(n), size), n, PROFILE && !PROFILE_KIND && size === PROFILE_SIZE));
      all.push(...runs);
      if (size === 10) at10 = runs;
      const r = caseRows(`${size}-change packets`, `${fmt(n)} ch`, runs, TARGET_RATIO);
      rows.push(
        { bench: 'ingestBrowser', case: `decode ceiling, ${size}-change packets (worker thread)`, size: `${fmt(n)} ch`, value: r.ceiling, unit: 'ch/s', baseline: null, baselineLabel: '', ratio: null, target: 'baseline', pass: null },
        ...r.out,
      );
    }
    const engineAt10 = best(at10, 'engine', 'worker');
    rows.push({
      bench: 'ingestBrowser', case: 'engine, 10-change packets (absolute, worker thread)', size: '10k+20k loc', value: engineAt10, unit: 'ch/s',
      baseline: null, baselineLabel: '', ratio: null, target: `≥ ${fmt(TARGET_10_PER_S)} ch/s`, pass: engineAt10 >= TARGET_10_PER_S,
    });

    for (const [kind] of TRAFFIC_WEIGHTS) {
      const n = KIND_CHANGES[kind];
      const runs: Window[] = [];
      for (let run = 0; run < RUNS; run++) runs.push(await timedWindow(packets(traffic.take(n, kind), 10), n, PROFILE && PROFILE_KIND === kind));
      all.push(...runs);
      const target = kind === 'occupancy' ? TARGET_OCCUPANCY_RATIO : null;
      const r = caseRows(`only ${KIND_LABELS[kind]}, 10-ch`, `${fmt(n)} ch`, runs, target);
      rows.push(...(target === null ? r.out.slice(0, 1) : r.out));
    }
    const viewsAfter = await call((b) => Promise.resolve(b.views()));
    const logged = await call((b) => b.logged());

    const totalChanges = all.reduce((s, w) => s + w.changes, 0);
    const sum = (side: 'ceiling' | 'engine', key: keyof PhaseCpu) => all.reduce((s, w) => s + w[side][key], 0);
    const wall10 = Math.max(...at10.map((w) => rate(w.changes, w.engine.wallMs)));
    const wallCeil10 = Math.max(...at10.map((w) => rate(w.changes, w.ceiling.wallMs)));
    console.log(`(${fmt((performance.now() - t0) / 1000)} s from the build to the last window)`);
    publish('Ingest in Chromium: the engine worker on real IndexedDB, live packets into a 10,000-desk / 20,000-sensor location', rows, [
      `mean change ${fmt(meanChangeBytes(sample))} bytes of JSON (the mix of bench/ingest.ts); location: ${opened.assets} drawable assets, ${opened.sensors} sensors; views open (one-way ports to the page): ${opened.views.join(', ')}`,
      `timed by CPU, read from a Chrome trace (thread time): the worker thread between its marks; "worker + helpers" adds the renderer's thread pool (V8's GC and compile helpers) in the same span; best of ${RUNS} windows, the ceiling decoding the very packets the engine then takes; the targets read the worker thread (docs/bench.md "Ingest in Chromium")`,
      `all ${all.length} timed windows (${fmt(totalChanges)} changes): the engine ${fmt(sum('engine', 'worker'))} ms on the worker thread (${fmt(rate(totalChanges, sum('engine', 'worker')))} ch/s), ${fmt(sum('engine', 'pool'))} ms in the thread pool and ${fmt(sum('engine', 'poolTail'))} ms more there in the ${TAIL_MS} ms after (${fmt(rate(totalChanges, sum('engine', 'worker') + sum('engine', 'pool') + sum('engine', 'poolTail')))} ch/s with them), ${fmt(sum('engine', 'page'))} ms on the page's main thread (the views' messages), ${fmt(sum('engine', 'browser'))} ms in the browser process (IndexedDB's backend among others); the ceiling ${fmt(sum('ceiling', 'worker'))} ms on the worker thread, ${fmt(sum('ceiling', 'pool'))} + ${fmt(sum('ceiling', 'poolTail'))} ms in the pool`,
      `the garbage collector on the worker thread, inside those figures: the engine ${fmt(sum('engine', 'minorGc'))} ms of scavenges and ${fmt(sum('engine', 'majorGc'))} ms of major GC (pauses, marking steps, sweeping), in ${all.filter((w) => w.engine.majorGc > 1).length} of ${all.length} windows more than 1 ms of it; the ceiling ${fmt(sum('ceiling', 'minorGc'))} and ${fmt(sum('ceiling', 'majorGc'))} ms`,
      `the persister in the timed engine windows (the real idbStorage; its throttled writes land where they fall): ${all.reduce((n, w) => n + w.persisted.writes, 0)} writes begun (${all.reduce((n, w) => n + w.persisted.full, 0)} full rewrites), ${fmt(all.reduce((n, w) => n + w.persisted.entities, 0))} entities, ${all.reduce((n, w) => n + w.persisted.prepared, 0)} records of a rewrite made (${fmt(all.reduce((n, w) => n + w.persisted.prepareMs, 0))} ms), in ${all.filter((w) => w.persisted.writes + w.persisted.prepared > 0).length} of ${all.length} windows`,
      `wall clock at 10-change packets: engine ${fmt(wall10)} ch/s, ceiling ${fmt(wallCeil10)} ch/s`,
      `warm-up: ${WARM_UP_WINDOWS} windows of ${fmt(WARM_UP_CHANGES)} changes (10-change packets), then the persister's queued writes awaited: ${fmt(warmMs / 1000)} s; the engine's rate in them (worker thread, ratio to their ceiling): ${warmUp.map((w) => `${fmt(rate(w.changes, w.engine.worker) / 1000)}k (${fmt(w.ceiling.worker / w.engine.worker)}×)`).join(', ')}`,
      `views: ${fmt(viewsAfter.patchEntries - viewsBefore.patchEntries)} patch entries in ${fmt(viewsAfter.messages - viewsBefore.messages)} messages to the page in the timed windows`,
      ...(logged.length ? [`the engine logged: ${logged.slice(0, 5).join(' | ')}${logged.length > 5 ? ` (+${logged.length - 5})` : ''}`] : []),
    ]);
    if (PROFILE) {
      console.log(`\nThe worker thread's self time in the engine's phase of the ${RUNS} profiled ${PROFILE_KIND ? `${PROFILE_KIND} (10-change)` : `${PROFILE_SIZE}-change`} windows (${fmt(profiledMs)} ms sampled; the profiler's own cost included, so not a target's reading):`);
      const top = (m: Map<string, number>) => {
        for (const [fn, ms] of [...m].sort((a, b) => b[1] - a[1]).slice(0, PROFILE_TOP)) console.log(`  ${fmt(ms).padStart(8)} ms  ${fmt((100 * ms) / Math.max(1, profiledMs)).padStart(5)} %  ${fn}`);
      };
      top(profiled);
      console.log('\nThe same samples as total time (a function with everything it called):');
      top(profiledTotal);
    }
  } finally {
    await context?.close();
    await server.close();
    rmSync(profile, { recursive: true, force: true });
    rmSync(dist, { recursive: true, force: true });
  }
}

/** STOREY_TRACE_DUMP=1: what each thread of the trace shows (names and CPU), to check what the trace gives */
function dump(events: TraceEvent[]): void {
  const threads = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, String((e.args as { name?: unknown }).name));
  const counts = new Map<string, number>();
  for (const e of events) {
    const key = `${threads.get(`${e.pid}:${e.tid}`) ?? `${e.pid}:${e.tid}`} | ${e.cat} | ${e.name} | ${e.ph}${e.tdur !== undefined ? ' tdur' : ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  console.log([...counts].sort((a, b) => b[1] - a[1]).filter(([k]) => process.env.STOREY_TRACE_DUMP === '1' || new RegExp(process.env.STOREY_TRACE_DUMP!).test(k)).slice(0, 60).map(([k, n]) => `${n}\t${k}`).join('\n'));
}

await main();
