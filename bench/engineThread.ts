// The engine in its worker vs on the main thread (DESIGN §7 "compare also
// with the engine on the main thread"): the real App in Chromium against the
// 10k-desk reference server, signed in on the default floor, while the server
// publishes a live load through its real Pusher endpoint; main-thread frames
// (p95 of rAF intervals) and long tasks of each, in the same run. The page
// (bench/app) builds the same App with either engine.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startStoreyServer, type StoreyServer } from '../server/app.js';
import { locationStreamScope } from '../src/shared/protocol.js';
import { buildPage, launchBrowser, ROOT, VIEWPORT } from './lib/browser.js';
import { FLOOR_PROBE_SCRIPT, LONG_TASK_MS, signInOnSettledFloor, type ProbeData } from './lib/floorProbe.js';
import { fmt, median, percentile, publish, type BenchRow } from './lib/report.js';
import { createTraffic } from './lib/traffic.js';
import { longTaskBreakdown, majorCollections, startTrace } from './lib/trace.js';

/**
 * STOREY_ENGINE_TRACE=1 (diagnostic): each run of the engine in its worker is traced (with V8's samples), and its
 * main-thread tasks over TRACED_TASK_MS of wall time are printed with their CPU, timeline phases and functions, and
 * the page's full collections. Tracing costs the page time of its own: such a run's rows are not the target's reading.
 */
const TRACE = !!process.env.STOREY_ENGINE_TRACE;
const TRACED_TASK_MS = 30;

/** changes per second over the whole location, in 10-change packets every 50 ms */
const RATE = 2_000;
const PACKET = 10;
const TICK_MS = 50;
const LIVE_MS = 6_000;
const ROUNDS = 2;

type Mode = 'worker' | 'main';
interface LiveStats { p95: number; mean: number; fps: number; longTasks: number[] }

/** rAF intervals on the page for `ms`. */
const FRAMES = `(ms) => new Promise((resolve) => {
  const deltas = []; let start = -1; let last = -1;
  const tick = (t) => {
    if (start < 0) start = t; else deltas.push(t - last);
    last = t;
    if (t - start < ms) { requestAnimationFrame(tick); return; }
    resolve({ deltas, ms: t - start });
  };
  requestAnimationFrame(tick);
})`;

async function signedIn(browser: Browser, server: StoreyServer, mode: Mode): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript({ content: FLOOR_PROBE_SCRIPT });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[${mode}] page error: ${error.message}`));
  await signInOnSettledFloor(page, `${server.url}/?engine=${mode}`, server.seed.accounts.regular, { timeoutMs: 60_000, label: `[${mode}] ` });
  return page;
}

/** Publishes the live load on the location's public stream until stopped. */
function liveLoad(server: StoreyServer): { stop(): number } {
  const organizationId = server.seed.organizationId;
  const locationId = server.seed.locationIds[0]!;
  const traffic = createTraffic(server, locationId);
  const scope = locationStreamScope(organizationId, locationId);
  const perTick = Math.round((RATE * TICK_MS) / 1000);
  let sent = 0;
  const timer = setInterval(() => {
    for (let i = 0; i < perTick; i += PACKET) server.publisher.publishAudiences(scope, traffic.take(PACKET));
    sent += perTick;
  }, TICK_MS);
  return { stop: () => { clearInterval(timer); return sent; } };
}

async function measure(page: Page, server: StoreyServer, label: string): Promise<LiveStats & { sent: number }> {
  const tracer = TRACE ? await startTrace(page) : null;
  const before = await page.evaluate(() => performance.now());
  const load = liveLoad(server);
  const { deltas, ms } = await page.evaluate(`(${FRAMES})(${LIVE_MS})`) as { deltas: number[]; ms: number };
  const sent = load.stop();
  if (tracer) printTrace(label, await tracer.stop());
  const probe = await page.evaluate(() => (window as unknown as { __probe: ProbeData }).__probe);
  return {
    p95: percentile(deltas, 0.95),
    mean: deltas.reduce((a, b) => a + b, 0) / Math.max(1, deltas.length),
    fps: deltas.length / (ms / 1000),
    longTasks: probe.longTasks.filter((t) => t.start >= before).map((t) => t.duration),
    sent,
  };
}

/** The traced run's main-thread tasks over TRACED_TASK_MS and the page's full collections (STOREY_ENGINE_TRACE). */
function printTrace(label: string, events: Parameters<typeof longTaskBreakdown>[0]): void {
  const tasks = longTaskBreakdown(events, TRACED_TASK_MS);
  console.log(`\n${label}: ${tasks.length} main-thread tasks over ${TRACED_TASK_MS} ms of wall time (traced)`);
  for (const t of tasks) {
    const phases = t.phases.filter((p) => p.ms >= 2).slice(0, 6).map((p) => `${p.name} ${fmt(p.ms, 0)}`).join(', ');
    const fns = t.functions.filter((f) => f.ms >= 2).slice(0, 8).map((f) => `${f.fn} ${fmt(f.ms, 0)}`).join(', ');
    console.log(`  ${fmt(t.ms)} ms wall, ${fmt(t.cpuMs)} ms CPU | ${phases} | ${fns}`);
  }
  for (const g of majorCollections(events)) console.log(`  full collection: ${fmt(g.ms)} ms wall, ${fmt(g.cpuMs)} CPU (${g.reason}), heap ${fmt(g.heapMbBefore, 0)} → ${fmt(g.heapMbAfter, 0)} MB`);
}

async function main(): Promise<void> {
  const dist = mkdtempSync(join(tmpdir(), 'storey-bench-engine-thread-'));
  await buildPage(join(ROOT, 'bench/app'), dist);
  const server = await startStoreyServer({
    host: '127.0.0.1', port: 0, transport: 'pusher', simulate: false, staticDir: dist,
    seed: { seed: 1, desks: 10_000, sensors: 20_000, historyDays: 1 },
  });
  const browser = await launchBrowser();
  const runs: Record<Mode, Array<LiveStats & { sent: number }>> = { worker: [], main: [] };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of (round % 2 ? ['main', 'worker'] : ['worker', 'main']) as Mode[]) {
        const page = await signedIn(browser, server, mode);
        runs[mode].push(await measure(page, server, `round ${round + 1}, engine ${mode === 'worker' ? 'in its worker' : 'on the main thread'}`));
        await page.context().close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(dist, { recursive: true, force: true });
  }
  const of = (mode: Mode) => ({
    p95: median(runs[mode].map((r) => r.p95)),
    worst: Math.max(0, ...runs[mode].flatMap((r) => r.longTasks)),
    long: median(runs[mode].map((r) => r.longTasks.filter((d) => d > LONG_TASK_MS).length)),
    fps: median(runs[mode].map((r) => r.fps)),
  });
  const worker = of('worker');
  const onMain = of('main');
  const size = `${fmt(RATE)} ch/s, 10k desks`;
  const rows: BenchRow[] = [
    {
      bench: 'engineThread', case: 'engine in its worker: frame p95', size, value: worker.p95, unit: 'ms',
      baseline: null, baselineLabel: '', ratio: null, target: 'baseline', pass: null,
    },
    {
      bench: 'engineThread', case: 'engine on the main thread: frame p95', size, value: onMain.p95, unit: 'ms',
      baseline: worker.p95, baselineLabel: 'ms worker', ratio: onMain.p95 / worker.p95, target: 'comparison', pass: null,
    },
    {
      bench: 'engineThread', case: 'engine in its worker: longest main-thread task', size, value: worker.worst, unit: 'ms',
      baseline: null, baselineLabel: '', ratio: null, target: `none > ${LONG_TASK_MS} ms`, pass: worker.worst <= LONG_TASK_MS,
    },
    {
      bench: 'engineThread', case: 'engine on the main thread: longest main-thread task', size, value: onMain.worst, unit: 'ms',
      baseline: worker.worst, baselineLabel: 'ms worker', ratio: null, target: 'comparison', pass: null,
    },
  ];
  const list = (mode: Mode) => runs[mode].map((r) => `p95 ${fmt(r.p95)} ms, ${fmt(r.fps)} fps, ${r.longTasks.filter((d) => d > LONG_TASK_MS).length} long tasks (max ${fmt(Math.max(0, ...r.longTasks))} ms)`).join('; ');
  publish('The engine in its worker vs on the main thread (the real App in Chromium, a live load)', rows, [
    `worker: ${list('worker')}`,
    `main thread: ${list('main')}`,
    `long tasks > ${LONG_TASK_MS} ms per run (median): worker ${fmt(worker.long)}, main thread ${fmt(onMain.long)}; fps worker ${fmt(worker.fps)}, main ${fmt(onMain.fps)}`,
    `live load: ${fmt(RATE)} changes/s of the bench mix over the 10,000-desk location (${PACKET}-change packets every ${TICK_MS} ms through the server's Pusher endpoint) for ${LIVE_MS / 1000} s, after sign-in and the default floor settled; ${ROUNDS} rounds, alternating which goes first`,
  ]);
}

await main();
