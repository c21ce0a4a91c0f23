// StoragePort on IndexedDB through idb 8 (DESIGN §5), the only file that
// imports idb. One versioned schema with a single upgrade(): a cache from an
// older schema is dropped with a warning rather than migrated, because it is
// only a cache — the live initial loads rebuild it.
//
// A location is a few large records, not one row per entity: a full write
// stores its entities in base chunks of CHUNK_ENTITIES, and each incremental
// write appends one delta record of its puts and deletes. A reopen reads them
// all in one getAll and replays the deltas in order; once MAX_DELTA_RECORDS
// deltas pile up the write asks the persister for a full rewrite (compaction).
// A record is the JSON text of its changes: IndexedDB copies a string as one
// block, where an object graph is cloned object by object (3–4× slower to read
// back in fake-indexeddb), and the cached entities are JSON wire data anyway.

import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';
import {
  CACHED_COLLECTIONS, STORAGE_SCHEMA_VERSION, STORAGE_WARNINGS, isReadableMeta,
  type CacheKey, type CachedCollection, type CachedLocation, type CachedLocationMeta, type CacheWrite,
  type StorageOpenResult, type StoragePort, type StoredSession,
} from './storagePort.js';

/** Entities per base record: large enough that a reopen reads a handful of records, small enough to stay cheap to clone. */
export const CHUNK_ENTITIES = 2_000;
/** Delta records after which a write asks for a full rewrite (about a minute of throttled writes under load). */
export const MAX_DELTA_RECORDS = 60;
/** Entity changes held in delta records after which a write asks for a full rewrite, so a reopen replays little. */
export const MAX_DELTA_ENTITIES = 4 * CHUNK_ENTITIES;

type BaseKey = [string, string, 'base', number];
/** [user, location, 'delta', index, entity changes in deltas up to and including this one] */
type DeltaKey = [string, string, 'delta', number, number];
type RecordKey = BaseKey | DeltaKey;

/** JSON text: a base record is an array of puts; a delta record `{ delta: changes }` holds puts and deletes (value null), applied in order. */
type ChangeRecord = string;

interface StoreyDb extends DBSchema {
  /** key [userId, locationId] */
  meta: { key: [string, string]; value: CachedLocationMeta };
  /** key BaseKey | DeltaKey: 'base' sorts before 'delta', deltas by index */
  records: { key: RecordKey; value: ChangeRecord };
  /** key 'current' */
  session: { key: string; value: StoredSession };
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

/** Replays records (bases, then deltas in order) into entity lists; null when any part is unreadable. */
function replay(records: readonly unknown[]): CachedLocation['entities'] | null {
  const parsed: Array<{ delta: boolean; changes: unknown[] }> = [];
  for (const record of records) {
    if (typeof record !== 'string') return null;
    let body: unknown;
    try { body = JSON.parse(record); } catch { return null; }
    const delta = !Array.isArray(body);
    const changes = delta ? (body as { delta?: unknown } | null)?.delta : body;
    if (!Array.isArray(changes)) return null;
    parsed.push({ delta, changes });
  }
  const entities = Object.fromEntries(CACHED_COLLECTIONS.map((c) => [c, [] as unknown[]])) as CachedLocation['entities'];
  if (!parsed.some((r) => r.delta)) {
    // bases only (the usual reopen after a compaction): entities are unique, no merge needed
    for (const { changes } of parsed) {
      for (const c of changes) {
        if (!readableChange(c) || c.value === null) return null;
        entities[c.collection].push(c.value);
      }
    }
    return entities;
  }
  const latest = new Map<string, { collection: CachedCollection; value: unknown }>();
  for (const { changes } of parsed) {
    for (const c of changes) {
      if (!readableChange(c)) return null;
      const rowId = `${c.collection}\u0000${c.id}`;
      if (c.value === null) latest.delete(rowId);
      else latest.set(rowId, { collection: c.collection, value: c.value });
    }
  }
  for (const { collection, value } of latest.values()) entities[collection].push(value);
  return entities;
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
      },
    });
  }

  async function handle(): Promise<IDBPDatabase<StoreyDb>> {
    if (!db) await storage.open();
    return db!;
  }

  const locationRange = (key: CacheKey) => IDBKeyRange.bound([key.userId, key.locationId], [key.userId, key.locationId, UPPER]);

  async function dropLocation(key: CacheKey): Promise<void> {
    const d = await handle();
    const tx = d.transaction(['meta', 'records'], 'readwrite');
    await Promise.all([
      tx.objectStore('meta').delete([key.userId, key.locationId]),
      tx.objectStore('records').delete(locationRange(key)),
      tx.done,
    ]);
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

    async loadLocation(key, onWarning): Promise<CachedLocation | null> {
      const d = await handle();
      const tx = d.transaction(['meta', 'records'], 'readonly');
      const [meta, records] = await Promise.all([
        tx.objectStore('meta').get([key.userId, key.locationId]),
        tx.objectStore('records').getAll(locationRange(key)),
        tx.done,
      ]);
      if (meta === undefined) return null;
      if (!isReadableMeta(meta, key) || meta.schema !== version) {
        await dropLocation(key);
        onWarning(isReadableMeta(meta, key) ? STORAGE_WARNINGS.SCHEMA_DROPPED : STORAGE_WARNINGS.UNREADABLE_DROPPED);
        return null;
      }
      const entities = replay(records);
      if (!entities) {
        await dropLocation(key);
        onWarning(STORAGE_WARNINGS.UNREADABLE_DROPPED);
        return null;
      }
      return { meta, entities };
    },

    async write(key, write) {
      const d = await handle();
      const tx = d.transaction(['meta', 'records'], 'readwrite');
      const records = tx.objectStore('records');
      const ops: Promise<unknown>[] = [];
      let compact = false;
      try {
        if (write.full) {
          ops.push(records.delete(locationRange(key)));
          const puts = write.changes.filter((c) => c.value !== null);
          for (let i = 0, n = 0; i < puts.length; i += CHUNK_ENTITIES, n++) {
            ops.push(records.put(JSON.stringify(puts.slice(i, i + CHUNK_ENTITIES)), [key.userId, key.locationId, 'base', n]));
          }
        } else if (write.changes.length) {
          const deltaRange = IDBKeyRange.bound([key.userId, key.locationId, 'delta'], [key.userId, key.locationId, 'delta', UPPER]);
          const last = (await records.openKeyCursor(deltaRange, 'prev'))?.key as DeltaKey | undefined;
          const index = last ? last[3] + 1 : 0;
          const entities = (last ? last[4] : 0) + write.changes.length;
          compact = index + 1 >= MAX_DELTA_RECORDS || entities >= MAX_DELTA_ENTITIES;
          ops.push(records.put(JSON.stringify({ delta: write.changes }), [key.userId, key.locationId, 'delta', index, entities]));
        }
        ops.push(tx.objectStore('meta').put({ ...write.meta, schema: version }, [key.userId, key.locationId]));
      } catch (error) {
        // e.g. a value that cannot be serialized: abort so nothing of this write lands
        ops.forEach((op) => op.catch(() => undefined));
        try { tx.abort(); } catch { /* already finished */ }
        await tx.done.catch(() => undefined);
        throw error;
      }
      // a failed request aborts the transaction: nothing of this write lands
      ops.forEach((op) => op.catch(() => undefined));
      await tx.done;
      return { compact };
    },

    async clearUser(userId) {
      const d = await handle();
      const range = IDBKeyRange.bound([userId], [userId, UPPER]);
      const tx = d.transaction(['meta', 'records', 'session'], 'readwrite');
      const session = await tx.objectStore('session').get(SESSION_KEY);
      await Promise.all([
        tx.objectStore('meta').delete(range),
        tx.objectStore('records').delete(range),
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
