// Floor link cost for wayfinding (spec §9): moving between floors of one
// building costs the floor distance; any link across buildings costs 1000, so
// routes prefer staying inside a building.

import { FLOOR_LINK_CROSS_BUILDING_COST } from '../constants.js';
import type { Building, Floor, Id } from '../types.js';

export interface FloorPlace {
  buildingId: Id;
  /** the floor's position in its building's ordered list */
  index: number;
}

export function floorLinkCost(from: FloorPlace, to: FloorPlace): number {
  if (from.buildingId !== to.buildingId) return FLOOR_LINK_CROSS_BUILDING_COST;
  return Math.abs(from.index - to.index);
}

/** A floor's place: its index in the building's floor list, else its building_relative_index. */
export function floorPlace(floor: Pick<Floor, 'id' | 'parent_id' | 'building_relative_index'>, building?: Pick<Building, 'floors'> | null): FloorPlace {
  const index = building ? building.floors.indexOf(floor.id) : -1;
  return { buildingId: floor.parent_id, index: index >= 0 ? index : floor.building_relative_index };
}
