import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SELF_KEY, type SessionView } from '../../src/shared/api.js';
import { addDaysToKey, calendarDay, dateKeyOf, wallToEpoch } from '../../src/shared/reports/calendar.js';
import type { ReportMeta, ReportRequest, ReportRow } from '../../src/shared/reports/types.js';
import { createEngine, type Engine } from '../../src/worker/engine.js';
import { systemClock } from '../../src/worker/systemClock.js';
import { createIdbPageCache } from '../../src/worker/storage/idbPageCache.js';
import { createIdbStorage } from '../../src/worker/storage/idbStorage.js';
import { createTransport } from '../../src/worker/transports/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collect, createTestLogger } from '../worker/engine/harness.js';

// A reading that reaches the server days late while the app is closed
// (docs/reports.md "Late readings and the kept days"): the engine against the
// reference server, its closed days kept in IndexedDB (fake-indexeddb) by a
// first opening three days ago. Reopened now, a day kept within a week of its
// end whose week has passed is read from the server once more, with the late
// reading; a day kept after its week stays as kept, and nothing is asked twice.

const WAIT = { timeout: 60_000, interval: 50 };
const DAY_MS = 86_400_000;

describe('late readings that reach the server while the app is closed', () => {
  let t: TestServer;
  let locationId: string;
  let timeZone: string;
  const engines: Engine[] = [];
  /** the local days whose measurement pages each engine asked the server for */
  const asked = new Map<Engine, string[]>();

  async function openEngine(db: string, savedAt: () => number): Promise<Engine> {
    const days: string[] = [];
    const engine = createEngine({
      clock: systemClock,
      fetch: (input, init) => {
        const url = new URL(String(input instanceof Request ? input.url : input));
        if (url.pathname.includes('/measurements/')) days.push(dateKeyOf(Number(url.searchParams.get('start')), timeZone));
        return globalThis.fetch(input, init);
      },
      transportFactory: createTransport,
      storage: createIdbStorage({ name: `${db}-entities` }), logger: createTestLogger(),
      // when the pages are noted as kept: the first opening's "three days ago"
      pageCache: (user) => createIdbPageCache({ name: `${db}-pages`, userId: user, now: savedAt }),
    });
    engines.push(engine);
    asked.set(engine, days);
    await engine.init({ host: t.url });
    const session = await collect<SessionView>(engine, { view: 'session' });
    const account = t.accounts.regular;
    expect((await engine.signIn(account.email, account.password)).ok).toBe(true);
    expect((await engine.selectOrganization(account.organizationId)).ok).toBe(true);
    await vi.waitFor(() => { expect(session.entries.get(SELF_KEY)!.locations.length).toBeGreaterThan(0); }, WAIT);
    expect((await engine.selectLocation(locationId)).ok).toBe(true);
    return engine;
  }

  async function finished(engine: Engine, request: ReportRequest) {
    const view = await collect<ReportRow, ReportMeta>(engine, { view: 'report', report: request });
    await vi.waitFor(() => { expect(view.meta?.progress.state).not.toBe('loading'); }, WAIT);
    expect(view.meta!.progress.state).toBe('done');
    return view.meta!.progress;
  }

  beforeAll(async () => {
    t = await startTestServer({ seed: { historyDays: 13 } });
    locationId = t.server.seed.locationIds[0]!;
    timeZone = t.server.store.locations.get(locationId)!.timezone;
  });
  afterAll(async () => {
    for (const e of engines) await e.dispose();
    await t?.close();
  });

  it('reads a day kept within its week once more after it, with what came late; a day kept after its week stays as kept', async () => {
    const today = dateKeyOf(Date.now(), timeZone);
    const day = (k: number) => addDaysToKey(today, -k);
    // twelve to nine days ago; kept three days ago, days 12 and 11 were past their week (final), 10 and 9 within it
    const request: ReportRequest = { kind: 'desk', scope: { kind: 'location' }, period: { from: day(12), to: day(9) } };
    const first = await openEngine('late-closed', () => Date.now() - 3 * DAY_MS);
    const before = await finished(first, request);
    expect(new Set(asked.get(first))).toEqual(new Set([day(12), day(11), day(10), day(9)]));
    // the app closed
    await first.dispose();

    // meanwhile a gateway offline since those days sends what it kept: a desk's reading of nine days ago at
    // 10:00, and one of twelve days ago
    const desk = [...t.server.store.assets.values()].find((a) => a.location_id === locationId && a.subtype === 'desk' && !a.unpublished && a.data_provider_refs.occupancy)!;
    for (const k of [9, 12]) {
      t.server.store.addMeasurement(desk.data_provider_refs.occupancy!, { time: wallToEpoch(calendarDay(day(k), timeZone), 10), valid_for: 3_600_000, value: 1 });
    }

    // opened again: the days kept within their week are read once more, the late reading of nine days ago with them
    const second = await openEngine('late-closed', () => Date.now());
    const after = await finished(second, request);
    expect(after.rows).toBe(before.rows + 1);
    expect(new Set(asked.get(second))).toEqual(new Set([day(10), day(9)]));
    expect(after.pagesFromCache).toBeGreaterThan(0);
    await second.dispose();

    // and kept as final: the next opening asks the server nothing
    const third = await openEngine('late-closed', () => Date.now());
    const again = await finished(third, request);
    expect(again.rows).toBe(before.rows + 1);
    expect(asked.get(third)).toEqual([]);
    expect(again.pagesFromCache).toBe(again.pagesLoaded);
  });
});
