// Between the store and the storage port: a cached location as change
// batches for the one write path (served at once, marked fromCache), and what
// to persist, in parts: a floor's assets and the sensors they read go to the
// floor's part, the rest (structure, users, people, who move between floors)
// to the shared one, so a reopen can read the shown floor first. Derived local
// entities (user employee assets, manual sensors) are never cached; they are
// derived again from the cached users.

import type { Asset, Id } from '../../shared/types.js';
import type { CacheKey, CachedCollection, CachedLocation, PersistSource } from '../storage/index.js';
import { CACHED_COLLECTIONS, SHARED_PART } from '../storage/index.js';
import type { ChangeBatch, SinkChange } from '../ports.js';
import type { Store } from '../store/store.js';

/** Assets that move between floors are kept with the shared part, so a move never rewrites two floors' parts. */
const MOBILE_TYPES: ReadonlySet<string> = new Set(['employee', 'auto_tag']);

/** The cache part of an asset: its floor's, or the shared part for people and assets on no floor. */
export function assetPart(store: Store, asset: Asset): string {
  if (MOBILE_TYPES.has(asset.type)) return SHARED_PART;
  return store.floorOf.get(asset.id) ?? SHARED_PART;
}

/** The cache part of a sensor: the part of the first asset on a floor it feeds. */
export function sensorPart(store: Store, sensorId: Id): string {
  // through the slots of the assets it feeds: every written sensor of a live load asks this (issue 14)
  for (const slot of store.sensors.entry(sensorId)?.fed ?? []) {
    const part = slot.record ? assetPart(store, slot.record) : SHARED_PART;
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

/** Every entity of the given collections, or null when one is not even an object with a string id (an unreadable cache). */
function readableLists(cached: CachedLocation, collections: readonly CachedCollection[]): Record<CachedCollection, Array<Record<string, unknown>>> | null {
  const entities = cached?.entities;
  if (!entities || typeof entities !== 'object') return null;
  const lists = {} as Record<CachedCollection, Array<Record<string, unknown>>>;
  for (const collection of collections) {
    const list = entities[collection] ?? [];
    if (!Array.isArray(list)) return null;
    for (const e of list) {
      if (!e || typeof e !== 'object' || Array.isArray(e) || typeof (e as { id?: unknown }).id !== 'string') return null;
    }
    lists[collection] = list as Array<Record<string, unknown>>;
  }
  return lists;
}

/**
 * A cached location (or its first parts) as change batches of kind 'initial'
 * (issue 11 §3): the engine applies them through applyBatch like a network
 * load, so cached entities pass the same normalizers and indexes. Buildings
 * and floors go back as assets of their type, as they travel on the wire.
 * Returns null when the cache is unreadable; the caller drops it.
 */
export function cachedBatches(cached: CachedLocation, options: { locationOnly?: boolean } = {}): ChangeBatch[] | null {
  const lists = readableLists(cached, options.locationOnly ? LOCATION_COLLECTIONS : CACHED_COLLECTIONS);
  if (!lists) return null;
  const { organizationId, locationId } = cached.meta;
  const initial = (collection: SinkChange['collection'], items: unknown[]): SinkChange => ({ collection, kind: 'initial', items });
  const batches: ChangeBatch[] = [];
  if (!options.locationOnly) {
    batches.push({
      scope: { kind: 'organization', organizationId },
      changes: [
        initial('organizations', lists.organizations), initial('locations', lists.locations),
        initial('users', lists.users), initial('external_objects', lists.external_objects),
      ],
    });
    batches.push({ scope: { kind: 'user', userId: cached.meta.userId }, changes: [initial('notifications', lists.notifications)] });
  }
  batches.push({
    scope: { kind: 'location', organizationId, locationId },
    changes: [
      initial('assets', [
        ...lists.buildings.map((b) => ({ ...b, type: 'building' })),
        ...lists.floors.map((f) => ({ ...f, type: 'floor' })),
        ...lists.assets.filter((a) => a.type !== 'building' && a.type !== 'floor'),
      ]),
      initial('sensors', lists.sensors),
    ],
  });
  return batches;
}

/**
 * More parts of a cached location (the floors read after the first frame)
 * as one batch that adds to what the store holds: each asset and sensor a
 * 'modified' change, through the same normalizers. Null when unreadable.
 */
export function cachedPartBatch(cached: CachedLocation): ChangeBatch | null {
  const lists = readableLists(cached, ['assets', 'sensors']);
  if (!lists) return null;
  const { organizationId, locationId } = cached.meta;
  const modified = (collection: 'assets' | 'sensors') => (data: Record<string, unknown>): SinkChange => ({ collection, kind: 'modified', id: data.id as Id, data });
  return {
    scope: { kind: 'location', organizationId, locationId },
    // every asset first, so a sensor finds the assets it places
    changes: [...lists.assets.map(modified('assets')), ...lists.sensors.map(modified('sensors'))],
  };
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
    // lazy: the persister reads it in slices with turns of the event loop between them (issue 14)
    *all() {
      for (const collection of CACHED_COLLECTIONS) {
        for (const [id, value] of collectionMap(store, collection)) if (!value.local) yield { collection, id, value };
      }
    },
  };
}
