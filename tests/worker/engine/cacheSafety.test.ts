import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DrawState, FeedEntry } from '../../../src/shared/api.js';
import type { Engine } from '../../../src/worker/engine.js';
import { createIdbStorage } from '../../../src/worker/storage/idbStorage.js';
import { createMemoryStorage } from '../../../src/worker/storage/memoryStorage.js';
import { STORAGE_WARNINGS, type StoragePort, type StoredSession } from '../../../src/worker/storage/storagePort.js';
import {
  collect, createFakeBackend, createTestEngine, LOCATION_ID, ORG_ID, wireDesk, wireLocation, wireOrganization, wireUser,
} from './harness.js';

// Issue 11 §3: a cache is never a dead end and never another user's data.
// A dropped or unusable cache is followed by the live load; cached entities
// pass the normalizers of the one write path; a sign-out while the saved
// location is still being read leaves nothing of that user behind.

const HOST = 'http://127.0.0.1:9';
const WAIT = { timeout: 5_000, interval: 10 };
const engines: Engine[] = [];
let dbCount = 0;
afterEach(async () => { for (const e of engines.splice(0)) await e.dispose(); });

const session = (userId = 'u1'): StoredSession => ({
  host: HOST, version: 1, token: 'secret-token', userId, permissions: ['USER_UPDATE_SELF', 'ASSET_UPDATE'],
  expiresAt: null, organizationId: ORG_ID, locationId: LOCATION_ID, floorId: 'f1',
});

async function seedCache(storage: StoragePort, entities: Array<[string, unknown]>, userId = 'u1') {
  await storage.open();
  await storage.saveSession(session(userId));
  await storage.write({ userId, locationId: LOCATION_ID }, {
    meta: { userId, locationId: LOCATION_ID, organizationId: ORG_ID, savedAt: 1, streams: {} },
    full: true,
    changes: entities.map(([collection, value]) => ({ collection: collection as never, id: (value as { id: string }).id, value })),
  });
}

function start(storage: StoragePort, backend = createFakeBackend({ assets: [wireDesk('d1', 'f1', { name: 'Live desk' })] })) {
  const made = createTestEngine({ fetch: backend.fetch, transportFactory: backend.transportFactory, storage, persistThrottleMs: 10 });
  engines.push(made.engine);
  return { ...made, backend };
}

const liveLoaded = (engine: Engine) => () => {
  expect(engine.internals.store.locationId).toBe(LOCATION_ID);
  expect(engine.internals.store.assets.get('d1')?.name).toBe('Live desk');
  expect(engine.internals.session()!.state().phase.name).toBe('live');
};

describe('engine cache', () => {
  describe('cached entities pass the normalizers', () => {
    it('serves an asset reduced to {id} and a building whose floors is not a list, then loads live', async () => {
      const storage = createMemoryStorage();
      await seedCache(storage, [
        ['organizations', wireOrganization()], ['locations', wireLocation()],
        ['buildings', { id: 'b1', floors: 'f1' }], ['floors', { id: 'f1', parent_id: 'b1' }], ['assets', { id: 'd1' }],
      ]);
      const { engine, logger } = start(storage);
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['desks'] });
      await expect(engine.resume()).resolves.toBe(true);
      const cached = engine.internals.store.assets.get('d1')!;
      expect([cached.width, cached.height, cached.data_providers]).toEqual([1.5, 1.5, []]);
      expect(engine.internals.store.buildings.get('b1')!.floors).toEqual([]);
      await vi.waitFor(liveLoaded(engine), WAIT);
      engine.internals.hub.flush();
      expect(floor.entries.get('d1')).toMatchObject({ name: 'Live desk' });
      expect(logger.errors).toEqual([]);
    });

    it('drops a cache whose entity has no string id, with the warning, and loads live', async () => {
      const storage = createMemoryStorage();
      await seedCache(storage, [['organizations', wireOrganization()], ['assets', { id: 'd1' }]]);
      // what a corrupted store may hand back: an entity without a string id
      const load = storage.loadLocation.bind(storage);
      storage.loadLocation = async (key, warn) => {
        const cached = await load(key, warn);
        if (cached) cached.entities.assets = [{ id: 5 }];
        return cached;
      };
      const { engine } = start(storage);
      const feed = await collect<FeedEntry>(engine, { view: 'feed' });
      await expect(engine.resume()).resolves.toBe(true);
      await vi.waitFor(liveLoaded(engine), WAIT);
      engine.internals.hub.flush();
      expect([...feed.entries.values()].map((e) => e.message)).toContain(STORAGE_WARNINGS.UNREADABLE_DROPPED);
    });
  });

  describe('a corrupted IndexedDB cache', () => {
    type Corrupt = (records: Array<{ key: IDBValidKey; value: unknown }>, meta: Record<string, unknown>) => { records?: Array<{ key: IDBValidKey; value: unknown }>; meta?: Record<string, unknown> };
    const first = (value: unknown): Corrupt => (records) => ({ records: [{ key: records[0]!.key, value }] });
    const cases: Array<[string, Corrupt, string]> = [
      ['a record truncated mid-JSON', (records) => ({ records: [{ key: records[0]!.key, value: String(records[0]!.value).slice(0, 40) }] }), STORAGE_WARNINGS.UNREADABLE_DROPPED],
      ['a record that is a number', first(42), STORAGE_WARNINGS.UNREADABLE_DROPPED],
      ['a record that is JSON null', first('null'), STORAGE_WARNINGS.UNREADABLE_DROPPED],
      ['an object without its delta', first('{"changes":[]}'), STORAGE_WARNINGS.UNREADABLE_DROPPED],
      ['an unknown collection', first(JSON.stringify([{ collection: 'widgets', id: 'w1', value: { id: 'w1' } }])), STORAGE_WARNINGS.UNREADABLE_DROPPED],
      ['a numeric id', first(JSON.stringify([{ collection: 'assets', id: 7, value: { id: 7 } }])), STORAGE_WARNINGS.UNREADABLE_DROPPED],
      ['meta without streams', (_, meta) => ({ meta: { ...meta, streams: undefined } }), STORAGE_WARNINGS.UNREADABLE_DROPPED],
      ['a string savedAt', (_, meta) => ({ meta: { ...meta, savedAt: 'yesterday' } }), STORAGE_WARNINGS.UNREADABLE_DROPPED],
      ['an older schema\'s meta', (_, meta) => ({ meta: { ...meta, schema: 1 } }), STORAGE_WARNINGS.SCHEMA_DROPPED],
    ];

    it.each(cases)('drops %s with the warning, then loads the location live', async (_, corrupt, warning) => {
      const name = `storey-cache-safety-${++dbCount}`;
      const writer = createIdbStorage({ name });
      await seedCache(writer, [['organizations', wireOrganization()], ['locations', wireLocation()], ['assets', { ...wireDesk('d1', 'f1'), name: 'Cached desk' }]]);
      await writer.close();
      const db = await openDB(name);
      const range = IDBKeyRange.bound(['u1', LOCATION_ID], ['u1', LOCATION_ID, []]);
      const keys = await db.getAllKeys('records', range);
      const values = await db.getAll('records', range);
      const meta = await db.get('meta', ['u1', LOCATION_ID]);
      const changed = corrupt(keys.map((key, i) => ({ key, value: values[i] })), meta);
      for (const r of changed.records ?? []) await db.put('records', r.value, r.key);
      if (changed.meta) await db.put('meta', changed.meta, ['u1', LOCATION_ID]);
      db.close();

      const { engine } = start(createIdbStorage({ name }));
      const feed = await collect<FeedEntry>(engine, { view: 'feed' });
      await expect(engine.resume()).resolves.toBe(true);
      await vi.waitFor(liveLoaded(engine), WAIT);
      engine.internals.hub.flush();
      expect([...feed.entries.values()].map((e) => e.message)).toContain(warning);
      expect(engine.internals.store.floors.size).toBe(2);
    });

    it('loads live when there is no cache at all (closed inside the write throttle)', async () => {
      const storage = createMemoryStorage();
      await storage.saveSession(session());
      const { engine } = start(storage);
      await expect(engine.resume()).resolves.toBe(true);
      await vi.waitFor(liveLoaded(engine), WAIT);
    });
  });

  describe('sign-out while the saved location is read', () => {
    it('leaves nothing of the first user to the next one, and forgets the first user\'s saved data', async () => {
      const storage = createMemoryStorage();
      const secret = { ...wireDesk('secret', 'f1'), name: 'Unpublished plan', unpublished: true };
      await seedCache(storage, [['organizations', wireOrganization()], ['locations', wireLocation()], ['users', wireUser('u1')], ['assets', secret]]);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => { release = resolve; });
      let reading = false;
      const load = storage.loadLocation.bind(storage);
      storage.loadLocation = async (key, warn) => {
        reading = true;
        await gate;
        return load(key, warn);
      };
      const backend = createFakeBackend({ userId: 'u2', assets: [wireDesk('d1', 'f1', { name: 'Live desk' })] });
      const { engine } = start(storage, backend);
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['desks'] });
      const resumed = engine.resume();
      await vi.waitFor(() => { expect(reading).toBe(true); }, WAIT);
      await engine.signOut();
      const signedIn = await engine.signIn('bob@example.com', 'pw');
      expect(signedIn.ok).toBe(true);
      release();
      await expect(resumed).resolves.toBe(false);
      await vi.waitFor(liveLoaded(engine), WAIT);
      engine.internals.hub.flush();
      const store = engine.internals.store;
      expect(store.assets.has('secret')).toBe(false);
      expect(store.users.has('u1')).toBe(false);
      expect(floor.entries.has('secret')).toBe(false);
      expect(engine.internals.session()!.state().ctx.userId).toBe('u2');
      await vi.waitFor(async () => { expect(await load({ userId: 'u1', locationId: LOCATION_ID }, () => undefined)).toBeNull(); }, WAIT);
    });
  });
});
