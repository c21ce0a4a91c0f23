// A StoragePort whose cost on the worker's thread is what idbStorage's is:
// a write turns each touched part's changes into JSON texts of at most
// RECORD_CHANGES changes, one per task as idbStorage puts its records (the
// browser then copies the string to the IndexedDB backend as one block, and
// the disk work happens elsewhere; the next record waits for that put to
// land); the saved floor view is one JSON text too. Unlike the tests' memoryStorage it
// keeps the texts and parses them only on a load, so a write costs what it
// writes, not the whole location.

import {
  CACHED_COLLECTIONS, RECORD_CHANGES, SHARED_PART, STORAGE_SCHEMA_VERSION, type CachedLocation, type CachedLocationMeta, type CacheWrite, type SavedView,
  type StoragePort, type StoredSession,
} from '../../src/worker/storage/index.js';

type Change = CacheWrite['changes'][number];

export function createCloneStorage(): StoragePort & { writes: number; rows: number } {
  const locations = new Map<string, { meta: CachedLocationMeta; records: Map<string, string[]> }>();
  const views = new Map<string, string>();
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
      const meta = { ...entry.meta, parts: [...entry.records.keys()] };
      const parts = [...(options.parts?.(meta) ?? meta.parts)];
      const latest = new Map<string, Change>();
      for (const part of parts) {
        for (const text of entry.records.get(part) ?? []) {
          for (const c of JSON.parse(text) as Change[]) latest.set(`${c.collection}\u0000${c.id}`, c);
        }
      }
      const entities = Object.fromEntries(CACHED_COLLECTIONS.map((c) => [c, [] as unknown[]])) as CachedLocation['entities'];
      for (const c of latest.values()) if (c.value !== null) entities[c.collection].push(c.value);
      return { meta, entities, parts };
    },
    async loadView(key) {
      const text = views.get(keyOf(key.userId, key.locationId));
      return text ? JSON.parse(text) as SavedView : null;
    },
    async saveView(key, view) {
      views.set(keyOf(key.userId, key.locationId), JSON.stringify(view));
    },
    async write(key, write, options = {}) {
      options.signal?.throwIfAborted();
      const byPart = new Map<string, Change[]>();
      for (const c of write.changes) {
        const part = c.part ?? SHARED_PART;
        let list = byPart.get(part);
        if (!list) byPart.set(part, (list = []));
        list.push(c);
      }
      const texts = new Map<string, string[]>();
      // records made ahead by prepare (the persister's paced slices): only stored here
      if (write.full && write.prepared) {
        for (const { part, body } of write.prepared) {
          let list = texts.get(part);
          if (!list) texts.set(part, (list = []));
          list.push(body as string);
        }
        byPart.clear();
      }
      for (const [part, changes] of byPart) {
        const list: string[] = [];
        texts.set(part, list);
        for (let i = 0; i < changes.length; i += RECORD_CHANGES) {
          // a task a record, as idbStorage's puts land between them
          if (i > 0 || texts.size > 1) await new Promise<void>((resolve) => setImmediate(resolve));
          options.signal?.throwIfAborted();
          list.push(JSON.stringify(changes.slice(i, i + RECORD_CHANGES)));
        }
      }
      // all of it or nothing, as one transaction
      const id = keyOf(key.userId, key.locationId);
      let entry = locations.get(id);
      if (!entry || write.full) {
        entry = { meta: { ...write.meta, schema: STORAGE_SCHEMA_VERSION }, records: new Map() };
        locations.set(id, entry);
      }
      entry.meta = { ...write.meta, schema: STORAGE_SCHEMA_VERSION };
      for (const [part, list] of texts) {
        let stored = entry.records.get(part);
        if (!stored) entry.records.set(part, (stored = []));
        stored.push(...list);
      }
      stats.writes += 1;
      stats.rows += write.changes.length;
    },
    prepare(part, changes) {
      return { part, body: JSON.stringify(changes.filter((c) => c.value !== null)) };
    },
    async clearUser(userId) {
      for (const [k, entry] of locations) if (entry.meta.userId === userId) locations.delete(k);
      for (const k of views.keys()) if (k.startsWith(`${userId}\u0000`)) views.delete(k);
      if (session?.userId === userId) session = null;
    },
    async loadSession() { return session ? { ...session } : null; },
    async saveSession(s) { session = s ? { ...s } : null; },
    async close() { /* nothing to release */ },
  };
}
