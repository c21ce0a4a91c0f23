// The one in-memory store of the reference server. Every mutation goes
// through here and publishes its changes on the scope's stream in the same
// synchronous step, so a REST read and the stream position it reports always
// agree (docs/protocol.md §5). Permission checks live in the routes. The parts
// are assembled here: storeContext (records, index), audiences (fan-out per
// audience), namedLists, assetMutations, readings, places, people.

import type { StreamScope } from '../../src/shared/protocol.js';
import type {
  WireAsset, WireExternalObject, WireLocation, WireLocationTag, WireMeasurementValue, WireNotification,
  WireOrganization, WireSensor, WireUser,
} from '../../src/shared/rest.js';
import type { Id } from '../../src/shared/types.js';
import type { ServerClock } from '../clock.js';
import type { Publisher } from '../live/publisher.js';
import type { LocationHistory } from '../seed/history.js';
import { createAssetMutations } from './assetMutations.js';
import { createAudiences } from './audiences.js';
import { createNamedLists } from './namedLists.js';
import { createPeople } from './people.js';
import { createPlaces } from './places.js';
import { createReadings } from './readings.js';
import type {
  BookingRecord, Credentials, NotificationInput, MailCode, Revocation, RevocationReason, StoredFile, TokenRecord,
} from './records.js';
import { createStoreContext } from './storeContext.js';
import { floorByWalk } from './visibility.js';
import type { IndexedHidden } from './visibilityIndex.js';

export { HISTORY_MAX_ROWS, USER_LOCATION_REFRESH_MS } from './readings.js';

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
  const store = {} as Store;
  const ctx = createStoreContext(store, clock, publisher);
  const audiences = createAudiences(ctx);
  const lists = createNamedLists(ctx, audiences);
  Object.assign(store, ctx.s);
  Object.assign(store, {
    nextId: ctx.nextId,
    locationScope: ctx.locationScope,
    organizationScope: ctx.organizationScope,
    isAssetPublic: ctx.isAssetPublic,
    floorOf: (asset: WireAsset) => floorByWalk(asset, ctx.assetById),
    hiddenIn: (locationId: Id) => ctx.index.hidden(locationId),
    publicUser: audiences.publicUser,
    publicLocation: audiences.publicLocation,
    rebuildVisibility() {
      ctx.index.rebuild(ctx.s.assets.values());
    },
    ...createPlaces(ctx, audiences),
    ...createAssetMutations(ctx, audiences, lists),
    ...createReadings(ctx),
    ...createPeople(ctx, audiences),
  } satisfies Omit<Store, keyof typeof ctx.s>);
  return store;
}
