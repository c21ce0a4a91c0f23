import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SELF_KEY, type ConnectionView, type DrawState, type StructureEntry } from '../../../src/shared/api.js';
import { MSG } from '../../../src/shared/messages.js';
import { addDaysToKey, dateKeyOf } from '../../../src/shared/reports/calendar.js';
import { REPORT_WAITING, REPORT_WAITING_OFFLINE, type ReportMeta, type ReportRow } from '../../../src/shared/reports/types.js';
import { SUPERSEDED } from '../../../src/worker/session/createSession.js';
import { createIdbStorage } from '../../../src/worker/storage/idbStorage.js';
import { STORAGE_WARNINGS, type StoragePort } from '../../../src/worker/storage/storagePort.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { collect } from '../../worker/engine/harness.js';
import { createScenario, reconnect, signInLive, type Scenario } from './setup.js';

// Issue 11 §3 against the reference server: the cache is never a dead end,
// never another user's data, never stale navigation. Real IndexedDB code on
// fake-indexeddb; each scenario ends on the oracle.

let test: TestServer;
const open: Scenario[] = [];
let dbCount = 0;
beforeAll(async () => { test = await startTestServer(); });
afterAll(async () => { await test?.close(); });
afterEach(async () => { for (const s of open.splice(0)) await s.dispose(); });

const WAIT = { timeout: 10_000, interval: 20 };

async function scenario(storage: StoragePort): Promise<Scenario> {
  const s = await createScenario(test, { storage });
  open.push(s);
  return s;
}

/** A storage whose location reads wait until released (a slow disk). */
function gatedReads(storage: StoragePort) {
  let gate: Promise<void> | null = null;
  let release = () => undefined as void;
  const waiting: string[] = [];
  /** reads that waited at the gate and have finished since */
  const finished: string[] = [];
  const load = storage.loadLocation.bind(storage);
  storage.loadLocation = async (key, warn) => {
    if (!gate) return load(key, warn);
    waiting.push(key.locationId);
    await gate;
    try { return await load(key, warn); } finally { finished.push(key.locationId); }
  };
  return {
    hold() { gate = new Promise<void>((r) => { release = r; }); },
    release() { gate = null; release(); },
    waiting,
    finished,
  };
}

async function visitAndLeave(name: string, who: 'regular' | 'edit') {
  const first = await scenario(createIdbStorage({ name }));
  await signInLive(first, test.accounts[who]);
  await first.settle();
  await first.raw.internals.persister.flush();
  const userId = first.raw.internals.session()!.state().ctx.userId!;
  const locationId = first.raw.internals.session()!.state().ctx.locationId!;
  await first.dispose();
  open.splice(open.indexOf(first), 1);
  return { userId, locationId };
}

type Records = Array<{ key: IDBValidKey; value: unknown }>;
type Corrupt = (records: Records, meta: Record<string, unknown>) => { records?: Records; meta?: Record<string, unknown> };
const first = (value: unknown): Corrupt => (records) => ({ records: [{ key: records[0]!.key, value }] });
/** The corruptions of issue 11 §3, each on the cache a real visit wrote. */
const CORRUPTIONS: Array<[string, Corrupt, string]> = [
  ['a record truncated mid-JSON', (records) => ({ records: [{ key: records[0]!.key, value: String(records[0]!.value).slice(0, 100) }] }), STORAGE_WARNINGS.UNREADABLE_DROPPED],
  ['a record that is a number', first(42), STORAGE_WARNINGS.UNREADABLE_DROPPED],
  ['a record that is JSON null', first('null'), STORAGE_WARNINGS.UNREADABLE_DROPPED],
  ['an object without its delta', first('{"changes":[]}'), STORAGE_WARNINGS.UNREADABLE_DROPPED],
  ['an unknown collection', first(JSON.stringify([{ collection: 'widgets', id: 'w1', value: { id: 'w1' } }])), STORAGE_WARNINGS.UNREADABLE_DROPPED],
  ['a numeric id', first(JSON.stringify([{ collection: 'assets', id: 7, value: { id: 7 } }])), STORAGE_WARNINGS.UNREADABLE_DROPPED],
  ['meta without streams', (_, meta) => ({ meta: { ...meta, streams: undefined } }), STORAGE_WARNINGS.UNREADABLE_DROPPED],
  ['a string savedAt', (_, meta) => ({ meta: { ...meta, savedAt: 'yesterday' } }), STORAGE_WARNINGS.UNREADABLE_DROPPED],
  ['an older schema\'s meta', (_, meta) => ({ meta: { ...meta, schema: 1 } }), STORAGE_WARNINGS.SCHEMA_DROPPED],
];

/** Rewrites the saved location of `userId` at `locationId` in the database `name`. */
async function rewriteCache(name: string, userId: string, locationId: string, corrupt: Corrupt) {
  const db = await openDB(name);
  const range = IDBKeyRange.bound([userId, locationId], [userId, locationId, []]);
  const keys = await db.getAllKeys('records', range);
  const values = await db.getAll('records', range);
  expect(keys.length).toBeGreaterThan(0);
  const meta = await db.get('meta', [userId, locationId]);
  const changed = corrupt(keys.map((key, i) => ({ key, value: values[i] })), meta);
  for (const r of changed.records ?? []) await db.put('records', r.value, r.key);
  if (changed.meta) await db.put('meta', changed.meta, [userId, locationId]);
  db.close();
}

describe('a cache that cannot be used', () => {
  it.each(CORRUPTIONS)('drops %s with the warning, then loads the location live', async (_, corrupt, warning) => {
    const name = `storey-rel-cache-${++dbCount}`;
    const { userId, locationId } = await visitAndLeave(name, 'regular');
    await rewriteCache(name, userId, locationId, corrupt);
    const s = await scenario(createIdbStorage({ name }));
    expect(await s.engine.resume()).toBe(true);
    await s.settle();
    expect(s.raw.internals.store.locationId).toBe(locationId);
    expect(s.posted()).toContain(warning);
  });

  it('serves cached assets reduced to {id} and buildings whose floors is not a list through the normalizers, then loads live', async () => {
    const name = `storey-rel-cache-${++dbCount}`;
    const { userId, locationId } = await visitAndLeave(name, 'regular');
    const assets = new Set<string>();
    let buildings = 0;
    type Change = { collection: string; id: string; value: unknown };
    const reduce = (c: Change): Change => {
      if (c.collection === 'assets' && c.value) { assets.add(c.id); return { ...c, value: { id: c.id } }; }
      if (c.collection === 'buildings' && c.value) { buildings += 1; return { ...c, value: { ...(c.value as object), floors: 'all of them' } }; }
      return c;
    };
    await rewriteCache(name, userId, locationId, (records) => ({
      records: records.map(({ key, value }) => {
        // a base record is a list of changes, a delta record {delta: [...]}
        const body = JSON.parse(String(value)) as Change[] | { delta: Change[] };
        return { key, value: JSON.stringify(Array.isArray(body) ? body.map(reduce) : { delta: body.delta.map(reduce) }) };
      }),
    }));
    expect(assets.size).toBeGreaterThan(0);
    expect(buildings).toBeGreaterThan(0);
    const s = await scenario(createIdbStorage({ name }));
    const structure = await collect<StructureEntry>(s.raw, { view: 'structure' });
    // the live load of the assets waits (then times out), so what the store holds meanwhile is the cache's
    s.faults.add({ path: /\/assets$/, action: { kind: 'hang' } });
    expect(await s.engine.resume()).toBe(true);
    const store = s.raw.internals.store;
    // the first floor comes at once; the others once another floor is opened (else they wait for live data
    // a while, REST_OTHER_FLOORS_MS); all while the live load hangs
    for (const floorId of store.floors.keys()) void s.raw.subscribe({ view: 'floor', floorId, layers: ['desks'] }, () => undefined);
    await vi.waitFor(() => { expect([...store.assets.values()].filter((a) => !a.local).length).toBe(assets.size); }, WAIT);
    // the live load of the assets is under way and hangs: what the store holds is still the cache's
    await vi.waitFor(() => { expect(s.faults.hanging()).toBe(1); }, WAIT);
    const cached = [...store.assets.values()].filter((a) => !a.local);
    expect(cached.every((a) => Array.isArray(a.data_providers) && Number.isFinite(a.x) && typeof a.name === 'string')).toBe(true);
    expect([...store.buildings.values()].every((b) => Array.isArray(b.floors))).toBe(true);
    await s.settle();
    s.raw.internals.hub.flush();
    expect(structure.entries.size).toBeGreaterThan(0);
    expect(s.posted()).not.toContain(STORAGE_WARNINGS.UNREADABLE_DROPPED);
  });

  it('keeps working when every cache write fails (quota), and the next start loads live', async () => {
    const name = `storey-rel-cache-${++dbCount}`;
    const storage = createIdbStorage({ name });
    storage.write = async () => { throw new DOMException('The quota has been exceeded.', 'QuotaExceededError'); };
    const s = await scenario(storage);
    await signInLive(s, test.accounts.regular);
    s.raw.internals.persister.requestFull();
    await s.raw.internals.persister.flush().catch(() => undefined);
    await vi.waitFor(() => { expect(s.posted()).toContain(STORAGE_WARNINGS.WRITE_FAILED); }, WAIT);
    await s.settle();
    await s.dispose();
    open.splice(open.indexOf(s), 1);

    const next = await scenario(createIdbStorage({ name }));
    const connection = await collect<ConnectionView>(next.raw, { view: 'connection' });
    expect(await next.engine.resume()).toBe(true);
    await next.settle();
    next.raw.internals.hub.flush();
    expect(connection.entries.get(SELF_KEY)).toMatchObject({ state: 'connected', fromCache: false });
  });

  it('resumes without any saved location by loading live, and says it is not from the cache', async () => {
    const name = `storey-rel-cache-${++dbCount}`;
    const { userId } = await visitAndLeave(name, 'regular');
    // the location records were evicted (or never written inside the 1 s throttle); the session stayed
    const db = await openDB(name);
    await db.delete('meta', IDBKeyRange.bound([userId], [userId, []]));
    await db.delete('records', IDBKeyRange.bound([userId], [userId, []]));
    db.close();
    const s = await scenario(createIdbStorage({ name }));
    const connection = await collect<ConnectionView>(s.raw, { view: 'connection' });
    expect(await s.engine.resume()).toBe(true);
    await s.settle();
    s.raw.internals.hub.flush();
    expect(connection.entries.get(SELF_KEY)).toMatchObject({ state: 'connected', fromCache: false });
    expect(s.logger.warnings).not.toContain(MSG.NO_SOURCE_SUBSCRIPTION);
  });
});

describe('reports on a reopen before live data', () => {
  /** the room report of a floor over the week before today, as the room popup asks for it */
  const roomReport = (floorId: string) => {
    const today = dateKeyOf(Date.now(), 'UTC');
    return { view: 'report' as const, report: { kind: 'room' as const, scope: { kind: 'floor' as const, id: floorId }, period: { from: addDaysToKey(today, -7), to: addDaysToKey(today, -1) } } };
  };

  /**
   * A regular user's visit saved, then a reopen with `fault` on the network:
   * the saved floors are in the store and the room report of the first is open.
   */
  async function reopenWithReport(fault: Parameters<Scenario['faults']['add']>[0]) {
    const name = `storey-rel-cache-${++dbCount}`;
    await visitAndLeave(name, 'regular');
    const s = await scenario(createIdbStorage({ name }));
    s.faults.add(fault);
    expect(await s.engine.resume()).toBe(true);
    const store = s.raw.internals.store;
    await vi.waitFor(() => { expect(store.floors.size).toBeGreaterThan(0); }, WAIT);
    const report = await collect<ReportRow, ReportMeta>(s.raw, roomReport([...store.floors.keys()][0]!));
    return { s, report };
  }
  /** the network is down: every request fails at once */
  const NETWORK_DOWN = { path: /./, action: { kind: 'fail' as const }, times: Number.POSITIVE_INFINITY };

  it('says a report waits for the connection while the server cannot be reached, and runs it once the server is back', async () => {
    const { s, report } = await reopenWithReport(NETWORK_DOWN);
    await vi.waitFor(() => { expect(report.meta?.progress).toMatchObject({ state: 'loading', message: REPORT_WAITING_OFFLINE }); }, WAIT);
    expect(REPORT_WAITING_OFFLINE).toBe('Reports need the connection to the server: this one starts once it is back.');
    // the server is reachable again: the engine's retry loads the location live, and the report runs
    await s.settle();
    await vi.waitFor(() => { expect(report.meta?.progress.state).toBe('done'); }, WAIT);
    expect(report.entries.size).toBeGreaterThan(0);
  });

  it('says only that it waits while the live load is under way (an online reopen), not that the server is gone', async () => {
    const { s, report } = await reopenWithReport({ path: /\/assets$/, action: { kind: 'hang' } });
    await vi.waitFor(() => { expect(s.faults.hanging()).toBe(1); }, WAIT);
    s.raw.internals.hub.flush();
    expect(report.meta?.progress).toMatchObject({ state: 'loading', message: REPORT_WAITING });
    await s.settle();
    await vi.waitFor(() => { expect(report.meta?.progress.state).toBe('done'); }, WAIT);
  });

  it('runs again, once the connection is back, a report that failed when the network dropped (a room popup\'s bookings)', async () => {
    const s = await scenario(createIdbStorage({ name: `storey-rel-cache-${++dbCount}` }));
    await signInLive(s, test.accounts.regular);
    const store = s.raw.internals.store;
    // the network drops while the popup asks for the room's bookings
    s.faults.add({ path: /\/measurements\//, action: { kind: 'fail' }, times: Number.POSITIVE_INFINITY });
    const report = await collect<ReportRow, ReportMeta>(s.raw, roomReport([...store.floors.keys()][0]!));
    await vi.waitFor(() => { expect(report.meta?.progress.state).toBe('error'); }, WAIT);
    // back: the reconnect reloads the location, and the popup's report is read again without a click
    s.faults.clear();
    await reconnect(s);
    await vi.waitFor(() => { expect(report.meta?.progress.state).toBe('done'); }, WAIT);
    expect(report.entries.size).toBeGreaterThan(0);
  });

  it('refuses at once, without a wait, a report the role gate refuses', async () => {
    // the location's configuration asks for the edit role to see room reports; the saved location keeps it
    const { locationId } = await visitAndLeave(`storey-rel-cache-${++dbCount}`, 'regular');
    const edit = await test.signIn('edit');
    const locationPath = `/organizations/${test.accounts.edit.organizationId}/locations/${locationId}`;
    const gate = (room: string) => test.api(locationPath, { method: 'PATCH', token: edit, json: { config: { reportViewingRolesAtLeast: { room } } } });
    expect((await gate('edit')).status).toBeLessThan(300);
    try {
      const { report } = await reopenWithReport(NETWORK_DOWN);
      // once the reports' code is there (it loads on first use), not after a wait for live data that cannot come
      await vi.waitFor(() => { expect(report.meta?.progress).toMatchObject({ state: 'denied', message: 'This report needs the edit role.' }); }, WAIT);
    } finally {
      expect((await gate('regular')).status).toBeLessThan(300);
    }
  });
});

describe('never another user\'s data', () => {
  it('signs out while the saved location is read; the next user holds nothing of the first', async () => {
    const name = `storey-rel-cache-${++dbCount}`;
    await visitAndLeave(name, 'edit');
    const storage = createIdbStorage({ name });
    const gate = gatedReads(storage);
    const s = await scenario(storage);
    const structure = await collect<StructureEntry>(s.raw, { view: 'structure' });
    gate.hold();
    const resumed = s.engine.resume();
    await vi.waitFor(() => { expect(gate.waiting.length).toBe(1); }, WAIT);
    await s.engine.signOut();
    s.raw.internals.hub.flush();
    expect(structure.entries.size).toBe(0);
    await signInLive(s, test.accounts.regular);
    gate.release();
    expect(await resumed).toBe(false);
    await s.settle();
    // the edit user's unpublished assets never reach the regular user
    const editToken = await test.signIn('edit');
    const { organizationId, locationId } = s.raw.internals.session()!.state().ctx;
    const all = (await (await test.api(`/organizations/${organizationId}/locations/${locationId}/assets`, { token: editToken })).json()) as Array<{ id: string; unpublished?: boolean }>;
    const hidden = all.filter((a) => a.unpublished).map((a) => a.id);
    expect(hidden.length).toBeGreaterThan(0);
    expect(hidden.filter((id) => s.raw.internals.store.assets.has(id))).toEqual([]);
  });

  it('signs out while a connect attempt finishes; the next user subscribes only their own channels', async () => {
    const s = await scenario(createIdbStorage({ name: `storey-rel-cache-${++dbCount}` }));
    const held = s.transports.holdConnects();
    const first = s.engine.signIn(test.accounts.edit.email, test.accounts.edit.password);
    await vi.waitFor(() => { expect(s.transports.made()).toBe(1); }, WAIT);
    await first;
    await s.engine.signOut();
    const second = s.engine.signIn(test.accounts.regular.email, test.accounts.regular.password);
    await vi.waitFor(() => { expect(s.transports.made()).toBe(2); }, WAIT);
    held.release();
    expect((await second).ok).toBe(true);
    await s.settle();
    const regularId = test.accounts.regular.userId;
    expect(s.transports.subscribed.filter((x) => x.userId !== regularId)).toEqual([]);
    expect(s.posted()).not.toContain(MSG.FAILED_TRYING_TO_LOAD);
  });

  it('signs out while a cache write is in flight; the first user\'s saved data is gone afterwards', async () => {
    const name = `storey-rel-cache-${++dbCount}`;
    const storage = createIdbStorage({ name });
    const write = storage.write.bind(storage);
    let hold: Promise<void> | null = null;
    let release = () => undefined as void;
    let writing = 0;
    storage.write = async (key, w) => {
      if (hold) { writing += 1; await hold; }
      return write(key, w);
    };
    const s = await scenario(storage);
    await signInLive(s, test.accounts.edit);
    const editId = test.accounts.edit.userId;
    hold = new Promise<void>((r) => { release = r; });
    s.raw.internals.persister.requestFull();
    await vi.waitFor(() => { expect(writing).toBe(1); }, WAIT);
    await s.engine.signOut();
    // the write lands well after the sign-out began clearing
    await new Promise((r) => setTimeout(r, 150));
    release();
    hold = null;
    await signInLive(s, test.accounts.regular);
    await s.settle();
    await vi.waitFor(async () => {
      const db = await openDB(name);
      const left = await db.getAllKeys('records', IDBKeyRange.bound([editId], [editId, []]));
      db.close();
      expect(left).toEqual([]);
    }, WAIT);
  });
});

describe('the last request wins', () => {
  it('drops a slow cache read of an earlier location switch that lands after a later one', async () => {
    const storage = createIdbStorage({ name: `storey-rel-cache-${++dbCount}` });
    const gate = gatedReads(storage);
    const s = await scenario(storage);
    await signInLive(s, test.accounts.regular);
    const ctx = () => s.raw.internals.session()!.state().ctx;
    const [first, second] = ctx().orgLocationIds!;
    expect(second).toBeDefined();
    // visit the second location so it has a cache, then come back
    expect(await s.engine.selectLocation(second!)).toMatchObject({ ok: true });
    await s.raw.internals.persister.flush();
    expect(await s.engine.selectLocation(first!)).toMatchObject({ ok: true });
    await s.raw.internals.persister.flush();
    gate.hold();
    const slow = s.engine.selectLocation(second!);
    await vi.waitFor(() => { expect(gate.waiting).toContain(second); }, WAIT);
    const later = s.engine.selectLocation(first!);
    // the earlier choice may have finished its live load already; if not, it says it was superseded
    const earlier = await slow;
    if (!earlier.ok) expect(earlier.message).toBe(SUPERSEDED);
    expect(await later).toMatchObject({ ok: true });
    gate.release();
    // the earlier switch's saved location is read only now, after the later switch
    await vi.waitFor(() => { expect(gate.finished).toContain(second); }, WAIT);
    await s.settle();
    expect(s.raw.internals.store.locationId).toBe(first);
    const floor = await collect<DrawState>(s.raw, { view: 'floor', floorId: [...s.raw.internals.store.floors.keys()][0]!, layers: ['desks'] });
    expect([...floor.entries.keys()].every((id) => id.startsWith('user-asset:') || s.raw.internals.store.assets.has(id))).toBe(true);
  });
});
