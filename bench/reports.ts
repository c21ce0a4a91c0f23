// Reports on the user's path (DESIGN §9, §10): the built app in real Chromium
// with real IndexedDB on a persistent profile, against the reference server
// with 10,000 desks (--desks 10000 --sensors 20000 --no-sim), signed in as the
// regular user. In the Reports panel the bench applies a custom period, as a
// person does, and reads the worker's own count of rows and time from the
// finished report:
//   ceiling        = the same pages fetched and JSON.parsed in a worker of the
//                    same page, with the same concurrency, nothing else
//   first opening  = the last 7 complete days' desk report: paging, checks,
//                    streaming aggregation, closed days written to IndexedDB
//   second opening = the same report after a reload (a new worker): read back
//                    from IndexedDB
//   heap           = the engine worker's JS heap (DevTools protocol), its peak
//                    growth over the report, for 2 days and for 7 days
// bench/reportsNode.ts keeps the Node + fake-indexeddb numbers as a breakdown.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startStoreyServer } from '../server/app.js';
import { addDaysToKey, calendarDays, dateKeyOf } from '../src/shared/reports/calendar.js';
import { REPORT_FETCH_CONCURRENCY } from '../src/worker/reports/runReport.js';
import { buildApp, CHROMIUM_ARGS, VIEWPORT } from './lib/browser.js';
import { fmt, publish, type BenchRow } from './lib/report.js';
import { watchWorkerHeap, type WorkerHeap } from './lib/workerHeap.js';

const DAYS = 7;
const SHORT_DAYS = 2;
const TARGET_RATIO = 0.5;
const TARGET_SPEEDUP = 5;
/** after the floor is drawn, time for the live location load and its cache write to finish before a report starts */
const SETTLE_MS = 5_000;

interface Opening { rows: number; pages: number; fromCache: number; ms: number; heapGrowth: number }

/** The page as the ceiling runs it: a worker of the same origin fetching and parsing the pages, nothing else. */
const CEILING_WORKER = `
onmessage = async ({ data: { base, token, days, concurrency, limit } }) => {
  const t0 = performance.now();
  let rows = 0;
  let next = 0;
  const run = async () => {
    while (next < days.length) {
      const day = days[next++];
      let start = day.start;
      let first = true;
      for (;;) {
        const q = new URLSearchParams({ start: String(start), end: String(day.end), limit: String(limit) });
        if (!first) q.set('ignore_previous_validity', 'true');
        const response = await fetch(base + '?' + q, { headers: { authorization: 'Bearer ' + token, accept: 'application/json' } });
        const page = JSON.parse(await response.text());
        rows += page.rows.length;
        first = false;
        if (!page.has_more_results || page.rows.length === 0) break;
        start = page.rows[page.rows.length - 1][0] + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, run));
  postMessage({ rows, ms: performance.now() - t0 });
};`;

async function ceiling(page: Page, input: { base: string; token: string; days: Array<{ start: number; end: number }> }): Promise<{ rows: number; ms: number }> {
  return page.evaluate(async ({ code, ...data }) => {
    const worker = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
    const result = await new Promise<{ rows: number; ms: number }>((done) => { worker.onmessage = (e) => done(e.data as { rows: number; ms: number }); worker.postMessage(data); });
    worker.terminate();
    return result;
  }, { code: CEILING_WORKER, ...input, concurrency: REPORT_FETCH_CONCURRENCY, limit: 20_000 });
}

/** Today's report finished (with or without readings so far) and the location's load had time to settle. */
async function settledReport(page: Page): Promise<void> {
  await page.locator('[data-testid="report-done"], [data-testid="report-empty"]').first().waitFor({ timeout: 120_000 }).catch(async (error: unknown) => {
    await page.screenshot({ path: join(tmpdir(), 'storey-bench-reports-failed.png') });
    throw error;
  });
  await page.waitForTimeout(SETTLE_MS);
}

/** Types a custom period into the Reports panel, applies it and waits for that report to finish. */
async function open(page: Page, heap: WorkerHeap, from: string, to: string): Promise<Opening> {
  await heap.gc();
  const base = await heap.used();
  await page.getByLabel('From', { exact: true }).fill(from);
  await page.getByLabel('To', { exact: true }).fill(to);
  const stop = heap.sample();
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.waitForFunction(([f, t]) => new URL(location.href).searchParams.get('report[from]') === f && new URL(location.href).searchParams.get('report[to]') === t, [from, to]);
  const done = page.getByTestId('report-done');
  await done.waitFor({ timeout: 15 * 60_000 });
  const peak = await stop();
  const n = async (name: string) => Number(await done.getAttribute(`data-${name}`));
  return { rows: await n('rows'), pages: await n('pages'), fromCache: await n('from-cache'), ms: await n('elapsed-ms'), heapGrowth: Math.max(0, peak - base) / 1e6 };
}

async function main(): Promise<void> {
  const dist = mkdtempSync(join(tmpdir(), 'storey-bench-app-'));
  const profile = mkdtempSync(join(tmpdir(), 'storey-bench-profile-'));
  await buildApp(dist);
  const server = await startStoreyServer({
    host: '127.0.0.1', port: 0, transport: 'pusher', simulate: false, staticDir: dist,
    seed: { seed: 1, desks: 10_000, sensors: 20_000, employees: 24, historyDays: DAYS + SHORT_DAYS + 1 },
  });
  let context: BrowserContext | null = null;
  let heap: WorkerHeap | null = null;
  try {
    const locationId = server.seed.locationIds[0]!;
    const timeZone = server.store.locations.get(locationId)!.timezone;
    const organizationId = server.store.locations.get(locationId)!.organization_id;
    const today = dateKeyOf(Date.now(), timeZone);
    const week = { from: addDaysToKey(today, -DAYS), to: addDaysToKey(today, -1) };
    const short = { from: addDaysToKey(today, -DAYS - SHORT_DAYS), to: addDaysToKey(today, -DAYS - 1) };
    const { email, password } = server.seed.accounts.regular;
    const login = await fetch(`${server.baseUrl}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email, password }) });
    const { token } = await login.json() as { token: string };

    context = await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', args: [...CHROMIUM_ARGS, '--remote-debugging-port=0'], viewport: VIEWPORT });
    const page = context.pages()[0] ?? await context.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    // the panel opens on today's report (never cached), so no day of the measured periods is read before its turn
    const start = `${server.url}/?report[kind]=desk&report[from]=${today}&report[to]=${today}`;
    await page.goto(start);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('application', { name: /Floor plan of/ }).waitFor({ timeout: 120_000 });
    if (await page.getByLabel('From', { exact: true }).inputValue() !== today) throw new Error('the Reports panel did not open on today\'s report');
    await settledReport(page);
    heap = await watchWorkerHeap(profile, server.url);

    const base = `${server.baseUrl}/organizations/${organizationId}/locations/${locationId}/measurements/occupancy`;
    const days = calendarDays(week.from, week.to, timeZone).map((d) => ({ start: d.start, end: d.end }));
    await ceiling(page, { base, token, days }); // warms the server's day cache, so both sides meet the same server
    const ceil = await ceiling(page, { base, token, days });

    const twoDays = await open(page, heap, short.from, short.to);
    const first = await open(page, heap, week.from, week.to);
    // a reload: a new worker with nothing in memory, the same IndexedDB
    await page.goto(start);
    await settledReport(page);
    const second = await open(page, heap, week.from, week.to);

    const rate = (r: { rows: number; ms: number }) => (r.rows / r.ms) * 1000;
    const rows: BenchRow[] = [
      { bench: 'reports', case: 'ceiling: fetch + JSON.parse in a worker', size: `${fmt(ceil.rows)} rows`, value: rate(ceil), unit: 'rows/s', baseline: null, baselineLabel: '', ratio: null, target: 'baseline', pass: null },
      {
        bench: 'reports', case: 'desk report, first opening', size: `${fmt(first.rows)} rows, ${first.pages} pages`, value: rate(first), unit: 'rows/s',
        baseline: rate(ceil), baselineLabel: 'rows/s', ratio: rate(first) / rate(ceil), target: `≥ ${TARGET_RATIO}× ceiling`, pass: rate(first) / rate(ceil) >= TARGET_RATIO,
      },
      {
        bench: 'reports', case: 'second opening (IndexedDB, after a reload)', size: `${second.pages} pages, ${second.fromCache} saved`, value: second.ms, unit: 'ms',
        baseline: first.ms, baselineLabel: 'ms first', ratio: first.ms / second.ms, target: `≥ ${TARGET_SPEEDUP}× faster`,
        pass: first.ms / second.ms >= TARGET_SPEEDUP && second.fromCache === second.pages,
      },
      { bench: 'reports', case: `worker heap growth, ${SHORT_DAYS} days`, size: `${fmt(twoDays.rows)} rows`, value: twoDays.heapGrowth, unit: 'MB', baseline: null, baselineLabel: '', ratio: null, target: 'reported', pass: null },
      {
        bench: 'reports', case: `worker heap growth, ${DAYS} days`, size: `${fmt(first.rows)} rows`, value: first.heapGrowth, unit: 'MB',
        baseline: twoDays.heapGrowth, baselineLabel: `MB for ${SHORT_DAYS} days`, ratio: first.heapGrowth / Math.max(1, twoDays.heapGrowth),
        target: '< rows ratio', pass: first.heapGrowth / Math.max(1, twoDays.heapGrowth) < first.rows / twoDays.rows,
      },
    ];
    publish('Reports in Chromium: a week\'s desk report of 10,000 desks, real IndexedDB (DESIGN §9)', rows, [
      `periods: ${week.from} … ${week.to} (${DAYS} days), heap comparison ${short.from} … ${short.to}; ${timeZone}`,
      `rows ratio ${DAYS} days / ${SHORT_DAYS} days: ${fmt(first.rows / twoDays.rows)}×; report times are the worker's own (run start → done), the ceiling's its worker's`,
      `first opening ${fmt(first.ms)} ms, second ${fmt(second.ms)} ms; same rows both times: ${first.rows === second.rows}`,
    ]);
  } finally {
    heap?.close();
    await context?.close();
    await server.close();
    rmSync(profile, { recursive: true, force: true });
    rmSync(dist, { recursive: true, force: true });
  }
}

await main();
