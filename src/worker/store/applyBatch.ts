// Applies one validated, ordered batch from the sync layer to the mutable
// store (spec §4, §5): initial loads replace a collection (missing objects are
// deleted), created/modified/deleted change one object, measurements and
// heartbeats update sensors and move located assets. Bad input is dropped
// with a warning; nothing here throws.

import { MSG } from '../../shared/messages.js';
import type { StreamScope } from '../../shared/protocol.js';
import { isOccupiedValue } from '../../shared/rules/roomStatus.js';
import { isPrivacyZone } from '../../shared/rules/location.js';
import type { Asset, Building, Floor, Id, Sensor } from '../../shared/types.js';
import type { ChangeBatch, Logger, SinkChange } from '../ports.js';
import { createDelta, markPersist, type StoreDelta } from './delta.js';
import { applyHeartbeat, applyMeasurement } from './measurements.js';
import {
  normalizeContext, normalizeEntity, normalizeStructureAsset, type EntityCollection,
} from './normalizeEntities.js';
import { latestLocationOf, placeAsset, refilterFloor, relocate } from './located.js';
import {
  indexAsset, indexSensor, keepsIndexes, reindexAll, unindexAsset, type Store,
} from './store.js';
import { syncUserEntities, removeUserEntities } from './userEntities.js';

export interface ApplyOptions {
  logger: Logger;
  /** corrected-clock now */
  now: () => number;
  /** base config values the rules need (manual-location timeout) */
  manualLocationTimeoutMs: number;
}

const STRUCTURE_TYPES = new Set(['building', 'floor']);

function scopeMatches(store: Store, scope: StreamScope): boolean {
  switch (scope.kind) {
    case 'location': return store.locationId === scope.locationId;
    case 'organization': return store.organizationId === scope.organizationId;
    case 'user': return true;
  }
}

/** Applies `batch`, recording what changed in `delta` (a new one unless the caller passes the live path's, store/delta.ts). */
export function applyBatch(store: Store, batch: ChangeBatch, options: ApplyOptions, delta: StoreDelta = createDelta()): StoreDelta {
  if (!batch || typeof batch !== 'object' || !Array.isArray(batch.changes) || !batch.scope) {
    options.logger.warn('Ignoring malformed change batch', batch);
    return delta;
  }
  if (!scopeMatches(store, batch.scope)) {
    options.logger.warn(MSG.NO_SOURCE_SUBSCRIPTION, batch.scope);
    return delta;
  }
  let reindex = false;
  for (const change of batch.changes) {
    try {
      if (applyChange(store, change, delta, options)) reindex = true;
    } catch (error) {
      // a bug or absurd input in one change must not stop the batch or corrupt the rest
      options.logger.error('Failed to apply change', change?.collection, change?.kind, error);
    }
  }
  if (reindex) {
    reindexAll(store);
    delta.all = true;
  }
  placeLoadedAssets(store, delta, reindex);
  for (const floorId of reindex ? store.floors.keys() : delta.privacyFloors) refilterFloor(store, floorId, delta);
  return delta;
}

/**
 * Places assets by the location values their sensors came with (initial
 * loads, sensor updates): live measurements place them as they arrive, but
 * a loaded sensor's last value must place them too.
 */
function placeLoadedAssets(store: Store, delta: StoreDelta, everything: boolean): void {
  const sensorIds = everything ? store.sensors.keys() : delta.sensors.values();
  let placed: Set<Id> | null = null;
  for (const sensorId of sensorIds) {
    const sensor = store.sensors.get(sensorId);
    if (!sensor || sensor.type !== 'location' || !sensor.last_measurement) continue;
    placed ??= new Set();
    // placing re-indexes the asset, which takes it out of this very set and puts it back:
    // walking the live set would visit it again and again (issue 11 §1), so walk a snapshot
    for (const assetId of [...(store.assetsBySensor.get(sensorId) ?? [])]) {
      if (placed.has(assetId)) continue;
      placed.add(assetId);
      const asset = store.assets.get(assetId);
      const value = asset ? latestLocationOf(store, asset) : null;
      if (!asset || !value || (asset.x === value.x && asset.y === value.y && store.floorOf.get(assetId) === (value.floor_id ?? store.floorOf.get(assetId)))) continue;
      placeAsset(store, asset, value);
      delta.assets.add(assetId);
    }
  }
}

/** Returns true when the indexes must be rebuilt. */
function applyChange(store: Store, change: SinkChange, delta: StoreDelta, options: ApplyOptions): boolean {
  const { logger } = options;
  if (!change || typeof change !== 'object') { logger.warn('Ignoring malformed change', change); return false; }
  switch (change.collection) {
    case 'measurements':
      if (change.kind === 'initial') {
        for (const item of Array.isArray(change.items) ? change.items : []) applyMeasurement(store, item, delta, options);
      } else applyMeasurement(store, change.data, delta, options);
      return false;
    case 'heartbeats':
      if (change.kind === 'initial') {
        for (const item of Array.isArray(change.items) ? change.items : []) applyHeartbeat(store, item, delta, options);
      } else applyHeartbeat(store, change.data, delta, options);
      return false;
    case 'assets':
      return change.kind === 'initial' ? replaceAssets(store, change.items, delta, options) : changeAsset(store, change, delta, options);
    case 'votes':
      applyVotes(store, change, delta);
      return false;
    case 'organizations': case 'locations': case 'users': case 'external_objects': case 'sensors': case 'notifications':
      return change.kind === 'initial'
        ? replaceCollection(store, change.collection, change.items, delta, options)
        : changeEntity(store, change.collection, change, delta, options);
    default:
      logger.warn('Ignoring change of unknown collection', (change as SinkChange).collection);
      return false;
  }
}

// ---------------------------------------------------------------- generic collections

function mapOf(store: Store, collection: EntityCollection): Map<Id, { id: Id }> {
  switch (collection) {
    case 'organizations': return store.organizations;
    case 'locations': return store.locations;
    case 'users': return store.users;
    case 'external_objects': return store.externalObjects;
    case 'sensors': return store.sensors;
    case 'notifications': return store.notifications;
  }
}

function touched(store: Store, collection: EntityCollection, id: Id, delta: StoreDelta, options: ApplyOptions) {
  markPersist(delta, collection, id);
  switch (collection) {
    case 'organizations': case 'locations': delta.structure = true; break;
    case 'users': {
      delta.users.add(id);
      const user = store.users.get(id);
      if (user) syncUserEntities(store, user, delta, options);
      else removeUserEntities(store, id, delta);
      break;
    }
    case 'sensors': {
      // a deleted sensor's recent values went with its record (store/sensorMap.ts)
      delta.sensors.add(id);
      for (const a of store.assetsBySensor.get(id) ?? []) delta.assets.add(a);
      break;
    }
    case 'notifications': delta.notifications.add(id); break;
    case 'external_objects': break;
  }
}

/**
 * "Objects missing from an initial load are deleted" (spec §4) — when the
 * load can say what is missing. A record without a usable id (a scalar, an
 * object id, none at all) could be any stored object, so a list holding one
 * deletes nothing: nothing stored is lost to a bad answer (issue 11 §5).
 */
function deletesMissing(items: unknown[], collection: string, logger: Logger): boolean {
  const anonymous = items.filter((item) => normalizeEntity.idOf(item) === null).length;
  if (anonymous > 0) logger.warn(`An initial load of ${collection} has ${anonymous} record(s) without a usable id; keeping the stored ones it leaves out`);
  return anonymous === 0;
}

function replaceCollection(store: Store, collection: EntityCollection, items: unknown, delta: StoreDelta, options: ApplyOptions): boolean {
  // "objects missing from an initial load are deleted" (spec §4): something that is not a list is no load at all
  if (!Array.isArray(items)) { options.logger.warn(`Expected a list of ${collection}; got something else`); return false; }
  const map = mapOf(store, collection);
  const ctx = normalizeContext(store, options.logger);
  const list = normalizeEntity.list(collection, items, ctx);
  const keep = new Set(list.map((e) => e.id));
  const deleting = deletesMissing(items, collection, options.logger);
  for (const [id, entity] of map) {
    // derived local entities are not part of any server listing
    if (!deleting || keep.has(id) || (entity as { local?: boolean }).local) continue;
    map.delete(id);
    touched(store, collection, id, delta, options);
  }
  for (const entity of list) {
    const previous = map.get(entity.id);
    if (collection === 'sensors') keepLeftAt(entity as Sensor, previous as Sensor | undefined);
    map.set(entity.id, entity);
    if (collection === 'sensors') indexSensor(store, entity as never, previous as never);
    touched(store, collection, entity.id, delta, options);
  }
  return false;
}

function changeEntity(store: Store, collection: EntityCollection, change: SinkChange, delta: StoreDelta, options: ApplyOptions): boolean {
  const map = mapOf(store, collection);
  if (change.kind === 'deleted') {
    const id = change.id ?? normalizeEntity.idOf(change.data);
    if (!id) { options.logger.warn(`Ignoring deletion without an id in ${collection}`); return false; }
    const previous = map.get(id);
    if (!previous) return false;
    map.delete(id);
    touched(store, collection, id, delta, options);
    return false;
  }
  const entity = normalizeEntity.one(collection, change.data, normalizeContext(store, options.logger));
  if (!entity) return false;
  const previous = map.get(entity.id);
  if (change.kind === 'created' && previous) options.logger.warn(`Duplicate id ${entity.id} in ${collection}; the later one wins`);
  if (collection === 'sensors') keepMeasurements(entity as Sensor, previous as Sensor | undefined);
  map.set(entity.id, entity);
  if (collection === 'sensors') indexSensor(store, entity as never, previous as never);
  touched(store, collection, entity.id, delta, options);
  return false;
}

/**
 * A sensor record update keeps what live data taught: the measurements when
 * it carries none, and when a desk was last left while it is still free.
 */
function keepMeasurements(next: Sensor, previous?: Sensor) {
  if (!previous) return;
  if (next.last_measurement === null) next.last_measurement = previous.last_measurement;
  if (next.previous_measurement === null) next.previous_measurement = previous.previous_measurement;
  keepLeftAt(next, previous);
}

/** A reload of a still-free desk keeps when it was left (its record shows only the last two readings). */
function keepLeftAt(next: Sensor, previous?: Sensor) {
  const last = next.last_measurement;
  if (previous && (next.left_at ?? null) === null && typeof previous.left_at === 'number' && last && !isOccupiedValue(last.value) && last.time >= previous.left_at) {
    next.left_at = previous.left_at;
  }
}

// ---------------------------------------------------------------- assets (incl. buildings and floors)

function replaceAssets(store: Store, items: unknown, delta: StoreDelta, options: ApplyOptions): boolean {
  if (!Array.isArray(items)) { options.logger.warn('Expected a list of assets; got something else'); return false; }
  const ctx = normalizeContext(store, options.logger);
  const structureRaw = items.filter((i) => i && typeof i === 'object' && STRUCTURE_TYPES.has((i as { type?: unknown }).type as string));
  const others = items.filter((i) => !structureRaw.includes(i));
  const { buildings, floors } = normalizeStructureAsset.all(store, structureRaw, ctx);
  const deleting = deletesMissing(items, 'assets', options.logger);
  // without deleting, an id still leaves the collection its new record does not belong to (one collection per id)
  const listed = deleting ? null : new Set(items.map((i) => normalizeEntity.idOf(i)).filter((id) => id !== null));
  replaceMap(store.buildings, buildings, (id) => markPersist(delta, 'buildings', id), listed);
  replaceMap(store.floors, floors, (id) => markPersist(delta, 'floors', id), listed);
  // an id belongs to one collection: a building or floor wins over a drawable asset of the same id
  const assets = normalizeEntity.assets(others, ctx).filter((a) => {
    const structural = store.buildings.has(a.id) || store.floors.has(a.id);
    if (structural) options.logger.warn(`Duplicate id ${a.id} in assets; the building or floor wins`);
    return !structural;
  });
  const keep = new Set(assets.map((a) => a.id));
  for (const [id, asset] of store.assets) {
    if (keep.has(id) || asset.local || (listed && !listed.has(id))) continue;
    store.assets.delete(id);
    delta.assets.add(id);
    markPersist(delta, 'assets', id);
  }
  // a load holds the server's records as of its stream position: a 'created' our own create awaited came before it
  // and is dropped (docs/protocol.md), or its record is not listed here and comes as new
  store.ownCreates.clear();
  for (const asset of assets) {
    store.assets.set(asset.id, asset);
    delta.assets.add(asset.id);
    markPersist(delta, 'assets', asset.id);
  }
  delta.structure = true;
  return true;
}

/** Replaces `map` by `list`; with `onlyListed`, removes only ids the load listed (as another type), none it left out. */
function replaceMap<T extends { id: Id }>(map: Map<Id, T>, list: T[], onChange: (id: Id) => void, onlyListed: Set<Id> | null = null) {
  const keep = new Set(list.map((e) => e.id));
  for (const id of [...map.keys()]) if (!keep.has(id) && (!onlyListed || onlyListed.has(id))) { map.delete(id); onChange(id); }
  for (const e of list) { map.set(e.id, e); onChange(e.id); }
}

function changeAsset(store: Store, change: SinkChange, delta: StoreDelta, options: ApplyOptions): boolean {
  const raw = change.data as { type?: unknown } | undefined;
  if (change.kind === 'deleted') {
    const id = change.id ?? normalizeEntity.idOf(raw);
    if (!id) { options.logger.warn('Ignoring asset deletion without an id'); return false; }
    if (store.buildings.delete(id)) { markPersist(delta, 'buildings', id); delta.structure = true; delta.removed = true; return true; }
    if (store.floors.delete(id)) { markPersist(delta, 'floors', id); delta.structure = true; delta.removed = true; return true; }
    const previous = store.assets.get(id);
    store.ownCreates.delete(id);
    if (!previous) return false;
    delta.removed = true;
    notePrivacyFloor(store, previous, delta);
    store.assets.delete(id);
    unindexAsset(store, previous);
    delta.assets.add(id);
    markPersist(delta, 'assets', id);
    // its children lose their floor
    return hasChildren(store, id);
  }
  const ctx = normalizeContext(store, options.logger);
  if (raw && typeof raw === 'object' && STRUCTURE_TYPES.has(raw.type as string)) {
    const entity = normalizeStructureAsset.one(store, raw, ctx);
    if (!entity) return false;
    const [collection, map] = entity.kind === 'building'
      ? ['buildings' as const, store.buildings as Map<Id, Building | Floor>]
      : ['floors' as const, store.floors as Map<Id, Building | Floor>];
    if (change.kind === 'created' && map.has(entity.value.id)) options.logger.warn(`Duplicate id ${entity.value.id} in assets; the later one wins`);
    // a whole new object of another type moves the id: it never stays in two collections (issue 11 §5)
    leaveOtherCollections(store, entity.value.id, collection, delta, options);
    map.set(entity.value.id, entity.value);
    markPersist(delta, collection, entity.value.id);
    delta.structure = true;
    return true;
  }
  const asset = normalizeEntity.asset(raw, ctx);
  if (!asset) return false;
  if (leaveOtherCollections(store, asset.id, 'assets', delta, options)) {
    store.assets.set(asset.id, asset);
    delta.assets.add(asset.id);
    markPersist(delta, 'assets', asset.id);
    return true;
  }
  const previous = store.assets.get(asset.id);
  if (change.kind === 'created' && previous && !store.ownCreates.delete(asset.id)) {
    options.logger.warn(`Duplicate id ${asset.id} in assets; the later one wins`);
  }
  // our own create put it here first: its live 'created' is still to come (or came already: then nothing waits)
  if (change.ownCreate && !previous) store.ownCreates.add(asset.id);
  if (previous && previous.parent_id !== asset.parent_id && hasChildren(store, asset.id)) {
    store.assets.set(asset.id, asset);
    delta.assets.add(asset.id);
    markPersist(delta, 'assets', asset.id);
    return true;
  }
  if (previous) notePrivacyFloor(store, previous, delta);
  // the finder asks what the record was before the batch first touched it (search/searchDocs.ts noteForSearch)
  if (previous && !delta.assets.has(asset.id) && !delta.replaced?.has(asset.id)) {
    (delta.replaced ??= new Map()).set(asset.id, { record: previous, floorId: store.floorOf.get(asset.id) ?? null });
  }
  store.assets.set(asset.id, asset);
  if (!previous || !keepsIndexes(store, previous, asset)) indexAsset(store, asset, previous);
  relocate(store, asset);
  notePrivacyFloor(store, asset, delta);
  delta.assets.add(asset.id);
  markPersist(delta, 'assets', asset.id);
  return false;
}

/** A privacy zone changed on its floor: the floor's employees are re-filtered after the batch. */
function notePrivacyFloor(store: Store, asset: Asset, delta: StoreDelta): void {
  if (!isPrivacyZone(asset)) return;
  const floorId = store.floorOf.get(asset.id);
  if (floorId) delta.privacyFloors.add(floorId);
}

/**
 * Takes `id` out of the asset collections other than `into` (a type change
 * between a drawable asset, a building and a floor). Returns true when it was
 * in one, so the caller rebuilds the indexes.
 */
function leaveOtherCollections(store: Store, id: Id, into: 'assets' | 'buildings' | 'floors', delta: StoreDelta, options: ApplyOptions): boolean {
  let moved = false;
  if (into !== 'buildings' && store.buildings.delete(id)) { markPersist(delta, 'buildings', id); moved = true; }
  if (into !== 'floors' && store.floors.delete(id)) { markPersist(delta, 'floors', id); moved = true; }
  const asset = into !== 'assets' ? store.assets.get(id) : undefined;
  if (asset) {
    store.assets.delete(id);
    unindexAsset(store, asset);
    delta.assets.add(id);
    markPersist(delta, 'assets', id);
    moved = true;
  }
  if (moved) {
    options.logger.warn(`Asset ${id} changed its type to or from a building or floor; moved it`);
    delta.structure = true;
  }
  return moved;
}

/** The viewer's own vote and the tally an answer carried (live asset updates carry only the tally). */
function applyVotes(store: Store, change: SinkChange, delta: StoreDelta): void {
  const id = change.id;
  const asset = id ? store.assets.get(id) : undefined;
  const v = change.data as { up?: unknown; down?: unknown; mine?: unknown } | undefined;
  if (!asset || !v || typeof v !== 'object') return;
  const mine = v.mine === 1 || v.mine === -1 ? v.mine : 0;
  asset.votes = { up: Number(v.up) || 0, down: Number(v.down) || 0, mine };
  store.myVotes.set(asset.id, mine);
  delta.assets.add(asset.id);
  markPersist(delta, 'assets', asset.id);
}

function hasChildren(store: Store, id: Id): boolean {
  for (const a of store.assets.values()) if (a.parent_id === id) return true;
  return false;
}

