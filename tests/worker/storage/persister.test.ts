import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Clock } from '../../../src/worker/ports.js';
import { systemClock } from '../../../src/worker/systemClock.js';
import { CHUNK_ENTITIES, createIdbStorage } from '../../../src/worker/storage/idbStorage.js';
import { createMemoryStorage } from '../../../src/worker/storage/memoryStorage.js';
import {
  createPersister, PERSIST_FULL_MIN_ENTITIES, PERSIST_PLACE_SLICE, PERSIST_SLICE_GAP_MS, PERSIST_MAX_ENTITIES_PER_S, PERSIST_RETRY_MIN_MS, PERSIST_THROTTLE_MS, type PersistSource,
} from '../../../src/worker/storage/persister.js';
import { STORAGE_WARNINGS, type CacheWrite } from '../../../src/worker/storage/storagePort.js';
import { createTestLogger } from '../engine/harness.js';

const key = { userId: 'u1', locationId: 'l1' };

function source(data: Map<string, unknown>): PersistSource {
  return {
    key,
    meta: () => ({ ...key, organizationId: 'o1', savedAt: Date.now(), streams: {} }),
    read: (_c, id) => data.get(id) ?? null,
    all: () => [...data].map(([id, value]) => ({ collection: 'assets' as const, id, value })),
  };
}

function recordingStorage() {
  const storage = createMemoryStorage();
  const writes: CacheWrite[] = [];
  let failNext = 0;
  const write = storage.write.bind(storage);
  storage.write = async (k, w) => {
    writes.push(w);
    if (failNext > 0) { failNext -= 1; throw new DOMException('quota', 'QuotaExceededError'); }
    await write(k, w);
  };
  return { storage, writes, fail: (n: number) => { failNext = n; } };
}

describe('persister', () => {
  beforeEach(() => { vi.useFakeTimers({ now: 1_000_000, toFake: ['setTimeout', 'clearTimeout', 'Date'] }); });
  afterEach(() => { vi.useRealTimers(); });

  describe('note', () => {
    it('batches the entities of many batches into one write after the throttle', async () => {
      const { storage, writes } = recordingStorage();
      const data = new Map<string, unknown>([['a', { id: 'a' }], ['b', { id: 'b' }]]);
      const persister = createPersister({ storage, clock: systemClock, logger: createTestLogger(), onWriteError: () => undefined });
      persister.setSource(source(data));
      persister.note([['assets', 'a']]);
      persister.note([['assets', 'b'], ['assets', 'a']]);
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS - 1);
      expect(writes).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(writes).toHaveLength(1);
      expect(writes[0]!.full).toBe(false);
      expect(writes[0]!.changes.map((c) => c.id).sort()).toEqual(['a', 'b']);
    });

    it('writes each entity a batch marked once, whichever way it was noted, and counts them toward a full rewrite', async () => {
      const { storage, writes } = recordingStorage();
      const data = new Map<string, unknown>([['a', { id: 'a' }], ['b', { id: 'b' }], ['s1', { id: 's1' }]]);
      const persister = createPersister({ storage, clock: systemClock, logger: createTestLogger(), onWriteError: () => undefined });
      persister.setSource(source(data));
      // two live batches' marks (per collection, as applyBatch makes them) and a pair noted on its own
      persister.noteMarks(new Map([['assets', new Set(['a'])], ['sensors', new Set(['s1'])]]));
      persister.noteMarks(new Map([['sensors', new Set(['s1'])], ['assets', new Set(['a', 'b'])]]));
      persister.note([['sensors', 's1']]);
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS);
      expect(writes).toHaveLength(1);
      expect(writes[0]!.full).toBe(false);
      expect(writes[0]!.changes.map((c) => `${c.collection}:${c.id}`).sort()).toEqual(['assets:a', 'assets:b', 'sensors:s1']);
      // marks count once per entity: one short of the full-rewrite size, each noted twice, stays a delta
      const distinct = PERSIST_FULL_MIN_ENTITIES - 1;
      const many = new Map<string, unknown>(Array.from({ length: 2 * distinct }, (_, i) => [`d${i}`, { id: `d${i}` }]));
      persister.setSource({ ...source(many), size: () => many.size });
      for (let i = 0; i < distinct; i++) {
        persister.noteMarks(new Map([['assets', new Set([`d${i}`])]]));
        persister.noteMarks(new Map([['assets', new Set([`d${i}`])]]));
      }
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS);
      expect(writes).toHaveLength(2);
      expect(writes[1]!.full).toBe(false);
      expect(writes[1]!.changes).toHaveLength(distinct);
      // one more makes half the location: a full rewrite
      persister.noteMarks(new Map([['assets', new Set(Array.from({ length: distinct + 1 }, (_, i) => `d${i}`))]]));
      await vi.advanceTimersByTimeAsync(10 * PERSIST_THROTTLE_MS);
      expect(writes).toHaveLength(3);
      expect(writes[2]!.full).toBe(true);
    });

    it('writes what a batch marked in the queue itself, counted toward a full rewrite, and nothing once signed out', async () => {
      const { storage, writes } = recordingStorage();
      const many = new Map<string, unknown>(Array.from({ length: 2 * PERSIST_FULL_MIN_ENTITIES }, (_, i) => [`d${i}`, { id: `d${i}` }]));
      const persister = createPersister({ storage, clock: systemClock, logger: createTestLogger(), onWriteError: () => undefined });
      expect(persister.queue()).toBeNull();
      persister.setSource({ ...source(many), size: () => many.size });
      // a live batch marks into the queue (applyBatch's delta.persist), then notes it: nothing is copied or counted twice
      const queue = persister.queue()!;
      queue.set('assets', new Set(['d0', 'd1']));
      persister.noteMarks(queue);
      persister.noteMarks(new Map([['assets', new Set(['d1', 'd2'])]]));
      queue.get('assets')!.add('d3');
      persister.noteMarks(queue);
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS);
      expect(writes).toHaveLength(1);
      expect(writes[0]!.full).toBe(false);
      expect(writes[0]!.changes.map((c) => c.id).sort()).toEqual(['d0', 'd1', 'd2', 'd3']);
      // a write takes the queue: the next batch marks into a new one
      expect(persister.queue()).not.toBe(queue);
      // half the location marked in the queue itself makes a full rewrite
      const next = persister.queue()!;
      next.set('assets', new Set([...many.keys()].slice(0, PERSIST_FULL_MIN_ENTITIES)));
      persister.noteMarks(next);
      await vi.advanceTimersByTimeAsync(10 * PERSIST_THROTTLE_MS);
      expect(writes).toHaveLength(2);
      expect(writes[1]!.full).toBe(true);
      // signed out: no queue to mark in, and what was queued is dropped
      persister.queue()!.set('assets', new Set(['d5']));
      persister.noteMarks(persister.queue()!);
      persister.setSource(null);
      expect(persister.queue()).toBeNull();
      await vi.advanceTimersByTimeAsync(10 * PERSIST_THROTTLE_MS);
      expect(writes).toHaveLength(2);
    });

    it('persists writes that come in during a persist operation afterward', async () => {
      const { storage, writes } = recordingStorage();
      let release!: () => void;
      const slow = storage.write;
      storage.write = (k, w) => new Promise((resolve, reject) => { release = () => { slow(k, w).then(resolve, reject); }; });
      const data = new Map<string, unknown>([['a', 1], ['b', 2]]);
      const persister = createPersister({ storage, clock: systemClock, logger: createTestLogger(), onWriteError: () => undefined });
      persister.setSource(source(data));
      persister.note([['assets', 'a']]);
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS);
      persister.note([['assets', 'b']]);
      release();
      await vi.advanceTimersByTimeAsync(0);
      storage.write = slow;
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS);
      expect(writes.map((w) => w.changes.map((c) => c.id))).toEqual([['a'], ['b']]);
    });

    it('drops queued work when the source goes away (sign-out)', async () => {
      const { storage, writes } = recordingStorage();
      const persister = createPersister({ storage, clock: systemClock, logger: createTestLogger(), onWriteError: () => undefined });
      persister.setSource(source(new Map([['a', 1]])));
      persister.note([['assets', 'a']]);
      persister.setSource(null);
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS * 2);
      expect(writes).toHaveLength(0);
    });
  });

  describe('a failed write', () => {
    it('is reported once, never thrown, and retried later as a full rewrite', async () => {
      const { storage, writes, fail } = recordingStorage();
      const data = new Map<string, unknown>([['a', 1], ['b', 2]]);
      const errors: string[] = [];
      const logger = createTestLogger();
      const persister = createPersister({ storage, clock: systemClock, logger, onWriteError: (m) => errors.push(m) });
      persister.setSource(source(data));
      fail(2);
      persister.note([['assets', 'a']]);
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS);
      expect(writes).toHaveLength(1);
      expect(errors).toEqual([STORAGE_WARNINGS.WRITE_FAILED]);
      expect(errors).toEqual(['Could not save data for offline use; retrying.']);

      await vi.advanceTimersByTimeAsync(PERSIST_RETRY_MIN_MS);
      expect(writes).toHaveLength(2);
      expect(writes[1]!.full).toBe(true);
      expect(errors).toHaveLength(1);

      await vi.advanceTimersByTimeAsync(2 * PERSIST_RETRY_MIN_MS);
      expect(writes).toHaveLength(3);
      expect(writes[2]).toMatchObject({ full: true });
      expect(writes[2]!.changes.map((c) => c.id).sort()).toEqual(['a', 'b']);
      const cached = await storage.loadLocation(key, () => undefined);
      expect(cached!.entities.assets.sort()).toEqual([1, 2]);

      persister.note([['assets', 'a']]);
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS);
      expect(writes[3]!.full).toBe(false);
    });
  });

  describe('compaction', () => {
    it('makes the next write a full rewrite when the storage asks to compact', async () => {
      const { storage, writes } = recordingStorage();
      const inner = storage.write;
      storage.write = async (k, w) => { await inner(k, w); return { compact: !w.full }; };
      const data = new Map<string, unknown>([['a', { id: 'a' }], ['b', { id: 'b' }]]);
      const persister = createPersister({ storage, clock: systemClock, logger: createTestLogger(), onWriteError: () => undefined });
      persister.setSource(source(data));
      persister.note([['assets', 'a']]);
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS);
      expect(writes.map((w) => w.full)).toEqual([false]);
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS);
      expect(writes.map((w) => w.full)).toEqual([false, true]);
      expect(writes[1]!.changes.map((c) => c.id).sort()).toEqual(['a', 'b']);
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS * 3);
      expect(writes).toHaveLength(2);
    });

    it('writes a batch touching most of a large location as a full rewrite', async () => {
      const { storage, writes } = recordingStorage();
      const data = new Map<string, unknown>(Array.from({ length: PERSIST_FULL_MIN_ENTITIES * 2 }, (_, i) => [`a${i}`, { id: `a${i}` }]));
      const persister = createPersister({ storage, clock: systemClock, logger: createTestLogger(), onWriteError: () => undefined });
      persister.setSource({ ...source(data), size: () => data.size });
      persister.note([...data.keys()].slice(0, PERSIST_FULL_MIN_ENTITIES - 1).map((id) => ['assets', id] as const));
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS);
      persister.note([...data.keys()].slice(0, PERSIST_FULL_MIN_ENTITIES).map((id) => ['assets', id] as const));
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS);
      expect(writes.map((w) => [w.full, w.changes.length])).toEqual([[false, PERSIST_FULL_MIN_ENTITIES - 1], [true, data.size]]);
    });
  });

  describe('under a heavy load', () => {
    it('waits longer after a large write, so persisting stays a small share of the work', async () => {
      const { storage, writes } = recordingStorage();
      const n = PERSIST_MAX_ENTITIES_PER_S * 3;
      const data = new Map<string, unknown>(Array.from({ length: n * 4 }, (_, i) => [`a${i}`, { id: `a${i}` }]));
      const persister = createPersister({ storage, clock: systemClock, logger: createTestLogger(), onWriteError: () => undefined });
      persister.setSource(source(data));
      persister.note([...data.keys()].slice(0, n).map((id) => ['assets', id] as const));
      // (placed a slice a task: the write lands a few turns of the event loop after its timer)
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS + 10);
      expect(writes).toHaveLength(1);
      persister.note([['assets', 'a0']]);
      // n entities took their share: the next write waits n / PERSIST_MAX_ENTITIES_PER_S seconds, not the throttle
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS * 2);
      expect(writes).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(3_000 - PERSIST_THROTTLE_MS * 2);
      expect(writes).toHaveLength(2);
      // a small write brings the throttle back
      persister.note([['assets', 'a1']]);
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS);
      expect(writes).toHaveLength(3);
    });
  });

  describe('parts', () => {
    it('keeps each entity in the part its source names and deletes it from the old part when it moves', async () => {
      const { storage, writes } = recordingStorage();
      const data = new Map<string, unknown>([['a', { id: 'a', floor: 'f1' }], ['b', { id: 'b', floor: null }]]);
      const persister = createPersister({ storage, clock: systemClock, logger: createTestLogger(), onWriteError: () => undefined });
      persister.setSource({ ...source(data), part: (_c, _id, value) => (value as { floor: string | null }).floor ?? '' });
      persister.requestFull();
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS);
      expect(writes[0]!.changes.map((c) => [c.id, c.part])).toEqual([['a', 'f1'], ['b', '']]);
      data.set('a', { id: 'a', floor: 'f2' });
      persister.note([['assets', 'a']]);
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS);
      expect(writes[1]!.changes.map((c) => [c.id, c.part, c.value === null])).toEqual([['a', 'f1', true], ['a', 'f2', false]]);
      data.delete('a');
      persister.note([['assets', 'a']]);
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS);
      expect(writes[2]!.changes.map((c) => [c.id, c.part, c.value])).toEqual([['a', 'f2', null]]);
      const cached = await storage.loadLocation(key, () => undefined, { parts: () => ['f1', 'f2'] });
      expect(cached!.entities.assets).toEqual([]);
    });

    it('holds a full rewrite while the store is still being filled from the cache', async () => {
      const { storage, writes } = recordingStorage();
      let ready = false;
      const data = new Map<string, unknown>([['a', { id: 'a' }]]);
      const persister = createPersister({ storage, clock: systemClock, logger: createTestLogger(), onWriteError: () => undefined });
      persister.setSource({ ...source(data), ready: () => ready });
      persister.requestFull();
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS * 3);
      expect(writes).toHaveLength(0);
      ready = true;
      await vi.advanceTimersByTimeAsync(PERSIST_THROTTLE_MS);
      expect(writes.map((w) => w.full)).toEqual([true]);
    });
  });

  describe('a full rewrite of a large location, in slices (issue 14)', () => {
    // real timers and IndexedDB (fake-indexeddb): the slices are turns of the real event loop
    beforeEach(() => { vi.useRealTimers(); });

    let dbCount = 0;
    const freshStorage = () => createIdbStorage({ name: `storey-persister-${++dbCount}-${Math.random().toString(36).slice(2)}` });
    const desk = (id: string, name = id) => ({ id, name, floor: `f${Number(id.slice(1)) % 3}` });
    const floorPart = (_c: string, _id: string, value: unknown) => ((value as { floor: string }).floor === 'f0' ? '' : (value as { floor: string }).floor);
    const bigLocation = (n: number) => new Map<string, unknown>(Array.from({ length: n }, (_, i) => [`d${i}`, desk(`d${i}`)]));
    const idsOf = (list: unknown[]) => list.map((e) => (e as { id: string }).id).sort();

    /** A full rewrite started by the persister's own timer (throttle 5 ms), awaited until it landed. */
    async function rewriteByTimer(persister: ReturnType<typeof createPersister>) {
      persister.requestFull();
      await new Promise((resolve) => setTimeout(resolve, 30));
      await persister.settled();
    }

    it('places a slice a task, writes every entity in its part, and a reopen reads the whole location', async () => {
      const storage = freshStorage();
      await storage.open();
      const data = bigLocation(PERSIST_PLACE_SLICE * 2 + 7);
      let placed = 0;
      // how many entities were placed each time the persister gave the event loop a turn
      const turns: number[] = [];
      const clock: Clock = { ...systemClock, setTimeout: (fn, ms) => { turns.push(placed); return systemClock.setTimeout(fn, ms); } };
      const persister = createPersister({ storage, clock, logger: createTestLogger(), onWriteError: () => undefined });
      persister.setSource({ ...source(data), part: (c, id, value) => { placed += 1; return floorPart(c, id, value); } });
      persister.requestFull();
      await persister.flush();
      const slices = [...turns, placed].map((n, i, all) => n - (all[i - 1] ?? 0));
      expect(placed).toBe(data.size);
      expect(slices.filter((n) => n > 0).length).toBeGreaterThanOrEqual(3);
      expect(Math.max(...slices)).toBeLessThanOrEqual(PERSIST_PLACE_SLICE);
      const cached = await storage.loadLocation(key, () => undefined);
      expect(idsOf(cached!.entities.assets)).toEqual([...data.keys()].sort());
      expect(cached!.parts.sort()).toEqual(['', 'f1', 'f2']);
      const f1 = await storage.loadLocation(key, () => undefined, { parts: () => ['f1'] });
      expect(f1!.entities.assets.length).toBeGreaterThan(0);
      expect(f1!.entities.assets.every((a) => (a as { floor: string }).floor === 'f1')).toBe(true);
      await storage.close();
    });

    it('makes a large rewrite\'s records ahead, one a task with a pause after each, and stores them in one write', async () => {
      const storage = freshStorage();
      await storage.open();
      const data = bigLocation(PERSIST_PLACE_SLICE * 2);
      const write = storage.write.bind(storage);
      const writes: CacheWrite[] = [];
      storage.write = (k, w, o) => { writes.push(w); return write(k, w, o); };
      const prepare = storage.prepare.bind(storage);
      let prepared = 0;
      storage.prepare = (part, changes) => { prepared += 1; return prepare(part, changes); };
      // how many records were made each time the persister paused, and for how long
      const pauses: Array<[number, number]> = [];
      const clock: Clock = { ...systemClock, setTimeout: (fn, ms) => { pauses.push([prepared, ms]); return systemClock.setTimeout(fn, ms); } };
      const persister = createPersister({ storage, clock, logger: createTestLogger(), onWriteError: () => undefined, throttleMs: 5 });
      persister.setSource({ ...source(data), part: floorPart });
      // as its timer starts it (a flush writes without the pauses)
      await rewriteByTimer(persister);
      // three parts of 1,333–1,334 entities: three records each
      expect(prepared).toBe(9);
      const paced = pauses.filter(([, ms]) => ms === PERSIST_SLICE_GAP_MS).map(([n]) => n);
      expect(paced.slice(-9)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
      expect(writes).toHaveLength(1);
      expect(writes[0]!.prepared).toHaveLength(9);
      const cached = await storage.loadLocation(key, () => undefined);
      expect(idsOf(cached!.entities.assets)).toEqual([...data.keys()].sort());
      await storage.close();
    });

    it('spreads a later full rewrite (a compaction) over the time the rate limit gives it, the first one not', async () => {
      const storage = freshStorage();
      await storage.open();
      const data = bigLocation(PERSIST_PLACE_SLICE * 2);
      const waits: number[] = [];
      const clock: Clock = { ...systemClock, setTimeout: (fn, ms) => { waits.push(ms); return systemClock.setTimeout(fn, ms); } };
      const persister = createPersister({ storage, clock, logger: createTestLogger(), onWriteError: () => undefined, throttleMs: 5 });
      persister.setSource({ ...source(data), part: floorPart, size: () => data.size });
      await rewriteByTimer(persister);
      const first = waits.splice(0).filter((ms) => ms > 5 && ms < PERSIST_THROTTLE_MS);
      expect(first.length).toBeGreaterThan(0);
      expect(first.every((ms) => ms === PERSIST_SLICE_GAP_MS)).toBe(true);
      await rewriteByTimer(persister);
      const later = waits.filter((ms) => ms > 5 && ms < PERSIST_THROTTLE_MS);
      expect(later.every((ms) => ms > PERSIST_SLICE_GAP_MS)).toBe(true);
      // n entities at PERSIST_MAX_ENTITIES_PER_S: its pauses add up to about n / that many seconds
      const spread = later.reduce((sum, ms) => sum + ms, 0);
      expect(spread).toBeGreaterThan((data.size * 1_000 / PERSIST_MAX_ENTITIES_PER_S) * 0.9);
      expect(spread).toBeLessThan((data.size * 1_000 / PERSIST_MAX_ENTITIES_PER_S) * 1.1);
      const cached = await storage.loadLocation(key, () => undefined);
      expect(idsOf(cached!.entities.assets)).toEqual([...data.keys()].sort());
      await storage.close();
    });

    /** A clock whose timers of more than 0 ms wait until fired by hand (0 ms: a turn of the real loop). */
    function handClock() {
      const held = new Map<number, () => void>();
      let next = 0;
      const clock: Clock = {
        now: () => Date.now(),
        setTimeout: (fn, ms) => {
          const id = ++next;
          if (ms <= 0) setImmediate(() => { if (held.has(id) || ms <= 0) fn(); });
          else held.set(id, fn);
          return id;
        },
        clearTimeout: (id) => { held.delete(id as number); },
      };
      /** fires every held timer (and those they set) until `until` settles */
      async function drive(until: Promise<unknown>) {
        let done = false;
        void until.finally(() => { done = true; });
        while (!done) {
          const fns = [...held.values()];
          held.clear();
          for (const fn of fns) fn();
          await new Promise((resolve) => setImmediate(resolve));
        }
        await until;
      }
      return { clock, held, drive };
    }

    async function spreadRewriteInFlight() {
      const storage = freshStorage();
      await storage.open();
      const data = bigLocation(PERSIST_PLACE_SLICE * 2);
      const { clock, held, drive } = handClock();
      const errors: string[] = [];
      const persister = createPersister({ storage, clock, logger: createTestLogger(), onWriteError: (m) => errors.push(m) });
      persister.setSource({ ...source(data), part: floorPart, size: () => data.size });
      persister.requestFull();
      await drive(persister.flush());
      // a compaction: spread, its pauses held until fired
      for (const [, v] of data) (v as { name: string }).name = 'compacted';
      persister.requestFull();
      const timer = [...held.values()].at(-1)!;
      held.clear();
      timer();
      await vi.waitFor(() => expect(held.size).toBe(1));
      return { storage, persister, held, errors };
    }

    it('finishes a spread rewrite without its pauses when flushed (page hide, dispose)', async () => {
      const { storage, persister, held } = await spreadRewriteInFlight();
      // nothing fires the held pause: the flush ends it, and the rest of the rewrite pauses no more
      await persister.flush();
      expect(held.size).toBe(0);
      const cached = await storage.loadLocation(key, () => undefined);
      expect(cached!.entities.assets).toHaveLength(PERSIST_PLACE_SLICE * 2);
      expect(cached!.entities.assets.every((a) => (a as { name: string }).name === 'compacted')).toBe(true);
      await storage.close();
    });

    it('stops a spread rewrite at once when the user signs out during one of its pauses', async () => {
      const { storage, persister, held, errors } = await spreadRewriteInFlight();
      persister.setSource(null);
      // nothing fires the held pause: the sign-out ends it
      await persister.settled();
      expect(held.size).toBe(0);
      expect(errors).toEqual([]);
      const cached = await storage.loadLocation(key, () => undefined);
      expect(cached!.entities.assets.some((a) => (a as { name: string }).name === 'compacted')).toBe(false);
      await storage.close();
    });

    it('writes nothing more once the user signs out midway: the previous cache stays whole, and clearing the user leaves nothing', async () => {
      const storage = freshStorage();
      await storage.open();
      const data = new Map<string, unknown>([['d0', desk('d0', 'saved before')]]);
      const errors: string[] = [];
      const logger = createTestLogger();
      const persister = createPersister({ storage, clock: systemClock, logger, onWriteError: (m) => errors.push(m) });
      persister.setSource({ ...source(data), part: floorPart });
      persister.requestFull();
      await persister.flush();
      // the location grows; its rewrite is signed out of while its second record is being made
      let serialized = 0;
      for (let i = 0; i < CHUNK_ENTITIES * 4; i++) {
        const value = desk(`d${i}`, 'rewritten');
        data.set(`d${i}`, { ...value, toJSON: () => { if (++serialized === CHUNK_ENTITIES + 1) persister.setSource(null); return value; } });
      }
      persister.requestFull();
      const rewrite = persister.flush();
      await rewrite;
      await persister.settled();
      expect(serialized).toBeGreaterThan(CHUNK_ENTITIES);
      expect(serialized).toBeLessThan(CHUNK_ENTITIES * 3);
      expect(errors).toEqual([]);
      expect(logger.warnings).toEqual([]);
      const cached = await storage.loadLocation(key, () => undefined);
      expect(cached!.entities.assets).toEqual([desk('d0', 'saved before')]);
      await storage.clearUser(key.userId);
      expect(await storage.loadLocation(key, () => undefined)).toBeNull();
      await storage.close();
    });

    it('stops a rewrite signed out of while it is still placing entities, before anything is written', async () => {
      const storage = freshStorage();
      await storage.open();
      const write = storage.write.bind(storage);
      let writes = 0;
      storage.write = (k, w, o) => { writes += 1; return write(k, w, o); };
      const data = bigLocation(PERSIST_PLACE_SLICE * 3);
      let placed = 0;
      const persister = createPersister({ storage, clock: systemClock, logger: createTestLogger(), onWriteError: () => undefined });
      persister.setSource({ ...source(data), part: (c, id, v) => { if (++placed === PERSIST_PLACE_SLICE + 1) persister.setSource(null); return floorPart(c, id, v); } });
      persister.requestFull();
      await persister.flush();
      expect(placed).toBeLessThanOrEqual(PERSIST_PLACE_SLICE * 2);
      expect(writes).toBe(0);
      expect(await storage.loadLocation(key, () => undefined)).toBeNull();
      await storage.close();
    });

    it('writes what changed while a rewrite was being written right after it', async () => {
      const storage = freshStorage();
      await storage.open();
      const data = bigLocation(CHUNK_ENTITIES * 3);
      const persister = createPersister({ storage, clock: systemClock, logger: createTestLogger(), onWriteError: () => undefined, throttleMs: 5 });
      let serialized = 0;
      const first = data.get('d0');
      // d0 is written early in the rewrite; it changes while a later record is being made
      data.set('d0', { ...desk('d0'), toJSON: () => first });
      data.set('d1400', { ...desk('d1400'), toJSON: () => {
        if (serialized++ === 0) { data.set('d0', desk('d0', 'renamed midway')); persister.note([['assets', 'd0']]); }
        return desk('d1400');
      } });
      persister.setSource({ ...source(data), part: floorPart });
      persister.requestFull();
      await persister.flush();
      await persister.flush();
      const cached = await storage.loadLocation(key, () => undefined);
      expect(cached!.entities.assets).toHaveLength(CHUNK_ENTITIES * 3);
      expect(cached!.entities.assets).toContainEqual(desk('d0', 'renamed midway'));
      await storage.close();
    });
  });
});
