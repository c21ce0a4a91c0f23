// The live-change fan-out per audience: each change goes out unfiltered to
// the edit role's streams and in its public form (or not at all) to everyone
// else's, with what a mutation made appear or vanish for the public besides
// itself (docs/server.md "Unpublished assets and hidden floors").

import type { LiveChange } from '../../src/shared/protocol.js';
import type { WireLocation, WireOrganization, WireUser } from '../../src/shared/rest.js';
import type { Id } from '../../src/shared/types.js';
import type { StoreContext } from './storeContext.js';
import { isPositionHidden, isSensorHidden, publicAsset, publicSensor, type IdSet } from './visibility.js';
import { hiddenBeforeFlips, noFlips, type Flips } from './visibilityIndex.js';

export const NO_IDS: ReadonlySet<Id> = new Set();

export interface Audiences {
  /**
   * Public stream changes a mutation caused besides its own (`own`): assets
   * shown or hidden with their floor, buildings whose public floor list and
   * portals whose public targets changed, sensors shown or hidden with the
   * asset they serve.
   */
  publicSideEffects(locationId: Id, flips: Flips, own: Id | null, handled?: ReadonlySet<Id>): LiveChange[];
  /** `changes` on both of the organization's streams, or `editChanges` (unfiltered) on the edit one */
  publishOrg(orgId: Id, changes: LiveChange[], editChanges?: LiveChange[]): void;
  /** a user as every role may see them: their position withheld unless it is on a floor the public sees */
  publicUser(user: WireUser): WireUser;
  /** a user change: the shared version on the shared stream, the real one on the edit stream */
  publishUser(user: WireUser, kind: 'created' | 'modified'): void;
  /**
   * Users whose shared position changed because floors of one location were
   * hidden, shown or removed (`gone`): their shared version again, on the
   * shared organization stream only (the edit stream's users did not change).
   */
  publishPositionSideEffects(orgId: Id, before: IdSet, after: IdSet, gone: ReadonlySet<Id>): void;
  /** the same after an asset mutation of one location, when something flipped or went */
  publishFlippedPositions(locationId: Id, flips: Flips, gone: ReadonlySet<Id>): void;
  /** a location as the public sees it: its `buildings` without those hidden (unpublished) */
  publicLocation(loc: WireLocation): WireLocation;
  /** a location change: the public version on the organization's shared stream, the real one on its edit stream */
  locationChange(loc: WireLocation, kind: 'created' | 'modified'): { shared: LiveChange; edit: LiveChange };
  /** the location again on the shared stream when one of its buildings was hidden or shown */
  publishFlippedBuildings(locationId: Id, flips: Flips): void;
  orgChange(org: WireOrganization, kind: 'created' | 'modified'): LiveChange;
}

export function createAudiences(ctx: StoreContext): Audiences {
  const { s, index, publisher } = ctx;

  function publicSideEffects(locationId: Id, flips: Flips, own: Id | null, handled: ReadonlySet<Id> = NO_IDS): LiveChange[] {
    if (publisher.muted || noFlips(flips)) return [];
    const after = index.hidden(locationId);
    const before = hiddenBeforeFlips(after, flips);
    const out: LiveChange[] = [];
    const flipped = new Set<Id>([...flips.assetsHidden, ...flips.assetsShown]);
    for (const id of flipped) {
      const asset = s.assets.get(id);
      if (id === own) continue;
      if (!after.assets.has(id) && asset) out.push({ collection: 'assets', kind: 'created', id, data: publicAsset(asset, after) });
      else if (after.assets.has(id)) out.push({ collection: 'assets', kind: 'deleted', id });
    }
    if (flipped.size > 0) {
      // buildings whose public floor list and portals whose public targets changed
      for (const id of index.referrers(locationId)) {
        const a = s.assets.get(id);
        if (!a || a.id === own || handled.has(a.id) || after.assets.has(a.id) || flipped.has(a.id)) continue;
        if (a.floors?.some((f) => flipped.has(f)) || a.targets?.some((x) => flipped.has(x))) {
          out.push({ collection: 'assets', kind: 'modified', id: a.id, data: publicAsset(a, after) });
        }
      }
    }
    for (const sensor of s.sensors.values()) {
      if (sensor.location_id !== locationId) continue;
      const was = isSensorHidden(sensor, before);
      const is = isSensorHidden(sensor, after);
      if (was && !is) out.push({ collection: 'sensors', kind: 'created', id: sensor.id, data: publicSensor(sensor, after) });
      else if (!was && is) out.push({ collection: 'sensors', kind: 'deleted', id: sensor.id });
      else if (!is && (isPositionHidden(sensor.last_measurement, before) !== isPositionHidden(sensor.last_measurement, after)
        || isPositionHidden(sensor.previous_measurement, before) !== isPositionHidden(sensor.previous_measurement, after))) {
        // a tag whose last reading is on a floor hidden or shown just now: its position leaves or comes back
        out.push({ collection: 'sensors', kind: 'modified', id: sensor.id, data: publicSensor(sensor, after) });
      }
    }
    return out;
  }
  function publishOrg(orgId: Id, changes: LiveChange[], editChanges: LiveChange[] = changes) {
    publisher.publishAudiences(ctx.organizationScope(orgId), changes, editChanges);
  }
  function publicUser(user: WireUser): WireUser {
    const at = user.location;
    if (!at) return user;
    const floor = s.assets.get(at.floor_id);
    const shown = floor?.type === 'floor' && floor.location_id === at.location_id && ctx.isAssetPublic(floor);
    return shown ? user : { ...user, location: null };
  }
  function publishPositionSideEffects(orgId: Id, before: IdSet, after: IdSet, gone: ReadonlySet<Id>) {
    if (publisher.muted) return;
    const out: LiveChange[] = [];
    for (const u of s.users.values()) {
      const floorId = u.location?.floor_id;
      if (u.organization_id !== orgId || floorId === undefined) continue;
      const was = before.has(floorId);
      const is = after.has(floorId) || gone.has(floorId);
      if (was !== is) out.push({ collection: 'users', kind: 'modified', id: u.id, data: publicUser(u) });
    }
    publisher.publish(ctx.organizationScope(orgId), out);
  }
  function publicLocation(loc: WireLocation): WireLocation {
    const hidden = index.hidden(loc.id).assets;
    if (hidden.size === 0 || !loc.buildings.some((b) => hidden.has(b))) return loc;
    return { ...loc, buildings: loc.buildings.filter((b) => !hidden.has(b)) };
  }
  function locationChange(loc: WireLocation, kind: 'created' | 'modified'): { shared: LiveChange; edit: LiveChange } {
    return {
      shared: { collection: 'locations', kind, id: loc.id, data: publicLocation(loc) },
      edit: { collection: 'locations', kind, id: loc.id, data: loc },
    };
  }

  return {
    publicSideEffects, publishOrg, publicUser, publishPositionSideEffects, publicLocation, locationChange,
    publishUser(user, kind) {
      publishOrg(user.organization_id, [{ collection: 'users', kind, id: user.id, data: publicUser(user) }], [{ collection: 'users', kind, id: user.id, data: user }]);
    },
    publishFlippedPositions(locationId, flips, gone) {
      if (publisher.muted || (gone.size === 0 && noFlips(flips))) return;
      const after = index.hidden(locationId);
      publishPositionSideEffects(ctx.organizationOf(locationId), hiddenBeforeFlips(after, flips).assets, after.assets, gone);
    },
    publishFlippedBuildings(locationId, flips) {
      if (publisher.muted || (flips.assetsHidden.size === 0 && flips.assetsShown.size === 0)) return;
      const loc = s.locations.get(locationId);
      if (!loc?.buildings.some((b) => flips.assetsHidden.has(b) || flips.assetsShown.has(b))) return;
      publisher.publish(ctx.organizationScope(loc.organization_id), [locationChange(loc, 'modified').shared]);
    },
    orgChange: (org, kind) => ({ collection: 'organizations', kind, id: org.id, data: org }),
  };
}
