import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import type { ColumnarPage } from '../../../src/shared/reports/readings.js';
import { createIdbPageCache, pageBytes, REPLAY_PAGES_MAX_AGE_MS } from '../../../src/worker/storage/idbPageCache.js';
import { createIdbStorage } from '../../../src/worker/storage/idbStorage.js';

// A replay's pages in IndexedDB have a bounded life (docs/reports.md "Replays kept on this device"): least
// recently used first, past an age or a byte budget. Report pages and the location cache are never evicted.

const DAY_MS = 86_400_000;
let dbCount = 0;
const freshName = () => `pages-test-${++dbCount}-${Math.random().toString(36).slice(2)}`;

/** A day's page of `rows` readings, as the runner keeps it. */
function page(rows: number): ColumnarPage {
  return {
    n: rows, time: new Float64Array(rows), validTo: new Float64Array(rows), value: new Float64Array(rows), sensor: new Int32Array(rows),
    sensors: ['s1'], extras: null, lastTime: null, battery: new Float64Array(rows),
  };
}
const replayKey = (day: string, type = 'occupancy') => `playback|2|l1|${type}|${day}|*`;
const ONE_DAY_BYTES = pageBytes(page(1000));

function setup(budgetDays = 3) {
  const clock = { now: Date.UTC(2025, 5, 1) };
  const user = { id: 'u1' as string | null };
  const name = freshName();
  const cache = createIdbPageCache({ name, userId: () => user.id, now: () => clock.now, replays: { budgetBytes: budgetDays * ONE_DAY_BYTES } });
  return { cache, clock, user, name };
}

describe('the page cache', () => {
  describe('replay pages', () => {
    it('drops the pages of a replay not looked at for longer than the age at the next one kept', async () => {
      const { cache, clock } = setup(10);
      await cache.put(replayKey('2025-05-01'), [page(1000)]);
      await cache.put(replayKey('2025-05-02'), [page(1000)]);
      clock.now += 20 * DAY_MS;
      // the second day is looked at again: its age starts anew
      expect(await cache.get(replayKey('2025-05-02'))).not.toBeNull();
      clock.now += REPLAY_PAGES_MAX_AGE_MS - 10 * DAY_MS;
      await cache.put(replayKey('2025-05-20'), [page(1000)]);
      expect(await cache.get(replayKey('2025-05-01'))).toBeNull();
      expect(await cache.get(replayKey('2025-05-02'))).not.toBeNull();
      expect(await cache.get(replayKey('2025-05-20'))).not.toBeNull();
      await cache.close();
    });

    it('keeps them within the byte budget, dropping the least recently used first', async () => {
      const { cache, clock } = setup(3);
      for (const day of ['2025-05-01', '2025-05-02', '2025-05-03']) {
        await cache.put(replayKey(day), [page(1000)]);
        clock.now += 60_000;
      }
      // the oldest written is the one looked at last
      expect(await cache.get(replayKey('2025-05-01'))).not.toBeNull();
      clock.now += 60_000;
      await cache.put(replayKey('2025-05-04'), [page(1000)]);
      expect(await cache.get(replayKey('2025-05-02'))).toBeNull();
      for (const day of ['2025-05-01', '2025-05-03', '2025-05-04']) expect(await cache.get(replayKey(day)), day).not.toBeNull();
      await cache.close();
    });

    it('drops pages kept before their use was noted (an older build, an older page format) first', async () => {
      const { cache, name } = setup(3);
      await cache.put(replayKey('2025-05-10'), [page(10)]);
      await cache.close();
      // as an older build left it: the page alone, under a key this build no longer reads
      const db = await openDB(name);
      await db.put('days', { userId: 'u1', savedAt: 1, pages: [page(10)] }, 'u1|playback|1|l1|occupancy|2025-04-01|*');
      db.close();
      await cache.put(replayKey('2025-05-11'), [page(10)]);
      const left = await openDB(name);
      expect((await left.getAllKeys('days')).sort()).toEqual([`u1|${replayKey('2025-05-10')}`, `u1|${replayKey('2025-05-11')}`]);
      left.close();
      await cache.close();
    });
  });

  it('keeps the report pages of a database from before replay pages had a bounded life, and drops its replay pages first', async () => {
    const name = freshName();
    const old = await openDB(name, 1, { upgrade(db) { db.createObjectStore('days').createIndex('user', 'userId'); } });
    await old.put('days', { userId: 'u1', savedAt: 1, pages: [page(10)] }, 'u1|desk|l1|occupancy|2025-05-01|*');
    await old.put('days', { userId: 'u1', savedAt: 1, pages: [page(10)] }, `u1|${replayKey('2025-05-01')}`);
    old.close();
    const clock = { now: Date.UTC(2025, 5, 1) };
    const cache = createIdbPageCache({ name, userId: () => 'u1', now: () => clock.now });
    expect(await cache.get('desk|l1|occupancy|2025-05-01|*')).not.toBeNull();
    await cache.put(replayKey('2025-05-02'), [page(10)]);
    expect(await cache.get(replayKey('2025-05-01'))).toBeNull();
    expect(await cache.get(replayKey('2025-05-02'))).not.toBeNull();
    await cache.close();
  });

  it("never drops a report's pages, another user's replays or the location cache", async () => {
    const { cache, clock, user } = setup(1);
    const location = createIdbStorage({ name: freshName() });
    await location.open();
    await location.write({ userId: 'u1', locationId: 'l1' }, {
      meta: { userId: 'u1', locationId: 'l1', organizationId: 'o1', savedAt: 1, streams: {} }, full: false,
      changes: [{ collection: 'assets', id: 'd1', value: { id: 'd1', type: 'shape', name: 'Desk 1' } }],
    });
    await cache.put('desk|l1|occupancy|2025-05-01|*', [page(5000)]);
    user.id = 'u2';
    await cache.put(replayKey('2025-05-01'), [page(1000)]);
    user.id = 'u1';
    for (let i = 1; i <= 4; i += 1) {
      clock.now += REPLAY_PAGES_MAX_AGE_MS;
      await cache.put(replayKey(`2025-05-0${i}`), [page(1000)]);
    }
    expect(await cache.get('desk|l1|occupancy|2025-05-01|*')).not.toBeNull();
    expect(await cache.get(replayKey('2025-05-04'))).not.toBeNull();
    expect(await cache.get(replayKey('2025-05-03'))).toBeNull();
    user.id = 'u2';
    expect(await cache.get(replayKey('2025-05-01'))).not.toBeNull();
    const saved = await location.loadLocation({ userId: 'u1', locationId: 'l1' }, () => undefined);
    expect(saved!.entities.assets).toEqual([{ id: 'd1', type: 'shape', name: 'Desk 1' }]);
    await location.close();
    await cache.close();
  });

  it('clears a signed-out user\'s pages and what it noted of their use', async () => {
    const { cache, user, name } = setup(3);
    await cache.put(replayKey('2025-05-01'), [page(10)]);
    await cache.put('desk|l1|occupancy|2025-05-01|*', [page(10)]);
    await cache.clearUser('u1');
    expect(await cache.get(replayKey('2025-05-01'))).toBeNull();
    expect(await cache.get('desk|l1|occupancy|2025-05-01|*')).toBeNull();
    user.id = 'u1';
    await cache.close();
    const db = await openDB(name);
    expect(await db.count('uses')).toBe(0);
    db.close();
  });

  describe('late readings', () => {
    it("forgets a day's pages of one type, reports' and replays', for the signed-in user only", async () => {
      const { cache, user } = setup(10);
      const kept = ['l1|occupancy|2025-05-02|s1,s2', 'l1|occupancy|2025-05-02|*', replayKey('2025-05-02'), 'l1|co2|2025-05-02|*', 'l1|occupancy|2025-05-03|*'];
      for (const key of kept) await cache.put(key, [page(10)]);
      user.id = 'u2';
      await cache.put('l1|occupancy|2025-05-02|*', [page(10)]);
      await cache.drop!('l1|occupancy|2025-05-02|');
      await cache.drop!('playback|2|l1|occupancy|2025-05-02|');
      expect(await cache.get('l1|occupancy|2025-05-02|*')).toBeNull();
      user.id = 'u1';
      expect(await cache.get('l1|occupancy|2025-05-02|*')).not.toBeNull();
      await cache.drop!('l1|occupancy|2025-05-02|');
      await cache.drop!('playback|2|l1|occupancy|2025-05-02|');
      const left: string[] = [];
      for (const key of kept) if (await cache.get(key)) left.push(key);
      expect(left).toEqual(['l1|co2|2025-05-02|*', 'l1|occupancy|2025-05-03|*']);
    });

    it('answers with pages saved before a time only when asked without one', async () => {
      const { cache, clock } = setup(10);
      await cache.put('l1|occupancy|2025-05-02|*', [page(10)]);
      const savedAt = clock.now;
      expect(await cache.get('l1|occupancy|2025-05-02|*', savedAt)).not.toBeNull();
      expect(await cache.get('l1|occupancy|2025-05-02|*', savedAt + 1)).toBeNull();
      expect(await cache.get('l1|occupancy|2025-05-02|*')).not.toBeNull();
    });
  });
});
