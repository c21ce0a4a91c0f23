// What stands in an unpublished asset is hidden with it (a room's desks; docs/ui.md
// "Unpublished assets"), and the edit role's map marks it so: a desk's facts carry
// the nearest unpublished asset it stands in (`AssetFacts.hiddenBy`). Those are
// standing facts of the desk, derived from its parents' records, so when a parent
// is published or unpublished (or moved under or out of an unpublished one) the
// assets standing in it must be derived again though their own records did not
// change. This keeps, for every asset something stands in, whether it hides what
// stands in it, and names the assets to derive again when that flips. A live load
// of desk changes costs one look-up per changed asset (desks stand in nothing).

import type { Id } from '../../shared/types.js';
import { unpublishedAncestor } from '../derive/assetFacts.js';
import type { Store } from '../store/store.js';

export interface HiddenDescendants {
  /** assets changed (records, parents): the assets standing in those that now hide differently, to derive again */
  changed(ids: Iterable<Id>): Id[];
  /** the structure or the whole store changed (a load): built again from the store as it is now */
  reset(): void;
}

export function createHiddenDescendants(store: Store): HiddenDescendants {
  /** parent id → whether it hides what stands in it (unpublished itself, or standing in an unpublished asset) */
  let parents: Map<Id, boolean> | null = null;

  const hides = (id: Id): boolean => {
    const asset = store.assets.get(id);
    return !!asset && (asset.unpublished || unpublishedAncestor(store, asset) !== null);
  };

  function build(): Map<Id, boolean> {
    const map = new Map<Id, boolean>();
    for (const asset of store.assets.values()) {
      const parent = asset.parent_id;
      if (parent && !map.has(parent) && store.assets.has(parent)) map.set(parent, hides(parent));
    }
    return map;
  }

  /** The assets of `floorId` standing (at any depth) in one of `flipped`, and the parents among them flipped too. */
  function standingIn(flipped: Set<Id>, floorId: Id | undefined, out: Id[]): void {
    if (!floorId) return;
    for (const id of store.assetsByFloor.get(floorId) ?? []) {
      if (flipped.has(id)) continue;
      let parent = store.assets.get(id)?.parent_id;
      for (let hops = 0; parent && hops < 16 && !store.floors.has(parent); hops++) {
        if (flipped.has(parent)) { out.push(id); break; }
        parent = store.assets.get(parent)?.parent_id;
      }
    }
  }

  return {
    changed(ids) {
      if (!parents) { parents = build(); return []; }
      const map = parents;
      let flipped: Set<Id> | null = null;
      for (const id of ids) {
        const asset = store.assets.get(id);
        // a new parent: what stands in it was derived with it already (it came in the same or a later batch)
        const parent = asset?.parent_id;
        if (parent && !map.has(parent) && store.assets.has(parent)) map.set(parent, hides(parent));
        const was = map.get(id);
        if (was === undefined) continue;
        const now = hides(id);
        if (now !== was) (flipped ??= new Set()).add(id);
      }
      if (!flipped) return [];
      const out: Id[] = [];
      const floors = new Set<Id>();
      for (const id of flipped) { const f = store.floorOf.get(id); if (f) floors.add(f); }
      for (const f of floors) standingIn(flipped, f, out);
      // nested parents among them hide differently now too
      for (const id of [...flipped, ...out]) if (map.has(id)) map.set(id, hides(id));
      return out;
    },
    reset() { parents = build(); },
  };
}
