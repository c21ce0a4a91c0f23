// StoragePort on IndexedDB through idb 8 (DESIGN §5), the only file that
// imports idb. One versioned schema with a single upgrade(): a cache from an
// older schema is dropped with a warning rather than migrated, because it is
// only a cache — the live initial loads rebuild it.

import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Id } from '../../shared/types.js';
import {
  CACHED_COLLECTIONS, STORAGE_SCHEMA_VERSION, STORAGE_WARNINGS, isReadableMeta,
  type CacheKey, type CachedCollection, type CachedLocation, type CachedLocationMeta,
  type StorageOpenResult, type StoragePort, type StoredSession,
} from './storagePort.js';

interface EntityRow {
  collection: CachedCollection;
  id: Id;
  value: unknown;
}

interface StoreyDb extends DBSchema {
  /** key [userId, locationId] */
  meta: { key: [string, string]; value: CachedLocationMeta };
  /** key [userId, locationId, collection, id] */
  entities: { key: [string, string, string, string]; value: EntityRow };
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
        database.createObjectStore('entities');
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
    const tx = d.transaction(['meta', 'entities'], 'readwrite');
    await Promise.all([
      tx.objectStore('meta').delete([key.userId, key.locationId]),
      tx.objectStore('entities').delete(locationRange(key)),
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
      const tx = d.transaction(['meta', 'entities'], 'readonly');
      const [meta, rows] = await Promise.all([
        tx.objectStore('meta').get([key.userId, key.locationId]),
        tx.objectStore('entities').getAll(locationRange(key)),
        tx.done,
      ]);
      if (meta === undefined) return null;
      if (!isReadableMeta(meta, key) || meta.schema !== version) {
        await dropLocation(key);
        onWarning(isReadableMeta(meta, key) ? STORAGE_WARNINGS.SCHEMA_DROPPED : STORAGE_WARNINGS.UNREADABLE_DROPPED);
        return null;
      }
      const entities = Object.fromEntries(CACHED_COLLECTIONS.map((c) => [c, [] as unknown[]])) as CachedLocation['entities'];
      for (const row of rows) {
        if (!row || !(CACHED_COLLECTIONS as readonly string[]).includes(row.collection) || !row.value || typeof row.value !== 'object') {
          await dropLocation(key);
          onWarning(STORAGE_WARNINGS.UNREADABLE_DROPPED);
          return null;
        }
        entities[row.collection].push(row.value);
      }
      return { meta, entities };
    },

    async write(key, write) {
      const d = await handle();
      const tx = d.transaction(['meta', 'entities'], 'readwrite');
      const entities = tx.objectStore('entities');
      const ops: Promise<unknown>[] = [];
      if (write.full) ops.push(entities.delete(locationRange(key)));
      for (const c of write.changes) {
        const rowKey: [string, string, string, string] = [key.userId, key.locationId, c.collection, c.id];
        ops.push(c.value === null ? entities.delete(rowKey) : entities.put({ collection: c.collection, id: c.id, value: c.value }, rowKey));
      }
      ops.push(tx.objectStore('meta').put({ ...write.meta, schema: version }, [key.userId, key.locationId]));
      // a failed request aborts the transaction: nothing of this write lands
      ops.forEach((op) => op.catch(() => undefined));
      await tx.done;
    },

    async clearUser(userId) {
      const d = await handle();
      const range = IDBKeyRange.bound([userId], [userId, UPPER]);
      const tx = d.transaction(['meta', 'entities', 'session'], 'readwrite');
      const session = await tx.objectStore('session').get(SESSION_KEY);
      await Promise.all([
        tx.objectStore('meta').delete(range),
        tx.objectStore('entities').delete(range),
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
