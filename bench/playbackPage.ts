// Floor playback on the main thread (docs/reports.md "Playback", docs/bench.md
// "Playback in Chromium"): the built app in real Chromium against the
// 10,000-desk reference server (one building of two floors, the readings of
// the last working day), signed in on the default floor. What the page's main thread does
// while a replay steps back (Page Down on the slider) and jumps (a click far
// along the slider), when about 2,000 of the floor's entries change at once:
// long tasks (a PerformanceObserver), frame times (rAF intervals) and the
// largest view message that reached the page in each series. Baseline in the
// same run and page: the live flush of the same floor, a new reading of every
// desk sensor of it published by the server. Target: no main-thread task over
// 50 ms (DESIGN §7).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { startStoreyServer, type StoreyServer } from '../server/app.js';
import type { LiveChange } from '../src/shared/protocol.js';
import { buildApp, launchBrowser, VIEWPORT } from './lib/browser.js';
import { benchLocation } from './lib/fixture.js';
import { describeTasks, FLOOR_PROBE_SCRIPT, LONG_TASK_MS, signInOnSettledFloor, tapViewMessages, tasksIn, type ProbeData } from './lib/floorProbe.js';
import { fmt, median, percentile, publish, type BenchRow } from './lib/report.js';
import { lastWorkingDay, replayedDayNote, WORKING_DAY_HISTORY_DAYS } from './lib/workingDay.js';

// the trace's main-thread tasks with their CPU time; V8's sampling profiler left out unless asked for (it costs
// the page time of its own)
process.env.NO_SAMPLES ??= '1';
const { longTaskBreakdown, majorCollections, startTrace } = await import('./lib/trace.js');
type Tracer = Awaited<ReturnType<typeof startTrace>>;
interface Series { at: number; tracer: Tracer; allocations: CDPSession | null }

const LIVE_ROUNDS = 6;
const STEPS_BACK = 16;
const JUMPS = 10;
/** after a step is shown (its meta is applied with its last entry), time for React's commit and a paint */
const AFTER_SHOWN_MS = 1_000;
// readings back to the last working day (yesterday only would leave a Monday's Friday empty)
const SEED = { seed: 7, desks: 10_000, sensors: 20_000, buildings: 1, floorsPerBuilding: 2, employees: 24, historyDays: WORKING_DAY_HISTORY_DAYS };

/**
 * Installed before the page's scripts, beside the floor probe: every view message's size as it reaches the
 * page (entries upserted and removed), and the frames (rAF times) while recording.
 */
const PAGE_SCRIPT = `(() => {
  const data = { messages: [], frames: [], recording: false };
  window.__playbackBench = data;
  ${tapViewMessages(`(m) => {
    data.messages.push({ at: performance.now(), n: m.type === 'patch' ? Object.keys(m.upserted).length + Object.keys(m.changed ?? {}).length + m.removed.length : Object.keys(m.entries).length });
  }`)}
  const tick = (t) => { if (data.recording) data.frames.push(t); requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
})();`;

interface Window { start: number; end: number }
interface SeriesStats {
  label: string;
  /** main-thread long tasks in the series (ms, wall: a PerformanceObserver) */
  tasks: number[];
  /** the main thread's tasks of the series by their CPU time (the trace's thread time), longest first */
  cpu: Array<{ ms: number; wall: number; phases: string }>;
  /** the page's full garbage collections in the series, and what they freed */
  collections: string[];
  /** what ran in the long tasks over 50 ms (floorProbe.ts) */
  detail: string[];
  frameP95: number;
  frameMax: number;
  /** the largest view message of the series (entries) */
  largest: number;
  /** entries the page received per action (upserted and removed, every view) */
  perAction: number;
  /** each action until the page showed it (ms) */
  shown: number[];
  count: number;
}

type BenchWindow = { __probe: ProbeData; __playbackBench: { messages: Array<{ at: number; n: number }>; frames: number[]; recording: boolean } };

/**
 * Starts a series: frames recorded from now, and a trace of the page, whose tasks' CPU time is what the main
 * thread spent in them (on this shared machine a task's wall time also counts the time its thread waited for
 * a core, as bench/playback.ts says of the worker).
 */
async function begin(page: Page): Promise<Series> {
  const tracer = await startTrace(page);
  // STOREY_ALLOC_OUT=<prefix>: what the page allocates in each series, V8's sampling heap profile (every object,
  // those collected since too) to <prefix>.<n>.heapprofile, for Chrome's Memory panel or a script
  let allocations: CDPSession | null = null;
  if (process.env.STOREY_ALLOC_OUT) {
    allocations = await page.context().newCDPSession(page);
    await allocations.send('HeapProfiler.enable');
    await allocations.send('HeapProfiler.startSampling', { samplingInterval: 16_384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  }
  const at = await page.evaluate(() => {
    const d = (window as unknown as BenchWindow).__playbackBench;
    d.frames.length = 0;
    d.recording = true;
    return performance.now();
  });
  return { at, tracer, allocations };
}

let traced = 0;

async function end(page: Page, label: string, series: Series, shown: number[]): Promise<SeriesStats> {
  const start = series.at;
  const events = await series.tracer.stop();
  if (series.allocations) {
    const { profile } = await series.allocations.send('HeapProfiler.stopSampling');
    writeFileSync(`${process.env.STOREY_ALLOC_OUT}.${traced + 1}.heapprofile`, JSON.stringify(profile));
    await series.allocations.detach();
  }
  // STOREY_TRACE_OUT=<prefix>: each series' trace to <prefix>.<n>.json, for Chrome's Performance panel or a script
  // (NO_SAMPLES= set empty adds V8's samples)
  traced += 1;
  if (process.env.STOREY_TRACE_OUT) writeFileSync(`${process.env.STOREY_TRACE_OUT}.${traced}.json`, JSON.stringify({ traceEvents: events }));
  const cpu = longTaskBreakdown(events, 50, 16)
    .map((t) => ({ ms: t.cpuMs, wall: t.ms, phases: t.phases.filter((p) => p.ms >= 3).slice(0, 6).map((p) => `${p.name} ${fmt(p.ms, 0)}`).join(', ') }))
    .sort((a, b) => b.ms - a.ms);
  const { probe, messages, frames, now } = await page.evaluate(() => {
    const w = window as unknown as BenchWindow;
    w.__playbackBench.recording = false;
    return { probe: w.__probe, messages: w.__playbackBench.messages, frames: w.__playbackBench.frames, now: performance.now() };
  });
  const span: Window = { start, end: now };
  const tasks = tasksIn(probe, span.start, span.end);
  const deltas = frames.slice(1).map((t, i) => t - frames[i]!);
  const collections = majorCollections(events).map((g) => `${fmt(g.ms, 0)} ms wall, ${fmt(g.cpuMs, 0)} CPU (${g.reason}): heap ${fmt(g.heapMbBefore, 0)} → `
    + `${fmt(g.heapMbAfter, 0)} MB, DOM nodes ${g.nodesBefore ?? '?'} → ${g.nodesAfter ?? '?'}`);
  return {
    label,
    cpu,
    collections,
    tasks: tasks.map((t) => t.duration),
    detail: describeTasks(probe, tasks.filter((t) => t.duration > LONG_TASK_MS)),
    frameP95: percentile(deltas, 0.95),
    frameMax: Math.max(0, ...deltas),
    largest: Math.max(0, ...messages.filter((m) => m.at >= span.start && m.at < span.end).map((m) => m.n)),
    perAction: messages.filter((m) => m.at >= span.start && m.at < span.end).reduce((sum, m) => sum + m.n, 0) / Math.max(1, shown.length),
    shown,
    count: shown.length,
  };
}

/** The live baseline: a new reading of every desk sensor of the floor, published by the server, round after round. */
async function liveFlushes(page: Page, server: StoreyServer, floorId: string, drawn: ReadonlySet<string>): Promise<SeriesStats> {
  const { store } = server;
  const desks = [...store.assets.values()].filter((a) => a.parent_id === floorId && a.subtype === 'desk');
  const sensors = desks.flatMap((a) => a.data_providers.map((id) => store.sensors.get(id)).filter((s) => s?.type === 'occupancy'));
  // a desk on the screen (the viewer culls what is outside it), whose look says when a round is drawn
  const desk = desks.find((a) => drawn.has(a.id) && sensors.some((s) => s!.id === a.data_provider_refs.occupancy))!;
  const probe = sensors.findIndex((s) => s!.id === desk.data_provider_refs.occupancy);
  const scope = benchLocation(server).scope;
  const base = Math.max(Date.now(), ...sensors.map((s) => s!.last_measurement?.time ?? 0));
  const start = await begin(page);
  const shown: number[] = [];
  for (let round = 0; round < LIVE_ROUNDS; round++) {
    const time = base + round + 1;
    const changes: LiveChange[] = sensors.map((s, i) => ({
      collection: 'measurements', kind: 'created', id: s!.id,
      data: { sensor_id: s!.id, type: 'occupancy', value: { time, valid_for: 3_600_000, value: (i + round) % 2, battery_level: 90 } },
    }));
    const before = await page.evaluate(() => performance.now());
    server.publisher.publishAudiences(scope, changes);
    // shown: the probe desk's look as this round set it (every desk changes each round): occupied, or a
    // clean-desk phase once left
    await page.waitForFunction(([id, occupied]) => {
      const node = document.querySelector(`[data-asset-id="${id}"]`);
      return !!node && (node.getAttribute('data-status') === 'occupied') === occupied;
    }, [desk.id, (probe + round) % 2 === 1] as const, { timeout: 30_000, polling: 'raf' });
    shown.push(await page.evaluate(() => performance.now()) - before);
    await page.waitForTimeout(AFTER_SHOWN_MS);
  }
  return end(page, `live: a reading of each of the floor's ${sensors.length.toLocaleString('en-US')} desk sensors (baseline)`, start, shown);
}

// read with one querySelector: Playwright's test-id locator walks every element of the page (some 14,000 here),
// which allocated 4 MB of the page's heap in a series, garbage the app did not make
const readout = (page: Page) => page.evaluate(() => document.querySelector('[data-testid="playback-time"]')?.textContent ?? '');
const hourOf = (text: string) => Number(text.slice(0, 2)) + Number(text.slice(3, 5)) / 60;

/** Until the bar's readout (the instant the map shows) satisfies `ok`; returns ms since `since` (page clock). */
async function whenShown(page: Page, since: number, ok: (hour: number) => boolean): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (Date.now() - t0 > 30_000) throw new Error(`the replay did not show the step (readout ${await readout(page)})`);
    const [text, now] = await page.evaluate(() => [document.querySelector('[data-testid="playback-time"]')?.textContent ?? '', performance.now()] as const);
    if (ok(hourOf(text))) return now - since;
    await page.waitForTimeout(5);
  }
}

async function sliderPoint(page: Page, hour: number): Promise<{ x: number; y: number }> {
  const box = (await page.getByRole('group', { name: 'Playback' }).getByLabel('Time of day').boundingBox())!;
  // the thumb's centre runs from 8 px in from either end of the track (as in tests/e2e/playback.test.ts)
  return { x: box.x + 8 + (box.width - 16) * (hour / 24), y: box.y + box.height / 2 };
}

async function stepsBack(page: Page): Promise<SeriesStats> {
  const slider = page.getByRole('group', { name: 'Playback' }).getByLabel('Time of day');
  // from late afternoon, while desks are in use
  const p = await sliderPoint(page, 17.5);
  await page.mouse.click(p.x, p.y);
  await whenShown(page, 0, (h) => h >= 17 && h < 18);
  await page.waitForTimeout(1_000);
  await slider.focus();
  const start = await begin(page);
  const shown: number[] = [];
  for (let i = 0; i < STEPS_BACK; i++) {
    const was = hourOf(await readout(page));
    const before = await page.evaluate(() => performance.now());
    await page.keyboard.press('PageDown');
    shown.push(await whenShown(page, before, (h) => Math.abs(h - (was - 0.25)) < 1 / 120));
    await page.waitForTimeout(AFTER_SHOWN_MS);
  }
  return end(page, `step back of 15 min (Page Down), ${STEPS_BACK} from about 17:30`, start, shown);
}

async function jumps(page: Page): Promise<SeriesStats> {
  const start = await begin(page);
  const shown: number[] = [];
  for (let i = 0; i < JUMPS; i++) {
    const [hour, lo, hi] = i % 2 === 0 ? [8.5, 8, 9] : [16.5, 16, 17];
    const p = await sliderPoint(page, hour);
    const before = await page.evaluate(() => performance.now());
    await page.mouse.click(p.x, p.y);
    shown.push(await whenShown(page, before, (h) => h >= lo && h < hi));
    await page.waitForTimeout(AFTER_SHOWN_MS);
  }
  return end(page, `jump between 08:30 and 16:30 (a click on the slider), ${JUMPS}`, start, shown);
}

async function main(): Promise<void> {
  const dist = mkdtempSync(join(tmpdir(), 'storey-bench-playback-page-'));
  // STOREY_UNMINIFIED=1: functions keep their names in a trace or an allocation profile
  await buildApp(dist, { minify: process.env.STOREY_UNMINIFIED ? false : undefined });
  const server = await startStoreyServer({ host: '127.0.0.1', port: 0, transport: 'pusher', simulate: false, staticDir: dist, seed: SEED });
  const browser = await launchBrowser();
  const series: SeriesStats[] = [];
  let drawn = 0;
  let readMs = 0;
  let dayNote = '';
  try {
    const context = await browser.newContext({ viewport: VIEWPORT });
    await context.addInitScript({ content: FLOOR_PROBE_SCRIPT });
    await context.addInitScript({ content: PAGE_SCRIPT });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    await signInOnSettledFloor(page, server.url, server.seed.accounts.regular, { timeoutMs: 90_000, label: '' });
    const onScreen = new Set(await page.locator('[data-asset-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-asset-id')!)));
    const floorId = [...onScreen].map((id) => server.store.assets.get(id)).find((a) => a?.subtype === 'desk')!.parent_id!;
    drawn = await page.evaluate(() => {
      const p = (window as unknown as BenchWindow).__probe;
      return p.frames[p.frames.length - 1]!.count;
    });

    series.push(await liveFlushes(page, server, floorId, onScreen));

    // Play back a day: it opens yesterday; on a Sunday or a Monday that is a nearly empty weekend day, so the
    // bench then picks the last working day in the bar's Day field, as a person would (tests/e2e/playbackStep.test.ts)
    const timeZone = server.store.locations.get(benchLocation(server).locationId)!.timezone;
    const day = lastWorkingDay(Date.now(), timeZone);
    dayNote = replayedDayNote(day, Date.now(), timeZone);
    const bar = page.getByRole('group', { name: 'Playback' });
    const read = async (act: () => Promise<void>) => {
      const t0 = Date.now();
      await act();
      await page.waitForFunction((d) => {
        const group = document.querySelector('[role="group"][aria-label="Playback"]');
        return group?.getAttribute('data-state') === 'done' && (d === null || group.getAttribute('data-day') === d);
      }, null as string | null, { timeout: 300_000, polling: 250 });
      return Date.now() - t0;
    };
    readMs = await read(() => page.getByRole('button', { name: 'Play back a day' }).click());
    if ((await bar.getAttribute('data-day')) !== day) {
      dayNote += `, picked in the Day field after Play back a day opened ${(await bar.getAttribute('data-day'))!}`;
      readMs = await read(async () => {
        await bar.getByLabel('Day', { exact: true }).fill(day);
        await page.waitForFunction((d) => document.querySelector('[role="group"][aria-label="Playback"]')?.getAttribute('data-day') === d, day, { timeout: 15_000, polling: 100 });
      });
    }
    if (!(await bar.getByLabel('Time of day').isEnabled())) throw new Error('the replay did not load');
    await page.waitForTimeout(2_000);
    // STOREY_HEAP_OUT=<file>: a heap snapshot of the page with the replay open, after a forced collection (what a
    // full collection has to mark), for Chrome's Memory panel or a script
    if (process.env.STOREY_HEAP_OUT) {
      const cdp = await page.context().newCDPSession(page);
      const chunks: string[] = [];
      cdp.on('HeapProfiler.addHeapSnapshotChunk', (e: { chunk: string }) => { chunks.push(e.chunk); });
      await cdp.send('HeapProfiler.collectGarbage');
      await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
      writeFileSync(process.env.STOREY_HEAP_OUT, chunks.join(''));
      await cdp.detach();
    }

    series.push(await stepsBack(page));
    series.push(await jumps(page));
    await context.close();
  } finally {
    await browser.close();
    await server.close();
    rmSync(dist, { recursive: true, force: true });
  }

  const [live, ...replay] = series as [SeriesStats, ...SeriesStats[]];
  const size = `${fmt(drawn)} assets drawn`;
  const worstCpu = (x: SeriesStats) => x.cpu[0]?.ms ?? 0;
  const worstWall = (x: SeriesStats) => Math.max(0, ...x.tasks);
  const rows: BenchRow[] = [
    {
      bench: 'playbackPage', case: `${live.label}: longest main-thread task, CPU (wall ${fmt(worstWall(live))} ms)`, size, value: worstCpu(live), unit: 'ms CPU',
      baseline: null, baselineLabel: '', ratio: null, target: 'baseline', pass: null,
    },
  ];
  for (const x of replay) {
    rows.push({
      bench: 'playbackPage', case: `${x.label}: longest main-thread task, CPU (wall ${fmt(worstWall(x))} ms)`, size, value: worstCpu(x), unit: 'ms CPU',
      baseline: worstCpu(live), baselineLabel: 'ms CPU live flush', ratio: worstCpu(live) > 0 ? worstCpu(x) / worstCpu(live) : null,
      target: `none > ${LONG_TASK_MS} ms`, pass: worstCpu(x) <= LONG_TASK_MS,
    });
  }
  for (const x of series) {
    rows.push({
      bench: 'playbackPage', case: `${x.label}: frame p95`, size, value: x.frameP95, unit: 'ms',
      baseline: x === live ? null : live.frameP95, baselineLabel: 'ms live flush', ratio: x === live ? null : x.frameP95 / live.frameP95,
      target: 'reported', pass: null,
    });
  }
  const notes = series.map((x) => `${x.label}: ${x.cpu.filter((t) => t.ms > LONG_TASK_MS).length} tasks over ${LONG_TASK_MS} ms of CPU; `
    + `the longest by CPU ${x.cpu.slice(0, 4).map((t) => `${fmt(t.ms, 0)} (wall ${fmt(t.wall, 0)}: ${t.phases})`).join('; ') || 'none'}; `
    + `${x.tasks.filter((d) => d > LONG_TASK_MS).length} long tasks by wall time (${x.tasks.map((d) => fmt(d, 0)).join(', ') || 'none'}; in the trace, the longest `
    + `${[...x.cpu].sort((p, q) => q.wall - p.wall).slice(0, 3).map((t) => `${fmt(t.wall, 0)} wall, ${fmt(t.ms, 0)} CPU: ${t.phases}`).join('; ') || 'none'}); `
    + `frames p95 ${fmt(x.frameP95)} ms, max ${fmt(x.frameMax)} ms; ${fmt(x.perAction, 0)} entries reached the page per action, in messages of at most ${fmt(x.largest)}; shown ${fmt(median(x.shown))} ms median, ${fmt(Math.max(...x.shown))} ms max after the action`);
  for (const x of series) for (const d of x.detail.slice(0, 3)) notes.push(`${x.label}, a long task (wall): ${d}`);
  // a full collection that frees thousands of DOM nodes is the garbage of a whole floor taken off the page (the
  // viewer remounted for the replay), not of the steps (docs/bench.md "The step back's long task is a full collection")
  for (const x of series) if (x.collections.length) notes.push(`${x.label}, full garbage collections on the main thread: ${x.collections.join('; ')}`);
  publish('Floor playback on the main thread: the built app in Chromium, a replay step back and a jump vs a live flush of the same floor', rows, [
    ...notes,
    `${dayNote}; the replay read in ${fmt(readMs)} ms (Play back a day, or the Day field, → the day loaded); each step waited until the bar showed its instant, then ${AFTER_SHOWN_MS} ms`,
    `live baseline: ${LIVE_ROUNDS} rounds 1.5 s apart through the server's Pusher endpoint, each a new reading of every desk sensor of the floor (half the desks change look each round)`,
    `Load average while measuring: ${loadavg().map((l) => l.toFixed(1)).join(', ')}`,
  ]);
}

await main();
