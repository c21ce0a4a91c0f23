import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SELF_KEY, type SessionView } from '../../src/shared/api.js';
import { addDaysToKey, calendarDay, dateKeyOf, wallToEpoch } from '../../src/shared/reports/calendar.js';
import type { DeskRow, EnvironmentRow, ReportMeta, ReportRequest, ReportRow, RoomRow } from '../../src/shared/reports/types.js';
import { createEngine, type Engine } from '../../src/worker/engine.js';
import { REPORT_WAITING } from '../../src/shared/reports/types.js';
import { systemClock } from '../../src/worker/systemClock.js';
import { createIdbPageCache } from '../../src/worker/storage/idbPageCache.js';
import { createIdbStorage } from '../../src/worker/storage/idbStorage.js';
import { createTransport } from '../../src/worker/transports/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collect, createTestLogger } from '../worker/engine/harness.js';

// Reports as the worker runs them: the engine against the reference server,
// a report view that pages the measurements, aggregates, and keeps closed
// days in IndexedDB for the next opening; the role gate of spec §6.

const WAIT = { timeout: 60_000, interval: 50 };

describe('report views against the reference server', () => {
  let t: TestServer;
  let locationId: string;
  let timeZone: string;
  const engines: Engine[] = [];

  async function openEngine(who: 'regular' | 'edit', db: string, fetch: typeof globalThis.fetch = (i, init) => globalThis.fetch(i, init), beforeSignIn?: (engine: Engine) => Promise<void>): Promise<Engine> {
    const engine = createEngine({
      clock: systemClock, fetch, transportFactory: createTransport,
      storage: createIdbStorage({ name: `${db}-entities` }), logger: createTestLogger(),
      pageCache: (user) => createIdbPageCache({ name: `${db}-pages`, userId: user, now: () => Date.now() }),
    });
    engines.push(engine);
    await engine.init({ host: t.url });
    await beforeSignIn?.(engine);
    const session = await collect<SessionView>(engine, { view: 'session' });
    expect((await engine.signIn(t.accounts[who].email, t.accounts[who].password)).ok).toBe(true);
    expect((await engine.selectOrganization(t.accounts[who].organizationId)).ok).toBe(true);
    await vi.waitFor(() => { expect(session.entries.get(SELF_KEY)!.locations.length).toBeGreaterThan(0); }, WAIT);
    locationId = t.server.seed.locationIds[0]!;
    timeZone = t.server.store.locations.get(locationId)!.timezone;
    expect((await engine.selectLocation(locationId)).ok).toBe(true);
    return engine;
  }

  /** The instant of a wall hour of a local day of the location. */
  const wallTime = (day: string, hour: number) => wallToEpoch(calendarDay(day, timeZone), hour);

  const lastDays = (days: number): ReportRequest['period'] => {
    const today = dateKeyOf(Date.now(), timeZone);
    return { from: addDaysToKey(today, -days), to: addDaysToKey(today, -1) };
  };

  /**
   * The last working day (Monday to Friday) before today in the location's zone: weekends have no working hours,
   * so a report of only a Saturday and a Sunday (the last two days, on a Monday) has no data for any desk
   */
  const lastWorkingDay = (): string => {
    let day = addDaysToKey(dateKeyOf(Date.now(), timeZone), -1);
    while ([0, 6].includes(new Date(`${day}T12:00:00Z`).getUTCDay())) day = addDaysToKey(day, -1);
    return day;
  };

  async function finished(engine: Engine, request: ReportRequest) {
    const view = await collect<ReportRow, ReportMeta>(engine, { view: 'report', report: request });
    await vi.waitFor(() => { expect(view.meta?.progress.state).not.toBe('loading'); }, WAIT);
    return view;
  }

  beforeAll(async () => {
    t = await startTestServer({ seed: { historyDays: 5 } });
  });
  afterAll(async () => {
    for (const e of engines) await e.dispose();
    await t?.close();
  });

  it('computes a desk report in the worker with progress, then serves the closed days from IndexedDB the second time', async () => {
    const engine = await openEngine('regular', 'reports-a');
    const request: ReportRequest = { kind: 'desk', scope: { kind: 'location' }, period: lastDays(4) };
    const view = await finished(engine, request);
    const meta = view.meta!;
    expect(meta.progress).toMatchObject({ state: 'done', pagesFromCache: 0, message: null });
    expect(meta.progress.pagesLoaded).toBeGreaterThanOrEqual(4);
    expect(meta.progress.rows).toBeGreaterThan(1000);
    // progress is shown while it loads: in the first message or a later patch, however fast the machine
    expect(view.messages.some((m) => m.type !== 'snapshotPart' && m.meta?.progress.state === 'loading')).toBe(true);
    const desks = [...view.entries.values()] as DeskRow[];
    const seededDesks = [...t.server.store.assets.values()].filter((a) => a.location_id === locationId && a.subtype === 'desk' && !a.unpublished);
    expect(desks).toHaveLength(seededDesks.length);
    expect(desks.every((d) => d.kind === 'desk' && d.class !== 'no_data')).toBe(true);
    expect(meta.summary!.totals.find((x) => x.label === 'Mean utilisation')!.value).toMatch(/^\d+ %$/);

    // a new engine over the same IndexedDB (a reload) opens the same report from the page cache
    const again = await openEngine('regular', 'reports-a');
    const second = await finished(again, request);
    expect(second.meta!.progress.pagesFromCache).toBe(second.meta!.progress.pagesLoaded);
    expect([...second.entries.values()]).toEqual(desks);
  });

  it('classifies the bookings of every room', async () => {
    const engine = engines[0]!;
    const view = await finished(engine, { kind: 'room', scope: { kind: 'location' }, period: lastDays(4) });
    const rooms = [...view.entries.values()] as RoomRow[];
    expect(rooms.length).toBeGreaterThan(0);
    const total = rooms.reduce((s, r) => s + r.bookings, 0);
    expect(total).toBeGreaterThan(0);
    expect(rooms.every((r) => r.hasOccupancySensor && r.items.length === r.bookings)).toBe(true);
  });

  it('ranks rooms by their air and counts people per floor', async () => {
    const engine = engines[0]!;
    const env = await finished(engine, { kind: 'environment', scope: { kind: 'location' }, period: lastDays(4) });
    expect(env.meta!.progress.message).toBeNull();
    expect(env.meta!.progress.state).toBe('done');
    const rows = [...env.entries.values()] as EnvironmentRow[];
    expect(rows.some((r) => r.type === 'co2' && r.groupKind === 'room' && r.mean !== null)).toBe(true);
    const loc = await finished(engine, { kind: 'location', scope: { kind: 'location' }, period: lastDays(4) });
    expect(loc.meta!.progress.message).toBeNull();
    expect(loc.meta!.progress.state).toBe('done');
    expect([...loc.entries.values()].length).toBeGreaterThan(0);
  });

  it('runs a cancelled report again in place: the open view follows the new run to the end', async () => {
    const engine = engines[0]!;
    const request: ReportRequest = { kind: 'location', scope: { kind: 'location' }, period: lastDays(3) };
    const view = await collect<ReportRow, ReportMeta>(engine, { view: 'report', report: request });
    await engine.cancelReport(request);
    await vi.waitFor(() => { expect(view.meta?.progress.state).toBe('cancelled'); }, WAIT);
    expect(view.entries.size).toBe(0);
    await engine.rerunReport(request);
    await vi.waitFor(() => { expect(view.meta?.progress.state).toBe('done'); }, WAIT);
    expect(view.meta!.progress.rows).toBeGreaterThan(0);
    expect(view.entries.size).toBeGreaterThan(0);
    // a finished report is not run again
    const messages = view.messages.length;
    await engine.rerunReport(request);
    await new Promise((r) => setTimeout(r, 200));
    expect(view.messages.length).toBe(messages);
  });

  it("reads yesterday again, with a reading that reached the server late, once that reading came live", async () => {
    const engine = await openEngine('regular', 'reports-late');
    const yesterday = lastDays(1);
    const request: ReportRequest = { kind: 'desk', scope: { kind: 'location' }, period: yesterday };
    const first = await finished(engine, request);
    expect(first.meta!.progress.state).toBe('done');
    const before = first.meta!.progress.rows;
    await engine.unsubscribe(first.id);
    // a desk's reading of yesterday 10:00 reaches the server now (a gateway that kept it): the server keeps
    // it in yesterday's history and sends it live
    const desk = [...t.server.store.assets.values()].find((a) => a.location_id === locationId && a.subtype === 'desk' && !a.unpublished && a.data_provider_refs.occupancy)!;
    const start = wallTime(yesterday.to, 10);
    t.server.store.addMeasurement(desk.data_provider_refs.occupancy!, { time: start, valid_for: 3_600_000, value: 1 });
    // reopened in the same app: run again, the late reading in it
    await vi.waitFor(async () => {
      const again = await finished(engine, request);
      await engine.unsubscribe(again.id);
      expect(again.meta!.progress.rows).toBe(before + 1);
    }, WAIT);
    // and in the app opened again (a reload): the day kept anew, with it
    const reloaded = await finished(await openEngine('regular', 'reports-late'), request);
    expect(reloaded.meta!.progress).toMatchObject({ state: 'done', rows: before + 1 });
  });

  it('stops paging a report once its last view closes', async () => {
    // measurement requests wait at a gate, so the test knows what is in flight when the views close
    let asked = 0;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => { open = resolve; });
    const engine = await openEngine('regular', 'reports-c', async (input, init) => {
      if (String(input).includes('/measurements/')) { asked += 1; await gate; }
      return globalThis.fetch(input, init);
    });
    const request: ReportRequest = { kind: 'desk', scope: { kind: 'location' }, period: lastDays(10) };
    const view = await collect<ReportRow, ReportMeta>(engine, { view: 'report', report: request });
    const other = await collect<ReportRow, ReportMeta>(engine, { view: 'report', report: request });
    await vi.waitFor(() => { expect(asked).toBe(4); }, WAIT);
    await engine.unsubscribe(other.id);
    await engine.unsubscribe(view.id);
    open();
    await new Promise((r) => setTimeout(r, 500));
    // the 4 days in flight finished their page; none of the other 6 days was asked for
    expect(asked).toBe(4);
    // a new view starts it again and sees it through
    const reopened = await finished(engine, request);
    expect(reopened.meta!.progress.state).toBe('done');
    expect(asked).toBeGreaterThanOrEqual(10);
  });

  it('waits for the location before it computes a report opened before sign-in (a shared link)', async () => {
    let early: Awaited<ReturnType<typeof collect<ReportRow, ReportMeta>>> | null = null;
    await openEngine('regular', 'reports-d', undefined, async (engine) => {
      early = await collect<ReportRow, ReportMeta>(engine, { view: 'report', report: { kind: 'desk', scope: { kind: 'location' }, period: lastDays(4) } });
      await vi.waitFor(() => { expect(early!.meta?.progress).toMatchObject({ state: 'loading', message: REPORT_WAITING }); }, WAIT);
    });
    expect(REPORT_WAITING).toBe('Waiting for the location to load…');
    await vi.waitFor(() => { expect(early!.meta?.progress.state).toBe('done'); }, WAIT);
    expect(early!.meta!.progress.rows).toBeGreaterThan(0);
    const desks = [...early!.entries.values()] as DeskRow[];
    expect(desks.length).toBeGreaterThan(0);
    expect(desks.some((d) => d.class !== 'no_data')).toBe(true);
  });

  it('reports a desk whose sensor an unpublished desk shares as the public desk’s, naming nothing of the unpublished one', async () => {
    const edit = await t.signIn('edit');
    const org = t.accounts.edit.organizationId;
    const s = t.server.store;
    locationId = t.server.seed.locationIds[0]!;
    timeZone = s.locations.get(locationId)!.timezone;
    const desk = [...s.assets.values()].find((a) => a.location_id === locationId && a.subtype === 'desk' && s.isAssetPublic(a) && a.data_providers.length === 1)!;
    const sensorId = desk.data_providers[0]!;
    const assetIdBefore = s.sensors.get(sensorId)!.asset_id;
    const made = await t.api(`/organizations/${org}/locations/${locationId}/assets`, {
      method: 'POST', token: edit,
      json: { type: 'shape', subtype: 'desk', name: 'Unpublished twin', parent_id: desk.parent_id, x: 1, y: 1, unpublished: true, data_providers: [sensorId] },
    });
    expect(made.status).toBe(201);
    const twin = (await made.json()) as { id: string };
    const sensorPath = `/organizations/${org}/locations/${locationId}/sensors/${sensorId}`;
    expect((await t.api(sensorPath, { method: 'PATCH', token: edit, json: { asset_id: twin.id } })).status).toBe(200);

    // the public desk was used on the last working day (an hour of its morning), whatever the seed's history holds
    // for it, so its row has data to be the public desk's
    const day = lastWorkingDay();
    s.addMeasurement(sensorId, { time: wallTime(day, 10), valid_for: 3_600_000, value: 1 });
    s.addMeasurement(sensorId, { time: wallTime(day, 11), valid_for: 3_600_000, value: 0 });
    const request: ReportRequest = { kind: 'desk', scope: { kind: 'location' }, period: { from: day, to: day } };
    const rowsOf = async (who: 'regular' | 'edit') => [...(await finished(await openEngine(who, `reports-shared-${who}`), request)).entries.values()] as DeskRow[];
    const regular = await rowsOf('regular');
    const mine = regular.find((r) => r.id === desk.id)!;
    expect(mine.class, 'the public desk has its readings').not.toBe('no_data');
    expect(mine.utilisation).not.toBeNull();
    expect(regular.some((r) => r.id === twin.id || r.name === 'Unpublished twin'), 'the unpublished desk in a regular user’s report').toBe(false);
    // the same numbers the edit role gets for that desk
    expect((await rowsOf('edit')).find((r) => r.id === desk.id)).toEqual(mine);

    expect((await t.api(sensorPath, { method: 'PATCH', token: edit, json: { asset_id: assetIdBefore } })).status).toBe(200);
    expect((await t.api(`/organizations/${org}/locations/${locationId}/assets/${twin.id}`, { method: 'DELETE', token: edit })).status).toBe(204);
  });

  it('refuses a report below the configured role with a message, and names a missing role', async () => {
    const edit = await t.signIn('edit');
    const org = t.accounts.edit.organizationId;
    const res = await t.api(`/organizations/${org}/locations/${locationId}`, { method: 'PATCH', token: edit, json: { config: { reportViewingRolesAtLeast: { desk: 'edit', room: 'nobody' } } } });
    expect(res.status).toBeLessThan(300);
    const engine = await openEngine('regular', 'reports-b');
    await vi.waitFor(() => { expect(t.server.store.locations.get(locationId)!.config).toBeTruthy(); }, WAIT);
    const desk = await finished(engine, { kind: 'desk', scope: { kind: 'location' }, period: lastDays(1) });
    expect(desk.meta!.progress).toMatchObject({ state: 'denied', message: 'This report needs the edit role.' });
    expect(desk.entries.size).toBe(0);
    const room = await finished(engine, { kind: 'room', scope: { kind: 'location' }, period: lastDays(1) });
    expect(room.meta!.progress).toMatchObject({ state: 'denied', message: 'No role' });
  });
});
