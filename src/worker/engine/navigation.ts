// Which building and floor the viewer shows (the worker owns navigation):
// the floor the user chose while it exists and they may see it, else the
// first building's default floor (spec §3 `default_floor`). Organization and
// location are the session machine's; this is the part without network.

import type { NavigationState } from '../../shared/api.js';
import { floorVisibleToRoles } from '../../shared/roles.js';
import type { Building, Floor, Id, Role } from '../../shared/types.js';
import type { Store } from '../store/store.js';

/** A location's buildings in its own order, then any it does not list. */
export function orderedBuildings(store: Store): Building[] {
  const location = store.locationId ? store.locations.get(store.locationId) : undefined;
  const out: Building[] = [];
  for (const id of location?.buildings ?? []) {
    const b = store.buildings.get(id);
    if (b && !out.includes(b)) out.push(b);
  }
  for (const b of store.buildings.values()) if (!out.includes(b)) out.push(b);
  return out;
}

/** A building's floors in its own order (then unlisted ones), the ones the roles may see. */
export function visibleFloors(store: Store, building: Building, roles: readonly Role[]): Floor[] {
  const ordered: Floor[] = [];
  for (const id of building.floors) {
    const f = store.floors.get(id);
    if (f && !ordered.includes(f)) ordered.push(f);
  }
  for (const f of store.floors.values()) if (f.parent_id === building.id && !ordered.includes(f)) ordered.push(f);
  return ordered.filter((f) => floorVisibleToRoles(f, roles));
}

/** The building's default floor (`default_floor` index) when visible, else its first visible floor. */
export function defaultFloorOf(store: Store, building: Building, roles: readonly Role[]): Floor | null {
  const floors = visibleFloors(store, building, roles);
  const preferred = store.floors.get(building.floors[building.default_floor] ?? '');
  return preferred && floors.includes(preferred) ? preferred : floors[0] ?? null;
}

export interface Navigation {
  /** the floor shown: the chosen one if it is there for these roles, else the default */
  floor(roles: readonly Role[]): Floor | null;
  building(roles: readonly Role[]): Building | null;
  /** remembers the floor the user chose (a deep link may name it before the structure arrives) */
  selectFloor(floorId: Id): boolean;
  /** the building's default floor becomes the choice */
  selectBuilding(buildingId: Id, roles: readonly Role[]): boolean;
  /** the chosen floor id (also a saved one not loaded yet) */
  chosenFloorId(): Id | null;
  restore(floorId: Id | null): void;
  reset(): void;
}

export function createNavigation(store: Store): Navigation {
  let chosen: Id | null = null;
  const nav: Navigation = {
    floor(roles) {
      const floor = chosen ? store.floors.get(chosen) : undefined;
      if (floor && floorVisibleToRoles(floor, roles) && store.buildings.has(floor.parent_id)) return floor;
      for (const b of orderedBuildings(store)) {
        const f = defaultFloorOf(store, b, roles);
        if (f) return f;
      }
      return null;
    },
    building(roles) {
      const floor = nav.floor(roles);
      return floor ? store.buildings.get(floor.parent_id) ?? null : null;
    },
    selectFloor(floorId) {
      if (typeof floorId !== 'string' || !floorId || chosen === floorId) return false;
      chosen = floorId;
      return true;
    },
    selectBuilding(buildingId, roles) {
      const building = store.buildings.get(buildingId);
      const floor = building ? defaultFloorOf(store, building, roles) : null;
      if (!floor) return false;
      chosen = floor.id;
      return true;
    },
    chosenFloorId: () => chosen,
    restore(floorId) { chosen = floorId; },
    reset() { chosen = null; },
  };
  return nav;
}

export interface NavigationInputs {
  signedIn: boolean;
  /** settings arrived (the user's own organization is known) */
  settingsKnown: boolean;
  /** the user's own organization, from the settings: entered once the clock is checked */
  homeOrganizationId: Id | null;
  organizationId: Id | null;
  organizationLoaded: boolean;
  locationId: Id | null;
  /** the organization's locations are known (null: still loading) */
  locationIds: Id[] | null;
  /** the location's buildings and floors arrived (live or saved) */
  structureLoaded: boolean;
  floorId: Id | null;
}

/** How far navigation got, so the UI never says "none" before the data could arrive. */
export function navigationState(i: NavigationInputs): NavigationState {
  if (!i.signedIn) return 'idle';
  // signed in, the clock still being checked: the home organization is known but not entered yet
  if (!i.organizationId) return i.settingsKnown && !i.homeOrganizationId ? 'noOrganization' : 'organizations';
  if (!i.organizationLoaded) return 'organizations';
  if (!i.locationId) return i.locationIds !== null && i.locationIds.length === 0 ? 'noLocations' : 'locations';
  if (!i.structureLoaded) return 'structure';
  return i.floorId ? 'ready' : 'noFloors';
}
