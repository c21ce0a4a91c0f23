import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DrawState, FeedEntry, FloorViewMeta, ViewMessage } from '../../../src/shared/api.js';
import type { Engine } from '../../../src/worker/engine.js';
import { createIdbStorage } from '../../../src/worker/storage/idbStorage.js';
import { STORAGE_WARNINGS, type StoragePort } from '../../../src/worker/storage/storagePort.js';
import { PERSIST_RETRY_MIN_MS } from '../../../src/worker/storage/persister.js';
import {
  collect, createFakeBackend, createTestEngine, LOCATION_ID, measurement, ORG_ID, wireDesk, wireOccupancySensor,
} from './harness.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const HOST = 'http://127.0.0.1:9';
const engines: Engine[] = [];
let dbCount = 0;

beforeEach(() => { vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'Date'] }); });
afterEach(async () => { for (const e of engines.splice(0)) await e.dispose(); vi.useRealTimers(); });

async function firstVisit(storage: StoragePort, assets: unknown[]) {
  const backend = createFakeBackend({ assets, sensors: [wireOccupancySensor('s-d1', T0, 1)] });
  const { engine } = createTestEngine({ fetch: backend.fetch, transportFactory: backend.transportFactory, storage });
  engines.push(engine);
  await engine.init({ host: HOST });
  expect((await engine.signIn('ann@example.com', 'pw')).ok).toBe(true);
  await engine.selectOrganization(ORG_ID);
  await engine.selectLocation(LOCATION_ID);
  await engine.selectFloor('f1');
  await engine.internals.persister.flush();
  await engine.dispose();
  engines.splice(engines.indexOf(engine), 1);
}

describe('engine persistence', () => {
  describe('resume', () => {
    it('serves the cached floor, marked fromCache, before any network call; live loads then replace it', async () => {
      const name = `storey-persist-${++dbCount}`;
      await firstVisit(createIdbStorage({ name }), [wireDesk('d1', 'f1', { name: 'Cached name' })]);

      const backend = createFakeBackend({ assets: [wireDesk('d1', 'f1', { name: 'Live name' })], sensors: [wireOccupancySensor('s-d1', T0, 1)] });
      let atFirstCall: ViewMessage<DrawState, FloorViewMeta> | null = null;
      const fetchSpy = (async (input: RequestInfo | URL, init?: RequestInit) => {
        if (!atFirstCall) {
          // what a floor view shows at the moment the first request leaves
          void engine.subscribe({ view: 'floor', floorId: 'f1', layers: ['desks'] }, (m) => { atFirstCall ??= m as never; });
        }
        return backend.fetch(input, init);
      }) as typeof fetch;
      const { engine } = createTestEngine({ fetch: fetchSpy, transportFactory: backend.transportFactory, storage: createIdbStorage({ name }) });
      engines.push(engine);
      const live = await collect<DrawState, FloorViewMeta>(engine, { view: 'floor', floorId: 'f1', layers: ['desks'] });
      expect(live.entries.size).toBe(0);

      expect(await engine.resume()).toBe(true);
      expect(backend.calls.length).toBeGreaterThan(0);
      expect(atFirstCall).not.toBeNull();
      expect(atFirstCall!.type).toBe('snapshot');
      const cached = atFirstCall as unknown as { entries: Record<string, DrawState>; meta: FloorViewMeta };
      expect(cached.entries.d1).toMatchObject({ name: 'Cached name' });
      expect(cached.meta.fromCache).toBe(true);

      await vi.advanceTimersByTimeAsync(0);
      await vi.waitFor(() => { expect(live.meta?.fromCache).toBe(false); }, { timeout: 15_000 });
      engine.internals.hub.flush();
      expect(live.entries.get('d1')).toMatchObject({ name: 'Live name' });
      expect(backend.calls).toContain(`GET /v1/organizations/${ORG_ID}/locations/${LOCATION_ID}/assets`);
    });

    it('drops a cache of an older schema with a warning and finds no session to resume', async () => {
      const name = `storey-persist-${++dbCount}`;
      await firstVisit(createIdbStorage({ name, version: 1 }), [wireDesk('d1', 'f1')]);
      const { engine, logger } = createTestEngine({ storage: createIdbStorage({ name, version: 2 }) });
      engines.push(engine);
      const feed = await collect<FeedEntry>(engine, { view: 'feed' });
      expect(await engine.resume()).toBe(false);
      engine.internals.hub.flush();
      expect(logger.warnings).toContain(STORAGE_WARNINGS.SCHEMA_DROPPED);
      expect([...feed.entries.values()].map((e) => e.message)).toContain('Cached data from an older version was dropped.');
    });
  });

  describe('a failing write', () => {
    it('leaves the engine running and is retried', async () => {
      const storage = createIdbStorage({ name: `storey-persist-${++dbCount}` });
      let failing = true;
      const write = storage.write.bind(storage);
      const attempts: boolean[] = [];
      storage.write = async (key, w) => {
        attempts.push(w.full);
        if (failing) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        return write(key, w);
      };
      const backend = createFakeBackend({ assets: [wireDesk('d1', 'f1')], sensors: [wireOccupancySensor('s-d1', T0, 0)] });
      const { engine } = createTestEngine({ fetch: backend.fetch, transportFactory: backend.transportFactory, storage });
      engines.push(engine);
      await engine.init({ host: HOST });
      await engine.signIn('ann@example.com', 'pw');
      await engine.selectOrganization(ORG_ID);
      await engine.selectLocation(LOCATION_ID);
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['desk_usage'] });
      const feed = await collect<FeedEntry>(engine, { view: 'feed' });

      // the first write waits for the cache read of the location switch (real IndexedDB work, not timers)
      await vi.waitFor(() => expect(attempts.length).toBeGreaterThanOrEqual(1), { timeout: 15_000 });
      engine.internals.sink.apply(measurement('s-d1', 'occupancy', { time: T0 + 2_000, valid_for: 3_600_000, value: 1 }));
      await vi.advanceTimersByTimeAsync(100);
      engine.internals.hub.flush();
      expect(floor.entries.get('d1')).toMatchObject({ status: 'occupied' });
      expect([...feed.entries.values()].map((e) => e.message)).toContain(STORAGE_WARNINGS.WRITE_FAILED);

      failing = false;
      await vi.advanceTimersByTimeAsync(4 * PERSIST_RETRY_MIN_MS);
      expect(attempts.at(-1)).toBe(true);
      const cached = await storage.loadLocation({ userId: 'u1', locationId: LOCATION_ID }, () => undefined);
      expect(cached!.entities.assets).toEqual([expect.objectContaining({ id: 'd1' })]);
      expect(cached!.entities.sensors).toEqual([expect.objectContaining({ id: 's-d1', last_measurement: expect.objectContaining({ value: 1 }) })]);
    });
  });
});
