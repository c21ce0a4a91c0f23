import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { CHUNK_ENTITIES, createIdbStorage, MAX_DELTA_ENTITIES, MAX_DELTA_RECORDS } from '../../../src/worker/storage/idbStorage.js';
import { createMemoryStorage } from '../../../src/worker/storage/memoryStorage.js';
import {
  STORAGE_SCHEMA_VERSION, STORAGE_WARNINGS, type CacheWrite, type StoragePort,
} from '../../../src/worker/storage/storagePort.js';

let dbCount = 0;
const freshName = () => `storey-test-${++dbCount}-${Math.random().toString(36).slice(2)}`;
const key = { userId: 'u1', locationId: 'l1' };
const meta = (savedAt = 1): CacheWrite['meta'] => ({ ...key, organizationId: 'o1', savedAt, streams: { location: { stream_id: 's', stream_sequence: 4 } } });
const desk = (id: string, name = id) => ({ id, type: 'shape', name });

const implementations: Array<[string, () => StoragePort]> = [
  ['idbStorage', () => createIdbStorage({ name: freshName() })],
  ['memoryStorage', () => createMemoryStorage()],
];

describe.each(implementations)('%s', (_name, create) => {
  describe('write and loadLocation', () => {
    it('reads back what was written, with meta and stream positions', async () => {
      const storage = create();
      await storage.open();
      await storage.write(key, { meta: meta(5), full: false, changes: [{ collection: 'assets', id: 'd1', value: desk('d1') }, { collection: 'floors', id: 'f1', value: { id: 'f1' } }] });
      const cached = await storage.loadLocation(key, () => undefined);
      expect(cached!.meta).toMatchObject({ ...meta(5), schema: STORAGE_SCHEMA_VERSION });
      expect(cached!.entities.assets).toEqual([desk('d1')]);
      expect(cached!.entities.floors).toEqual([{ id: 'f1' }]);
      expect(cached!.entities.sensors).toEqual([]);
      await storage.close();
    });

    it('applies puts and deletes incrementally and replaces everything on a full write', async () => {
      const storage = create();
      await storage.open();
      await storage.write(key, { meta: meta(), full: false, changes: [{ collection: 'assets', id: 'a', value: desk('a') }, { collection: 'assets', id: 'b', value: desk('b') }] });
      await storage.write(key, { meta: meta(), full: false, changes: [{ collection: 'assets', id: 'a', value: null }, { collection: 'assets', id: 'b', value: desk('b', 'renamed') }] });
      expect((await storage.loadLocation(key, () => undefined))!.entities.assets).toEqual([desk('b', 'renamed')]);
      await storage.write(key, { meta: meta(), full: true, changes: [{ collection: 'assets', id: 'c', value: desk('c') }] });
      expect((await storage.loadLocation(key, () => undefined))!.entities.assets).toEqual([desk('c')]);
      await storage.close();
    });

    it('keeps locations and users apart and clears only the signed-out user', async () => {
      const storage = create();
      await storage.open();
      const other = { userId: 'u2', locationId: 'l1' };
      await storage.write(key, { meta: meta(), full: false, changes: [{ collection: 'assets', id: 'a', value: desk('a') }] });
      await storage.write(other, { meta: { ...meta(), ...other }, full: false, changes: [{ collection: 'assets', id: 'z', value: desk('z') }] });
      await storage.saveSession({ host: 'h', version: 1, token: 't', userId: 'u1', permissions: [], expiresAt: null, organizationId: 'o1', locationId: 'l1', floorId: null });
      await storage.clearUser('u1');
      expect(await storage.loadLocation(key, () => undefined)).toBeNull();
      expect(await storage.loadSession()).toBeNull();
      expect((await storage.loadLocation(other, () => undefined))!.entities.assets).toEqual([desk('z')]);
      await storage.close();
    });

    it('returns null when nothing is cached', async () => {
      const storage = create();
      await storage.open();
      expect(await storage.loadLocation({ userId: 'x', locationId: 'y' }, () => undefined)).toBeNull();
      await storage.close();
    });
  });

  describe('parts', () => {
    const part = (id: string, p: string, value: unknown = desk(id)) => ({ collection: 'assets' as const, id, value, part: p });

    it('reads the parts asked for once the meta is known, and lists every part in the meta', async () => {
      const storage = create();
      await storage.open();
      await storage.write(key, {
        meta: { ...meta(), floorId: 'f1' }, full: true,
        changes: [part('d1', 'f1'), part('d2', 'f2'), { collection: 'floors', id: 'f1', value: { id: 'f1' } }],
      });
      const seen: Array<string | null | undefined> = [];
      const first = await storage.loadLocation(key, () => undefined, { parts: (m) => { seen.push(m.floorId); return ['', m.floorId!]; } });
      expect(seen).toEqual(['f1']);
      expect(first!.parts).toEqual(['', 'f1']);
      expect(first!.meta.parts!.sort()).toEqual(['', 'f1', 'f2']);
      expect(first!.entities.assets).toEqual([desk('d1')]);
      expect(first!.entities.floors).toEqual([{ id: 'f1' }]);
      const rest = await storage.loadLocation(key, () => undefined, { parts: () => ['f2'] });
      expect(rest!.entities.assets).toEqual([desk('d2')]);
      expect(rest!.entities.floors).toEqual([]);
      const all = await storage.loadLocation(key, () => undefined);
      expect(all!.entities.assets.map((a) => (a as { id: string }).id).sort()).toEqual(['d1', 'd2']);
      await storage.close();
    });

    it('moves an entity between parts by a delete in the old one and a put in the new one', async () => {
      const storage = create();
      await storage.open();
      await storage.write(key, { meta: meta(), full: true, changes: [part('d1', 'f1'), part('d2', 'f1')] });
      await storage.write(key, { meta: meta(), full: false, changes: [part('d1', 'f1', null), part('d1', 'f2', desk('d1', 'moved'))] });
      expect((await storage.loadLocation(key, () => undefined, { parts: () => ['f1'] }))!.entities.assets).toEqual([desk('d2')]);
      expect((await storage.loadLocation(key, () => undefined, { parts: () => ['f2'] }))!.entities.assets).toEqual([desk('d1', 'moved')]);
      await storage.close();
    });
  });

  describe('a full rewrite made ahead (prepare)', () => {
    it('stores the records prepare made, in their parts, leaving deletes out, and replaces what was there', async () => {
      const storage = create();
      await storage.open();
      await storage.write(key, { meta: meta(1), full: false, changes: [{ collection: 'assets', id: 'old', value: desk('old') }] });
      const changes: CacheWrite['changes'] = [
        { collection: 'assets', id: 'a', value: desk('a'), part: 'f1' }, { collection: 'assets', id: 'gone', value: null, part: 'f1' },
        { collection: 'assets', id: 'b', value: desk('b'), part: 'f2' }, { collection: 'sensors', id: 's', value: { id: 's' }, part: 'f2' },
      ];
      const prepared = [storage.prepare('f1', changes.slice(0, 2)), storage.prepare('f2', changes.slice(2, 3)), storage.prepare('f2', changes.slice(3))];
      // what prepare made does not follow later changes to the entities
      (changes[0]!.value as { name: string }).name = 'changed after';
      await storage.write(key, { meta: meta(2), full: true, changes, prepared });
      const cached = await storage.loadLocation(key, () => undefined, { parts: () => ['f1', 'f2', ''] });
      expect(cached!.meta.savedAt).toBe(2);
      expect(cached!.meta.parts!.sort()).toEqual(['f1', 'f2']);
      expect(cached!.entities.assets).toEqual([desk('a'), desk('b')]);
      expect(cached!.entities.sensors).toEqual([{ id: 's' }]);
      await storage.close();
    });
  });

  describe('saveView and loadView', () => {
    it('keeps a floor view ready to serve, per user and location, and forgets it with the user', async () => {
      const storage = create();
      await storage.open();
      const view = { floorId: 'f1', layers: ['desks'], savedAt: 7, entries: { d1: { id: 'd1', color: '#fff' } } };
      expect(await storage.loadView(key)).toBeNull();
      await storage.saveView(key, view);
      expect(await storage.loadView(key)).toEqual(view);
      expect(await storage.loadView({ userId: 'u2', locationId: 'l1' })).toBeNull();
      await storage.clearUser('u1');
      expect(await storage.loadView(key)).toBeNull();
      await storage.close();
    });
  });

  describe('saveSession and loadSession', () => {
    it('keeps the session so a reopen can resume', async () => {
      const storage = create();
      await storage.open();
      const session = { host: 'http://127.0.0.1:1', version: 1, token: 'tok', userId: 'u1', permissions: ['ASSET_UPDATE'], expiresAt: null, organizationId: 'o1', locationId: 'l1', floorId: 'f1' };
      await storage.saveSession(session);
      expect(await storage.loadSession()).toEqual(session);
      await storage.saveSession(null);
      expect(await storage.loadSession()).toBeNull();
      await storage.close();
    });
  });
});

describe('idbStorage', () => {
  describe('open', () => {
    it('drops a cache of an older schema with a warning', async () => {
      const name = freshName();
      const v1 = createIdbStorage({ name, version: 1 });
      expect((await v1.open()).warnings).toEqual([]);
      await v1.write(key, { meta: meta(), full: false, changes: [{ collection: 'assets', id: 'a', value: desk('a') }] });
      await v1.close();

      const v2 = createIdbStorage({ name, version: 2 });
      const { warnings } = await v2.open();
      expect(warnings).toEqual([STORAGE_WARNINGS.SCHEMA_DROPPED]);
      expect(warnings).toEqual(['Cached data from an older version was dropped.']);
      expect(await v2.loadLocation(key, () => undefined)).toBeNull();
      await v2.close();
    });

    it('starts over with a warning when the database on disk is newer than ours', async () => {
      const name = freshName();
      const newer = await openDB(name, 9, { upgrade(db) { db.createObjectStore('whatever'); } });
      newer.close();
      const storage = createIdbStorage({ name, version: 1 });
      expect((await storage.open()).warnings).toEqual([STORAGE_WARNINGS.SCHEMA_DROPPED]);
      await storage.write(key, { meta: meta(), full: false, changes: [] });
      expect(await storage.loadLocation(key, () => undefined)).not.toBeNull();
      await storage.close();
    });
  });

  describe('loadLocation', () => {
    it('drops an unreadable cached location with a warning', async () => {
      const name = freshName();
      const storage = createIdbStorage({ name });
      await storage.open();
      await storage.write(key, { meta: meta(), full: false, changes: [{ collection: 'assets', id: 'a', value: desk('a') }] });
      await storage.close();
      const raw = await openDB(name, STORAGE_SCHEMA_VERSION);
      await raw.put('meta', { garbage: true }, ['u1', 'l1']);
      raw.close();

      const reopened = createIdbStorage({ name });
      await reopened.open();
      const warnings: string[] = [];
      expect(await reopened.loadLocation(key, (w) => warnings.push(w))).toBeNull();
      expect(warnings).toEqual([STORAGE_WARNINGS.UNREADABLE_DROPPED]);
      expect(warnings).toEqual(['Unreadable cached data was dropped.']);
      expect(await reopened.loadLocation(key, () => undefined)).toBeNull();
      await reopened.close();
    });
  });

  describe('write', () => {
    it('stores a full write as a few large records, not one row per entity', async () => {
      const name = freshName();
      const storage = createIdbStorage({ name });
      await storage.open();
      const changes = Array.from({ length: CHUNK_ENTITIES * 2 + 1 }, (_, i) => ({ collection: 'sensors' as const, id: `s${i}`, value: desk(`s${i}`) }));
      await storage.write(key, { meta: meta(), full: true, changes });
      await storage.close();
      const raw = await openDB(name, STORAGE_SCHEMA_VERSION);
      expect(await raw.count('records')).toBe(3);
      raw.close();
      const reopened = createIdbStorage({ name });
      const cached = await reopened.loadLocation(key, () => undefined);
      expect(cached!.entities.sensors).toHaveLength(CHUNK_ENTITIES * 2 + 1);
      expect(cached!.entities.sensors[CHUNK_ENTITIES * 2]).toEqual(desk(`s${CHUNK_ENTITIES * 2}`));
      await reopened.close();
    });

    it('appends one record per incremental write and replays them in order on load', async () => {
      const name = freshName();
      const storage = createIdbStorage({ name });
      await storage.open();
      await storage.write(key, { meta: meta(), full: true, changes: [{ collection: 'assets', id: 'a', value: desk('a') }, { collection: 'assets', id: 'b', value: desk('b') }] });
      await storage.write(key, { meta: meta(), full: false, changes: [{ collection: 'assets', id: 'a', value: desk('a', 'one') }] });
      await storage.write(key, { meta: meta(), full: false, changes: [{ collection: 'assets', id: 'a', value: desk('a', 'two') }, { collection: 'assets', id: 'b', value: null }] });
      await storage.write(key, { meta: meta(), full: false, changes: [{ collection: 'assets', id: 'b', value: desk('b', 'back') }] });
      await storage.close();
      const raw = await openDB(name, STORAGE_SCHEMA_VERSION);
      expect(await raw.count('records')).toBe(4);
      raw.close();
      const reopened = createIdbStorage({ name });
      expect((await reopened.loadLocation(key, () => undefined))!.entities.assets).toEqual([desk('a', 'two'), desk('b', 'back')]);
      await reopened.close();
    });

    it(`asks for a full rewrite once ${MAX_DELTA_RECORDS} incremental records pile up, and a full write folds them`, async () => {
      const name = freshName();
      const storage = createIdbStorage({ name });
      await storage.open();
      const results = [];
      for (let i = 0; i < MAX_DELTA_RECORDS; i++) {
        results.push(await storage.write(key, { meta: meta(), full: false, changes: [{ collection: 'assets', id: 'a', value: desk('a', `v${i}`) }] }));
      }
      expect(results.slice(0, -1).every((r) => !r || !r.compact)).toBe(true);
      expect(results.at(-1)).toEqual({ compact: true });
      await storage.write(key, { meta: meta(), full: true, changes: [{ collection: 'assets', id: 'a', value: desk('a', 'folded') }] });
      expect(await storage.write(key, { meta: meta(), full: false, changes: [{ collection: 'assets', id: 'b', value: desk('b') }] })).toEqual({ compact: false });
      await storage.close();
      const raw = await openDB(name, STORAGE_SCHEMA_VERSION);
      expect(await raw.count('records')).toBe(2);
      raw.close();
    });

    it('asks for a full rewrite once the incremental records hold many entity changes', async () => {
      const storage = createIdbStorage({ name: freshName() });
      await storage.open();
      const changes = (n: number) => Array.from({ length: n }, (_, i) => ({ collection: 'sensors' as const, id: `s${i}`, value: desk(`s${i}`) }));
      expect(await storage.write(key, { meta: meta(), full: false, changes: changes(MAX_DELTA_ENTITIES - 1) })).toEqual({ compact: false });
      expect(await storage.write(key, { meta: meta(), full: false, changes: changes(1) })).toEqual({ compact: true });
      expect((await storage.loadLocation(key, () => undefined))!.entities.sensors).toHaveLength(MAX_DELTA_ENTITIES - 1);
      await storage.close();
    });

    it('lands nothing of a write holding a value that cannot be stored', async () => {
      const storage = createIdbStorage({ name: freshName() });
      await storage.open();
      await storage.write(key, { meta: meta(1), full: false, changes: [{ collection: 'assets', id: 'a', value: desk('a') }] });
      const cyclic: Record<string, unknown> = { id: 'b' };
      cyclic.self = cyclic;
      const bad = { collection: 'assets' as const, id: 'b', value: cyclic };
      await expect(storage.write(key, { meta: meta(2), full: false, changes: [bad] })).rejects.toThrow();
      const cached = await storage.loadLocation(key, () => undefined);
      expect(cached!.meta.savedAt).toBe(1);
      expect(cached!.entities.assets).toEqual([desk('a')]);
      await storage.close();
    });
  });

  describe('a large write, a record per task (issue 14)', () => {
    /** Counts turns of the event loop: a callback re-queued with setImmediate, as a live message would be. */
    function turns() {
      let count = 0;
      let running = true;
      const tick = () => { count += 1; if (running) setImmediate(tick); };
      setImmediate(tick);
      return { now: () => count, stop: () => { running = false; } };
    }

    /** Desks whose serialization notes the turn it happened in (JSON.stringify calls toJSON). */
    function countedDesks(n: number, at: () => number, seen: number[], name = 'new') {
      return Array.from({ length: n }, (_, i) => ({
        collection: 'assets' as const, id: `d${i}`, part: i % 2 ? 'f1' : 'f2',
        value: { id: `d${i}`, toJSON() { seen.push(at()); return desk(`d${i}`, name); } },
      }));
    }

    async function previousCache(storage: StoragePort) {
      await storage.write(key, { meta: meta(1), full: true, changes: [{ collection: 'assets', id: 'old', value: desk('old') }] });
    }

    it('serializes a full rewrite a record per task, so other work runs between its records, and reads it back whole', async () => {
      const name = freshName();
      const storage = createIdbStorage({ name });
      await storage.open();
      await previousCache(storage);
      const loop = turns();
      const seen: number[] = [];
      const n = CHUNK_ENTITIES * 6;
      await storage.write(key, { meta: meta(2), full: true, changes: countedDesks(n, loop.now, seen) });
      loop.stop();
      const perTurn = new Map<number, number>();
      for (const turn of seen) perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
      expect(seen).toHaveLength(n);
      expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(CHUNK_ENTITIES);
      expect(perTurn.size).toBeGreaterThanOrEqual(6);
      await storage.close();
      const reopened = createIdbStorage({ name });
      const cached = await reopened.loadLocation(key, () => undefined);
      expect(cached!.meta.savedAt).toBe(2);
      expect(cached!.entities.assets).toHaveLength(n);
      expect(cached!.entities.assets).not.toContainEqual(desk('old'));
      expect(cached!.entities.assets).toContainEqual(desk(`d${n - 1}`, 'new'));
      await reopened.close();
    });

    it('lands none of a rewrite stopped midway (a sign-out): a reopen reads the previous cache whole', async () => {
      const name = freshName();
      const storage = createIdbStorage({ name });
      await storage.open();
      await previousCache(storage);
      const stop = new AbortController();
      const seen: number[] = [];
      // the sign-out comes while the third record is being made
      const changes = countedDesks(CHUNK_ENTITIES * 6, () => { if (seen.length === CHUNK_ENTITIES * 2) stop.abort(); return 0; }, seen);
      await expect(storage.write(key, { meta: meta(2), full: true, changes }, { signal: stop.signal })).rejects.toMatchObject({ name: 'AbortError' });
      // it stopped there: the records after it were never made
      expect(seen.length).toBeLessThan(CHUNK_ENTITIES * 4);
      await storage.close();
      const reopened = createIdbStorage({ name });
      const cached = await reopened.loadLocation(key, () => undefined);
      expect(cached!.meta.savedAt).toBe(1);
      expect(cached!.entities.assets).toEqual([desk('old')]);
      await reopened.close();
    });

    it('lands none of a rewrite whose later record cannot be stored', async () => {
      const storage = createIdbStorage({ name: freshName() });
      await storage.open();
      await previousCache(storage);
      const changes: CacheWrite['changes'] = Array.from({ length: CHUNK_ENTITIES * 4 }, (_, i) => ({ collection: 'assets', id: `d${i}`, value: desk(`d${i}`) }));
      // a value JSON cannot hold, in the third record
      changes[CHUNK_ENTITIES * 2 + 1] = { collection: 'assets', id: 'bad', value: { id: 'bad', size: 1n } };
      await expect(storage.write(key, { meta: meta(2), full: true, changes })).rejects.toThrow();
      const cached = await storage.loadLocation(key, () => undefined);
      expect(cached!.meta.savedAt).toBe(1);
      expect(cached!.entities.assets).toEqual([desk('old')]);
      await storage.close();
    });

    it('lands none of a rewrite made ahead whose third record cannot be stored', async () => {
      const storage = createIdbStorage({ name: freshName() });
      await storage.open();
      await previousCache(storage);
      const changes: CacheWrite['changes'] = Array.from({ length: CHUNK_ENTITIES * 4 }, (_, i) => ({ collection: 'assets', id: `d${i}`, value: desk(`d${i}`), part: 'f1' }));
      const prepared = [0, 1, 2, 3].map((i) => storage.prepare('f1', changes.slice(i * CHUNK_ENTITIES, (i + 1) * CHUNK_ENTITIES)));
      // a record of another storage's making: the write stops there, after two puts
      prepared[2] = { part: 'f1', body: [{ collection: 'assets', id: 'x', value: desk('x') }] };
      await expect(storage.write(key, { meta: meta(2), full: true, changes, prepared })).rejects.toThrow(TypeError);
      const cached = await storage.loadLocation(key, () => undefined, { parts: () => ['', 'f1'] });
      expect(cached!.meta.savedAt).toBe(1);
      expect(cached!.entities.assets).toEqual([desk('old')]);
      await storage.close();
    });

    it('gives a reader that comes midway one whole cache, never part of the rewrite', async () => {
      const name = freshName();
      const [writer, reader] = [createIdbStorage({ name }), createIdbStorage({ name })];
      await Promise.all([writer.open(), reader.open()]);
      await previousCache(writer);
      let read: Promise<unknown> | null = null;
      const seen: number[] = [];
      // another tab reopens while the second record is being made
      const changes = countedDesks(CHUNK_ENTITIES * 4, () => {
        if (seen.length === CHUNK_ENTITIES + 1) read = reader.loadLocation(key, () => undefined);
        return 0;
      }, seen);
      const written = writer.write(key, { meta: meta(2), full: true, changes });
      await written;
      const cached = await read! as Awaited<ReturnType<StoragePort['loadLocation']>>;
      const ids = cached!.entities.assets.map((a) => (a as { id: string }).id);
      const whole = ids.length === 1 ? ids[0] === 'old' : ids.length === CHUNK_ENTITIES * 4 && !ids.includes('old');
      expect(whole, `the reader got ${ids.length} desks`).toBe(true);
      await Promise.all([writer.close(), reader.close()]);
    });

    it('splits a large incremental write into records a task each, replayed in order', async () => {
      const name = freshName();
      const storage = createIdbStorage({ name });
      await storage.open();
      await previousCache(storage);
      const changes: CacheWrite['changes'] = Array.from({ length: CHUNK_ENTITIES * 2 + 1 }, (_, i) => ({ collection: 'assets', id: `d${i % 3}`, value: desk(`d${i % 3}`, `v${i}`) }));
      await storage.write(key, { meta: meta(2), full: false, changes });
      await storage.close();
      const raw = await openDB(name, STORAGE_SCHEMA_VERSION);
      expect(await raw.count('records')).toBe(1 + 3);
      raw.close();
      const reopened = createIdbStorage({ name });
      const last = (id: number) => CHUNK_ENTITIES * 2 - ((CHUNK_ENTITIES * 2 - id) % 3);
      expect((await reopened.loadLocation(key, () => undefined))!.entities.assets).toEqual([
        desk('old'), desk('d0', `v${last(0)}`), desk('d1', `v${last(1)}`), desk('d2', `v${last(2)}`),
      ]);
      await reopened.close();
    });
  });

  describe('loadLocation (records)', () => {
    it('drops a location whose base record is not JSON with a warning', async () => {
      const name = freshName();
      const storage = createIdbStorage({ name });
      await storage.open();
      await storage.write(key, { meta: meta(), full: true, changes: [{ collection: 'assets', id: 'a', value: desk('a') }] });
      await storage.close();
      const raw = await openDB(name, STORAGE_SCHEMA_VERSION);
      await raw.put('records', '{not json', ['u1', 'l1', '', 'base', 0]);
      raw.close();
      const reopened = createIdbStorage({ name });
      const warnings: string[] = [];
      expect(await reopened.loadLocation(key, (w) => warnings.push(w))).toBeNull();
      expect(warnings).toEqual([STORAGE_WARNINGS.UNREADABLE_DROPPED]);
      expect(await reopened.loadLocation(key, () => undefined)).toBeNull();
      await reopened.close();
    });

    it('drops a location whose records are unreadable with a warning', async () => {
      const name = freshName();
      const storage = createIdbStorage({ name });
      await storage.open();
      await storage.write(key, { meta: meta(), full: true, changes: [{ collection: 'assets', id: 'a', value: desk('a') }] });
      await storage.close();
      const raw = await openDB(name, STORAGE_SCHEMA_VERSION);
      await raw.put('records', JSON.stringify({ delta: [{ collection: 'nonsense', id: 'x', value: {} }] }), ['u1', 'l1', '', 'delta', 0]);
      raw.close();
      const reopened = createIdbStorage({ name });
      const warnings: string[] = [];
      expect(await reopened.loadLocation(key, (w) => warnings.push(w))).toBeNull();
      expect(warnings).toEqual(['Unreadable cached data was dropped.']);
      await reopened.close();
    });
  });
});
