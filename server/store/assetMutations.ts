// Asset and sensor mutations: each changes the record, tells the visibility
// index in the same step, and publishes the change to the edit audience as it
// is and to the public as it sees it, with what flipped for the public besides.
// A change the public cannot see leaves the public's version and ETag as they
// were (docs/server.md "Versions per audience").

import { dequal } from 'dequal';
import type { LiveChange } from '../../src/shared/protocol.js';
import type { WireAsset } from '../../src/shared/rest.js';
import type { Id } from '../../src/shared/types.js';
import { NO_IDS, type Audiences } from './audiences.js';
import { withoutFloor } from './buildingFloors.js';
import type { NamedLists } from './namedLists.js';
import { makeAsset, makeSensor } from './records.js';
import type { Store } from './store.js';
import type { StoreContext } from './storeContext.js';
import { isPublicByWalk, isSensorHidden, publicAsset, publicSensor, type PublicStamp } from './visibility.js';

/** Whether two public forms of an asset say the same, whatever their version and update time. */
function samePublicForm(a: WireAsset, b: WireAsset): boolean {
  return dequal({ ...a, version: 0, update_timestamp: 0 }, { ...b, version: 0, update_timestamp: 0 });
}

type AssetMutations = Pick<Store, 'createAsset' | 'updateAsset' | 'deleteAsset' | 'createSensor' | 'updateSensor' | 'deleteSensor'>;

export function createAssetMutations(ctx: StoreContext, audiences: Audiences, lists: NamedLists): AssetMutations {
  const { s, index, publisher, now, nextId, mustGet, locationScope, isAssetPublic, assetById } = ctx;
  const { publicSideEffects, publishFlippedPositions, publishFlippedBuildings } = audiences;
  const { nameInLists, unnameFromBuilding, keepsPublicForm, setBuildings } = lists;

  /**
   * Moves an asset's version and update time past `before`, as every change
   * does for the edit role. A change the public cannot see (`quiet`) leaves the
   * public the version and time it knows; a change it sees moves those too.
   */
  function stampChange(asset: WireAsset, before: PublicStamp, quiet: boolean) {
    const stamps = index.publicStamps(asset.location_id);
    const known = stamps.get(asset.id);
    const t = now();
    if (quiet && !known) stamps.set(asset.id, { version: before.version, update_timestamp: before.update_timestamp });
    else if (!quiet && known) Object.assign(known, { version: known.version + 1, update_timestamp: t });
    asset.version = before.version + 1;
    asset.update_timestamp = t;
  }

  return {
    createAsset(locationId, body, ownerId) {
      const scope = locationScope(locationId);
      const asset = makeAsset(nextId(), locationId, body, now(), ownerId);
      s.assets.set(asset.id, asset);
      const flips = index.refresh(asset);
      const after = index.hidden(locationId);
      const shown: LiveChange[] = isAssetPublic(asset) ? [{ collection: 'assets', kind: 'created', id: asset.id, data: publicAsset(asset, after) }] : [];
      publisher.publishAudiences(scope, [...shown, ...publicSideEffects(locationId, flips, asset.id)], [{ collection: 'assets', kind: 'created', id: asset.id, data: asset }]);
      publishFlippedBuildings(locationId, flips);
      nameInLists(asset);
      return asset;
    },
    updateAsset(id, patch) {
      const asset = mustGet(s.assets, id, 'asset');
      const wasPublic = isAssetPublic(asset);
      const parentBefore = asset.parent_id ?? null;
      const before = { ...asset };
      const publicBefore = wasPublic ? { ...publicAsset(asset, index.hidden(asset.location_id)) } : null;
      Object.assign(asset, patch, {
        id: asset.id, uuid: asset.uuid, location_id: asset.location_id, owner_id: asset.owner_id,
        creation_timestamp: asset.creation_timestamp, version: asset.version, update_timestamp: asset.update_timestamp,
      });
      // the same values again: nothing changed, for anyone
      if (dequal(before, asset)) return asset;
      const flips = index.refresh(asset);
      const after = index.hidden(asset.location_id);
      const isPublic = isAssetPublic(asset);
      // only what the public cannot see changed (a hidden floor in `floors`, a hidden portal in `targets`)
      const quiet = isPublic && !!publicBefore && samePublicForm(publicBefore, publicAsset(asset, after));
      stampChange(asset, before, quiet);
      const changes: LiveChange[] = [];
      if (isPublic && !quiet) changes.push({ collection: 'assets', kind: wasPublic ? 'modified' : 'created', id, data: publicAsset(asset, after) });
      else if (!isPublic && wasPublic) changes.push({ collection: 'assets', kind: 'deleted', id });
      changes.push(...publicSideEffects(asset.location_id, flips, id));
      // the edit stream sees everything, so only the asset itself changed there
      publisher.publishAudiences(locationScope(asset.location_id), changes, [{ collection: 'assets', kind: 'modified', id: asset.id, data: asset }]);
      publishFlippedPositions(asset.location_id, flips, NO_IDS);
      publishFlippedBuildings(asset.location_id, flips);
      if (asset.type === 'floor' && (asset.parent_id ?? null) !== parentBefore) {
        unnameFromBuilding(asset.id, parentBefore);
        nameInLists(asset);
      }
      return asset;
    },
    deleteAsset(id) {
      const asset = mustGet(s.assets, id, 'asset');
      const wasPublic = isAssetPublic(asset);
      const hiddenChildren = new Set<Id>();
      const children = index.childrenOf(id).flatMap((childId) => {
        const child = s.assets.get(childId);
        if (child && index.isHidden(childId)) hiddenChildren.add(childId);
        return child ? [child] : [];
      });
      s.assets.delete(id);
      s.votes.delete(id);
      // its uploaded images and generated floor plan are served without a token: they go with it (docs/security.md "Files")
      for (const path of [...s.files.keys()]) if (path.startsWith(`assets/${id}/`) || path.startsWith(`floorplans/${id}-`)) s.files.delete(path);
      const changed = new Map<Id, WireAsset>();
      const quiet = new Set<Id>();
      const touch = (a: WireAsset, patch: Partial<WireAsset>, quietly = false) => {
        const stamp = { version: a.version, update_timestamp: a.update_timestamp };
        Object.assign(a, patch);
        stampChange(a, stamp, quietly);
        changed.set(a.id, a);
      };
      // what stood in it moves to its parent, where it stands as seen as before: a child hidden only
      // through the deleted asset (unpublished, or a hidden floor) becomes unpublished itself (docs/server.md)
      for (const child of children) {
        const patch: Partial<WireAsset> = { parent_id: asset.parent_id ?? null };
        if (hiddenChildren.has(child.id) && isPublicByWalk({ ...child, ...patch }, assetById)) patch.unpublished = true;
        touch(child, patch);
      }
      // a building's floor list and a portal's targets stop naming it: a hidden one, once gone, would no longer be filtered out
      for (const rid of index.referrers(asset.location_id)) {
        const r = s.assets.get(rid);
        if (!r) continue;
        const patch: Partial<WireAsset> = {};
        if (r.floors?.includes(id)) Object.assign(patch, withoutFloor(r, id));
        if (r.targets?.includes(id)) patch.targets = r.targets.filter((x) => x !== id);
        if (!patch.floors && !patch.targets) continue;
        if (keepsPublicForm(r, patch)) {
          // a hidden floor or portal left the list: the public form, version included, stays as the public knows it
          touch(r, patch, true);
          quiet.add(r.id);
        } else {
          touch(r, patch);
        }
      }
      const flips = index.removed(asset);
      for (const r of changed.values()) if (!children.includes(r)) index.refresh(r);
      const after = index.hidden(asset.location_id);
      const deleted: LiveChange[] = [{ collection: 'assets', kind: 'deleted', id }];
      const changedAll: LiveChange[] = [...changed.values()].map((c) => ({ collection: 'assets', kind: 'modified', id: c.id, data: c }));
      const changedShown: LiveChange[] = [...changed.values()].filter((c) => !after.assets.has(c.id) && !quiet.has(c.id))
        .map((c) => ({ collection: 'assets', kind: 'modified', id: c.id, data: publicAsset(c, after) }));
      const shown = publicSideEffects(asset.location_id, flips, id, new Set(changed.keys()));
      publisher.publishAudiences(locationScope(asset.location_id), [...changedShown, ...(wasPublic ? deleted : []), ...shown], [...changedAll, ...deleted]);
      publishFlippedPositions(asset.location_id, flips, new Set([id]));
      // first out of the location's list, so the list sent for what flipped never names it
      const loc = s.locations.get(asset.location_id);
      if (loc?.buildings.includes(id)) setBuildings(loc, loc.buildings.filter((b) => b !== id), wasPublic);
      publishFlippedBuildings(asset.location_id, flips);
    },
    createSensor(locationId, body) {
      const scope = locationScope(locationId);
      const sensor = makeSensor(nextId(), locationId, body);
      s.sensors.set(sensor.id, sensor);
      const change: LiveChange = { collection: 'sensors', kind: 'created', id: sensor.id, data: sensor };
      const hidden = index.hidden(locationId);
      publisher.publishAudiences(scope, isSensorHidden(sensor, hidden) ? [] : [{ ...change, data: publicSensor(sensor, hidden) }], [change]);
      return sensor;
    },
    updateSensor(id, patch) {
      const sensor = mustGet(s.sensors, id, 'sensor');
      const hidden = index.hidden(sensor.location_id);
      const was = isSensorHidden(sensor, hidden);
      Object.assign(sensor, patch, { id: sensor.id, uuid: sensor.uuid, location_id: sensor.location_id });
      const is = isSensorHidden(sensor, hidden);
      const change: LiveChange = { collection: 'sensors', kind: 'modified', id, data: sensor };
      const seen: LiveChange = { ...change, kind: was ? 'created' : 'modified', data: publicSensor(sensor, hidden) };
      const shown: LiveChange[] = is ? (was ? [] : [{ collection: 'sensors', kind: 'deleted', id }]) : [seen];
      publisher.publishAudiences(locationScope(sensor.location_id), shown, [change]);
      return sensor;
    },
    deleteSensor(id) {
      const sensor = mustGet(s.sensors, id, 'sensor');
      const was = isSensorHidden(sensor, index.hidden(sensor.location_id));
      s.sensors.delete(id);
      s.history.delete(id);
      const deleted: LiveChange[] = [{ collection: 'sensors', kind: 'deleted', id }];
      publisher.publishAudiences(locationScope(sensor.location_id), was ? [] : deleted, deleted);
    },
  };
}
