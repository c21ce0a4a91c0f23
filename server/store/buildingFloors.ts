// A building's ordered `floors` (spec §3) as floors join and leave it, its
// `default_floor` (an index into that list) kept on the same floor.

import type { WireAsset } from '../../src/shared/rest.js';
import type { Id } from '../../src/shared/types.js';

type FloorsPatch = Pick<WireAsset, 'floors' | 'default_floor'>;

/** `floors` as they would be, with `default_floor` still naming the same floor (else the first). */
export function keepDefault(building: WireAsset, floors: Id[]): FloorsPatch {
  const defaultId = building.floors?.[building.default_floor ?? 0];
  const at = defaultId === undefined ? -1 : floors.indexOf(defaultId);
  return { floors, default_floor: at < 0 ? 0 : at };
}

/**
 * The building's list with `floor` in it, ordered by `building_relative_index`
 * (after the floors of the same index, so floors created in order keep it).
 */
export function withFloor(building: WireAsset, floor: WireAsset, lookup: (id: Id) => WireAsset | undefined): FloorsPatch {
  const floors = [...(building.floors ?? [])];
  const index = floor.building_relative_index ?? 0;
  let at = floors.length;
  while (at > 0 && (lookup(floors[at - 1]!)?.building_relative_index ?? 0) > index) at -= 1;
  floors.splice(at, 0, floor.id);
  return keepDefault(building, floors);
}

/** The building's list without `floorId`. */
export function withoutFloor(building: WireAsset, floorId: Id): FloorsPatch {
  return keepDefault(building, (building.floors ?? []).filter((f) => f !== floorId));
}

/**
 * Whether `given` names exactly the ids of `stored`, each once, in any order:
 * the only list a client may send for a building's `floors` or a location's
 * `buildings`, whose members join and leave by their own `parent_id` (docs/server.md).
 */
export function isReordering(given: readonly Id[], stored: readonly Id[]): boolean {
  if (given.length !== stored.length) return false;
  const left = new Set(stored);
  for (const id of given) if (!left.delete(id)) return false;
  return left.size === 0;
}
