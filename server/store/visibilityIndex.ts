// What of each location the public may not see, kept up to date by every
// asset mutation instead of found by a scan of all assets on every change,
// heartbeat and read. The store tells the index of each asset it creates,
// changes or deletes; the index recomputes that asset and, when a field that
// others depend on moved (type, parent, a floor's hidden or unpublished
// flag), everything standing under it, and returns what flipped, so the
// store publishes the side effects without comparing whole sets.
// `hiddenIn` (store/visibility.ts), the scan, stays the oracle the tests hold it to.

import type { WireAsset } from '../../src/shared/rest.js';
import type { Id } from '../../src/shared/types.js';
import { isPublicByWalk, sensorsNamedBy, type Hidden, type IdSet, type PublicStamp } from './visibility.js';

/** What one mutation changed of a location's hidden sets. */
export interface Flips {
  /** assets the public saw before and may not see now */
  assetsHidden: Set<Id>;
  /** assets hidden before and public now (or deleted while hidden) */
  assetsShown: Set<Id>;
  sensorsHidden: Set<Id>;
  sensorsShown: Set<Id>;
  /** sensors a public asset names now and none did before (Hidden.named), and the reverse */
  sensorsNamed: Set<Id>;
  sensorsUnnamed: Set<Id>;
}

/** A location's hidden sets as the index holds them. */
export interface IndexedHidden extends Hidden {
  assets: ReadonlySet<Id>;
  goneAssets: ReadonlySet<Id>;
  goneSensors: ReadonlySet<Id>;
  publicStamps: ReadonlyMap<Id, PublicStamp>;
}

export interface VisibilityIndex {
  /** the location's hidden sets as they are now (live, not a copy) */
  hidden(locationId: Id): IndexedHidden;
  /** whether the index has seen the asset (and not its removal) */
  has(assetId: Id): boolean;
  isHidden(assetId: Id): boolean;
  /** the ids of the assets naming `assetId` as their parent */
  childrenOf(assetId: Id): Id[];
  /** the location's assets whose public form names other assets: buildings (floors), portals (targets) */
  referrers(locationId: Id): ReadonlySet<Id>;
  /** after an asset was stored or changed in place */
  refresh(asset: WireAsset): Flips;
  /** after an asset was taken out of the store; one the public could not see is remembered as gone (Hidden.goneAssets) */
  removed(asset: WireAsset): Flips;
  /**
   * The public's version and update time of the location's assets that changed
   * since in what only the edit role sees (Hidden.publicStamps), for the store
   * to keep; kept through a rebuild, dropped with the asset or the location.
   */
  publicStamps(locationId: Id): Map<Id, PublicStamp>;
  /** after a location and everything in it was taken out */
  locationRemoved(locationId: Id): void;
  /** forgets everything and indexes `assets` afresh (after a bulk load that built records in place) */
  rebuild(assets: Iterable<WireAsset>): void;
}

/** Nothing flipped. */
export function noFlips(flips: Flips): boolean {
  return flips.assetsHidden.size === 0 && flips.assetsShown.size === 0 && flips.sensorsHidden.size === 0 && flips.sensorsShown.size === 0
    && flips.sensorsNamed.size === 0 && flips.sensorsUnnamed.size === 0;
}

/** The hidden sets as they were before the mutation that `flips` describes. */
export function hiddenBeforeFlips(after: Hidden, flips: Flips): Hidden {
  return {
    assets: {
      has: (id) => flips.assetsShown.has(id) || (after.assets.has(id) && !flips.assetsHidden.has(id)),
      size: after.assets.size - flips.assetsHidden.size + flips.assetsShown.size,
    },
    sensors: {
      has: (id) => flips.sensorsShown.has(id) || (after.sensors.has(id) && !flips.sensorsHidden.has(id)),
      size: after.sensors.size - flips.sensorsHidden.size + flips.sensorsShown.size,
    },
    named: {
      has: (id) => flips.sensorsUnnamed.has(id) || (after.named.has(id) && !flips.sensorsNamed.has(id)),
      size: after.named.size - flips.sensorsNamed.size + flips.sensorsUnnamed.size,
    },
    // an asset deleted while hidden was in `assets` before, so the gone sets of after answer for before too
    goneAssets: after.goneAssets,
    goneSensors: after.goneSensors,
    publicStamps: after.publicStamps,
  };
}

interface LocationEntry {
  assets: Set<Id>;
  /** sensor id → how many hidden assets name it */
  sensorCounts: Map<Id, number>;
  sensors: IdSet;
  /** sensor id → how many public assets name it */
  namedCounts: Map<Id, number>;
  named: IdSet;
  referrers: Set<Id>;
  goneAssets: Set<Id>;
  goneSensors: Set<Id>;
}

/** The fields of an asset that decide what stands under it, as last indexed. */
interface Indexed {
  locationId: Id;
  parentId: Id | null;
  type: string;
  hidden: boolean;
  unpublished: boolean;
  /** the sensors it counted as hidden (only while it is hidden) */
  named: Id[];
  /** the sensors it counted as named by a public asset (only while it is public) */
  namedPublic: Id[];
}

export function createVisibilityIndex(lookup: (id: Id) => WireAsset | undefined): VisibilityIndex {
  const locations = new Map<Id, LocationEntry>();
  const indexed = new Map<Id, Indexed>();
  /** parent id → ids of the assets naming it as parent (whether or not it exists) */
  const children = new Map<Id, Set<Id>>();
  /** location id → asset id → the public's stamp (publicStamps) */
  const stamps = new Map<Id, Map<Id, PublicStamp>>();
  const NO_STAMPS: ReadonlyMap<Id, PublicStamp> = new Map();
  function stampsOf(locationId: Id): Map<Id, PublicStamp> {
    let map = stamps.get(locationId);
    if (!map) stamps.set(locationId, (map = new Map()));
    return map;
  }
  const NONE: IndexedHidden = { assets: new Set(), sensors: new Set(), named: new Set(), goneAssets: new Set(), goneSensors: new Set(), publicStamps: NO_STAMPS };

  function entry(locationId: Id): LocationEntry {
    let e = locations.get(locationId);
    if (!e) {
      const sensorCounts = new Map<Id, number>();
      const namedCounts = new Map<Id, number>();
      e = {
        assets: new Set(), sensorCounts, namedCounts, referrers: new Set(), goneAssets: new Set(), goneSensors: new Set(),
        sensors: { has: (id) => sensorCounts.has(id), get size() { return sensorCounts.size; } },
        named: { has: (id) => namedCounts.has(id), get size() { return namedCounts.size; } },
      };
      locations.set(locationId, e);
    }
    return e;
  }
  const emptyFlips = (): Flips => ({
    assetsHidden: new Set(), assetsShown: new Set(), sensorsHidden: new Set(), sensorsShown: new Set(), sensorsNamed: new Set(), sensorsUnnamed: new Set(),
  });

  function link(parentId: Id | null, id: Id) {
    if (parentId === null) return;
    let set = children.get(parentId);
    if (!set) children.set(parentId, (set = new Set()));
    set.add(id);
  }
  function unlink(parentId: Id | null, id: Id) {
    if (parentId === null) return;
    const set = children.get(parentId);
    set?.delete(id);
    if (set?.size === 0) children.delete(parentId);
  }
  /** counts `sensors` in or out of `counts`, noting in `on`/`off` those that entered or left it (undoing the opposite note) */
  function tally(counts: Map<Id, number>, sensors: Id[], by: 1 | -1, on: Set<Id>, off: Set<Id>) {
    for (const id of sensors) {
      const n = (counts.get(id) ?? 0) + by;
      if (n > 0) counts.set(id, n);
      else counts.delete(id);
      if (by === 1 && n === 1) { if (off.has(id)) off.delete(id); else on.add(id); }
      if (by === -1 && n === 0) { if (on.has(id)) on.delete(id); else off.add(id); }
    }
  }
  function count(e: LocationEntry, sensors: Id[], by: 1 | -1, flips: Flips) {
    tally(e.sensorCounts, sensors, by, flips.sensorsHidden, flips.sensorsShown);
  }
  function countNamed(e: LocationEntry, sensors: Id[], by: 1 | -1, flips: Flips) {
    tally(e.namedCounts, sensors, by, flips.sensorsNamed, flips.sensorsUnnamed);
  }
  /** takes an asset's hidden status and named sensors out of its location's sets */
  function withdraw(id: Id, rec: Indexed, flips: Flips) {
    const e = entry(rec.locationId);
    if (e.assets.delete(id)) {
      if (flips.assetsHidden.has(id)) flips.assetsHidden.delete(id); else flips.assetsShown.add(id);
    }
    count(e, rec.named, -1, flips);
    countNamed(e, rec.namedPublic, -1, flips);
    rec.named = [];
    rec.namedPublic = [];
  }
  /** recomputes one stored asset; true when a field others depend on changed */
  function place(asset: WireAsset, flips: Flips): boolean {
    const parentId = asset.parent_id ?? null;
    const shape = { type: asset.type, hidden: asset.hidden === true, unpublished: asset.unpublished === true };
    let rec = indexed.get(asset.id);
    let moved = true;
    if (rec) {
      moved = rec.parentId !== parentId || rec.type !== shape.type || rec.hidden !== shape.hidden || rec.unpublished !== shape.unpublished;
      withdraw(asset.id, rec, flips);
      if (rec.parentId !== parentId) { unlink(rec.parentId, asset.id); link(parentId, asset.id); }
      Object.assign(rec, { parentId, ...shape });
    } else {
      rec = { locationId: asset.location_id, parentId, ...shape, named: [], namedPublic: [] };
      indexed.set(asset.id, rec);
      link(parentId, asset.id);
    }
    const e = entry(rec.locationId);
    if (rec.type === 'building' || (asset.targets?.length ?? 0) > 0) e.referrers.add(asset.id);
    else e.referrers.delete(asset.id);
    if (!isPublicByWalk(asset, lookup)) {
      if (flips.assetsShown.has(asset.id)) flips.assetsShown.delete(asset.id); else flips.assetsHidden.add(asset.id);
      e.assets.add(asset.id);
      rec.named = sensorsNamedBy(asset);
      count(e, rec.named, 1, flips);
    } else {
      rec.namedPublic = sensorsNamedBy(asset);
      countNamed(e, rec.namedPublic, 1, flips);
    }
    return moved;
  }
  /** everything standing under `rootId` (its descendants through parent links), each once */
  function underneath(rootId: Id): Id[] {
    const out: Id[] = [];
    const seen = new Set<Id>([rootId]);
    const queue = [rootId];
    for (let i = 0; i < queue.length; i++) {
      for (const child of children.get(queue[i]!) ?? []) {
        if (seen.has(child)) continue;
        seen.add(child);
        out.push(child);
        queue.push(child);
      }
    }
    return out;
  }
  function refreshUnder(rootId: Id, flips: Flips) {
    for (const id of underneath(rootId)) {
      const asset = lookup(id);
      if (asset) place(asset, flips);
    }
  }

  return {
    hidden(locationId) {
      const e = locations.get(locationId);
      return e ? { assets: e.assets, sensors: e.sensors, named: e.named, goneAssets: e.goneAssets, goneSensors: e.goneSensors, publicStamps: stampsOf(locationId) } : NONE;
    },
    has(assetId) {
      return indexed.has(assetId);
    },
    isHidden(assetId) {
      const rec = indexed.get(assetId);
      return !!rec && !!locations.get(rec.locationId)?.assets.has(assetId);
    },
    childrenOf(assetId) {
      return [...(children.get(assetId) ?? [])];
    },
    referrers(locationId) {
      return locations.get(locationId)?.referrers ?? new Set();
    },
    refresh(asset) {
      const flips = emptyFlips();
      if (place(asset, flips)) refreshUnder(asset.id, flips);
      return flips;
    },
    publicStamps: stampsOf,
    removed(asset) {
      const flips = emptyFlips();
      stamps.get(asset.location_id)?.delete(asset.id);
      const rec = indexed.get(asset.id);
      if (!rec) return flips;
      const e = entry(rec.locationId);
      if (e.assets.has(asset.id)) {
        // deleted while hidden: never named to the public, nor what served it shown, afterwards either
        e.goneAssets.add(asset.id);
        for (const id of rec.named) e.goneSensors.add(id);
      }
      withdraw(asset.id, rec, flips);
      unlink(rec.parentId, asset.id);
      indexed.delete(asset.id);
      e.referrers.delete(asset.id);
      // what stood on it now stops at a missing parent
      refreshUnder(asset.id, flips);
      return flips;
    },
    locationRemoved(locationId) {
      const gone: Id[] = [];
      for (const [id, rec] of indexed) {
        if (rec.locationId !== locationId) continue;
        unlink(rec.parentId, id);
        indexed.delete(id);
        gone.push(id);
      }
      locations.delete(locationId);
      stamps.delete(locationId);
      // an asset of another location standing on one of them (the store allows it; the routes do not)
      for (const id of gone) refreshUnder(id, emptyFlips());
    },
    rebuild(assets) {
      locations.clear();
      indexed.clear();
      children.clear();
      const flips = emptyFlips();
      for (const asset of assets) place(asset, flips);
    },
  };
}
