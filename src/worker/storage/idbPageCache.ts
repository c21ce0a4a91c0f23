// Report pages of closed days in IndexedDB (DESIGN §9), through idb: one
// record per (user, location, type, day, sensor filter) holding the day's
// checked pages merged into one (one sensor table) as typed arrays, which
// IndexedDB clones as blocks. A database
// of its own ('storey-reports'), so its schema moves apart from the entity
// cache; sign-out clears the user's pages; a write error leaves reports running.

import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { ColumnarPage } from '../../shared/reports/readings.js';
import type { PageCache } from '../reports/runReport.js';

export const PAGE_CACHE_SCHEMA_VERSION = 1;

interface StoredDay {
  userId: string;
  savedAt: number;
  pages: ColumnarPage[];
}

interface ReportsDb extends DBSchema {
  days: { key: string; value: StoredDay; indexes: { user: string } };
}

export interface UserPageCache extends PageCache {
  clearUser(userId: string): Promise<void>;
  close(): Promise<void>;
}

/** A page cache for one user at a time; keys given to get/put are prefixed with the user id. */
export function createIdbPageCache(options: { name?: string; userId: () => string | null; now: () => number }): UserPageCache {
  const name = options.name ?? 'storey-reports';
  let db: Promise<IDBPDatabase<ReportsDb>> | null = null;
  const open = () => {
    db ??= openDB<ReportsDb>(name, PAGE_CACHE_SCHEMA_VERSION, {
      upgrade(database) {
        for (const store of Array.from(database.objectStoreNames)) database.deleteObjectStore(store);
        database.createObjectStore('days').createIndex('user', 'userId');
      },
    });
    return db;
  };
  const keyOf = (key: string) => {
    const user = options.userId();
    return user ? `${user}|${key}` : null;
  };
  return {
    async get(key) {
      const k = keyOf(key);
      if (!k) return null;
      const day = await (await open()).get('days', k);
      return day && Array.isArray(day.pages) && day.pages.every(isPage) ? day.pages : null;
    },
    async put(key, pages) {
      const k = keyOf(key);
      const user = options.userId();
      if (!k || !user) return;
      await (await open()).put('days', { userId: user, savedAt: options.now(), pages }, k);
    },
    async clearUser(userId) {
      const d = await open();
      const tx = d.transaction('days', 'readwrite');
      for (const key of await tx.store.index('user').getAllKeys(userId)) await tx.store.delete(key);
      await tx.done;
    },
    async close() {
      if (db) (await db).close();
      db = null;
    },
  };
}

function isPage(p: unknown): p is ColumnarPage {
  const page = p as Partial<ColumnarPage> | null;
  return !!page && typeof page.n === 'number' && page.time instanceof Float64Array && page.validTo instanceof Float64Array
    && page.value instanceof Float64Array && page.sensor instanceof Int32Array && Array.isArray(page.sensors) && page.time.length === page.n
    && (page.pagesAsSent === undefined || (Number.isInteger(page.pagesAsSent) && page.pagesAsSent >= 1))
    && (page.battery === undefined || (page.battery instanceof Float64Array && page.battery.length === page.n));
}

/** The same port in memory (tests, and when IndexedDB is unavailable). */
export function createMemoryPageCache(): UserPageCache & { readonly size: number } {
  const days = new Map<string, ColumnarPage[]>();
  return {
    get size() { return days.size; },
    async get(key) { return days.get(key) ?? null; },
    async put(key, pages) { days.set(key, pages); },
    async clearUser() { days.clear(); },
    async close() { /* nothing to close */ },
  };
}
