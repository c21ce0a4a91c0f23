// Placing assets by location values (spec §4) on the mutable store: a
// location value moves the asset, across per-floor lists when the floor
// changes, and an employee inside a privacy zone becomes privacy-filtered.

import { isPrivacyFiltered, isPrivacyZone, locationMove, type ZoneLike } from '../../shared/rules/location.js';
import type { Asset, Id, MeasurementValue, Sensor } from '../../shared/types.js';
import { markPersist, type StoreDelta } from './delta.js';
import { indexAsset, type Store } from './store.js';

/** Resolves `floor` (an index) in the building of the asset's current floor. */
function floorIdByIndex(store: Store, index: number, currentFloorId: Id | null): Id | null {
  const buildingId = currentFloorId ? store.floors.get(currentFloorId)?.parent_id : undefined;
  const building = buildingId ? store.buildings.get(buildingId) : store.buildings.values().next().value;
  const floorId = building?.floors[index];
  return floorId && store.floors.has(floorId) ? floorId : null;
}

function zonesOnFloor(store: Store, floorId: Id | null): ZoneLike[] {
  const out: ZoneLike[] = [];
  for (const id of (floorId && store.privacyZonesByFloor.get(floorId)) || []) {
    const a = store.assets.get(id);
    if (a && isPrivacyZone(a)) out.push(a);
  }
  return out;
}

/**
 * Moves an asset to a location value (shared rules locationMove and
 * isPrivacyFiltered). Returns the floors it left and entered, so both floor
 * views get the change; null when the value has no coordinates.
 */
export function placeAsset(store: Store, asset: Asset, value: MeasurementValue): [Id | null, Id | null] | null {
  const move = locationMove(asset, value, { floorIdByIndex: (i, current) => floorIdByIndex(store, i, current) });
  if (!move) return null;
  if (move.floorId && !store.floors.has(move.floorId)) move.floorId = move.previousFloorId;
  asset.x = move.x;
  asset.y = move.y;
  asset.coords = [move.x, move.y, asset.z];
  asset.parent_id = move.floorId;
  const moved = indexAsset(store, asset, asset);
  if (asset.type === 'employee') {
    const zones = [...zonesOnFloor(store, move.floorId)];
    for (const id of move.zones) { const z = store.assets.get(id); if (z) zones.push(z); }
    asset.privacy_filtered = isPrivacyFiltered(asset, [move.x, move.y], zones, move.zones);
  }
  return moved;
}

/** Of `best` and the sensor's value, the newer location value (a location sensor's, with a position). */
function newerLocation(best: MeasurementValue | null, s: Sensor | undefined): MeasurementValue | null {
  const v = s?.type === 'location' ? s.last_measurement : null;
  return v && typeof v.x === 'number' && (!best || v.time > best.time) ? v : best;
}

/**
 * The newest location value among an asset's sensors (`sensorsOf`: its providers and refs), read where they are:
 * every changed asset asks (`relocate`), most of them desks without one, and building the list of their sensors
 * first showed as 4 % of the worker's self time in a profile of the 10-change live mix (a paired run at load 5–6
 * could not tell the two apart: docs/bench.md "Ingest: where a 10-change packet's time goes, 2026-11-25").
 */
export function latestLocationOf(store: Store, asset: Asset): MeasurementValue | null {
  let best: MeasurementValue | null = null;
  const providers = asset.data_providers;
  for (let i = 0; i < providers.length; i++) best = newerLocation(best, store.sensors.get(providers[i]!));
  const refs = asset.data_provider_refs;
  for (const type in refs) best = newerLocation(best, store.sensors.get(refs[type]!));
  return best;
}

/**
 * Re-decides the privacy filter of the employees on a floor (spec §4): a
 * privacy zone created, moved, re-typed or deleted around someone filters or
 * unfilters them without waiting for their next location value.
 */
export function refilterFloor(store: Store, floorId: Id, delta: StoreDelta): void {
  const zones = zonesOnFloor(store, floorId);
  for (const id of store.assetsByFloor.get(floorId) ?? []) {
    const asset = store.assets.get(id);
    if (!asset || asset.type !== 'employee') continue;
    const reported = latestLocationOf(store, asset)?.zones ?? [];
    const extra = reported.map((z) => store.assets.get(z)).filter((z): z is Asset => !!z);
    const filtered = isPrivacyFiltered(asset, [asset.x, asset.y], [...zones, ...extra], reported);
    if (filtered === asset.privacy_filtered) continue;
    asset.privacy_filtered = filtered;
    delta.assets.add(id);
    markPersist(delta, 'assets', id);
  }
}

/**
 * After an asset's record changed: its position and floor still come from
 * its newest location value (a rename must not send someone back to the
 * record's stale place or lift their privacy filter), else its own record.
 */
export function relocate(store: Store, asset: Asset): void {
  const value = latestLocationOf(store, asset);
  if (value) placeAsset(store, asset, value);
  else if (asset.type === 'employee') {
    const floorId = store.floorOf.get(asset.id) ?? null;
    asset.privacy_filtered = isPrivacyFiltered(asset, [asset.x, asset.y], zonesOnFloor(store, floorId));
  }
}
