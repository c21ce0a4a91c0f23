// The one in-memory store of the reference server. Every mutation goes
// through here and publishes its changes on the scope's stream in the same
// synchronous step, so a REST read and the stream position it reports always
// agree (docs/protocol.md §5). Permission checks live in the routes.

import type { LiveChange, StreamScope } from '../../src/shared/protocol.js';
import type {
  WireAsset, WireExternalObject, WireLocation, WireLocationTag, WireMeasurementValue, WireNotification,
  WireOrganization, WireSensor, WireUser,
} from '../../src/shared/rest.js';
import type { Id } from '../../src/shared/types.js';
import type { ServerClock } from '../clock.js';
import type { Publisher } from '../live/publisher.js';
import type { LocationHistory } from '../seed/history.js';
import {
  makeAsset, makeExternalObject, makeLocation, makeNotification, makeOrganization, makeSensor, makeUser, sessionIdOf,
  type BookingRecord, type Credentials, type NotificationInput, type MailCode, type Revocation, type RevocationReason,
  type StoredFile, type TokenRecord,
} from './records.js';
import {
  floorByWalk, isPositionHidden, isPublicByWalk, isSensorHidden, namesGoneZone, publicAsset, publicReading, publicSensor, type Hidden, type IdSet,
} from './visibility.js';
import { withFloor, withoutFloor } from './buildingFloors.js';
import { createVisibilityIndex, hiddenBeforeFlips, noFlips, type Flips, type IndexedHidden } from './visibilityIndex.js';

const NO_IDS: ReadonlySet<Id> = new Set();

function sameIds(a: readonly Id[] | undefined, b: readonly Id[] | undefined): boolean {
  return a === b || (!!a && !!b && a.length === b.length && a.every((id, i) => id === b[i]));
}

/** Rows kept per sensor; older ones are dropped so a long simulation stays bounded. */
export const HISTORY_MAX_ROWS = 5_000;
/** A user's location follows their tag's readings at most this often while they stay on one floor, ms. */
export const USER_LOCATION_REFRESH_MS = 5 * 60_000;

export interface Store {
  readonly clock: ServerClock;
  readonly publisher: Publisher;
  readonly organizations: Map<Id, WireOrganization>;
  readonly locations: Map<Id, WireLocation>;
  readonly assets: Map<Id, WireAsset>;
  readonly sensors: Map<Id, WireSensor>;
  /** sensor id → measurement values, ascending time (live and ingested; the past is generated) */
  readonly history: Map<Id, WireMeasurementValue[]>;
  /** location id → its generated past (seed/history.ts), served before the stored rows */
  readonly histories: Map<Id, LocationHistory>;
  readonly users: Map<Id, WireUser>;
  readonly credentials: Map<Id, Credentials>;
  readonly tokens: Map<string, TokenRecord>;
  readonly mailCodes: Map<string, MailCode>;
  readonly externalObjects: Map<Id, WireExternalObject>;
  readonly notifications: Map<Id, WireNotification>;
  readonly locationTags: Map<Id, WireLocationTag>;
  readonly bookings: Map<string, BookingRecord>;
  /** asset id → user id → vote */
  readonly votes: Map<Id, Map<Id, 1 | -1>>;
  /** path below /v1/files/ → file */
  readonly files: Map<string, StoredFile>;
  nextId(): Id;

  locationScope(locationId: Id): StreamScope;
  organizationScope(organizationId: Id): StreamScope;
  /** false for unpublished assets, hidden floors and what stands on them */
  isAssetPublic(asset: WireAsset): boolean;
  /**
   * What of the location only the edit role may see: hidden assets and the
   * sensors serving them (store/visibility.ts), kept by every asset mutation
   * (store/visibilityIndex.ts); live sets, not a copy.
   */
  hiddenIn(locationId: Id): IndexedHidden;
  /**
   * Indexes what the public may not see afresh. Only for a bulk load that
   * built records in place while muted (seed/demo.ts); every mutation below
   * keeps the index itself.
   */
  rebuildVisibility(): void;
  /** a user as every role may see them: their position withheld unless it is on a floor the public sees */
  publicUser(user: WireUser): WireUser;
  /** a location as the public sees it: its `buildings` without those hidden (unpublished) */
  publicLocation(loc: WireLocation): WireLocation;
  floorOf(asset: WireAsset): WireAsset | null;
  userByEmail(email: string): WireUser | undefined;

  createOrganization(body: Partial<WireOrganization> & { name: string }): WireOrganization;
  updateOrganization(id: Id, patch: Partial<WireOrganization>): WireOrganization;
  deleteOrganization(id: Id): void;
  createLocation(orgId: Id, body: Partial<WireLocation> & { name: string }): WireLocation;
  updateLocation(id: Id, patch: Partial<WireLocation>): WireLocation;
  deleteLocation(id: Id): void;

  createAsset(locationId: Id, body: Partial<WireAsset>, ownerId: Id | null): WireAsset;
  updateAsset(id: Id, patch: Partial<WireAsset>): WireAsset;
  deleteAsset(id: Id): void;
  createSensor(locationId: Id, body: Partial<WireSensor> & { type: string }): WireSensor;
  updateSensor(id: Id, patch: Partial<WireSensor>): WireSensor;
  deleteSensor(id: Id): void;
  /** appends a measurement, updates the sensor and publishes it */
  addMeasurement(sensorId: Id, value: WireMeasurementValue): void;
  /** many at once: one packet batch per location */
  addMeasurements(items: Array<{ sensorId: Id; value: WireMeasurementValue }>): void;
  heartbeat(sensorId: Id, time: number, batteryLevel: number | null): void;

  createUser(orgId: Id, body: Partial<WireUser> & { email: string }): WireUser;
  updateUser(id: Id, patch: Partial<WireUser>): WireUser;
  deleteUser(id: Id): void;
  createExternalObject(body: Omit<WireExternalObject, 'id'>): WireExternalObject;
  updateExternalObject(id: Id, patch: Partial<WireExternalObject>): WireExternalObject;
  deleteExternalObject(id: Id): void;
  createNotification(body: NotificationInput): WireNotification;
  updateNotification(id: Id, patch: Partial<WireNotification>): WireNotification;
  deleteNotification(id: Id): void;
  createLocationTag(body: Omit<WireLocationTag, 'id'>): WireLocationTag;
  deleteLocationTag(id: Id): void;

  /**
   * Ends sessions of `userId` at once (docs/security.md "Revocation"): every
   * token but `keepToken`, or only `onlyToken`. Listeners (the live
   * transport) cut the same sessions' live access. Returns the ended session ids.
   */
  revokeSessions(userId: Id, reason: RevocationReason, options?: { keepToken?: string; onlyToken?: string }): string[];
  onRevoke(listener: (revocation: Revocation) => void): () => void;
}

export function createStore(clock: ServerClock, publisher: Publisher): Store {
  let lastId = 0;
  const store = {} as Store;
  type Data = Pick<Store, 'clock' | 'publisher' | 'organizations' | 'locations' | 'assets' | 'sensors' | 'history' | 'histories'
    | 'users' | 'credentials' | 'tokens' | 'mailCodes' | 'externalObjects' | 'notifications' | 'locationTags'
    | 'bookings' | 'votes' | 'files'>;
  const s: Data = {
    clock, publisher,
    organizations: new Map(), locations: new Map(), assets: new Map(), sensors: new Map(), history: new Map(), histories: new Map(),
    users: new Map(), credentials: new Map(), tokens: new Map(), mailCodes: new Map(),
    externalObjects: new Map(), notifications: new Map(), locationTags: new Map(), bookings: new Map(),
    votes: new Map(), files: new Map(),
  };
  Object.assign(store, s);

  const nextId = () => String(++lastId);
  const revokeListeners = new Set<(revocation: Revocation) => void>();
  const now = () => clock.now();
  const assetById = (id: Id) => s.assets.get(id);
  // every asset mutation below tells the index, in the same step as it changes s.assets
  const index = createVisibilityIndex(assetById);

  function mustGet<T>(map: Map<Id, T>, id: Id, what: string): T {
    const v = map.get(id);
    if (!v) throw new Error(`unknown ${what} ${id}`);
    return v;
  }
  function locationScope(locationId: Id): StreamScope {
    const loc = mustGet(s.locations, locationId, 'location');
    return { kind: 'location', organizationId: loc.organization_id, locationId };
  }
  function organizationOf(locationId: Id): Id {
    return mustGet(s.locations, locationId, 'location').organization_id;
  }
  function organizationScope(organizationId: Id): StreamScope {
    return { kind: 'organization', organizationId };
  }
  function floorOf(asset: WireAsset): WireAsset | null {
    return floorByWalk(asset, assetById);
  }
  function isAssetPublic(asset: WireAsset): boolean {
    // an asset the index has not seen is judged by the walk, never shown by default
    return index.has(asset.id) ? !index.isHidden(asset.id) : isPublicByWalk(asset, assetById);
  }
  function hiddenOf(locationId: Id): IndexedHidden {
    return index.hidden(locationId);
  }
  /**
   * Public stream changes a mutation caused besides its own (`own`): assets
   * shown or hidden with their floor, buildings whose public floor list and
   * portals whose public targets changed, sensors shown or hidden with the
   * asset they serve.
   */
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
  /** `changes` on both of the organization's streams, or `editChanges` (unfiltered) on the edit one */
  function publishOrg(orgId: Id, changes: LiveChange[], editChanges: LiveChange[] = changes) {
    publisher.publishAudiences(organizationScope(orgId), changes, editChanges);
  }
  function publicUser(user: WireUser): WireUser {
    const at = user.location;
    if (!at) return user;
    const floor = s.assets.get(at.floor_id);
    const shown = floor?.type === 'floor' && floor.location_id === at.location_id && isAssetPublic(floor);
    return shown ? user : { ...user, location: null };
  }
  /** a user change: the shared version on the shared stream, the real one on the edit stream */
  function publishUser(user: WireUser, kind: 'created' | 'modified') {
    publishOrg(user.organization_id, [{ collection: 'users', kind, id: user.id, data: publicUser(user) }], [{ collection: 'users', kind, id: user.id, data: user }]);
  }
  /**
   * Users whose shared position changed because floors of one location were
   * hidden, shown or removed (`gone`): their shared version again, on the
   * shared organization stream only (the edit stream's users did not change).
   */
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
    publisher.publish(organizationScope(orgId), out);
  }
  /** the same after an asset mutation of one location, when something flipped or went */
  function publishFlippedPositions(locationId: Id, flips: Flips, gone: ReadonlySet<Id>) {
    if (publisher.muted || (gone.size === 0 && noFlips(flips))) return;
    const after = index.hidden(locationId);
    publishPositionSideEffects(organizationOf(locationId), hiddenBeforeFlips(after, flips).assets, after.assets, gone);
  }
  function publicLocation(loc: WireLocation): WireLocation {
    const hidden = index.hidden(loc.id).assets;
    if (hidden.size === 0 || !loc.buildings.some((b) => hidden.has(b))) return loc;
    return { ...loc, buildings: loc.buildings.filter((b) => !hidden.has(b)) };
  }
  /** a location change: the public version on the organization's shared stream, the real one on its edit stream */
  function locationChange(loc: WireLocation, kind: 'created' | 'modified'): { shared: LiveChange; edit: LiveChange } {
    return {
      shared: { collection: 'locations', kind, id: loc.id, data: publicLocation(loc) },
      edit: { collection: 'locations', kind, id: loc.id, data: loc },
    };
  }
  /** the location again on the shared stream when one of its buildings was hidden or shown */
  function publishFlippedBuildings(locationId: Id, flips: Flips) {
    if (publisher.muted || (flips.assetsHidden.size === 0 && flips.assetsShown.size === 0)) return;
    const loc = s.locations.get(locationId);
    if (!loc?.buildings.some((b) => flips.assetsHidden.has(b) || flips.assetsShown.has(b))) return;
    publisher.publish(organizationScope(loc.organization_id), [locationChange(loc, 'modified').shared]);
  }
  function orgChange(org: WireOrganization, kind: 'created' | 'modified'): LiveChange {
    return { collection: 'organizations', kind, id: org.id, data: org };
  }

  /**
   * A building or floor is named by its location's `buildings` or its
   * building's `floors` from the step that creates it (or moves a floor to
   * the building), as the seed names its own (docs/server.md "Buildings and
   * floors"). Published like any change: the public forms leave out what the
   * public may not see.
   */
  function nameInLists(asset: WireAsset) {
    if (asset.type === 'building') {
      const loc = s.locations.get(asset.location_id);
      if (loc && !loc.buildings.includes(asset.id)) setBuildings(loc, [...loc.buildings, asset.id], isAssetPublic(asset));
      return;
    }
    const building = asset.type === 'floor' && asset.parent_id ? s.assets.get(asset.parent_id) : undefined;
    if (building?.type !== 'building' || building.floors?.includes(asset.id)) return;
    patchList(building, withFloor(building, asset, (id) => s.assets.get(id)));
  }
  /** the floor out of the building's list that named it, when it moves to another parent */
  function unnameFromBuilding(floorId: Id, buildingId: Id | null) {
    const building = buildingId ? s.assets.get(buildingId) : undefined;
    if (building?.type === 'building' && building.floors?.includes(floorId)) patchList(building, withoutFloor(building, floorId));
  }
  /**
   * Whether a public asset's `floors` / `targets` patch leaves its public form
   * as it was: what joined or left the list is hidden. The public then gets
   * nothing, not even a new version or update time, so nothing tells it that
   * something hidden happened (docs/server.md "Lists that name hidden assets").
   */
  function keepsPublicForm(asset: WireAsset, patch: Partial<WireAsset>): boolean {
    if (!isAssetPublic(asset)) return false;
    const hidden = index.hidden(asset.location_id);
    const before = publicAsset(asset, hidden);
    const after = publicAsset({ ...asset, ...patch }, hidden);
    return sameIds(before.floors, after.floors) && before.default_floor === after.default_floor && sameIds(before.targets, after.targets);
  }
  /** a building's floors or a portal's targets as a member joins or leaves: quietly when the public form stays */
  function patchList(asset: WireAsset, patch: Partial<WireAsset>) {
    if (!keepsPublicForm(asset, patch)) {
      store.updateAsset(asset.id, patch);
      return;
    }
    Object.assign(asset, patch);
    index.refresh(asset);
    publisher.publishAudiences(locationScope(asset.location_id), [], [{ collection: 'assets', kind: 'modified', id: asset.id, data: asset }]);
  }
  /** a location's buildings as one joins or leaves: on the shared stream only when the public sees that one */
  function setBuildings(loc: WireLocation, buildings: Id[], publicSees: boolean) {
    if (publicSees) {
      store.updateLocation(loc.id, { buildings });
      return;
    }
    loc.buildings = buildings;
    publishOrg(loc.organization_id, [], [locationChange(loc, 'modified').edit]);
  }

  function recordMeasurement(sensor: WireSensor, value: WireMeasurementValue): LiveChange {
    const rows = s.history.get(sensor.id) ?? [];
    if (!s.history.has(sensor.id)) s.history.set(sensor.id, rows);
    // keep ascending order even if an ingest arrives late
    let i = rows.length;
    while (i > 0 && rows[i - 1]!.time > value.time) i -= 1;
    rows.splice(i, 0, value);
    if (rows.length > HISTORY_MAX_ROWS) rows.splice(0, rows.length - HISTORY_MAX_ROWS);
    if (!sensor.last_measurement || value.time >= sensor.last_measurement.time) {
      sensor.previous_measurement = sensor.last_measurement;
      sensor.last_measurement = value;
      sensor.prev_value = sensor.value;
      sensor.value = value.value ?? (value.events ? value.events : null);
      sensor.last_communication_time = Math.max(sensor.last_communication_time ?? 0, value.time);
      if (value.battery_level !== undefined && value.battery_level !== null) sensor.last_status = { battery_level: value.battery_level };
    }
    return { collection: 'measurements', kind: 'created', id: sensor.id, data: { sensor_id: sensor.id, type: sensor.type, value } };
  }

  /**
   * A tag's reading places its wearer: the user's `location` (spec §3: location_id, floor_id, time)
   * follows it, so every client of the organization knows at which location they are, though each
   * loads one location's tags (docs/server.md "A user's location"). Written when the location or
   * floor changes, else at most every USER_LOCATION_REFRESH_MS, so the organization's stream does
   * not carry every reading again; hidden floors are left out of the shared version (publicUser), and
   * a reading in a privacy zone clears it.
   */
  function followTags(readings: Array<{ sensor: WireSensor; value: WireMeasurementValue }>) {
    const tagOf = new Map<Id, WireLocationTag>();
    for (const tag of s.locationTags.values()) if (tag.user_id) tagOf.set(tag.sensor_id, tag);
    for (const { sensor, value } of readings) {
      const tag = tagOf.get(sensor.id);
      const user = tag?.user_id ? s.users.get(tag.user_id) : undefined;
      if (!user || user.location_tag_id !== tag!.id) continue;
      const at = user.location;
      // in a privacy zone nobody is told where they are, not even the location (the client hides their position too)
      if ((value.zones ?? []).some((z) => s.assets.get(z)?.subtype === 'privacy')) {
        if (at) store.updateUser(user.id, { location: null });
        continue;
      }
      if (at && value.time < at.time) continue;
      const moved = !at || at.location_id !== sensor.location_id || at.floor_id !== value.floor_id;
      if (!moved && value.time - at.time < USER_LOCATION_REFRESH_MS) continue;
      store.updateUser(user.id, { location: { location_id: sensor.location_id, floor_id: value.floor_id!, time: value.time } });
    }
  }

  Object.assign(store, {
    nextId, locationScope, organizationScope, isAssetPublic, floorOf, hiddenIn: hiddenOf, publicUser, publicLocation,
    rebuildVisibility() {
      index.rebuild(s.assets.values());
    },
    userByEmail(email: string) {
      const wanted = email.toLowerCase();
      for (const u of s.users.values()) if (u.email === wanted) return u;
      return undefined;
    },

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
      Object.assign(asset, patch, {
        id: asset.id, uuid: asset.uuid, location_id: asset.location_id, owner_id: asset.owner_id,
        creation_timestamp: asset.creation_timestamp, version: asset.version + 1, update_timestamp: now(),
      });
      const flips = index.refresh(asset);
      const after = index.hidden(asset.location_id);
      const changes: LiveChange[] = [];
      if (isAssetPublic(asset)) changes.push({ collection: 'assets', kind: wasPublic ? 'modified' : 'created', id, data: publicAsset(asset, after) });
      else if (wasPublic) changes.push({ collection: 'assets', kind: 'deleted', id });
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
      const changed = new Map<Id, WireAsset>();
      const quiet = new Set<Id>();
      const touch = (a: WireAsset, patch: Partial<WireAsset>) => {
        Object.assign(a, patch, { version: a.version + 1, update_timestamp: now() });
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
          Object.assign(r, patch);
          changed.set(r.id, r);
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
    addMeasurement(sensorId, value) {
      store.addMeasurements([{ sensorId, value }]);
    },
    addMeasurements(items) {
      let placed: Array<{ sensor: WireSensor; value: WireMeasurementValue }> | undefined;
      const byLocation = new Map<Id, { all: LiveChange[]; shown: LiveChange[]; hidden: Hidden }>();
      for (const { sensorId, value } of items) {
        const sensor = mustGet(s.sensors, sensorId, 'sensor');
        let batch = byLocation.get(sensor.location_id);
        if (!batch) {
          batch = { all: [], shown: [], hidden: index.hidden(sensor.location_id) };
          byLocation.set(sensor.location_id, batch);
        }
        const change = recordMeasurement(sensor, value);
        batch.all.push(change);
        // readings of a sensor serving a hidden asset, or placing a tag on a hidden floor, go to the edit stream only
        if (!isSensorHidden(sensor, batch.hidden) && !isPositionHidden(value, batch.hidden)) {
          // a zone deleted while hidden is not named to the public, even by a tag still reporting it
          batch.shown.push(namesGoneZone(value.zones, batch.hidden) ? { ...change, data: { sensor_id: sensor.id, type: sensor.type, value: publicReading(value, batch.hidden) } } : change);
        }
        if (sensor.type === 'location' && value.floor_id) (placed ??= []).push({ sensor, value });
      }
      for (const [locId, batch] of byLocation) publisher.publishAudiences(locationScope(locId), batch.shown, batch.all);
      if (placed) followTags(placed);
    },
    heartbeat(sensorId, time, batteryLevel) {
      const sensor = mustGet(s.sensors, sensorId, 'sensor');
      sensor.last_communication_time = Math.max(sensor.last_communication_time ?? 0, time);
      if (batteryLevel !== null) sensor.last_status = { battery_level: batteryLevel };
      const change: LiveChange[] = [{
        collection: 'heartbeats', kind: 'created', id: sensorId, data: { sensor_id: sensorId, time, battery_level: batteryLevel },
      }];
      publisher.publishAudiences(locationScope(sensor.location_id), isSensorHidden(sensor, index.hidden(sensor.location_id)) ? [] : change, change);
    },

    createUser(orgId, body) {
      mustGet(s.organizations, orgId, 'organization');
      const user = makeUser(nextId(), orgId, body);
      s.users.set(user.id, user);
      s.credentials.set(user.id, { passwordHash: null });
      publishUser(user, 'created');
      return user;
    },
    updateUser(id, patch) {
      const user = mustGet(s.users, id, 'user');
      const lost = patch.permissions ? user.permissions.filter((p) => !patch.permissions!.includes(p)) : [];
      Object.assign(user, patch, { id: user.id, uuid: user.uuid, organization_id: user.organization_id });
      publishUser(user, 'modified');
      // a permission taken away ends every session, so nothing keeps the old rights (docs/security.md)
      if (lost.length) store.revokeSessions(id, 'permissions');
      return user;
    },
    deleteUser(id) {
      const user = mustGet(s.users, id, 'user');
      store.revokeSessions(id, 'deleted');
      s.users.delete(id);
      s.credentials.delete(id);
      for (const [code, rec] of s.mailCodes) if (rec.userId === id) s.mailCodes.delete(code);
      for (const t of s.locationTags.values()) if (t.user_id === id) t.user_id = null;
      for (const n of [...s.notifications.values()]) if (n.user_id === id) s.notifications.delete(n.id);
      publishOrg(user.organization_id, [{ collection: 'users', kind: 'deleted', id }]);
    },
    createExternalObject(body) {
      const obj = makeExternalObject(nextId(), body);
      s.externalObjects.set(obj.id, obj);
      publishOrg(obj.organization_id, [{ collection: 'external_objects', kind: 'created', id: obj.id, data: obj }]);
      return obj;
    },
    updateExternalObject(id, patch) {
      const obj = mustGet(s.externalObjects, id, 'external object');
      Object.assign(obj, patch, { id: obj.id, organization_id: obj.organization_id });
      publishOrg(obj.organization_id, [{ collection: 'external_objects', kind: 'modified', id, data: obj }]);
      return obj;
    },
    deleteExternalObject(id) {
      const obj = mustGet(s.externalObjects, id, 'external object');
      s.externalObjects.delete(id);
      publishOrg(obj.organization_id, [{ collection: 'external_objects', kind: 'deleted', id }]);
    },
    createNotification(body) {
      const n = makeNotification(nextId(), body);
      s.notifications.set(n.id, n);
      publisher.publish({ kind: 'user', userId: n.user_id }, [{ collection: 'notifications', kind: 'created', id: n.id, data: n }]);
      return n;
    },
    updateNotification(id, patch) {
      const n = mustGet(s.notifications, id, 'notification');
      Object.assign(n, patch, { id: n.id, user_id: n.user_id });
      publisher.publish({ kind: 'user', userId: n.user_id }, [{ collection: 'notifications', kind: 'modified', id, data: n }]);
      return n;
    },
    deleteNotification(id) {
      const n = mustGet(s.notifications, id, 'notification');
      s.notifications.delete(id);
      publisher.publish({ kind: 'user', userId: n.user_id }, [{ collection: 'notifications', kind: 'deleted', id }]);
    },
    createLocationTag(body) {
      const tag: WireLocationTag = { ...body, id: nextId() };
      s.locationTags.set(tag.id, tag);
      if (tag.user_id) store.updateUser(tag.user_id, { location_tag_id: tag.id });
      return tag;
    },
    deleteLocationTag(id) {
      const tag = mustGet(s.locationTags, id, 'location tag');
      s.locationTags.delete(id);
      const user = tag.user_id ? s.users.get(tag.user_id) : undefined;
      if (user && user.location_tag_id === id) store.updateUser(user.id, { location_tag_id: null });
    },

    revokeSessions(userId, reason, options = {}) {
      const ended: string[] = [];
      for (const [token, rec] of s.tokens) {
        if (rec.userId !== userId || token === options.keepToken) continue;
        if (options.onlyToken !== undefined && token !== options.onlyToken) continue;
        s.tokens.delete(token);
        ended.push(sessionIdOf(token));
      }
      const revocation: Revocation = { userId, sessionIds: ended, reason, wholeUser: reason === 'deleted' || reason === 'permissions' };
      for (const listener of revokeListeners) listener(revocation);
      return ended;
    },
    onRevoke(listener) {
      revokeListeners.add(listener);
      return () => { revokeListeners.delete(listener); };
    },
  } satisfies Partial<Store>);
  return store;
}

