import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEASUREMENT_PAGE_LIMIT } from '../../src/shared/constants.js';
import type { LoadProgress } from '../../src/shared/api.js';
import { addDaysToKey, calendarDays, dateKeyOf } from '../../src/shared/reports/calendar.js';
import { createDeskAggregator } from '../../src/shared/reports/deskReport.js';
import { readPage } from '../../src/shared/reports/readings.js';
import { emptySkipped } from '../../src/shared/reports/types.js';
import { runReport } from '../../src/worker/reports/runReport.js';
import { createRestClient } from '../../src/worker/rest/restClient.js';
import { pageMeasurements } from '../../server/store/measurementPages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// The worker's paging (spec §7: limit 20000, advance start past the last time
// while has_more_results) against the real reference server over loopback,
// on a history large enough to need many pages: the REST client's pager, and
// the report runner's paging per local day, each against the server's truth.

describe('measurements paging against the reference server', () => {
  let t: TestServer;
  let token: string;
  let org: string;
  let loc: string;
  beforeAll(async () => {
    t = await startTestServer({ seed: { desks: 900, employees: 4, historyDays: 5 } });
    // the edit role pages every sensor (a regular user does not see those of unpublished desks, docs/security.md)
    token = await t.signIn('edit');
    org = t.accounts.edit.organizationId;
    loc = t.server.seed.locationIds[0]!;
  });
  afterAll(async () => { await t?.close(); });

  it(`reads every row of several days across pages of ${MEASUREMENT_PAGE_LIMIT}, in order, none lost or repeated`, async () => {
    const rest = createRestClient({ host: t.url, fetch: globalThis.fetch, token: () => token });
    const end = Date.now();
    const start = end - 4 * 86_400_000;
    const progress: LoadProgress[] = [];
    const paged = await rest.measurementsAll(org, loc, 'occupancy', { start, end, ignorePreviousValidity: true }, (p) => progress.push(p));
    const expected = pageMeasurements(t.server.store, loc, 'occupancy', { start, end, limit: 100_000_000, sensorIds: null, ignorePreviousValidity: true });
    expect(paged.pages).toBeGreaterThanOrEqual(5);
    expect(paged.rows.length).toBe(expected.rows.length);
    expect(paged.rows.length).toBeGreaterThan(4 * MEASUREMENT_PAGE_LIMIT);
    expect(paged.rows).toEqual(expected.rows);
    expect(progress.at(-1)).toEqual({ what: 'measurements:occupancy', done: paged.rows.length, total: paged.rows.length });
  });

  it(`computes a desk report from days of more than ${MEASUREMENT_PAGE_LIMIT} rows each exactly as from the whole days at once`, async () => {
    const rest = createRestClient({ host: t.url, fetch: globalThis.fetch, token: () => token });
    const timeZone = t.server.store.locations.get(loc)!.timezone;
    // the last working day before today and the day before it (history covers the 5 days before now)
    let workday = addDaysToKey(dateKeyOf(Date.now(), timeZone), -1);
    while (calendarDays(workday, workday, timeZone)[0]!.weekday > 5) workday = addDaysToKey(workday, -1);
    const ctx = { timeZone, hourStart: 7, hourEnd: 18, cleanDeskPolicy: 120, now: Date.now(), period: { from: addDaysToKey(workday, -1), to: workday } };
    const days = calendarDays(ctx.period.from, ctx.period.to, timeZone);
    const desks = [...t.server.store.assets.values()].filter((a) => a.location_id === loc && a.subtype === 'desk')
      .map((a) => ({ id: a.id, name: a.name, floorId: a.parent_id, sensorId: a.data_provider_refs.occupancy ?? null }));
    const occupancy = new Set([...t.server.store.sensors.values()].filter((s) => s.location_id === loc && s.type === 'occupancy').map((s) => s.id));
    const asked: Array<{ start: number; first: boolean }> = [];

    const paged = createDeskAggregator(ctx, desks);
    const progress = await runReport({
      aggregator: paged, days, cache: null, cacheKey: () => null, now: () => Date.now(), signal: { cancelled: false },
      onProgress: () => undefined, onWarning: (m) => { throw new Error(m); }, locationSensors: () => occupancy,
      fetchPage: (type, q) => { asked.push({ start: q.start!, first: !q.ignore_previous_validity }); return rest.measurements(org, loc, type, q); },
    });
    expect(progress.state).toBe('done');
    // more than one page per day: the §7 rules were followed inside each day
    for (const day of days) expect(asked.filter((a) => a.start >= day.start && a.start < day.end).length).toBeGreaterThan(1);
    expect(progress.pagesLoaded).toBe(asked.length);
    expect(asked.filter((a) => a.first).map((a) => a.start).sort()).toEqual(days.map((d) => d.start));
    expect(progress.rows).toBeGreaterThan(days.length * MEASUREMENT_PAGE_LIMIT);

    // the server's truth: each day in one unlimited page with its previous validity
    const whole = createDeskAggregator(ctx, desks);
    for (const day of days) {
      const page = pageMeasurements(t.server.store, loc, 'occupancy', { start: day.start, end: day.end, limit: 100_000_000, sensorIds: null, ignorePreviousValidity: false });
      const sink = whole.openDay('occupancy', day);
      sink.push(readPage(page.columns, page.rows, { known: whole.known('occupancy'), inLocation: occupancy, numeric: true, lastTime: -Infinity, skipped: emptySkipped() }));
      sink.finish();
    }
    const [a, b] = [paged.result(), whole.result()];
    expect(a.rows).toEqual(b.rows);
    expect(a.summary).toEqual(b.summary);
    expect(a.rows.filter((r) => r.kind === 'desk' && r.class !== 'no_data').length).toBeGreaterThan(desks.length / 2);
  });
});
