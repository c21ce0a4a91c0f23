// In-memory StoragePort for tests and for environments without IndexedDB:
// same contract as idbStorage (values are structured-cloned, writes are
// all-or-nothing, a location is kept in parts), so the engine behaves the
// same on both.

import type { Id } from '../../shared/types.js';
import {
  CACHED_COLLECTIONS, SHARED_PART, STORAGE_SCHEMA_VERSION, STORAGE_WARNINGS, isReadableMeta,
  type CacheKey, type CachedCollection, type CachedLocation, type CachedLocationMeta, type CacheWrite,
  type SavedView, type StoragePort, type StoredSession,
} from './storagePort.js';

interface Entry {
  meta: CachedLocationMeta;
  /** part → `${collection}\0${id}` → entity */
  parts: Map<string, Map<string, { collection: CachedCollection; id: Id; value: unknown }>>;
}

export interface MemoryStorage extends StoragePort {
  /** number of locations cached (tests) */
  size(): number;
}

const k = (key: CacheKey) => `${key.userId}\u0000${key.locationId}`;

export function createMemoryStorage(): MemoryStorage {
  const locations = new Map<string, Entry>();
  const views = new Map<string, SavedView>();
  let session: StoredSession | null = null;
  return {
    async open() { return { warnings: [] }; },
    async loadLocation(key, onWarning, options = {}) {
      const entry = locations.get(k(key));
      if (!entry) return null;
      if (!isReadableMeta(entry.meta, key) || entry.meta.schema !== STORAGE_SCHEMA_VERSION) {
        locations.delete(k(key));
        views.delete(k(key));
        onWarning(entry.meta?.schema !== STORAGE_SCHEMA_VERSION ? STORAGE_WARNINGS.SCHEMA_DROPPED : STORAGE_WARNINGS.UNREADABLE_DROPPED);
        return null;
      }
      const meta = structuredClone(entry.meta);
      const wanted = [...new Set(options.parts?.(meta) ?? meta.parts ?? [SHARED_PART])];
      const entities = Object.fromEntries(CACHED_COLLECTIONS.map((c) => [c, [] as unknown[]])) as CachedLocation['entities'];
      for (const part of wanted) {
        for (const e of entry.parts.get(part)?.values() ?? []) entities[e.collection].push(structuredClone(e.value));
      }
      return { meta, entities, parts: wanted };
    },
    async write(key, write: CacheWrite, options = {}) {
      // a write whose caller stopped (a sign-out) before it landed lands nothing
      options.signal?.throwIfAborted();
      const prev = locations.get(k(key));
      if (write.full && write.prepared) {
        // records made ahead by prepare: already cloned
        const parts: Entry['parts'] = new Map();
        for (const { part, body } of write.prepared) {
          let rows = parts.get(part);
          if (!rows) parts.set(part, (rows = new Map()));
          for (const c of body as Array<{ collection: CachedCollection; id: Id; value: unknown }>) rows.set(`${c.collection}\u0000${c.id}`, c);
        }
        const meta = { ...structuredClone(write.meta), schema: STORAGE_SCHEMA_VERSION, parts: [...parts.keys()] };
        locations.set(k(key), { meta, parts });
        return;
      }
      // clone everything first: a value that cannot be cloned throws before anything changes (all-or-nothing)
      const values = write.changes.map((c) => (c.value === null ? null : structuredClone(c.value)));
      // updated in place: copying the location's map on every write made a write cost the whole location
      const parts: Entry['parts'] = write.full || !prev ? new Map() : prev.parts;
      write.changes.forEach((c, i) => {
        const part = c.part ?? SHARED_PART;
        let rows = parts.get(part);
        if (!rows) parts.set(part, (rows = new Map()));
        const id = `${c.collection}\u0000${c.id}`;
        const value = values[i];
        if (value === null) rows.delete(id);
        else rows.set(id, { collection: c.collection, id: c.id, value });
      });
      const meta = { ...structuredClone(write.meta), schema: STORAGE_SCHEMA_VERSION, parts: [...parts.keys()] };
      locations.set(k(key), { meta, parts });
    },
    prepare(part, changes) {
      return { part, body: changes.filter((c) => c.value !== null).map((c) => ({ collection: c.collection, id: c.id, value: structuredClone(c.value) })) };
    },
    async loadView(key) {
      const view = views.get(k(key));
      return view ? structuredClone(view) : null;
    },
    async saveView(key, view) {
      views.set(k(key), structuredClone(view));
    },
    async clearUser(userId) {
      for (const [key, entry] of locations) if (entry.meta.userId === userId) locations.delete(key);
      for (const key of views.keys()) if (key.startsWith(`${userId}\u0000`)) views.delete(key);
      if (session?.userId === userId) session = null;
    },
    async loadSession() { return session ? { ...session } : null; },
    async saveSession(s) { session = s ? { ...s } : null; },
    async close() { /* nothing to release */ },
    size: () => locations.size,
  };
}
