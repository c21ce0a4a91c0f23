// Reports, a breakdown in Node (bench/reports.ts is the target, in Chromium):
// a week's desk report of the 10,000-desk location over loopback through the
// worker's report runner (paging, checks, streaming aggregation, IndexedDB
// page cache) against a ceiling measured in the same run: fetch + JSON.parse
// of the same pages with the same concurrency and no aggregation. Then the
// second opening, served from IndexedDB. The server runs in its own process
// so it does not share this one's event loop. IndexedDB here is
// fake-indexeddb (pure JS): the cached side is pessimistic. No targets.

import 'fake-indexeddb/auto';
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import pLimit from 'p-limit';
import { addDaysToKey, calendarDays, dateKeyOf } from '../src/shared/reports/calendar.js';
import { createDeskAggregator } from '../src/shared/reports/deskReport.js';
import type { MeasurementsQuery, MeasurementsResponse, WireAsset, WireLocation, WireOrganization } from '../src/shared/rest.js';
import { stringifyQuery } from '../src/shared/query.js';
import { REPORT_FETCH_CONCURRENCY, runReport } from '../src/worker/reports/runReport.js';
import { createIdbPageCache } from '../src/worker/storage/idbPageCache.js';
import { fmt, publish, type BenchRow } from './lib/report.js';

const ROOT = resolve(import.meta.dirname, '..');
const DAYS = 7;

async function startServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', '--port', '0', '--desks', '10000', '--sensors', '20000',
    '--no-sim', '--history-days', String(DAYS + 1), '--employees', '24'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((done, fail) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const m = /on (http:\/\/[\d.]+:\d+)/.exec(text);
      if (m) done(m[1]!);
    });
    child.on('exit', (code) => fail(new Error(`server exited with ${code}`)));
  });
  return { url, child };
}

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const heapMb = () => process.memoryUsage().heapUsed / 1e6;

async function main(): Promise<void> {
  const { url, child } = await startServer();
  try {
    const login = await fetch(`${url}/v1/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=regular%40storey.test&password=regular-password' });
    const { token } = await login.json() as { token: string };
    const auth = { authorization: `Bearer ${token}` };
    const get = async <T>(path: string): Promise<T> => (await fetch(`${url}/v1${path}`, { headers: auth })).json() as Promise<T>;
    const org = (await get<WireOrganization[]>('/organizations'))[0]!;
    const location = (await get<WireLocation[]>(`/organizations/${org.id}/locations`))[0]!;
    const assets = await get<WireAsset[]>(`/organizations/${org.id}/locations/${location.id}/assets`);
    const sensors = await get<Array<{ id: string; type: string }>>(`/organizations/${org.id}/locations/${location.id}/sensors`);
    const occupancySensors = new Set(sensors.filter((x) => x.type === 'occupancy').map((x) => x.id));
    const desks = assets.filter((a) => a.subtype === 'desk').map((a) => ({ id: a.id, name: a.name, floorId: a.parent_id, sensorId: a.data_provider_refs.occupancy ?? null }));
    const today = dateKeyOf(Date.now(), location.timezone);
    const period = { from: addDaysToKey(today, -DAYS), to: addDaysToKey(today, -1) };
    const days = calendarDays(period.from, period.to, location.timezone);
    const ctx = { timeZone: location.timezone, hourStart: 7, hourEnd: 18, cleanDeskPolicy: 120, now: Date.now(), period };
    const pagePath = (type: string, q: MeasurementsQuery) => `${url}/v1/organizations/${org.id}/locations/${location.id}/measurements/${type}?${stringifyQuery({ ...q })}`;
    const fetchPage = async (type: string, q: MeasurementsQuery) => (await fetch(pagePath(type, q), { headers: auth })).json() as Promise<MeasurementsResponse>;

    /** the ceiling: the same pages, fetched and parsed, nothing else */
    async function ceiling(): Promise<{ rows: number; ms: number }> {
      const t0 = performance.now();
      let rows = 0;
      const limit = pLimit(REPORT_FETCH_CONCURRENCY);
      await Promise.all(days.map((day) => limit(async () => {
        let start = day.start;
        let first = true;
        for (;;) {
          const page = await fetchPage('occupancy', { start, end: day.end, limit: 20_000, ignore_previous_validity: first ? undefined : true });
          rows += page.rows.length;
          first = false;
          if (!page.has_more_results) break;
          start = (page.rows.at(-1)![0] as number) + 1;
        }
      })));
      return { rows, ms: performance.now() - t0 };
    }

    const cache = createIdbPageCache({ name: 'bench-reports', userId: () => 'bench', now: () => Date.now() });
    async function report(useCache: boolean, period2 = days): Promise<{ rows: number; ms: number; fromCache: number; pages: number; peakMb: number; result: unknown }> {
      gc();
      const base = heapMb();
      let peak = 0;
      const aggregator = createDeskAggregator({ ...ctx, period: { from: period2[0]!.key, to: period2.at(-1)!.key } }, desks);
      const t0 = performance.now();
      const p = await runReport({
        aggregator, days: period2, fetchPage, cache: useCache ? cache : null,
        cacheKey: (type, day, filter) => `${location.id}|${type}|${day.key}|${filter}`, now: () => performance.now(),
        signal: { cancelled: false }, onWarning: (m) => console.warn(m), locationSensors: () => occupancySensors,
        onProgress: () => { peak = Math.max(peak, heapMb() - base); },
      });
      const ms = performance.now() - t0;
      const result = aggregator.result();
      return { rows: p.rows, ms, fromCache: p.pagesFromCache, pages: p.pagesLoaded, peakMb: peak, result };
    }

    console.log(`desk report: ${desks.length} desks, ${days.length} days (${period.from} … ${period.to}), ${location.timezone}`);
    await ceiling(); // warms the server's day cache, so both sides meet the same server
    const ceil = await ceiling();
    const cold = await report(true);
    const warm = await report(true);
    const twoDays = await report(false, days.slice(0, 2));
    const weekNoCache = await report(false);
    await cache.close();
    gc();

    const rate = (r: { rows: number; ms: number }) => (r.rows / r.ms) * 1000;
    const rows: BenchRow[] = [
      { bench: 'reportsNode', case: 'ceiling: fetch + JSON.parse', size: `${fmt(ceil.rows)} rows`, value: rate(ceil), unit: 'rows/s', baseline: null, baselineLabel: '', ratio: null, target: 'baseline', pass: null },
      {
        bench: 'reportsNode', case: 'desk report, first opening', size: `${fmt(cold.rows)} rows, ${cold.pages} pages`, value: rate(cold), unit: 'rows/s',
        baseline: rate(ceil), baselineLabel: 'rows/s', ratio: rate(cold) / rate(ceil), target: 'report', pass: null,
      },
      {
        bench: 'reportsNode', case: 'second opening (IndexedDB)', size: `${cold.pages} pages, ${warm.fromCache} cached`, value: warm.ms, unit: 'ms',
        baseline: cold.ms, baselineLabel: 'ms first', ratio: cold.ms / warm.ms, target: 'report', pass: null,
      },
      { bench: 'reportsNode', case: 'peak heap growth, 2 days', size: `${fmt(twoDays.rows)} rows`, value: twoDays.peakMb, unit: 'MB', baseline: null, baselineLabel: '', ratio: null, target: 'reported', pass: null },
      {
        bench: 'reportsNode', case: 'peak heap growth, 7 days', size: `${fmt(weekNoCache.rows)} rows`, value: weekNoCache.peakMb, unit: 'MB',
        baseline: twoDays.peakMb, baselineLabel: 'MB for 2 days', ratio: weekNoCache.peakMb / Math.max(1, twoDays.peakMb),
        target: 'report', pass: null,
      },
    ];
    publish('Reports in Node (breakdown): a week\'s desk report of 10,000 desks', rows, [
      `rows ratio 7 days / 2 days: ${fmt(weekNoCache.rows / twoDays.rows)}×; the first opening also writes each closed day to IndexedDB`,
      `results equal between first and second opening: ${JSON.stringify(cold.result) === JSON.stringify(warm.result)}`,
    ]);
  } finally {
    child.kill('SIGTERM');
  }
}

await main();
