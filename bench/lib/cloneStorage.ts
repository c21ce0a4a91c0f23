// A StoragePort whose cost is what IndexedDB costs the worker's thread: a
// write structured-clones its values (v8 serialize + deserialize; a browser
// serializes puts on the caller's thread, the disk work happens elsewhere).
// Unlike the tests' memoryStorage it updates one map in place, so a write
// costs what it writes, not the whole location.

import { deserialize, serialize } from 'node:v8';
import {
  CACHED_COLLECTIONS, SHARED_PART, STORAGE_SCHEMA_VERSION, type CachedLocation, type CachedLocationMeta, type SavedView, type StoragePort,
  type StoredSession,
} from '../../src/worker/storage/index.js';

interface Row { collection: (typeof CACHED_COLLECTIONS)[number]; value: unknown; part: string }

export function createCloneStorage(): StoragePort & { writes: number; rows: number } {
  const locations = new Map<string, { meta: CachedLocationMeta; rows: Map<string, Row> }>();
  const views = new Map<string, SavedView>();
  let session: StoredSession | null = null;
  const stats = { writes: 0, rows: 0 };
  const keyOf = (userId: string, locationId: string) => `${userId}\u0000${locationId}`;
  return {
    get writes() { return stats.writes; },
    get rows() { return stats.rows; },
    async open() { return { warnings: [] }; },
    async loadLocation(key, _onWarning, options = {}) {
      const entry = locations.get(keyOf(key.userId, key.locationId));
      if (!entry) return null;
      const all = [...new Set([...entry.rows.values()].map((r) => r.part))];
      const parts = options.parts?.(entry.meta) ?? all;
      const entities = Object.fromEntries(CACHED_COLLECTIONS.map((c) => [c, [] as unknown[]])) as CachedLocation['entities'];
      for (const row of entry.rows.values()) if (parts.includes(row.part)) entities[row.collection].push(row.value);
      return { meta: { ...structuredClone(entry.meta), parts: all }, entities, parts: [...parts] };
    },
    async loadView(key) {
      const view = views.get(keyOf(key.userId, key.locationId));
      return view ? structuredClone(view) : null;
    },
    async saveView(key, view) {
      views.set(keyOf(key.userId, key.locationId), deserialize(serialize(view)) as SavedView);
    },
    async write(key, write) {
      const id = keyOf(key.userId, key.locationId);
      let entry = locations.get(id);
      if (!entry || write.full) {
        entry = { meta: { ...write.meta, schema: STORAGE_SCHEMA_VERSION }, rows: new Map() };
        locations.set(id, entry);
      }
      entry.meta = { ...structuredClone(write.meta), schema: STORAGE_SCHEMA_VERSION };
      // one serialization per transaction (node's per-call overhead would otherwise dominate)
      const values = deserialize(serialize(write.changes.map((c) => c.value))) as unknown[];
      write.changes.forEach((c, i) => {
        const rowId = `${c.collection}\u0000${c.id}`;
        if (c.value === null) entry.rows.delete(rowId);
        else entry.rows.set(rowId, { collection: c.collection, value: values[i], part: c.part ?? SHARED_PART });
      });
      stats.writes += 1;
      stats.rows += write.changes.length;
    },
    async clearUser(userId) {
      for (const [k, entry] of locations) if (entry.meta.userId === userId) locations.delete(k);
      if (session?.userId === userId) session = null;
    },
    async loadSession() { return session ? { ...session } : null; },
    async saveSession(s) { session = s ? { ...s } : null; },
    async close() { /* nothing to release */ },
  };
}
