// The engine's working store (DESIGN §7): plain mutable Maps of normalized
// entities with per-floor and per-sensor indexes. Batches are applied in
// place (no immer produce per change); views derive immutable state from it.

import { isPrivacyZone } from '../../shared/rules/location.js';
import { AssetMap } from './assetMap.js';
import { SensorMap } from './sensorMap.js';
import type {
  Asset, Building, ExternalObject, Floor, Id, Location, Notification, Organization, Sensor, User,
} from '../../shared/types.js';

/** Parent chains deeper than this are treated as cycles in bad data. */
const MAX_PARENT_HOPS = 16;

/** Values kept per sensor for the popup's recent history. */
export const RECENT_VALUES_KEPT = 5;

export interface Store {
  organizations: Map<Id, Organization>;
  locations: Map<Id, Location>;
  buildings: Map<Id, Building>;
  floors: Map<Id, Floor>;
  /** drawable assets (not buildings and floors, which live above); slots of it are kept in step */
  assets: AssetMap;
  /**
   * sensors, with one entry per id holding the record, its recent live values (popup history; not
   * persisted) and the assets it feeds as their slots, in the order of `assetsBySensor`: a live reading
   * reaches all of them with one lookup, and its assets without a set to walk or a lookup each (issue 14)
   */
  sensors: SensorMap;
  externalObjects: Map<Id, ExternalObject>;
  users: Map<Id, User>;
  notifications: Map<Id, Notification>;
  /** floor id → ids of the assets on it */
  assetsByFloor: Map<Id, Set<Id>>;
  /** floor id → ids of the privacy zones on it (placing an employee must not scan the whole floor) */
  privacyZonesByFloor: Map<Id, Set<Id>>;
  /** asset id → its floor id */
  floorOf: Map<Id, Id>;
  /** sensor id → ids of the assets it provides data for */
  assetsBySensor: Map<Id, Set<Id>>;
  /** user id → ids of the assets that stand for that user (`config.user_id`, derived local assets) */
  assetsByUser: Map<Id, Set<Id>>;
  /** location tag (sensor) id → the user wearing it (`user.location_tag_id`) */
  userByTag: Map<Id, Id>;
  /** user id → their location tag id (the reverse of userByTag) */
  tagOfUser: Map<Id, Id>;
  /** asset id → the viewer's own vote, which the server's asset records do not carry */
  myVotes: Map<Id, 1 | -1 | 0>;
  /**
   * asset ids this client's own create call put in the store before the server's live 'created' of
   * them came: that 'created' is the same record again, not a duplicate id (applyBatch.ts)
   */
  ownCreates: Set<Id>;
  /** location id of the store's location data (assets, sensors, structure) */
  locationId: Id | null;
  organizationId: Id | null;
}

export function createStore(): Store {
  return {
    organizations: new Map(), locations: new Map(), buildings: new Map(), floors: new Map(),
    assets: new AssetMap(), sensors: new SensorMap(), externalObjects: new Map(), users: new Map(),
    notifications: new Map(), assetsByFloor: new Map(), privacyZonesByFloor: new Map(), floorOf: new Map(), assetsBySensor: new Map(),
    assetsByUser: new Map(), userByTag: new Map(), tagOfUser: new Map(),
    myVotes: new Map(), ownCreates: new Set(),
    locationId: null, organizationId: null,
  };
}

/** The floor an asset sits on: the first floor up its parent chain (a desk may sit in a room). */
export function resolveFloorId(store: Store, asset: Asset): Id | null {
  let parent = asset.parent_id;
  for (let hops = 0; parent && hops < MAX_PARENT_HOPS; hops++) {
    if (store.floors.has(parent)) return parent;
    parent = store.assets.get(parent)?.parent_id ?? null;
  }
  return null;
}

/** Sensor ids an asset reads: data_providers, data_provider_refs. */
export function sensorIdsOf(asset: Asset): Id[] {
  const providers = asset.data_providers;
  // hot in every derivation: the usual few providers, refs among them, need no Set
  if (providers.length > 8) {
    const ids = new Set(providers);
    for (const id of Object.values(asset.data_provider_refs)) ids.add(id);
    return [...ids];
  }
  const out: Id[] = [];
  for (const id of providers) if (!out.includes(id)) out.push(id);
  for (const type in asset.data_provider_refs) {
    const id = asset.data_provider_refs[type]!;
    if (!out.includes(id)) out.push(id);
  }
  return out;
}

function addTo(index: Map<Id, Set<Id>>, key: Id, value: Id) {
  let set = index.get(key);
  if (!set) { set = new Set(); index.set(key, set); }
  set.add(value);
}

function removeFrom(index: Map<Id, Set<Id>>, key: Id, value: Id) {
  const set = index.get(key);
  if (!set) return;
  set.delete(value);
  if (set.size === 0) index.delete(key);
}

/** Links a sensor to an asset it feeds, in both forms of the sensor index (the ids, the sensor entry's slots). */
function linkSensor(store: Store, sensorId: Id, assetId: Id) {
  let ids = store.assetsBySensor.get(sensorId);
  if (!ids) store.assetsBySensor.set(sensorId, (ids = new Set()));
  if (ids.has(assetId)) return;
  ids.add(assetId);
  store.sensors.feed(sensorId, store.assets.slot(assetId));
}

function unlinkSensor(store: Store, sensorId: Id, assetId: Id) {
  const ids = store.assetsBySensor.get(sensorId);
  if (!ids?.delete(assetId)) return;
  if (ids.size === 0) store.assetsBySensor.delete(sensorId);
  // an id nobody loaded keeps no entry once nothing names it
  store.sensors.unfeed(sensorId, assetId);
}

/** The user an asset's config names (`config.user_id`), as the server's employee assets carry it. */
export function configUserId(asset: Asset): Id | null {
  const raw = asset.config?.user_id;
  return typeof raw === 'string' && raw !== '' ? raw : typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : null;
}

/** Indexes one asset; returns [previous floor, new floor] so callers can dirty both views. */
export function indexAsset(store: Store, asset: Asset, previous?: Asset): [Id | null, Id | null] {
  const before = store.floorOf.get(asset.id) ?? null;
  const after = resolveFloorId(store, asset);
  if (before !== after) {
    if (before) removeFrom(store.assetsByFloor, before, asset.id);
    if (after) { addTo(store.assetsByFloor, after, asset.id); store.floorOf.set(asset.id, after); } else store.floorOf.delete(asset.id);
  }
  // a zone's subtype or floor may change in place, so membership is re-decided on every index
  if (before) removeFrom(store.privacyZonesByFloor, before, asset.id);
  if (after && isPrivacyZone(asset)) addTo(store.privacyZonesByFloor, after, asset.id);
  // only what changed: a modified desk or a move keeps its sensors, and dropping a sensor's last asset
  // only to add it back would drop and rebuild that sensor's set on every live change (issue 14)
  const sensorIds = sensorIdsOf(asset);
  if (previous && previous !== asset) {
    for (const s of sensorIdsOf(previous)) if (!sensorIds.includes(s)) unlinkSensor(store, s, asset.id);
  }
  for (const s of sensorIds) linkSensor(store, s, asset.id);
  const previousUser = previous ? configUserId(previous) : null;
  const user = configUserId(asset);
  if (previousUser && previousUser !== user) removeFrom(store.assetsByUser, previousUser, asset.id);
  if (user) addTo(store.assetsByUser, user, asset.id);
  return [before, after];
}

/**
 * Whether indexing `next` in place of `previous` (the record it replaces) would leave every index as it is:
 * the same parent and floor, the same sensors in the same order, the same user, the same privacy-zone
 * membership. A modified desk usually changes none of them (a reservation's colour, a speech bubble), and
 * indexing it anyway costs a lookup in several location-sized maps (issue 14).
 */
export function keepsIndexes(store: Store, previous: Asset, next: Asset): boolean {
  if (previous.parent_id !== next.parent_id || isPrivacyZone(previous) !== isPrivacyZone(next)) return false;
  if (configUserId(previous) !== configUserId(next) || !sameSensorIds(previous, next)) return false;
  // the floor is decided again: a parent created since may have given a floor to an asset that had none
  return resolveFloorId(store, next) === (store.floorOf.get(next.id) ?? null);
}

/** The same sensor ids in the same order, in both fields that name them (a different order counts as a change). */
export function sameSensorIds(a: Asset, b: Asset): boolean {
  const pa = a.data_providers;
  const pb = b.data_providers;
  if (pa.length !== pb.length) return false;
  for (let i = 0; i < pa.length; i++) if (pa[i] !== pb[i]) return false;
  const ra = a.data_provider_refs;
  const rb = b.data_provider_refs;
  let count = 0;
  for (const type in ra) { if (ra[type] !== rb[type]) return false; count += 1; }
  for (const type in rb) if (--count < 0 || !(type in ra)) return false;
  return true;
}

export function unindexAsset(store: Store, asset: Asset): Id | null {
  const floor = store.floorOf.get(asset.id) ?? null;
  if (floor) { removeFrom(store.assetsByFloor, floor, asset.id); removeFrom(store.privacyZonesByFloor, floor, asset.id); }
  store.floorOf.delete(asset.id);
  for (const s of sensorIdsOf(asset)) unlinkSensor(store, s, asset.id);
  const user = configUserId(asset);
  if (user) removeFrom(store.assetsByUser, user, asset.id);
  return floor;
}

/** Rebuilds every index: after an initial load or a structural change (children may precede parents). */
export function reindexAll(store: Store): void {
  store.assetsByFloor.clear();
  store.privacyZonesByFloor.clear();
  store.floorOf.clear();
  store.assetsBySensor.clear();
  store.sensors.unlinkAll();
  store.assetsByUser.clear();
  store.assets.dropEmptySlots();
  for (const asset of store.assets.values()) indexAsset(store, asset);
  for (const sensor of store.sensors.values()) {
    if (sensor.asset_id && store.assets.has(sensor.asset_id)) linkSensor(store, sensor.id, sensor.asset_id);
  }
}

/** Links a sensor naming its asset (sensor.asset_id) into the sensor index. */
export function indexSensor(store: Store, sensor: Sensor, previous?: Sensor): void {
  if (previous?.asset_id && previous.asset_id !== sensor.asset_id) {
    const asset = store.assets.get(previous.asset_id);
    if (!asset || !sensorIdsOf(asset).includes(sensor.id)) unlinkSensor(store, sensor.id, previous.asset_id);
  }
  if (sensor.asset_id && store.assets.has(sensor.asset_id)) linkSensor(store, sensor.id, sensor.asset_id);
}

/** The sensors of an asset, by type, including a sensor that names the asset. */
export function sensorsOf(store: Store, asset: Asset): Sensor[] {
  const out: Sensor[] = [];
  for (const id of sensorIdsOf(asset)) {
    const s = store.sensors.get(id);
    if (s) out.push(s);
  }
  return out;
}

export function sensorOfType(store: Store, asset: Asset, type: string): Sensor | null {
  const ref = asset.data_provider_refs[type];
  if (ref) {
    const s = store.sensors.get(ref);
    if (s) return s;
  }
  for (const id of asset.data_providers) {
    const s = store.sensors.get(id);
    if (s && s.type === type) return s;
  }
  return null;
}

/** Drops location data (assets, sensors, structure) when another location is loaded. */
export function clearLocationData(store: Store): void {
  store.buildings.clear();
  store.floors.clear();
  store.assets.clear();
  store.sensors.clear();
  store.assetsByFloor.clear();
  store.privacyZonesByFloor.clear();
  store.floorOf.clear();
  store.assetsBySensor.clear();
  store.assetsByUser.clear();
  store.myVotes.clear();
  store.ownCreates.clear();
  store.locationId = null;
}

/** Drops everything (sign-out). */
export function clearStore(store: Store): void {
  clearLocationData(store);
  store.organizations.clear();
  store.locations.clear();
  store.externalObjects.clear();
  store.users.clear();
  store.userByTag.clear();
  store.tagOfUser.clear();
  store.notifications.clear();
  store.organizationId = null;
}
