// StoragePort on IndexedDB through idb 8 (DESIGN §5), the only file that
// imports idb. One versioned schema with a single upgrade(): a cache from an
// older schema is dropped with a warning rather than migrated, because it is
// only a cache — the live initial loads rebuild it.
//
// A location is kept in parts (a floor's assets and their sensors, or the
// shared rest), each a few large records: a full write stores a part's
// entities in base chunks of CHUNK_ENTITIES, and each incremental write
// appends delta records per touched part (of CHUNK_ENTITIES changes at most).
// A write is one transaction whose records are serialized one per task
// (putRecords), so even a full rewrite keeps the worker's tasks short. A read takes the parts it is
// asked for (the shown floor first, the rest later) with one getAll per part
// and replays each part's deltas in order; once MAX_DELTA_RECORDS deltas pile
// up the write asks the persister for a full rewrite (compaction). A record
// is the JSON text of its changes: IndexedDB copies a string as one block,
// where an object graph is cloned object by object (3–4× slower to read back
// in fake-indexeddb), and the cached entities are JSON wire data anyway.

import { deleteDB, openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb';
import {
  CACHED_COLLECTIONS, RECORD_CHANGES, SHARED_PART, STORAGE_SCHEMA_VERSION, STORAGE_WARNINGS, isReadableMeta,
  type CacheKey, type CachedCollection, type CachedLocation, type CachedLocationMeta, type CacheWrite,
  type SavedView, type StorageOpenResult, type StoragePort, type StoredSession,
} from './storagePort.js';

/**
 * Changes per record (RECORD_CHANGES), and so per task while a write is serialized: one record's JSON takes
 * a few ms to make and to hand to IndexedDB, so a write never holds the worker for long (issue 14), and a
 * reopen still reads a location of 30,000 entities in one getAll per part.
 */
export const CHUNK_ENTITIES = RECORD_CHANGES;
/** Delta records after which a write asks for a full rewrite (about a minute of throttled writes under load). */
export const MAX_DELTA_RECORDS = 60;
/** Entity changes held in delta records after which a write asks for a full rewrite, so a reopen replays little. */
export const MAX_DELTA_ENTITIES = 8_000;

/** [user, location, part, 'base' | 'delta', n]: 'base' sorts before 'delta'; deltas by a sequence over all parts */
type RecordKey = [string, string, string, 'base' | 'delta', number];

/** JSON text: a base record is an array of puts; a delta record `{ delta: changes }` holds puts and deletes (value null), applied in order. */
type ChangeRecord = string;

/** What the meta record holds beyond the port's meta: the storage's own bookkeeping of delta records. */
interface StoredMeta extends CachedLocationMeta {
  deltas?: { next: number; records: number; entities: number };
}

interface StoreyDb extends DBSchema {
  /** key [userId, locationId] */
  meta: { key: [string, string]; value: StoredMeta };
  records: { key: RecordKey; value: ChangeRecord };
  /** key 'current' */
  session: { key: string; value: StoredSession };
  /** key [userId, locationId]: the JSON text of a SavedView */
  views: { key: [string, string]; value: string };
}

export interface IdbStorageOptions {
  /** database name; default 'storey' */
  name?: string;
  /** schema version; default STORAGE_SCHEMA_VERSION (tests bump it) */
  version?: number;
}

const SESSION_KEY = 'current';
// An array sorts after every string in IndexedDB key order, so [a, b, []] bounds all keys under [a, b].
const UPPER: never[] = [];

const COLLECTION_NAMES: ReadonlySet<string> = new Set(CACHED_COLLECTIONS);

type Change = CacheWrite['changes'][number];

function readableChange(c: unknown): c is Change {
  const change = c as Partial<Change> | null;
  return !!change && typeof change.id === 'string' && typeof change.collection === 'string' && COLLECTION_NAMES.has(change.collection)
    && (change.value === null || (!!change.value && typeof change.value === 'object'));
}

/** Replays one part's records (bases, then deltas in order) into `entities`; false when any of it is unreadable. */
function replay(records: readonly unknown[], entities: CachedLocation['entities']): boolean {
  const parsed: Array<{ delta: boolean; changes: unknown[] }> = [];
  for (const record of records) {
    if (typeof record !== 'string') return false;
    let body: unknown;
    try { body = JSON.parse(record); } catch { return false; }
    const delta = !Array.isArray(body);
    const changes = delta ? (body as { delta?: unknown } | null)?.delta : body;
    if (!Array.isArray(changes)) return false;
    parsed.push({ delta, changes });
  }
  if (!parsed.some((r) => r.delta)) {
    // bases only (the usual reopen after a compaction): entities are unique, no merge needed
    for (const { changes } of parsed) {
      for (const c of changes) {
        if (!readableChange(c) || c.value === null) return false;
        entities[c.collection].push(c.value);
      }
    }
    return true;
  }
  const latest = new Map<string, { collection: CachedCollection; value: unknown }>();
  for (const { changes } of parsed) {
    for (const c of changes) {
      if (!readableChange(c)) return false;
      const rowId = `${c.collection}\u0000${c.id}`;
      if (c.value === null) latest.delete(rowId);
      else latest.set(rowId, { collection: c.collection, value: c.value });
    }
  }
  for (const { collection, value } of latest.values()) entities[collection].push(value);
  return true;
}

function readableView(value: unknown, key: CacheKey): SavedView | null {
  if (typeof value !== 'string') return null;
  try {
    const view = JSON.parse(value) as Partial<SavedView> & CacheKey;
    return view && view.userId === key.userId && view.locationId === key.locationId && typeof view.floorId === 'string'
      && Array.isArray(view.layers) && typeof view.savedAt === 'number' && !!view.entries && typeof view.entries === 'object'
      ? { floorId: view.floorId, layers: view.layers, savedAt: view.savedAt, entries: view.entries }
      : null;
  } catch {
    return null;
  }
}

export function createIdbStorage(options: IdbStorageOptions = {}): StoragePort {
  const name = options.name ?? 'storey';
  const version = options.version ?? STORAGE_SCHEMA_VERSION;
  let db: IDBPDatabase<StoreyDb> | null = null;

  async function openFresh(warnings: string[]): Promise<IDBPDatabase<StoreyDb>> {
    return openDB<StoreyDb>(name, version, {
      upgrade(database, oldVersion) {
        if (oldVersion > 0) {
          for (const store of Array.from(database.objectStoreNames)) database.deleteObjectStore(store);
          warnings.push(STORAGE_WARNINGS.SCHEMA_DROPPED);
        }
        database.createObjectStore('meta');
        database.createObjectStore('records');
        database.createObjectStore('session');
        database.createObjectStore('views');
      },
    });
  }

  async function handle(): Promise<IDBPDatabase<StoreyDb>> {
    if (!db) await storage.open();
    return db!;
  }

  const locationRange = (key: CacheKey) => IDBKeyRange.bound([key.userId, key.locationId], [key.userId, key.locationId, UPPER]);
  const partRange = (key: CacheKey, part: string) => IDBKeyRange.bound([key.userId, key.locationId, part], [key.userId, key.locationId, part, UPPER]);

  async function dropLocation(key: CacheKey): Promise<void> {
    const d = await handle();
    const tx = d.transaction(['meta', 'records', 'views'], 'readwrite');
    await Promise.all([
      tx.objectStore('meta').delete([key.userId, key.locationId]),
      tx.objectStore('records').delete(locationRange(key)),
      tx.objectStore('views').delete([key.userId, key.locationId]),
      tx.done,
    ]);
  }

  /**
   * Puts a write's records, one record (at most CHUNK_ENTITIES changes of one part) serialized per task:
   * each put is awaited before the next record is serialized, so the transaction stays open across tasks
   * (a request that lands keeps it alive) and the worker runs live work between them (issue 14: a full
   * rewrite of 30,000 entities was one task of 150–450 ms). It is still one transaction: a crash, a
   * sign-out (`signal`) or a failed put midway lands none of it, and the previous cache stays whole.
   */
  async function putRecords(
    tx: IDBPTransaction<StoreyDb, Array<'meta' | 'records'>, 'readwrite'>, key: CacheKey, write: CacheWrite,
    meta: StoredMeta | undefined, signal: AbortSignal | undefined,
  ): Promise<{ parts: Set<string>; deltas: NonNullable<StoredMeta['deltas']> }> {
    const records = tx.objectStore('records');
    const byPart = new Map<string, Change[]>();
    for (const c of write.changes) {
      if (write.full && c.value === null) continue;
      const part = c.part ?? SHARED_PART;
      let list = byPart.get(part);
      if (!list) byPart.set(part, (list = []));
      list.push(c);
    }
    const deltas = write.full ? { next: 0, records: 0, entities: 0 } : { ...(meta?.deltas ?? { next: 0, records: 0, entities: 0 }) };
    // the previous base and deltas go in the same transaction that puts the new base: a reader sees one or the other
    if (write.full) void records.delete(locationRange(key)).catch(() => undefined);
    if (write.full && write.prepared) {
      // made ahead (the persister's paced slices): only stored here, still a put a task
      const counts = new Map<string, number>();
      for (const { part, body } of write.prepared) {
        signal?.throwIfAborted();
        if (typeof body !== 'string') throw new TypeError('A prepared record of another storage');
        const n = counts.get(part) ?? 0;
        counts.set(part, n + 1);
        await records.put(body, [key.userId, key.locationId, part, 'base', n]);
      }
      signal?.throwIfAborted();
      return { parts: new Set(counts.keys()), deltas };
    }
    for (const [part, changes] of byPart) {
      for (let i = 0, n = 0; i < changes.length; i += CHUNK_ENTITIES, n++) {
        signal?.throwIfAborted();
        const chunk = changes.slice(i, i + CHUNK_ENTITIES);
        if (write.full) {
          await records.put(JSON.stringify(chunk), [key.userId, key.locationId, part, 'base', n]);
        } else {
          await records.put(JSON.stringify({ delta: chunk }), [key.userId, key.locationId, part, 'delta', deltas.next]);
          deltas.next += 1;
          deltas.records += 1;
          deltas.entities += chunk.length;
        }
      }
    }
    signal?.throwIfAborted();
    return { parts: write.full ? new Set(byPart.keys()) : new Set([...(meta?.parts ?? []), ...byPart.keys()]), deltas };
  }

  const storage: StoragePort = {
    async open(): Promise<StorageOpenResult> {
      const warnings: string[] = [];
      if (db) return { warnings };
      try {
        db = await openFresh(warnings);
      } catch (error) {
        // a newer schema on disk (VersionError) or a broken database: start over
        if ((error as Error)?.name !== 'VersionError') throw error;
        await deleteDB(name);
        warnings.push(STORAGE_WARNINGS.SCHEMA_DROPPED);
        db = await openFresh([]);
      }
      db.addEventListener('versionchange', () => { db?.close(); db = null; });
      return { warnings };
    },

    async loadLocation(key, onWarning, options = {}): Promise<CachedLocation | null> {
      const d = await handle();
      const tx = d.transaction(['meta', 'records'], 'readonly');
      const store = tx.objectStore('records');
      const meta = await tx.objectStore('meta').get([key.userId, key.locationId]);
      let readable = meta !== undefined && isReadableMeta(meta, key) && meta.schema === version;
      const wanted = readable ? [...new Set(options.parts?.(meta!) ?? meta!.parts ?? [SHARED_PART])] : [];
      const records = await Promise.all(wanted.map((part) => store.getAll(partRange(key, part))));
      await tx.done;
      if (meta === undefined) return null;
      const entities = Object.fromEntries(CACHED_COLLECTIONS.map((c) => [c, [] as unknown[]])) as CachedLocation['entities'];
      if (readable) readable = records.every((list) => replay(list, entities));
      if (!readable) {
        await dropLocation(key);
        onWarning(isReadableMeta(meta, key) && meta.schema !== version ? STORAGE_WARNINGS.SCHEMA_DROPPED : STORAGE_WARNINGS.UNREADABLE_DROPPED);
        return null;
      }
      const { deltas: _bookkeeping, ...publicMeta } = meta;
      return { meta: publicMeta, entities, parts: wanted };
    },

    async write(key, write, options = {}) {
      const { signal } = options;
      signal?.throwIfAborted();
      const d = await handle();
      const tx = d.transaction(['meta', 'records'], 'readwrite');
      let compact = false;
      try {
        const before = await tx.objectStore('meta').get([key.userId, key.locationId]);
        const current = before && isReadableMeta(before, key) && before.schema === version ? before : undefined;
        const written = await putRecords(tx, key, write, current, signal);
        compact = written.deltas.records >= MAX_DELTA_RECORDS || written.deltas.entities >= MAX_DELTA_ENTITIES;
        const meta: StoredMeta = { ...write.meta, schema: version, parts: [...written.parts], deltas: written.deltas };
        await tx.objectStore('meta').put(meta, [key.userId, key.locationId]);
      } catch (error) {
        // a value that cannot be serialized, a failed put, a sign-out midway: abort so nothing of this write lands
        try { tx.abort(); } catch { /* already finished or aborted */ }
        await tx.done.catch(() => undefined);
        throw error;
      }
      await tx.done;
      return { compact };
    },

    prepare(part, changes) {
      return { part, body: JSON.stringify(changes.filter((c) => c.value !== null)) };
    },

    async loadView(key) {
      const d = await handle();
      return readableView(await d.get('views', [key.userId, key.locationId]), key);
    },

    async saveView(key, view) {
      const d = await handle();
      await d.put('views', JSON.stringify({ ...view, ...key }), [key.userId, key.locationId]);
    },

    async clearUser(userId) {
      const d = await handle();
      const range = IDBKeyRange.bound([userId], [userId, UPPER]);
      const tx = d.transaction(['meta', 'records', 'session', 'views'], 'readwrite');
      const session = await tx.objectStore('session').get(SESSION_KEY);
      await Promise.all([
        tx.objectStore('meta').delete(range),
        tx.objectStore('records').delete(range),
        tx.objectStore('views').delete(range),
        session?.userId === userId ? tx.objectStore('session').delete(SESSION_KEY) : Promise.resolve(),
        tx.done,
      ]);
    },

    async loadSession() {
      const d = await handle();
      const s = await d.get('session', SESSION_KEY);
      return s && typeof s.token === 'string' && typeof s.userId === 'string' ? s : null;
    },

    async saveSession(session) {
      const d = await handle();
      if (session) await d.put('session', session, SESSION_KEY);
      else await d.delete('session', SESSION_KEY);
    },

    async close() {
      db?.close();
      db = null;
    },
  };
  return storage;
}
