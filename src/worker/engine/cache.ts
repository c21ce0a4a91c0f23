// Between the store and the storage port: fill the store from a cached
// location (served at once, marked fromCache) and describe what to persist.
// Derived local entities (user employee assets, manual sensors) are never
// cached; they are derived again from the cached users.

import type { Id } from '../../shared/types.js';
import type { CacheKey, CachedCollection, CachedLocation, PersistSource } from '../storage/index.js';
import { CACHED_COLLECTIONS } from '../storage/index.js';
import { clearLocationData, clearStore, reindexAll, type Store } from '../store/store.js';

/** What a location switch inside a live organization takes from the cache. */
const LOCATION_COLLECTIONS: readonly CachedCollection[] = ['buildings', 'floors', 'assets', 'sensors'];

type AnyMap = Map<Id, { id: Id; local?: boolean }>;

export function collectionMap(store: Store, collection: CachedCollection): AnyMap {
  switch (collection) {
    case 'organizations': return store.organizations as AnyMap;
    case 'locations': return store.locations as AnyMap;
    case 'users': return store.users as AnyMap;
    case 'external_objects': return store.externalObjects as AnyMap;
    case 'buildings': return store.buildings as AnyMap;
    case 'floors': return store.floors as AnyMap;
    case 'assets': return store.assets as AnyMap;
    case 'sensors': return store.sensors as AnyMap;
    case 'notifications': return store.notifications as AnyMap;
  }
}

/**
 * Replaces the store's content with a cached location. Returns false (store
 * untouched) when an entity is not even an object with a string id: such a
 * cache is unreadable and must be dropped by the caller.
 */
export function restoreInto(store: Store, cached: CachedLocation, options: { locationOnly?: boolean } = {}): boolean {
  const collections = options.locationOnly ? LOCATION_COLLECTIONS : CACHED_COLLECTIONS;
  for (const collection of collections) {
    for (const e of cached.entities[collection] ?? []) {
      if (!e || typeof e !== 'object' || typeof (e as { id?: unknown }).id !== 'string') return false;
    }
  }
  if (options.locationOnly) clearLocationData(store); else clearStore(store);
  store.organizationId = cached.meta.organizationId;
  store.locationId = cached.meta.locationId;
  for (const collection of collections) {
    const map = collectionMap(store, collection);
    for (const e of cached.entities[collection] ?? []) map.set((e as { id: Id }).id, e as { id: Id });
  }
  reindexAll(store);
  return true;
}

export interface PersistSourceOptions {
  store: Store;
  key: CacheKey;
  organizationId: Id;
  now(): number;
  streams(): Record<string, { stream_id: string; stream_sequence: number }>;
}

export function createPersistSource(options: PersistSourceOptions): PersistSource {
  const { store, key } = options;
  return {
    key,
    meta: () => ({ ...key, organizationId: options.organizationId, savedAt: options.now(), streams: options.streams() }),
    read(collection, id) {
      const value = collectionMap(store, collection).get(id);
      return value && !value.local ? value : null;
    },
    size() {
      let n = 0;
      for (const collection of CACHED_COLLECTIONS) n += collectionMap(store, collection).size;
      return n;
    },
    all() {
      const out: Array<{ collection: CachedCollection; id: Id; value: unknown }> = [];
      for (const collection of CACHED_COLLECTIONS) {
        for (const [id, value] of collectionMap(store, collection)) if (!value.local) out.push({ collection, id, value });
      }
      return out;
    },
  };
}
