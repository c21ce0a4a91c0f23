// Reopen on the user's path (DESIGN §5, §7, §10): the built app in real
// Chromium with real IndexedDB on a persistent profile, against the reference
// server with 10,000 desks and 20,000 sensors (the docs/server.md flags
// `--desks 10000 --sensors 20000 --no-sim`), serving the app from its origin.
//   cold  = a fresh profile: sign-in submit → the default floor's assets drawn
//   warm  = Chromium relaunched on that profile: navigation start → the saved
//           floor drawn, and → the live data drawn in its place (the swap)
// with the main-thread long tasks of each phase. bench/reopenNode.ts keeps
// the Node + fake-indexeddb numbers as a breakdown.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startStoreyServer, type StoreyServer } from '../server/app.js';
import { buildApp, launchProfile } from './lib/browser.js';
import { firstFrame, FLOOR_PROBE_SCRIPT, tasksIn, type ProbeData } from './lib/floorProbe.js';
import { fmt, median, publish, type BenchRow } from './lib/report.js';

const COLD_RUNS = 3;
const WARM_RUNS = 5;
const TARGET_WARM_MS = 300;
const TARGET_SPEEDUP = 5;
const LONG_TASK_LIMIT_MS = 50;
/** the floor counts as settled when nothing drawn changed for this long */
const SETTLED_MS = 1_500;
/** after a load, time for the throttled cache write (a full rewrite of the location) to land before Chromium closes */
const WRITE_WAIT_MS = 6_000;

interface ColdRun { ms: number; assets: number; tasks: number[]; fcp: number | null }
interface WarmRun {
  savedMs: number; liveMs: number; assets: number; savedTasks: number[]; swapTasks: number[]; fcp: number | null;
  /** the app's start-up marks (src/ui/engine/startUp.ts), ms after navigation */
  marks: Record<string, number>;
  firstMessageAt: number | null;
  savedSnapshotAt: number | null;
}

const probe = (page: Page) => page.evaluate(() => (window as unknown as { __probe: ProbeData }).__probe);

/** Waits until the floor shows live data and nothing drawn changed for SETTLED_MS. */
async function settled(page: Page, sawCache: boolean): Promise<ProbeData> {
  const t0 = Date.now();
  for (;;) {
    if (Date.now() - t0 > 60_000) throw new Error('the floor did not settle within a minute');
    await page.waitForTimeout(250);
    const { frames, now } = await page.evaluate(() => ({ frames: (window as unknown as { __probe: ProbeData }).__probe.frames, now: performance.now() }));
    const last = frames[frames.length - 1];
    if (!last || last.fromCache !== false || last.count === 0 || now - last.at < SETTLED_MS) continue;
    if (sawCache && !frames.some((f) => f.fromCache === true)) throw new Error('the reopen did not show saved data first');
    return probe(page);
  }
}

async function cold(server: StoreyServer, profile: string, keep: boolean): Promise<ColdRun> {
  const context = await launchProfile(profile);
  try {
    await context.addInitScript({ content: FLOOR_PROBE_SCRIPT });
    const page = context.pages()[0] ?? await context.newPage();
    page.on('pageerror', (error) => console.error(`[cold] page error: ${error.message}`));
    await page.goto(server.url);
    const { email, password } = server.seed.accounts.regular;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const data = await settled(page, false);
    const final = data.frames[data.frames.length - 1]!;
    const drawn = firstFrame(data.frames, (f) => f.fromCache === false && f.count === final.count)!;
    if (data.submitAt === null) throw new Error('no sign-in submit seen');
    if (keep) await page.waitForTimeout(WRITE_WAIT_MS);
    return {
      ms: drawn.at - data.submitAt,
      assets: final.count,
      tasks: tasksIn(data, data.submitAt, Infinity).map((t) => t.duration),
      fcp: data.fcp,
    };
  } finally {
    await context.close();
  }
}

async function warm(server: StoreyServer, profile: string): Promise<WarmRun> {
  const context = await launchProfile(profile);
  try {
    await context.addInitScript({ content: FLOOR_PROBE_SCRIPT });
    const page = context.pages()[0] ?? await context.newPage();
    page.on('pageerror', (error) => console.error(`[warm] page error: ${error.message}`));
    await page.goto(server.url, { waitUntil: 'commit' });
    const data = await settled(page, true);
    const cachedFrames = data.frames.filter((f) => f.fromCache === true);
    const savedCount = Math.max(...cachedFrames.map((f) => f.count));
    const saved = firstFrame(data.frames, (f) => f.fromCache === true && f.count === savedCount)!;
    const final = data.frames[data.frames.length - 1]!;
    const live = firstFrame(data.frames, (f) => f.at > saved.at && f.fromCache === false && f.count === final.count)!;
    const marks = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])));
    await page.waitForTimeout(WRITE_WAIT_MS);
    return {
      savedMs: saved.at,
      liveMs: live.at,
      assets: savedCount,
      savedTasks: tasksIn(data, 0, saved.at).map((t) => t.duration),
      swapTasks: tasksIn(data, saved.at, Infinity).map((t) => t.duration),
      fcp: data.fcp,
      marks,
      firstMessageAt: data.firstMessageAt,
      savedSnapshotAt: data.savedSnapshotAt,
    };
  } finally {
    await context.close();
  }
}

/** The start-up marks' medians over the warm runs, in the order they came ('-' for one no run set). */
function startMarks(warms: WarmRun[]): string {
  const names = [...new Set(warms.flatMap((w) => Object.keys(w.marks)))];
  const medians = names.map((n) => [n, median(warms.map((w) => w.marks[n]).filter((v): v is number => v !== undefined))] as const);
  return medians.sort((a, b) => a[1] - b[1]).map(([n, v]) => `${n} ${fmt(v)}`).join(', ') || '-';
}

const worst = (lists: number[][]) => Math.max(0, ...lists.flat());
const over = (lists: number[][]) => median(lists.map((l) => l.filter((d) => d > LONG_TASK_LIMIT_MS).length));

async function main(): Promise<void> {
  const dist = mkdtempSync(join(tmpdir(), 'storey-bench-app-'));
  const profiles: string[] = [];
  await buildApp(dist);
  const server = await startStoreyServer({
    host: '127.0.0.1', port: 0, transport: 'pusher', simulate: false, staticDir: dist,
    seed: { seed: 1, desks: 10_000, sensors: 20_000, historyDays: 1 },
  });
  try {
    const colds: ColdRun[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      const profile = mkdtempSync(join(tmpdir(), 'storey-bench-profile-'));
      profiles.push(profile);
      colds.push(await cold(server, profile, i === COLD_RUNS - 1));
    }
    const warms: WarmRun[] = [];
    for (let i = 0; i < WARM_RUNS; i++) warms.push(await warm(server, profiles[profiles.length - 1]!));

    const coldMs = median(colds.map((c) => c.ms));
    const savedMs = median(warms.map((w) => w.savedMs));
    const liveMs = median(warms.map((w) => w.liveMs));
    const assets = `${fmt(colds[colds.length - 1]!.assets)} assets drawn`;
    const coldWorst = worst(colds.map((c) => c.tasks));
    const swapWorst = worst(warms.map((w) => w.swapTasks));
    const savedWorst = worst(warms.map((w) => w.savedTasks));
    const rows: BenchRow[] = [
      {
        bench: 'reopen', case: 'cold: sign-in submit → floor drawn', size: assets, value: coldMs, unit: 'ms',
        baseline: null, baselineLabel: '', ratio: null, target: 'baseline', pass: null,
      },
      {
        bench: 'reopen', case: 'warm: navigation → saved floor drawn', size: assets, value: savedMs, unit: 'ms',
        baseline: null, baselineLabel: '', ratio: null, target: `≤ ${TARGET_WARM_MS} ms`, pass: savedMs <= TARGET_WARM_MS,
      },
      {
        bench: 'reopen', case: 'warm speed-up over cold', size: '10k desks, 20k sensors', value: coldMs / savedMs, unit: '×',
        baseline: coldMs, baselineLabel: 'ms cold', ratio: coldMs / savedMs, target: `≥ ${TARGET_SPEEDUP}×`, pass: coldMs / savedMs >= TARGET_SPEEDUP,
      },
      {
        bench: 'reopen', case: 'warm: navigation → live data drawn', size: assets, value: liveMs, unit: 'ms',
        baseline: savedMs, baselineLabel: 'ms saved', ratio: liveMs / savedMs, target: 'report', pass: null,
      },
      {
        bench: 'reopen', case: 'cold load: longest main-thread task', size: `${COLD_RUNS} runs`, value: coldWorst, unit: 'ms',
        baseline: null, baselineLabel: '', ratio: null, target: `none > ${LONG_TASK_LIMIT_MS} ms`, pass: coldWorst <= LONG_TASK_LIMIT_MS,
      },
      {
        bench: 'reopen', case: 'warm: longest task until saved floor drawn', size: `${WARM_RUNS} runs`, value: savedWorst, unit: 'ms',
        baseline: null, baselineLabel: '', ratio: null, target: 'report', pass: null,
      },
      {
        bench: 'reopen', case: 'saved → live swap: longest main-thread task', size: `${WARM_RUNS} runs`, value: swapWorst, unit: 'ms',
        baseline: null, baselineLabel: '', ratio: null, target: `none > ${LONG_TASK_LIMIT_MS} ms`, pass: swapWorst <= LONG_TASK_LIMIT_MS,
      },
    ];
    const list = (xs: number[]) => xs.map((x) => fmt(x)).join(', ');
    publish('Reopen in Chromium: the built app, real IndexedDB, the 10k-desk server', rows, [
      `cold runs ${list(colds.map((c) => c.ms))} ms (fresh profiles); warm runs: saved ${list(warms.map((w) => w.savedMs))} ms, live ${list(warms.map((w) => w.liveMs))} ms (medians above)`,
      `long tasks > ${LONG_TASK_LIMIT_MS} ms per run (median): cold ${fmt(over(colds.map((c) => c.tasks)))}, warm before the saved floor ${fmt(over(warms.map((w) => w.savedTasks)))}, swap ${fmt(over(warms.map((w) => w.swapTasks)))}`,
      `long tasks of the swap, every warm run: ${warms.map((w) => `[${list(w.swapTasks)}]`).join(' ')}`,
      `warm start-up, median ms after navigation: first contentful paint ${fmt(median(warms.map((w) => w.fcp ?? NaN)))}, `
        + `the worker's first view message ${fmt(median(warms.map((w) => w.firstMessageAt ?? NaN)))}, `
        + `the saved floor's snapshot in the page ${fmt(median(warms.map((w) => w.savedSnapshotAt ?? NaN)))}; ${startMarks(warms)}; saved floor drawn ${fmt(savedMs)}`,
      `first contentful paint: cold ${list(colds.map((c) => c.fcp ?? NaN))} ms, warm ${list(warms.map((w) => w.fcp ?? NaN))} ms after navigation`,
      'drawn = the frame after the one whose DOM held every asset node of the settled floor (so painting is included); swap = everything after the saved floor was drawn until the floor settled',
    ]);
  } finally {
    await server.close();
    for (const p of profiles) rmSync(p, { recursive: true, force: true });
    rmSync(dist, { recursive: true, force: true });
  }
}

await main();
