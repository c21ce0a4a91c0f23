// Location updates (spec §4): a location value moves its asset, possibly to
// another floor (and so between per-floor lists); employees inside a privacy
// zone become privacy-filtered; alert-on-activity clears on newer values.

import { pointInPolygon } from '../geo.js';
import type { Asset, Id, MeasurementValue } from '../types.js';

export interface LocationMove {
  x: number;
  y: number;
  /** the floor the asset is on after the move (its parent_id) */
  floorId: Id | null;
  previousFloorId: Id | null;
  floorChanged: boolean;
  /** zone ids the value reported, if any */
  zones: Id[];
}

export interface LocationMoveOptions {
  /** resolves a floor index (value.floor) in the building of the current floor, when no floor_id came */
  floorIdByIndex?: (index: number, currentFloorId: Id | null) => Id | null;
}

/**
 * How a location value moves an asset; null when the value lacks
 * building-relative x/y (such values are ignored, spec §5).
 */
export function locationMove(
  asset: Pick<Asset, 'parent_id'>,
  value: Pick<MeasurementValue, 'x' | 'y' | 'floor_id' | 'floor' | 'zones'>,
  options: LocationMoveOptions = {},
): LocationMove | null {
  if (typeof value.x !== 'number' || typeof value.y !== 'number' || !Number.isFinite(value.x) || !Number.isFinite(value.y)) {
    return null;
  }
  const previousFloorId = asset.parent_id;
  let floorId = value.floor_id ?? null;
  if (floorId === null && typeof value.floor === 'number' && options.floorIdByIndex) {
    floorId = options.floorIdByIndex(value.floor, previousFloorId);
  }
  floorId ??= previousFloorId;
  return {
    x: value.x,
    y: value.y,
    floorId,
    previousFloorId,
    floorChanged: floorId !== previousFloorId,
    zones: value.zones ?? [],
  };
}

/** A copy of the asset at the move's position and floor. */
export function applyLocationMove<T extends Pick<Asset, 'x' | 'y' | 'z' | 'coords' | 'parent_id'>>(asset: T, move: LocationMove): T {
  return { ...asset, x: move.x, y: move.y, coords: [move.x, move.y, asset.z], parent_id: move.floorId };
}

/**
 * Moves an id between per-floor sets (created on demand, emptied ones
 * removed). Mutates `lists`: the engine keeps its working store mutable for
 * ingest speed (DESIGN §7).
 */
export function moveBetweenFloorLists(lists: Map<Id, Set<Id>>, assetId: Id, from: Id | null, to: Id | null): void {
  if (from === to) return;
  if (from !== null) {
    const set = lists.get(from);
    set?.delete(assetId);
    if (set && set.size === 0) lists.delete(from);
  }
  if (to !== null) {
    let set = lists.get(to);
    if (!set) lists.set(to, (set = new Set()));
    set.add(assetId);
  }
}

export type ZoneLike = Pick<Asset, 'id' | 'type' | 'subtype' | 'outline'>;

export function isPrivacyZone(zone: ZoneLike): boolean {
  return (zone.type === 'zone' || zone.type === 'zone_auto') && zone.subtype === 'privacy';
}

/** The first privacy zone containing the point (by outline) or reported by id, else null. */
export function privacyZoneAt(point: readonly [number, number], zones: readonly ZoneLike[], reportedZoneIds: readonly Id[] = []): ZoneLike | null {
  for (const zone of zones) {
    if (!isPrivacyZone(zone)) continue;
    if (reportedZoneIds.includes(zone.id)) return zone;
    if (zone.outline && zone.outline.length >= 3 && pointInPolygon(point, zone.outline)) return zone;
  }
  return null;
}

/** An employee inside a privacy zone is privacy-filtered; other assets never are by location. */
export function isPrivacyFiltered(
  asset: Pick<Asset, 'type'>,
  point: readonly [number, number],
  floorZones: readonly ZoneLike[],
  reportedZoneIds: readonly Id[] = [],
): boolean {
  return asset.type === 'employee' && privacyZoneAt(point, floorZones, reportedZoneIds) !== null;
}

export interface AlertOnActivityResult {
  /** the watched types still armed */
  watched: string[];
  /** whether this value was the activity a watched type waited for */
  triggered: boolean;
}

/**
 * Alert-on-activity: an asset watches sensor types; a value of a watched type
 * newer than the previous one is the activity, and clears that type.
 */
export function clearAlertOnActivity(
  watched: readonly string[],
  sensorType: string,
  value: Pick<MeasurementValue, 'time'>,
  previous: Pick<MeasurementValue, 'time'> | null | undefined,
): AlertOnActivityResult {
  const isNewer = !previous || value.time > previous.time;
  if (!watched.includes(sensorType) || !isNewer) return { watched: [...watched], triggered: false };
  return { watched: watched.filter((t) => t !== sensorType), triggered: true };
}
