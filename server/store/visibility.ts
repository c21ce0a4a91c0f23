// What of a location only the edit role may see (spec §6, DESIGN §8):
// unpublished assets, hidden floors and what stands on them, the sensors
// that serve them (their readings included), the hidden floors' ids in a
// building's floor list, and where a location reading puts its tag on one. REST answers and the public live stream both go
// through here, so a regular user meets a hidden floor exactly as an unknown one.

import type { WireAsset, WireMeasurementValue, WireSensor } from '../../src/shared/rest.js';
import type { Id } from '../../src/shared/types.js';

export interface Hidden {
  /** assets the public may not see */
  assets: ReadonlySet<Id>;
  /** sensors named by those assets (data_providers, data_provider_refs) */
  sensors: ReadonlySet<Id>;
}

export const NOTHING_HIDDEN: Hidden = { assets: new Set(), sensors: new Set() };

/** One pass over the location's assets. */
export function hiddenIn(assets: Iterable<WireAsset>, locationId: Id, isPublic: (asset: WireAsset) => boolean): Hidden {
  const hiddenAssets = new Set<Id>();
  const hiddenSensors = new Set<Id>();
  for (const asset of assets) {
    if (asset.location_id !== locationId || isPublic(asset)) continue;
    hiddenAssets.add(asset.id);
    for (const id of asset.data_providers ?? []) hiddenSensors.add(id);
    for (const id of Object.values(asset.data_provider_refs ?? {})) if (typeof id === 'string') hiddenSensors.add(id);
  }
  return { assets: hiddenAssets, sensors: hiddenSensors };
}

/** A sensor serving a hidden asset, named by it or naming it (`asset_id`). */
export function isSensorHidden(sensor: WireSensor, hidden: Hidden): boolean {
  return hidden.sensors.has(sensor.id) || (sensor.asset_id !== null && hidden.assets.has(sensor.asset_id));
}

/**
 * An asset as the public sees it: a building lists only the floors they may
 * see, its default floor pointing at the same floor as before (or the first).
 */
export function publicAsset(asset: WireAsset, hidden: Hidden): WireAsset {
  const floors = asset.floors;
  if (asset.type !== 'building' || !floors || !floors.some((id) => hidden.assets.has(id))) return asset;
  const shown = floors.filter((id) => !hidden.assets.has(id));
  const defaultId = floors[asset.default_floor ?? 0];
  const defaultAt = defaultId === undefined ? -1 : shown.indexOf(defaultId);
  return { ...asset, floors: shown, default_floor: defaultAt < 0 ? 0 : defaultAt };
}

/** A location reading that puts its tag on a floor the public may not see. */
export function isPositionHidden(value: Partial<WireMeasurementValue> | null | undefined, hidden: Hidden): boolean {
  return typeof value?.floor_id === 'string' && hidden.assets.has(value.floor_id);
}

/** A reading as the public gets it: on a hidden floor, when but not where (the client ignores a position it lacks). */
export function publicReading<T extends Partial<WireMeasurementValue>>(value: T, hidden: Hidden): T {
  if (!isPositionHidden(value, hidden)) return value;
  const { x: _x, y: _y, floor_id: _floor, floor: _index, zones: _zones, ...rest } = value;
  return rest as T;
}

/** A sensor as the public gets it: its last readings without a position on a hidden floor. */
export function publicSensor(sensor: WireSensor, hidden: Hidden): WireSensor {
  if (!isPositionHidden(sensor.last_measurement, hidden) && !isPositionHidden(sensor.previous_measurement, hidden)) return sensor;
  return {
    ...sensor,
    last_measurement: sensor.last_measurement && publicReading(sensor.last_measurement, hidden),
    previous_measurement: sensor.previous_measurement && publicReading(sensor.previous_measurement, hidden),
  };
}

export function sameHidden(a: Hidden, b: Hidden): boolean {
  return a.assets.size === b.assets.size && a.sensors.size === b.sensors.size
    && [...a.assets].every((id) => b.assets.has(id)) && [...a.sensors].every((id) => b.sensors.has(id));
}
