// Between the store and the storage port: fill the store from a cached
// location (served at once, marked fromCache) and describe what to persist,
// in parts: a floor's assets and the sensors they read go to the floor's
// part, the rest (structure, users, people, who move between floors) to the
// shared one, so a reopen can read the shown floor first. Derived local
// entities (user employee assets, manual sensors) are never cached; they are
// derived again from the cached users.

import type { Asset, Id } from '../../shared/types.js';
import type { CacheKey, CachedCollection, CachedLocation, PersistSource } from '../storage/index.js';
import { CACHED_COLLECTIONS, SHARED_PART } from '../storage/index.js';
import { clearLocationData, clearStore, indexAsset, indexSensor, reindexAll, type Store } from '../store/store.js';

/** Assets that move between floors are kept with the shared part, so a move never rewrites two floors' parts. */
const MOBILE_TYPES: ReadonlySet<string> = new Set(['employee', 'auto_tag']);

/** The cache part of an asset: its floor's, or the shared part for people and assets on no floor. */
export function assetPart(store: Store, asset: Asset): string {
  if (MOBILE_TYPES.has(asset.type)) return SHARED_PART;
  return store.floorOf.get(asset.id) ?? SHARED_PART;
}

/** The cache part of a sensor: the part of the first asset on a floor it feeds. */
export function sensorPart(store: Store, sensorId: Id): string {
  for (const assetId of store.assetsBySensor.get(sensorId) ?? []) {
    const asset = store.assets.get(assetId);
    const part = asset ? assetPart(store, asset) : SHARED_PART;
    if (part !== SHARED_PART) return part;
  }
  return SHARED_PART;
}

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

/**
 * Adds more parts of a cached location to what restoreInto put in the store
 * (the floors read after the first frame), indexing only what they add.
 * Returns the assets that were added or whose sensors arrived, or null (store
 * untouched) when the cache is unreadable.
 */
export function mergeInto(store: Store, cached: CachedLocation): Set<Id> | null {
  const lists = [cached.entities.assets ?? [], cached.entities.sensors ?? []];
  for (const list of lists) {
    for (const e of list) if (!e || typeof e !== 'object' || typeof (e as { id?: unknown }).id !== 'string') return null;
  }
  const assets = cached.entities.assets as Asset[];
  for (const asset of assets) store.assets.set(asset.id, asset);
  const changed = new Set<Id>();
  // every asset first, so a desk finds the room it sits in whatever the order
  for (const asset of assets) { indexAsset(store, asset); changed.add(asset.id); }
  for (const sensor of cached.entities.sensors as Array<Parameters<typeof indexSensor>[1]>) {
    store.sensors.set(sensor.id, sensor);
    indexSensor(store, sensor);
    for (const assetId of store.assetsBySensor.get(sensor.id) ?? []) changed.add(assetId);
  }
  return changed;
}

export interface PersistSourceOptions {
  store: Store;
  key: CacheKey;
  organizationId: Id;
  now(): number;
  streams(): Record<string, { stream_id: string; stream_sequence: number }>;
  /** the floor shown now, read first on a reopen */
  floorId?(): Id | null;
  /** false while the store is still being filled from the cache */
  ready?(): boolean;
}

export function createPersistSource(options: PersistSourceOptions): PersistSource {
  const { store, key } = options;
  return {
    key,
    meta: () => ({ ...key, organizationId: options.organizationId, savedAt: options.now(), streams: options.streams(), floorId: options.floorId?.() ?? null }),
    ready: options.ready,
    part(collection, id, value) {
      if (collection === 'assets') return assetPart(store, value as Asset);
      if (collection === 'sensors') return sensorPart(store, id);
      return SHARED_PART;
    },
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
