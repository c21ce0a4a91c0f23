// Organizations and locations: their records and the organization's
// `locations` / `locations_map` that name them, published on the
// organization's streams (the location's public form without hidden
// buildings on the shared one). Deleting one takes everything in it.

import type { LiveChange } from '../../src/shared/protocol.js';
import type { Id } from '../../src/shared/types.js';
import { NO_IDS, type Audiences } from './audiences.js';
import { makeLocation, makeOrganization } from './records.js';
import type { Store } from './store.js';
import type { StoreContext } from './storeContext.js';

type Places = Pick<Store, 'createOrganization' | 'updateOrganization' | 'deleteOrganization' | 'createLocation' | 'updateLocation' | 'deleteLocation'>;

export function createPlaces(ctx: StoreContext, audiences: Audiences): Places {
  const { s, index, nextId, mustGet, store } = ctx;
  const { publishOrg, orgChange, locationChange, publishPositionSideEffects } = audiences;

  return {
    createOrganization(body) {
      const org = makeOrganization(nextId(), body);
      s.organizations.set(org.id, org);
      publishOrg(org.id, [orgChange(org, 'created')]);
      return org;
    },
    updateOrganization(id, patch) {
      const org = mustGet(s.organizations, id, 'organization');
      Object.assign(org, patch, { id: org.id, uuid: org.uuid });
      publishOrg(id, [orgChange(org, 'modified')]);
      return org;
    },
    deleteOrganization(id) {
      const org = mustGet(s.organizations, id, 'organization');
      for (const locId of [...org.locations]) store.deleteLocation(locId);
      for (const u of [...s.users.values()]) if (u.organization_id === id) store.deleteUser(u.id);
      for (const o of [...s.externalObjects.values()]) if (o.organization_id === id) s.externalObjects.delete(o.id);
      s.organizations.delete(id);
      publishOrg(id, [{ collection: 'organizations', kind: 'deleted', id }]);
    },
    createLocation(orgId, body) {
      const org = mustGet(s.organizations, orgId, 'organization');
      const loc = makeLocation(nextId(), orgId, body);
      s.locations.set(loc.id, loc);
      org.locations.push(loc.id);
      org.locations_map[loc.id] = { id: loc.id, name: loc.name };
      const change = locationChange(loc, 'created');
      publishOrg(orgId, [change.shared, orgChange(org, 'modified')], [change.edit, orgChange(org, 'modified')]);
      return loc;
    },
    updateLocation(id, patch) {
      const loc = mustGet(s.locations, id, 'location');
      Object.assign(loc, patch, { id: loc.id, organization_id: loc.organization_id });
      const org = mustGet(s.organizations, loc.organization_id, 'organization');
      const change = locationChange(loc, 'modified');
      const changes: LiveChange[] = [change.shared];
      const editChanges: LiveChange[] = [change.edit];
      if (org.locations_map[id]?.name !== loc.name) {
        org.locations_map[id] = { id, name: loc.name };
        changes.push(orgChange(org, 'modified'));
        editChanges.push(orgChange(org, 'modified'));
      }
      publishOrg(org.id, changes, editChanges);
      return loc;
    },
    deleteLocation(id) {
      const loc = mustGet(s.locations, id, 'location');
      const before = new Set(index.hidden(id).assets);
      const gone = new Set<Id>();
      for (const a of [...s.assets.values()]) if (a.location_id === id) { s.assets.delete(a.id); gone.add(a.id); }
      index.locationRemoved(id);
      for (const sn of [...s.sensors.values()]) if (sn.location_id === id) { s.sensors.delete(sn.id); s.history.delete(sn.id); }
      for (const t of [...s.locationTags.values()]) if (t.location_id === id) s.locationTags.delete(t.id);
      s.locations.delete(id);
      s.histories.delete(id);
      const org = s.organizations.get(loc.organization_id);
      const changes: LiveChange[] = [{ collection: 'locations', kind: 'deleted', id }];
      if (org) {
        org.locations = org.locations.filter((l) => l !== id);
        delete org.locations_map[id];
        changes.push(orgChange(org, 'modified'));
      }
      publishOrg(loc.organization_id, changes);
      // positions on its floors are withheld from the shared stream from now on
      if (gone.size > 0) publishPositionSideEffects(loc.organization_id, before, NO_IDS, gone);
    },
  };
}
