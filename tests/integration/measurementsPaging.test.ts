import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEASUREMENT_PAGE_LIMIT } from '../../src/shared/constants.js';
import type { LoadProgress } from '../../src/shared/api.js';
import { createRestClient } from '../../src/worker/rest/restClient.js';
import { pageMeasurements } from '../../server/store/measurementPages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// The worker's paging (spec §7: limit 20000, advance start past the last time
// while has_more_results) against the real reference server over loopback,
// on a history large enough to need many pages.

describe('measurements paging against the reference server', () => {
  let t: TestServer;
  let token: string;
  let org: string;
  let loc: string;
  beforeAll(async () => {
    t = await startTestServer({ seed: { desks: 900, employees: 4, historyDays: 4 } });
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
});
