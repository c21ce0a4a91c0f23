// What of a location only the edit role may see (spec §6, DESIGN §8):
// unpublished assets, hidden floors and what stands on them, the sensors
// that serve them (their readings included), the hidden floors' ids in a
// building's floor list and hidden portals in a portal's targets, and where
// a location reading puts its tag on one. REST answers and the public live
// stream both go through here, so a regular user meets a hidden floor exactly
// as an unknown one.

import type { WireAsset, WireMeasurementValue, WireSensor } from '../../src/shared/rest.js';
import type { Id } from '../../src/shared/types.js';

/** What the filters ask of a set of ids. */
export interface IdSet {
  has(id: Id): boolean;
  readonly size: number;
}

export interface Hidden {
  /** assets the public may not see */
  assets: IdSet;
  /** sensors named by those assets (data_providers, data_provider_refs) */
  sensors: IdSet;
  /** sensors named by an asset the public sees: theirs, even when a hidden asset names them too */
  named: IdSet;
  /**
   * Assets deleted while the public could not see them, and the sensors they
   * named: gone, yet still never named to the public (a reading's zones, a
   * sensor's asset_id) nor shown with what served them.
   */
  goneAssets: IdSet;
  goneSensors: IdSet;
  /**
   * The `version` and `update_timestamp` the public knows of assets changed
   * since in what only the edit role sees (docs/server.md "Versions per
   * audience"); an asset not named here shows the public its own.
   */
  publicStamps?: ReadonlyMap<Id, PublicStamp>;
}

/** An asset's version and update time as one audience knows them. */
export interface PublicStamp {
  version: number;
  update_timestamp: number;
}

export const NOTHING_HIDDEN: Hidden = { assets: new Set(), sensors: new Set(), named: new Set(), goneAssets: new Set(), goneSensors: new Set() };

/** Walks an asset's parents (at most 8) to the floor it stands on, if any. */
export function floorByWalk(asset: WireAsset, lookup: (id: Id) => WireAsset | undefined): WireAsset | null {
  let cur: WireAsset | undefined = asset;
  for (let i = 0; cur && i < 8; i += 1) {
    if (cur.type === 'floor') return cur;
    cur = cur.parent_id ? lookup(cur.parent_id) : undefined;
  }
  return null;
}

/**
 * Parents walked at most by `isPublicByWalk`: far deeper than any building
 * nests (building, floor, room, zone, desk), and what lies deeper, or in a
 * cycle of parents, is judged hidden rather than shown.
 */
export const VISIBILITY_MAX_DEPTH = 64;

/**
 * False for an unpublished asset and everything standing in it (a room's
 * desks, a building's floors and theirs), and for what stands on a hidden
 * floor. A chain of parents deeper than VISIBILITY_MAX_DEPTH, or looping,
 * is hidden: never shown by default (docs/server.md "What the public sees").
 */
export function isPublicByWalk(asset: WireAsset, lookup: (id: Id) => WireAsset | undefined): boolean {
  let cur: WireAsset | undefined = asset;
  for (let depth = 0; depth <= VISIBILITY_MAX_DEPTH; depth += 1) {
    if (cur.unpublished || (cur.type === 'floor' && cur.hidden)) return false;
    const parentId: Id | null | undefined = cur.parent_id;
    if (!parentId) return true;
    cur = lookup(parentId);
    // a parent that is not (or no longer) stored ends the walk; deleting one re-parents its children first (store.deleteAsset)
    if (!cur) return true;
  }
  return false;
}

/** The sensors an asset names (data_providers, data_provider_refs). */
export function sensorsNamedBy(asset: WireAsset): Id[] {
  const out = [...(asset.data_providers ?? [])];
  for (const id of Object.values(asset.data_provider_refs ?? {})) if (typeof id === 'string') out.push(id);
  return out;
}

/**
 * One pass over the location's assets: what the server computed on every
 * change before store/visibilityIndex.ts, kept as the oracle its tests
 * compare with and the baseline of bench/serverChanges.ts.
 */
export function hiddenIn(
  assets: Iterable<WireAsset>, locationId: Id, isPublic: (asset: WireAsset) => boolean,
): { assets: Set<Id>; sensors: Set<Id>; named: Set<Id> } {
  const hiddenAssets = new Set<Id>();
  const hiddenSensors = new Set<Id>();
  const named = new Set<Id>();
  for (const asset of assets) {
    if (asset.location_id !== locationId) continue;
    if (isPublic(asset)) {
      for (const id of sensorsNamedBy(asset)) named.add(id);
      continue;
    }
    hiddenAssets.add(asset.id);
    for (const id of sensorsNamedBy(asset)) hiddenSensors.add(id);
  }
  return { assets: hiddenAssets, sensors: hiddenSensors, named };
}

/** Whether a sensor's `asset_id` names an asset the public may not see (or one deleted while hidden). */
function namesHiddenAsset(sensor: WireSensor, hidden: Hidden): boolean {
  return sensor.asset_id !== null && (hidden.assets.has(sensor.asset_id) || hidden.goneAssets.has(sensor.asset_id));
}

/**
 * A sensor serving only hidden assets (or ones deleted while hidden), named by
 * them or naming one (`asset_id`). A sensor that also serves an asset the
 * public sees, named by it or naming it, is that asset's: public, its readings
 * with it (docs/server.md "Shared sensors").
 */
export function isSensorHidden(sensor: WireSensor, hidden: Hidden): boolean {
  if (hidden.named.has(sensor.id)) return false;
  const viaAsset = namesHiddenAsset(sensor, hidden);
  if (sensor.asset_id !== null && !viaAsset) return false;
  return viaAsset || hidden.sensors.has(sensor.id) || hidden.goneSensors.has(sensor.id);
}

/**
 * An asset as the public sees it: a building lists only the floors they may
 * see, its default floor pointing at the same floor as before (or the first);
 * a portal targets only the portals they may see; the version and update time
 * are the public's.
 */
export function publicAsset(asset: WireAsset, hidden: Hidden): WireAsset {
  const floors = asset.floors;
  const targets = asset.targets;
  const stamp = hidden.publicStamps?.get(asset.id);
  let out = stamp ? { ...asset, version: stamp.version, update_timestamp: stamp.update_timestamp } : asset;
  if (targets?.some((id) => hidden.assets.has(id))) out = { ...out, targets: targets.filter((id) => !hidden.assets.has(id)) };
  if (asset.type !== 'building' || !floors || !floors.some((id) => hidden.assets.has(id))) return out;
  const shown = floors.filter((id) => !hidden.assets.has(id));
  const defaultId = floors[asset.default_floor ?? 0];
  const defaultAt = defaultId === undefined ? -1 : shown.indexOf(defaultId);
  return { ...out, floors: shown, default_floor: defaultAt < 0 ? 0 : defaultAt };
}

/**
 * A location reading that puts its tag on a floor, or in a zone, the public
 * may not see: an unpublished privacy zone must still keep its people's
 * whereabouts from viewers who do not know it is there (docs/security.md).
 */
export function isPositionHidden(value: Partial<WireMeasurementValue> | null | undefined, hidden: Hidden): boolean {
  if (!value) return false;
  if (typeof value.floor_id === 'string' && (hidden.assets.has(value.floor_id) || hidden.goneAssets.has(value.floor_id))) return true;
  const zones = value.zones;
  if (!Array.isArray(zones) || zones.length === 0 || hidden.assets.size === 0) return false;
  for (const id of zones) if (hidden.assets.has(id)) return true;
  return false;
}

/** Whether a reading's zones name an asset deleted while hidden (dropped from what the public gets). */
export function namesGoneZone(zones: unknown, hidden: Hidden): boolean {
  if (!Array.isArray(zones) || hidden.goneAssets.size === 0) return false;
  for (const id of zones) if (hidden.goneAssets.has(id as Id)) return true;
  return false;
}

/** A reading's zones without those deleted while hidden. */
export function publicZones(zones: readonly Id[], hidden: Hidden): Id[] {
  return zones.filter((id) => !hidden.goneAssets.has(id));
}

/**
 * A reading as the public gets it: on a hidden floor or in a hidden zone, when
 * but not where (the client ignores a position it lacks); in a zone deleted
 * while hidden, where it is without that zone's id, since the place left is a
 * place the public sees (docs/server.md "Deleting a hidden zone").
 */
export function publicReading<T extends Partial<WireMeasurementValue>>(value: T, hidden: Hidden): T {
  if (isPositionHidden(value, hidden)) {
    const { x: _x, y: _y, floor_id: _floor, floor: _index, zones: _zones, ...rest } = value;
    return rest as T;
  }
  return namesGoneZone(value.zones, hidden) ? { ...value, zones: publicZones(value.zones!, hidden) } : value;
}

/** Whether the public form of a reading differs from it. */
function isReadingFiltered(value: Partial<WireMeasurementValue> | null | undefined, hidden: Hidden): boolean {
  return !!value && (isPositionHidden(value, hidden) || namesGoneZone(value.zones, hidden));
}

/**
 * A sensor as the public gets it: its last readings without a position on a
 * hidden floor; a sensor shared with a hidden asset without the `asset_id`
 * that names it.
 */
export function publicSensor(sensor: WireSensor, hidden: Hidden): WireSensor {
  const out = namesHiddenAsset(sensor, hidden) ? { ...sensor, asset_id: null } : sensor;
  if (!isReadingFiltered(sensor.last_measurement, hidden) && !isReadingFiltered(sensor.previous_measurement, hidden)) return out;
  return {
    ...out,
    last_measurement: sensor.last_measurement && publicReading(sensor.last_measurement, hidden),
    previous_measurement: sensor.previous_measurement && publicReading(sensor.previous_measurement, hidden),
  };
}
