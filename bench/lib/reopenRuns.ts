// The reopen runs of bench/reopen.ts and bench/reopenCompare.ts: a cold
// sign-in on a fresh Chromium profile, and a warm reopen relaunching Chromium
// on that profile, each watched by the floor probe until the floor shows live
// data and settles.

import type { BrowserContext, Page } from 'playwright-core';
import type { StoreyServer } from '../../server/app.js';
import { launchProfile } from './browser.js';
import { describeTasks, firstFrame, FLOOR_PROBE_SCRIPT, tasksIn, type ProbeData } from './floorProbe.js';
import { fmt, median } from './report.js';

/** the 10,000-desk location of the reopen benches (docs/server.md: --desks 10000 --sensors 20000 --no-sim) */
export const REOPEN_SEED = { seed: 1, desks: 10_000, sensors: 20_000, historyDays: 1 };
export const LONG_TASK_LIMIT_MS = 50;
/** the floor counts as settled when nothing drawn changed for this long */
const SETTLED_MS = 1_500;
/** after a load, time for the throttled cache write (a full rewrite of the location) to land before Chromium closes */
const WRITE_WAIT_MS = 6_000;

export interface ColdRun {
  ms: number; assets: number; tasks: number[]; fcp: number | null;
  /** what ran in each long task (floorProbe.ts describeTasks) */
  taskDetail: string[];
}
export interface WarmRun {
  savedMs: number; liveMs: number; assets: number; savedTasks: number[]; swapTasks: number[]; fcp: number | null;
  /** what ran in each of the swap's long tasks (floorProbe.ts describeTasks) */
  swapDetail: string[];
  /** the app's start-up marks (src/ui/engine/startUp.ts), ms after navigation */
  marks: Record<string, number>;
  firstMessageAt: number | null;
  savedSnapshotAt: number | null;
}

/**
 * A user's network instead of loopback, when asked: `STOREY_BENCH_LINK_MBIT`
 * (download and upload, Mbit/s) and `STOREY_BENCH_LINK_RTT_MS` (added round
 * trip) through Chromium's network emulation, which covers the page and its
 * dedicated worker's fetches. Bytes are counted as they cross the wire, so a
 * compressed answer takes less of the link (docs/bench.md "REST compressed").
 */
export const LINK = process.env.STOREY_BENCH_LINK_MBIT
  ? { mbit: Number(process.env.STOREY_BENCH_LINK_MBIT), rttMs: Number(process.env.STOREY_BENCH_LINK_RTT_MS ?? 20) }
  : null;

async function emulateLink(context: BrowserContext, page: Page): Promise<void> {
  if (!LINK) return;
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const bytesPerS = (LINK.mbit * 1e6) / 8;
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: LINK.rttMs, downloadThroughput: bytesPerS, uploadThroughput: bytesPerS });
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

export async function cold(server: StoreyServer, profile: string, keep: boolean): Promise<ColdRun> {
  const context = await launchProfile(profile);
  try {
    await context.addInitScript({ content: FLOOR_PROBE_SCRIPT });
    const page = context.pages()[0] ?? await context.newPage();
    page.on('pageerror', (error) => console.error(`[cold] page error: ${error.message}`));
    await emulateLink(context, page);
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
    const tasks = tasksIn(data, data.submitAt, Infinity);
    return {
      ms: drawn.at - data.submitAt,
      assets: final.count,
      tasks: tasks.map((t) => t.duration),
      fcp: data.fcp,
      taskDetail: describeTasks(data, tasks.filter((t) => t.duration > LONG_TASK_LIMIT_MS)),
    };
  } finally {
    await context.close();
  }
}

export async function warm(server: StoreyServer, profile: string): Promise<WarmRun> {
  const context = await launchProfile(profile);
  try {
    await context.addInitScript({ content: FLOOR_PROBE_SCRIPT });
    const page = context.pages()[0] ?? await context.newPage();
    page.on('pageerror', (error) => console.error(`[warm] page error: ${error.message}`));
    await emulateLink(context, page);
    await page.goto(server.url, { waitUntil: 'commit' });
    const data = await settled(page, true);
    const cachedFrames = data.frames.filter((f) => f.fromCache === true);
    const savedCount = Math.max(...cachedFrames.map((f) => f.count));
    const saved = firstFrame(data.frames, (f) => f.fromCache === true && f.count === savedCount)!;
    const final = data.frames[data.frames.length - 1]!;
    const live = firstFrame(data.frames, (f) => f.at > saved.at && f.fromCache === false && f.count === final.count)!;
    const marks = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])));
    await page.waitForTimeout(WRITE_WAIT_MS);
    const swap = tasksIn(data, saved.at, Infinity);
    return {
      savedMs: saved.at,
      liveMs: live.at,
      assets: savedCount,
      savedTasks: tasksIn(data, 0, saved.at).map((t) => t.duration),
      swapTasks: swap.map((t) => t.duration),
      swapDetail: describeTasks(data, swap.filter((t) => t.duration > LONG_TASK_LIMIT_MS)),
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
export function startMarks(warms: WarmRun[]): string {
  const names = [...new Set(warms.flatMap((w) => Object.keys(w.marks)))];
  const medians = names.map((n) => [n, median(warms.map((w) => w.marks[n]).filter((v): v is number => v !== undefined))] as const);
  return medians.sort((a, b) => a[1] - b[1]).map(([n, v]) => `${n} ${fmt(v)}`).join(', ') || '-';
}

