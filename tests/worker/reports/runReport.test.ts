import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../../server/clock.js';
import { createPublisher } from '../../../server/live/publisher.js';
import { seedDemo } from '../../../server/seed/demo.js';
import { pageMeasurements } from '../../../server/store/measurementPages.js';
import { createStore } from '../../../server/store/store.js';
import { addDaysToKey, calendarDays, dateKeyOf } from '../../../src/shared/reports/calendar.js';
import { createDeskAggregator } from '../../../src/shared/reports/deskReport.js';
import type { DeskRow } from '../../../src/shared/reports/types.js';
import type { MeasurementsQuery, MeasurementsResponse } from '../../../src/shared/rest.js';
import { LATE_READINGS_FINAL_MS, LATE_READINGS_MS, REPORT_UNREACHABLE, runReport, type PageCache } from '../../../src/worker/reports/runReport.js';
import { createIdbPageCache, createMemoryPageCache } from '../../../src/worker/storage/idbPageCache.js';

const NOW = Date.UTC(2025, 3, 9, 9, 0, 0);

function setup() {
  const store = createStore(createManualClock(NOW), createPublisher());
  const seed = seedDemo(store, { seed: 5, now: NOW, desks: 300, employees: 2, historyDays: 7 });
  const locationId = seed.locationIds[0]!;
  const tz = store.locations.get(locationId)!.timezone;
  const desks = [...store.assets.values()].filter((a) => a.location_id === locationId && a.subtype === 'desk')
    .map((a) => ({ id: a.id, name: a.name, floorId: a.parent_id, sensorId: a.data_provider_refs.occupancy ?? null }));
  const today = dateKeyOf(NOW, tz);
  const ctx = { timeZone: tz, hourStart: 7, hourEnd: 18, cleanDeskPolicy: 120, now: NOW, period: { from: addDaysToKey(today, -6), to: addDaysToKey(today, -1) } };
  let inFlight = 0;
  let maxInFlight = 0;
  let calls = 0;
  const fetchPage = async (type: string, q: MeasurementsQuery): Promise<MeasurementsResponse> => {
    calls += 1;
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((r) => setTimeout(r, 1));
    inFlight -= 1;
    return pageMeasurements(store, locationId, type, {
      start: q.start ?? 0, end: q.end ?? NOW, limit: q.limit ?? 20_000, sensorIds: (q.sensor_id as string[] | undefined) ?? null, ignorePreviousValidity: !!q.ignore_previous_validity,
    });
  };
  return { store, ctx, desks, fetchPage, stats: () => ({ calls, maxInFlight }) };
}

const run = (s: ReturnType<typeof setup>, cache: PageCache | null, extra: Partial<Parameters<typeof runReport>[0]> = {}) => {
  const aggregator = createDeskAggregator(s.ctx, s.desks);
  const warnings: string[] = [];
  const progress = runReport({
    aggregator, days: calendarDays(s.ctx.period.from, s.ctx.period.to, s.ctx.timeZone), fetchPage: s.fetchPage,
    cacheKey: (type, day, filter) => `loc|${type}|${day.key}|${filter}`, cache, now: () => performance.now(),
    signal: { cancelled: false }, onProgress: () => undefined, onWarning: (m) => warnings.push(m), concurrency: 3, ...extra,
  });
  return { aggregator, progress, warnings };
};

describe('runReport', () => {
  it('pages every day with at most the given number of requests in flight and aggregates them', async () => {
    const s = setup();
    const { aggregator, progress } = run(s, null);
    const p = await progress;
    expect(p.state).toBe('done');
    expect(s.stats().maxInFlight).toBeLessThanOrEqual(3);
    expect(s.stats().maxInFlight).toBeGreaterThan(1);
    expect(p.rows).toBeGreaterThan(20_000);
    const rows = aggregator.result().rows as DeskRow[];
    expect(rows.filter((r) => r.class === 'in_use').length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.class === 'unused').length).toBeGreaterThan(0);
  });

  it('reads the pages of closed days from the cache the second time, with the same result', async () => {
    const s = setup();
    const cache = createMemoryPageCache();
    const first = run(s, cache);
    await first.progress;
    const callsAfterFirst = s.stats().calls;
    const second = run(s, cache);
    const p = await second.progress;
    expect(s.stats().calls).toBe(callsAfterFirst);
    expect(p.pagesFromCache).toBe(p.pagesLoaded);
    expect(second.aggregator.result().rows).toEqual(first.aggregator.result().rows);
  });

  it('keeps each closed day as one page with one sensor table, counted as the pages it was sent as', async () => {
    const s = setup();
    const cache = createMemoryPageCache();
    // small pages, so every day comes in several
    const fetchPage = (type: string, q: MeasurementsQuery) => s.fetchPage(type, { ...q, limit: 1_000 });
    const first = run(s, cache, { fetchPage });
    const p1 = await first.progress;
    const days = calendarDays(s.ctx.period.from, s.ctx.period.to, s.ctx.timeZone);
    let sent = 0;
    for (const day of days) {
      const kept = (await cache.get(`loc|occupancy|${day.key}|*`))!;
      expect(kept).toHaveLength(1);
      expect(new Set(kept[0]!.sensors).size).toBe(kept[0]!.sensors.length);
      expect(kept[0]!.pagesAsSent).toBeGreaterThan(1);
      sent += kept[0]!.pagesAsSent!;
    }
    expect(sent).toBe(p1.pagesLoaded);
    const second = run(s, cache, { fetchPage });
    const p2 = await second.progress;
    expect([p2.pagesLoaded, p2.pagesFromCache, p2.rows]).toEqual([p1.pagesLoaded, p1.pagesLoaded, p1.rows]);
    expect(second.aggregator.result()).toEqual(first.aggregator.result());
  });

  it('stops asking for pages once cancelled', async () => {
    const s = setup();
    const signal = { cancelled: false };
    const { progress } = run(s, null, { signal, concurrency: 1, onProgress: (p) => { if (p.pagesLoaded >= 1) signal.cancelled = true; } });
    const p = await progress;
    expect(p.state).toBe('cancelled');
    expect(s.stats().calls).toBe(1);
  });

  it('leaves out rows of the location\'s other sensors quietly when it reads the whole type', async () => {
    const s = setup();
    const others = [...s.store.sensors.values()].filter((x) => x.type === 'occupancy').map((x) => x.id);
    const { progress, warnings } = run(s, null, { locationSensors: () => new Set(others) });
    const p = await progress;
    expect(p.state).toBe('done');
    expect(p.skipped.unknownSensor).toBe(0);
    expect(warnings).toEqual([]);
  });

  it('skips bad rows, counts them and warns once', async () => {
    const s = setup();
    const fetchPage = async (type: string, q: MeasurementsQuery) => {
      const page = await s.fetchPage(type, q);
      return { ...page, rows: [...page.rows, [page.rows.at(-1)?.[0] ?? 0, '999999', 1, 1, 1], ['x'], [Number.MAX_SAFE_INTEGER, page.rows[0]?.[1] ?? '1', 1, 'busy', 1]] };
    };
    const { progress, warnings } = run(s, null, { fetchPage });
    const p = await progress;
    expect(p.state).toBe('done');
    expect(p.skipped.unknownSensor).toBeGreaterThan(0);
    expect(p.skipped.columnCount).toBeGreaterThan(0);
    expect(p.skipped.nonNumeric).toBeGreaterThan(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Skipped \d+ bad measurement rows: /);
  });

  it('ends in error with words a person understands when the server cannot be reached or refuses', async () => {
    const s = setup();
    const unreachable = await run(s, null, { fetchPage: () => Promise.reject(new TypeError('Failed to fetch')) }).progress;
    expect(unreachable).toMatchObject({ state: 'error', message: REPORT_UNREACHABLE });
    expect(REPORT_UNREACHABLE).toBe('The server could not be reached (offline?).');
    const refused = await run(s, null, { fetchPage: () => Promise.reject(Object.assign(new Error('HTTP 503'), { status: 503 })) }).progress;
    expect(refused).toMatchObject({ state: 'error', message: 'The server answered 503.' });
  });

  describe('late readings of a closed day', () => {
    const H = 3_600_000;
    it("reads a day kept while late readings may still come from the server once more after LATE_READINGS_MS, with what came late", async () => {
      const s = setup();
      let now = NOW;
      const cache = createMemoryPageCache(() => now);
      const days = calendarDays(s.ctx.period.from, s.ctx.period.to, s.ctx.timeZone);
      const yesterday = days.at(-1)!;
      const first = await run(s, cache, { now: () => now }).progress;
      // a reading of yesterday morning reaches the server late (a gateway that kept it)
      const sensorId = s.desks.find((d) => d.sensorId)!.sensorId!;
      s.store.addMeasurement(sensorId, { time: yesterday.start + 10 * H + 7, valid_for: H, value: 1 });
      // still provisional: the kept pages answer, without it
      const second = await run(s, cache, { now: () => now }).progress;
      expect(second.rows).toBe(first.rows);
      expect(second.pagesFromCache).toBe(second.pagesLoaded);
      // past its provisional time: read from the server once more, the late reading with it
      now = yesterday.end + LATE_READINGS_MS;
      const third = await run(s, cache, { now: () => now }).progress;
      expect(third.rows).toBe(first.rows + 1);
      expect(third.pagesFromCache).toBeLessThan(third.pagesLoaded);
      expect(third.pagesFromCache).toBeGreaterThan(0);
      // read once more after a week (kept within it), then kept as final
      let calls = s.stats().calls;
      now += 30 * 86_400_000;
      const fourth = await run(s, cache, { now: () => now }).progress;
      expect(fourth.rows).toBe(third.rows);
      expect(s.stats().calls).toBeGreaterThan(calls);
      calls = s.stats().calls;
      const fifth = await run(s, cache, { now: () => now + 365 * 86_400_000 }).progress;
      expect(fifth.rows).toBe(third.rows);
      expect(fifth.pagesFromCache).toBe(fifth.pagesLoaded);
      expect(s.stats().calls).toBe(calls);
    });

    it('reads a day kept after three days once more after a week, with a reading that reached the server five days late while the app was closed (IndexedDB)', async () => {
      const s = setup();
      const days = calendarDays(s.ctx.period.from, s.ctx.period.to, s.ctx.timeZone);
      const [oldest, day] = [days[0]!, days.at(-1)!];
      // the app opened four days after the day ended: the old rule kept the day as final then
      let now = day.end + 4 * 24 * H;
      const idb = () => createIdbPageCache({ name: 'late-week', userId: () => 'u1', now: () => now });
      const cache = idb();
      const first = await run(s, cache, { now: () => now }).progress;
      expect(first.pagesFromCache).toBe(0);
      await cache.close();
      // the app closed: a gateway offline since then sends a reading of the day (five days late) and one
      // of the oldest day, whose week was over when it was kept
      const sensorId = s.desks.find((d) => d.sensorId)!.sensorId!;
      s.store.addMeasurement(sensorId, { time: day.start + 10 * H + 7, valid_for: H, value: 1 });
      s.store.addMeasurement(sensorId, { time: oldest.start + 10 * H + 7, valid_for: H, value: 1 });
      const asked: number[] = [];
      const fetchPage = (type: string, q: MeasurementsQuery) => { asked.push(q.start!); return s.fetchPage(type, q); };
      // opened again within its week: its kept pages answer (the two days before it, kept within their
      // week which has passed since, are read once more)
      now = day.end + 6 * 24 * H;
      const reopened = await run(s, idb(), { now: () => now, fetchPage }).progress;
      expect(reopened.rows).toBe(first.rows);
      expect(asked.filter((t) => t >= day.start)).toEqual([]);
      expect(new Set(asked.map((t) => days.findIndex((d) => t >= d.start && t < d.end)))).toEqual(new Set([days.length - 3, days.length - 2]));
      // opened after its week: that day alone is read once more, the late reading with it; the oldest day,
      // kept after its week had passed, stays as it was kept (its late reading is seen only if it comes live)
      asked.length = 0;
      now = day.end + LATE_READINGS_FINAL_MS + H;
      const after = await run(s, idb(), { now: () => now, fetchPage }).progress;
      expect(after.rows).toBe(first.rows + 1);
      expect(asked.length).toBeGreaterThan(0);
      expect(asked.every((t) => t >= day.start && t < day.end)).toBe(true);
      // and kept as final: a year later, nothing is asked
      asked.length = 0;
      now += 365 * 24 * H;
      const later = await run(s, idb(), { now: () => now, fetchPage }).progress;
      expect(later.rows).toBe(first.rows + 1);
      expect(asked).toEqual([]);
    });

    it('does not keep the pages of a day a late reading came for while it was read', async () => {
      const s = setup();
      const cache = createMemoryPageCache();
      const days = calendarDays(s.ctx.period.from, s.ctx.period.to, s.ctx.timeZone);
      const yesterday = days.at(-1)!;
      let counter = 0;
      const late = { seq: () => counter, since: (type: string, day: string, seq: number) => counter > seq && type === 'occupancy' && day === yesterday.key };
      // a late reading of yesterday is seen live while yesterday's pages are being read
      const fetchPage = async (type: string, q: MeasurementsQuery) => {
        const page = await s.fetchPage(type, q);
        if (q.start === yesterday.start) counter += 1;
        return page;
      };
      const p = await run(s, cache, { fetchPage, late }).progress;
      expect(p.state).toBe('done');
      expect(await cache.get(`loc|occupancy|${yesterday.key}|*`)).toBeNull();
      for (const day of days.slice(0, -1)) expect(await cache.get(`loc|occupancy|${day.key}|*`)).not.toBeNull();
    });
  });
});
