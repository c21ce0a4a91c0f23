// In-memory StoragePort for tests and for environments without IndexedDB:
// same contract as idbStorage (values are structured-cloned, writes are
// all-or-nothing), so the engine behaves the same on both.

import type { Id } from '../../shared/types.js';
import {
  CACHED_COLLECTIONS, STORAGE_SCHEMA_VERSION, STORAGE_WARNINGS, isReadableMeta,
  type CacheKey, type CachedCollection, type CachedLocation, type CachedLocationMeta, type CacheWrite,
  type StoragePort, type StoredSession,
} from './storagePort.js';

interface Entry {
  meta: CachedLocationMeta;
  entities: Map<string, { collection: CachedCollection; id: Id; value: unknown }>;
}

export interface MemoryStorage extends StoragePort {
  /** number of locations cached (tests) */
  size(): number;
}

const k = (key: CacheKey) => `${key.userId}\u0000${key.locationId}`;

export function createMemoryStorage(): MemoryStorage {
  const locations = new Map<string, Entry>();
  let session: StoredSession | null = null;
  return {
    async open() { return { warnings: [] }; },
    async loadLocation(key, onWarning) {
      const entry = locations.get(k(key));
      if (!entry) return null;
      if (!isReadableMeta(entry.meta, key) || entry.meta.schema !== STORAGE_SCHEMA_VERSION) {
        locations.delete(k(key));
        onWarning(entry.meta?.schema !== STORAGE_SCHEMA_VERSION ? STORAGE_WARNINGS.SCHEMA_DROPPED : STORAGE_WARNINGS.UNREADABLE_DROPPED);
        return null;
      }
      const entities = Object.fromEntries(CACHED_COLLECTIONS.map((c) => [c, [] as unknown[]])) as CachedLocation['entities'];
      for (const e of entry.entities.values()) entities[e.collection].push(structuredClone(e.value));
      return { meta: structuredClone(entry.meta), entities };
    },
    async write(key, write: CacheWrite) {
      // clone everything first: a value that cannot be cloned throws before anything changes (all-or-nothing)
      const values = write.changes.map((c) => (c.value === null ? null : structuredClone(c.value)));
      const meta = { ...structuredClone(write.meta), schema: STORAGE_SCHEMA_VERSION };
      const prev = locations.get(k(key));
      // updated in place: copying the location's map on every write made a write cost the whole location
      const entities: Entry['entities'] = write.full || !prev ? new Map() : prev.entities;
      write.changes.forEach((c, i) => {
        const id = `${c.collection}\u0000${c.id}`;
        const value = values[i];
        if (value === null) entities.delete(id);
        else entities.set(id, { collection: c.collection, id: c.id, value });
      });
      locations.set(k(key), { meta, entities });
    },
    async clearUser(userId) {
      for (const [key, entry] of locations) if (entry.meta.userId === userId) locations.delete(key);
      if (session?.userId === userId) session = null;
    },
    async loadSession() { return session ? { ...session } : null; },
    async saveSession(s) { session = s ? { ...s } : null; },
    async close() { /* nothing to release */ },
    size: () => locations.size,
  };
}
