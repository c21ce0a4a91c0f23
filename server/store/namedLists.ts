// The lists that name other records: a location's `buildings`, a building's
// `floors`, a portal's `targets`. They follow their members as these are made,
// moved or deleted, quietly for the public when the member is hidden
// (docs/server.md "Buildings and floors", "Lists that name hidden assets").

import type { WireAsset, WireLocation } from '../../src/shared/rest.js';
import type { Id } from '../../src/shared/types.js';
import type { Audiences } from './audiences.js';
import { withFloor, withoutFloor } from './buildingFloors.js';
import type { StoreContext } from './storeContext.js';
import { publicAsset } from './visibility.js';

function sameIds(a: readonly Id[] | undefined, b: readonly Id[] | undefined): boolean {
  return a === b || (!!a && !!b && a.length === b.length && a.every((id, i) => id === b[i]));
}

export interface NamedLists {
  /**
   * A building or floor is named by its location's `buildings` or its
   * building's `floors` from the step that creates it (or moves a floor to
   * the building), as the seed names its own. Published like any change: the
   * public forms leave out what the public may not see.
   */
  nameInLists(asset: WireAsset): void;
  /** the floor out of the building's list that named it, when it moves to another parent */
  unnameFromBuilding(floorId: Id, buildingId: Id | null): void;
  /**
   * Whether a public asset's `floors` / `targets` patch leaves its public form
   * as it was: what joined or left the list is hidden. The public then gets
   * nothing, not even a new version or update time, so nothing tells it that
   * something hidden happened (the edit role's version moves).
   */
  keepsPublicForm(asset: WireAsset, patch: Partial<WireAsset>): boolean;
  /** a location's buildings as one joins or leaves: on the shared stream only when the public sees that one */
  setBuildings(loc: WireLocation, buildings: Id[], publicSees: boolean): void;
}

export function createNamedLists(ctx: StoreContext, audiences: Audiences): NamedLists {
  const { s, index } = ctx;

  function keepsPublicForm(asset: WireAsset, patch: Partial<WireAsset>): boolean {
    if (!ctx.isAssetPublic(asset)) return false;
    const hidden = index.hidden(asset.location_id);
    const before = publicAsset(asset, hidden);
    const after = publicAsset({ ...asset, ...patch }, hidden);
    return sameIds(before.floors, after.floors) && before.default_floor === after.default_floor && sameIds(before.targets, after.targets);
  }
  /** a building's floors or a portal's targets as a member joins or leaves: an update, quiet for the public when its form stays */
  function patchList(asset: WireAsset, patch: Partial<WireAsset>) {
    ctx.store.updateAsset(asset.id, patch);
  }
  function setBuildings(loc: WireLocation, buildings: Id[], publicSees: boolean) {
    if (publicSees) {
      ctx.store.updateLocation(loc.id, { buildings });
      return;
    }
    loc.buildings = buildings;
    audiences.publishOrg(loc.organization_id, [], [audiences.locationChange(loc, 'modified').edit]);
  }

  return {
    keepsPublicForm, setBuildings,
    nameInLists(asset) {
      if (asset.type === 'building') {
        const loc = s.locations.get(asset.location_id);
        if (loc && !loc.buildings.includes(asset.id)) setBuildings(loc, [...loc.buildings, asset.id], ctx.isAssetPublic(asset));
        return;
      }
      const building = asset.type === 'floor' && asset.parent_id ? s.assets.get(asset.parent_id) : undefined;
      if (building?.type !== 'building' || building.floors?.includes(asset.id)) return;
      patchList(building, withFloor(building, asset, (id) => s.assets.get(id)));
    },
    unnameFromBuilding(floorId, buildingId) {
      const building = buildingId ? s.assets.get(buildingId) : undefined;
      if (building?.type === 'building' && building.floors?.includes(floorId)) patchList(building, withoutFloor(building, floorId));
    },
  };
}
