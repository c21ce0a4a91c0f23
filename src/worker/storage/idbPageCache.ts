// Report pages of closed days in IndexedDB (DESIGN §9), through idb: one
// record per (user, location, type, day, sensor filter) holding the day's
// checked pages merged into one (one sensor table) as typed arrays, which
// IndexedDB clones as blocks. A database
// of its own ('storey-reports'), so its schema moves apart from the entity
// cache; sign-out clears the user's pages; a write error leaves reports running.
// A replay's pages (keys under `playback|`) have a bounded life: least
// recently used first, past an age or a byte budget (docs/reports.md
// "Replays kept on this device"); nothing else is ever evicted here, and the
// location cache lives in another database.

import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { ColumnarPage } from '../../shared/reports/readings.js';
import { REPLAY_PAGES_PREFIX, type PageCache } from '../reports/runReport.js';

export const PAGE_CACHE_SCHEMA_VERSION = 2;

/** A replay's pages not read for this long are dropped: a day looked at a month ago is read again from the server. */
export const REPLAY_PAGES_MAX_AGE_MS = 30 * 86_400_000;
/** What a user's replay pages may take on this device, about: past it the least recently used go first. */
export const REPLAY_PAGES_BUDGET_BYTES = 100 * 2 ** 20;

interface StoredDay {
  userId: string;
  savedAt: number;
  pages: ColumnarPage[];
}

/** When a bounded entry was last written or read, and about how many bytes it takes. */
interface Use {
  usedAt: number;
  bytes: number;
}

interface ReportsDb extends DBSchema {
  days: { key: string; value: StoredDay; indexes: { user: string } };
  uses: { key: string; value: Use };
}

export interface UserPageCache extends PageCache {
  clearUser(userId: string): Promise<void>;
  close(): Promise<void>;
}

export interface PageCacheOptions {
  name?: string;
  userId: () => string | null;
  now: () => number;
  /** the bounds of a replay's pages (defaults above; tests make them small) */
  replays?: { maxAgeMs?: number; budgetBytes?: number };
}

/** About what a page takes in IndexedDB: its typed arrays, its sensor ids, and its rows' extras and values as sent. */
export function pageBytes(page: ColumnarPage): number {
  let bytes = page.time.byteLength + page.validTo.byteLength + page.value.byteLength + page.sensor.byteLength + (page.battery?.byteLength ?? 0);
  for (const id of page.sensors) bytes += 16 + 2 * id.length;
  if (page.extras) bytes += 64 * page.extras.length;
  if (page.raw) for (const v of page.raw) bytes += v === null || v === undefined ? 1 : typeof v === 'string' ? 16 + 2 * v.length : 64;
  return bytes;
}

/** A page cache for one user at a time; keys given to get/put are prefixed with the user id. */
export function createIdbPageCache(options: PageCacheOptions): UserPageCache {
  const name = options.name ?? 'storey-reports';
  const maxAgeMs = options.replays?.maxAgeMs ?? REPLAY_PAGES_MAX_AGE_MS;
  const budgetBytes = options.replays?.budgetBytes ?? REPLAY_PAGES_BUDGET_BYTES;
  let db: Promise<IDBPDatabase<ReportsDb>> | null = null;
  const open = () => {
    db ??= openDB<ReportsDb>(name, PAGE_CACHE_SCHEMA_VERSION, {
      upgrade(database, oldVersion) {
        // version 1 had the days alone: they stay; replay pages without a use are evicted first
        if (oldVersion < 1) database.createObjectStore('days').createIndex('user', 'userId');
        if (oldVersion < 2) database.createObjectStore('uses');
      },
    });
    return db;
  };
  const keyOf = (key: string) => {
    const user = options.userId();
    return user ? `${user}|${key}` : null;
  };
  const bounded = (key: string) => key.startsWith(REPLAY_PAGES_PREFIX);
  /** every key of the user's replay pages */
  const replayRange = (user: string) => IDBKeyRange.bound(`${user}|${REPLAY_PAGES_PREFIX}`, `${user}|${REPLAY_PAGES_PREFIX}\uffff`);

  /**
   * Drops the user's replay pages unused for longer than the age, then the least recently used until the
   * rest fit the budget. Pages of an older format (never read again) and any kept before uses were recorded
   * count as never used, so they go first.
   */
  async function evict(user: string): Promise<void> {
    const d = await open();
    const tx = d.transaction(['days', 'uses'], 'readwrite');
    const range = replayRange(user);
    const [keys, useKeys, uses] = await Promise.all([
      tx.objectStore('days').getAllKeys(range), tx.objectStore('uses').getAllKeys(range), tx.objectStore('uses').getAll(range),
    ]);
    const useOf = new Map(useKeys.map((k, i) => [k, uses[i]!]));
    const entries = keys.map((key) => ({ key, use: useOf.get(key) ?? { usedAt: 0, bytes: 0 } }))
      .sort((a, b) => b.use.usedAt - a.use.usedAt);
    const now = options.now();
    let total = 0;
    const drop: string[] = [];
    for (const { key, use } of entries) {
      total += use.bytes;
      if (now - use.usedAt > maxAgeMs || total > budgetBytes) drop.push(key);
    }
    // uses whose pages are gone go too
    const kept = new Set(keys);
    for (const key of useKeys) if (!kept.has(key)) drop.push(key);
    await Promise.all(drop.flatMap((key) => [tx.objectStore('days').delete(key), tx.objectStore('uses').delete(key)]));
    await tx.done;
  }

  async function used(d: IDBPDatabase<ReportsDb>, k: string, pages: ColumnarPage[]): Promise<void> {
    const tx = d.transaction('uses', 'readwrite');
    const use = await tx.store.get(k);
    await tx.store.put({ usedAt: options.now(), bytes: use?.bytes ?? pages.reduce((sum, p) => sum + pageBytes(p), 0) }, k);
    await tx.done;
  }

  return {
    async get(key, savedSince) {
      const k = keyOf(key);
      if (!k) return null;
      const d = await open();
      const day = await d.get('days', k);
      // saved while the day was provisional (late readings may have come since): read again
      if (day && savedSince !== undefined && !(day.savedAt >= savedSince)) return null;
      const pages = day && Array.isArray(day.pages) && day.pages.every(isPage) ? day.pages : null;
      // read: recently used (a failed note only makes it look older than it is)
      if (pages && bounded(key)) await used(d, k, pages).catch(() => undefined);
      return pages;
    },
    async put(key, pages) {
      const k = keyOf(key);
      const user = options.userId();
      if (!k || !user) return;
      const d = await open();
      if (!bounded(key)) {
        await d.put('days', { userId: user, savedAt: options.now(), pages }, k);
        return;
      }
      const tx = d.transaction(['days', 'uses'], 'readwrite');
      await Promise.all([
        tx.objectStore('days').put({ userId: user, savedAt: options.now(), pages }, k),
        tx.objectStore('uses').put({ usedAt: options.now(), bytes: pages.reduce((sum, p) => sum + pageBytes(p), 0) }, k),
      ]);
      await tx.done;
      await evict(user);
    },
    async drop(prefix) {
      const k = keyOf(prefix);
      if (!k) return;
      const d = await open();
      const tx = d.transaction(['days', 'uses'], 'readwrite');
      const range = IDBKeyRange.bound(k, `${k}\uffff`);
      await Promise.all([tx.objectStore('days').delete(range), tx.objectStore('uses').delete(range)]);
      await tx.done;
    },
    async clearUser(userId) {
      const d = await open();
      const tx = d.transaction(['days', 'uses'], 'readwrite');
      for (const key of await tx.objectStore('days').index('user').getAllKeys(userId)) await tx.objectStore('days').delete(key);
      await tx.objectStore('uses').delete(IDBKeyRange.bound(`${userId}|`, `${userId}|\uffff`));
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

/** The same port in memory (tests, and when IndexedDB is unavailable); `now` dates what it keeps (without one, all is final). */
export function createMemoryPageCache(now: () => number = () => Number.POSITIVE_INFINITY): UserPageCache & { readonly size: number } {
  const days = new Map<string, { pages: ColumnarPage[]; savedAt: number }>();
  return {
    get size() { return days.size; },
    async get(key, savedSince) {
      const day = days.get(key);
      return day && (savedSince === undefined || day.savedAt >= savedSince) ? day.pages : null;
    },
    async put(key, pages) { days.set(key, { pages, savedAt: now() }); },
    async drop(prefix) { for (const key of [...days.keys()]) if (key.startsWith(prefix)) days.delete(key); },
    async clearUser() { days.clear(); },
    async close() { /* nothing to close */ },
  };
}
