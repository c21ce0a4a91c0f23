// The engine's public surface as the UI sees it through Comlink (DESIGN §4).
// Views are keyed records: one snapshot, then batched patches that carry only
// what changed. Actions return typed results instead of throwing, because
// Comlink passes only message and name of thrown errors (DESIGN §6).

import type { BaseConfig, ReportKind } from './config.js';
import type { MapLayer } from './constants.js';
import type { AssetKind, StatusKind } from './kinds.js';
import type { PostedError } from './messages.js';
import type { SearchGroup } from './search.js';
import type { ReportMeta, ReportProgress, ReportRequest, ReportRow } from './reports/types.js';
import type {
  Asset, Building, Floor, Id, Notification, Role, Settings, User, Vec2, ReservationEvent,
} from './types.js';

// ---------------------------------------------------------------- views

export type ViewSpec =
  | { view: 'floor'; floorId: Id; layers: readonly MapLayer[] }
  | { view: 'structure' }
  | { view: 'connection' }
  | { view: 'notifications' }
  /** everyone of the organization; with `playback`, where a replay's readings placed them at its instant */
  | { view: 'people'; playback?: PlaybackAt }
  /** the location's rooms; with `playback`, the replayed floor's rooms at its instant (none bookable) */
  | { view: 'rooms'; playback?: PlaybackAt }
  | { view: 'session' }
  | { view: 'feed' }
  /** a report of the loaded location (src/shared/reports/types.ts, docs/reports.md) */
  | { view: 'report'; report: ReportRequest }
  /** one asset's popup details (entry SELF_KEY; none while the asset is not visible); with `playback`, as the replay shows it at its instant */
  | { view: 'asset'; assetId: Id; playback?: PlaybackAt }
  /** the asset finder: results of one query, keyed by SearchResult.key (docs/ui.md) */
  | { view: 'search'; query: string }
  /** a room-status display's one room (entry SELF_KEY; none while the room is unknown or not visible) */
  | { view: 'roomDisplay'; roomId: Id }
  /** directions between floors (entry SELF_KEY, docs/wayfinding.md) */
  | { view: 'route'; from: RouteEndpoint; to: RouteEndpoint }
  /** a floor replayed at a moment of a local day (worker/reports/playback.ts); setPlaybackTime moves it */
  | { view: 'playback'; floorId: Id; layers: readonly MapLayer[]; day: string; at?: number };

/**
 * A floor's replay of a local day (the playback view's floor and day): a popup opened in it, and the
 * People and Rooms panels, show the replayed instant. The playback view's `at` is the instant it shows
 * (a floor switched to during a replay carries the instant over).
 */
export interface PlaybackAt {
  floorId: Id;
  day: string;
}

/** One end of a route: the viewer, an asset, or a co-worker. */
export type RouteEndpoint = { kind: 'me' } | { kind: 'asset'; id: Id } | { kind: 'person'; id: Id };

export type ViewName = ViewSpec['view'];

/** Key used by singleton views (connection, session). */
export const SELF_KEY = 'self';

export interface ViewSnapshotMessage<T = unknown, M = unknown> {
  type: 'snapshot';
  /** increases by one per snapshot or patch of this subscription */
  version: number;
  entries: Record<string, T>;
  meta: M;
  /** a large snapshot comes in this many messages: this one, then snapshotPart messages of its version */
  parts?: number;
}

/** The rest of a snapshot sent in parts; the snapshot is whole once every part arrived. */
export interface ViewSnapshotPartMessage<T = unknown> {
  type: 'snapshotPart';
  /** the snapshot's version */
  version: number;
  /** 1 … parts − 1 */
  part: number;
  entries: Record<string, T>;
}

export interface ViewPatchMessage<T = unknown, M = unknown> {
  type: 'patch';
  version: number;
  /** entries added or changed, whole */
  upserted: Record<string, T>;
  removed: string[];
  /** present only when the meta changed; replaces it whole */
  meta?: M;
}

export type ViewMessage<T = unknown, M = unknown> = ViewSnapshotMessage<T, M> | ViewSnapshotPartMessage<T> | ViewPatchMessage<T, M>;
export type ViewListener = (message: ViewMessage) => void;

/**
 * The Comlink transfer handler a view listener crosses to the worker by: a one-way MessagePort the worker posts
 * each view message on, and a `null` when it lets the listener go (ui/engine/viewPort.ts makes the port,
 * worker/views/viewPort.ts posts on it). Nothing comes back per message, unlike a Comlink.proxy's call.
 */
export const VIEW_PORT_HANDLER = 'storey.viewPort';

/** Colour legend of a scale-coloured layer (environment sensors, clean desk…). */
export interface Legend {
  layer: MapLayer;
  title: string;
  unit: string | null;
  /** ordered stops: value and css colour; `mark` is the status mark drawn with that colour (desks) */
  stops: Array<{ value: number; color: string; label: string; mark?: StatusKind }>;
}

/**
 * What the map draws for one asset, lean (DESIGN §4): computed in the worker,
 * the UI only draws. Meaning is typed (`kind`, `statusKind`); words are for
 * people (accessible names). Details only a popup shows come from the
 * `asset` view (AssetDetail), opened for the open popup.
 */
export interface DrawState {
  id: Id;
  kind: AssetKind;
  statusKind: StatusKind;
  /** layers this asset is drawn on; the UI shows it if any is active */
  layers: readonly MapLayer[];
  x: number;
  y: number;
  /** rotation in degrees around z */
  angle: number;
  width: number;
  depth: number;
  /** local outline for shape assets (rooms, zones, outlines, holes) */
  outline: Vec2[] | null;
  /** css colour, or null for the default style */
  color: string | null;
  alpha: number;
  greyedOut: boolean;
  missingSymbol: boolean;
  /** the asset's name ('' when it has none) */
  name: string;
  /** short label drawn on the map (the name, or a zone's kind) */
  label: string | null;
  /** text drawn on the map: a sensor layer's value with unit, a ticket's or voice's bubble */
  text: string | null;
  /** status in words, so no information is given by colour alone (accessible names) */
  status: string | null;
  /** unpublished, seen only by the edit role: marked on the map */
  unpublished: boolean;
  /**
   * published itself, but standing in an unpublished asset (a desk in an unpublished room): hidden with it from
   * everyone without the edit role, so the edit role's map marks it as it marks unpublished ones. Only then set.
   */
  hiddenBy?: HiddenBy;
  /** employees */
  avatarUrl?: string | null;
  decoration?: string | null;
  /** heatmap weight 0..1 (co-workers-heatmap) */
  heat?: number;
}

/** The unpublished asset another stands in (its nearest such room, zone or other asset up to the floor). */
export interface HiddenBy {
  id: Id;
  kind: AssetKind | null;
  name: string;
}

/** The actions the signed-in user may take on an asset, decided in the worker. */
export interface AssetActions {
  /** the room has a reservation sensor, the location's assetBookingFeature is on, and no meeting runs */
  book: boolean;
  /** booking refs of the events this user may cancel */
  cancellable: string[];
  vote: boolean;
  rename: boolean;
  /** move a ticket to closed (service or edit role) */
  closeTicket: boolean;
  /** publish or unpublish (edit role) */
  publish: boolean;
}

/** Everything the popup of one asset shows (view `asset`). */
export interface AssetDetail {
  id: Id;
  kind: AssetKind;
  type: string;
  subtype: string | null;
  name: string;
  floorId: Id | null;
  status: string | null;
  statusKind: StatusKind;
  /** the current value in words with its quantity and unit, e.g. CO2 812 ppm */
  value: { text: string; quantity: string | null; unit: string | null } | null;
  /** speech bubble, ticket or voice text */
  text: string | null;
  noRecentData: boolean;
  unpublished: boolean;
  /** published itself, hidden with the unpublished asset it stands in (edit role only; DrawState.hiddenBy) */
  hiddenBy: HiddenBy | null;
  popup: { width: number; height: number; type: string | null };
  /** devices and monitoring: lowest battery level (%) of its sensors */
  battery: number | null;
  /** newest communication time of its sensors (corrected-clock ms) */
  lastCommunication: number | null;
  /** rooms with a reservation sensor */
  /**
   * `upcoming`: the room's bookings not over yet, from the live reservation sensor, soonest first (the
   * running one first): what the popup lists as "Coming up", a booking just made included
   */
  reservation: { text: string; active: ReservationEvent | null; next: ReservationEvent | null; upcoming: ReservationEvent[] } | null;
  /** rooms */
  room: { free: boolean; capacity: number | null } | null;
  /** co-workers: who, and since when they are here */
  person: { userId: Id; name: string; since: number | null; manual: boolean } | null;
  /** tickets */
  ticket: { label: string | null; status: string | null; email: string | null } | null;
  /** recent history, newest first, in words */
  history: Array<{ time: number; text: string }>;
  /** what the history lists: its quantity and unit (e.g. CO₂, ppm), null when it is not a measured quantity */
  historyOf: { quantity: string | null; unit: string | null } | null;
  /** tickets and voices */
  votes: { up: number; down: number; mine: 1 | -1 | 0 } | null;
  actions: AssetActions;
  /** opened in a replay: the instant it shows (only what was known then; no actions, no votes) */
  replayAt?: number;
}

export interface FloorViewMeta {
  floor: Floor | null;
  building: Building | null;
  legends: Legend[];
  /** served from IndexedDB, live data not loaded yet */
  fromCache: boolean;
  loading: boolean;
}

/** A replayed floor: the floor view's meta plus the day, the instant shown and the loading progress. */
export interface PlaybackMeta extends FloorViewMeta {
  day: string;
  time: number;
  start: number;
  end: number;
  progress: ReportProgress;
}

export interface StructureEntry {
  building: Building;
  /** ordered; hidden floors only for the edit role */
  floors: Floor[];
  defaultFloorId: Id | null;
}

export interface StructureMeta {
  locationId: Id | null;
  fromCache: boolean;
}

export type ConnectionStateName =
  | 'idle' | 'connecting' | 'connected' | 'unavailable' | 'error';

export interface ConnectionView {
  /** spec §4 words, derived from the session machine's phase */
  state: ConnectionStateName;
  phase: SessionPhase;
  /** the transport's own state (pusher-js or mqtt.js words) */
  transportState: string | null;
  transport: 'pusher' | 'mqtt' | null;
  /** corrected-clock ms of the next reconnect attempt, or null */
  nextRetryAt: number | null;
  attempts: number;
  online: boolean;
  fromCache: boolean;
  /** corrected-clock offset to the server, ms */
  serverOffsetMs: number;
  lastError: string | null;
}

export interface PersonEntry {
  id: Id;
  name: string;
  email: string;
  avatarUrl: string | null;
  decoration: string | null;
  locationId: Id | null;
  floorId: Id | null;
  x: number | null;
  y: number | null;
  /** the asset that draws the person on the floor (their own or a tag's), null when not placed */
  assetId: Id | null;
  /** false when hidden (privacy, invisible, stale) */
  visible: boolean;
  lastSeen: number | null;
  manual: boolean;
  /**
   * Not placed here, but last known at another location of the organization (the user's
   * `location`, spec §3: kept by the server from their tag or set by hand), within the last
   * MANUAL_LOCATION_TIMEOUT_MS; null otherwise (placed here, hidden, not visible, unknown).
   */
  elsewhere: { locationId: Id; locationName: string; since: number } | null;
}

export interface RoomEntry {
  id: Id;
  name: string;
  floorId: Id | null;
  buildingId: Id | null;
  capacity: number | null;
  statusIndex: number | null;
  color: string | null;
  /** in words: 'free' | 'reserved' | 'occupied' | 'occupied and reserved' | 'no data' | 'not applicable' */
  status: string;
  statusKind: StatusKind;
  free: boolean;
  text: string | null;
  activeEvent: ReservationEvent | null;
  nextEvent: ReservationEvent | null;
  reservationSensorId: Id | null;
  /** it has a reservation sensor and the location's assetBookingFeature is on */
  bookable: boolean;
}

export interface LoadProgress {
  /** what is loading, e.g. 'assets', 'measurements' */
  what: string;
  done: number;
  total: number | null;
}

/**
 * Where the session stands (the worker's session machine, docs/sync.md):
 * signed out, signing in, connecting (time, settings, transport), loading
 * (initial loads of the wanted scopes), live, retrying on the back-off, or
 * ended by the server (401: sign in again).
 */
export const SESSION_PHASES = ['signedOut', 'signingIn', 'connecting', 'loading', 'live', 'retrying', 'sessionExpired'] as const;
export type SessionPhase = (typeof SESSION_PHASES)[number];

/**
 * How far navigation got, so the UI never claims "nothing" before the data
 * could arrive: still loading organizations, locations or the location's
 * structure; ready (a floor is chosen); or truly empty.
 */
export const NAVIGATION_STATES = [
  'idle', 'organizations', 'locations', 'structure', 'ready', 'noOrganization', 'noLocations', 'noFloors',
] as const;
export type NavigationState = (typeof NAVIGATION_STATES)[number];

/** What the signed-in user may do here, decided in the worker from roles and configuration. */
export interface Capabilities {
  /** create tickets and voices */
  report: boolean;
  /** the 'Book all day' button (allDayBookingButton) */
  bookAllDay: boolean;
  /** rename, publish and unpublish assets (edit role) */
  editAssets: boolean;
  /** move tickets to closed (service or edit role) */
  closeTickets: boolean;
  /** each report of spec §6 (reportViewingRolesAtLeast) */
  reports: Record<ReportKind, boolean>;
  /** choose another organization (admin) */
  switchOrganization: boolean;
}

export interface SessionView {
  phase: SessionPhase;
  signedIn: boolean;
  /** why the session ended by itself (phase sessionExpired), in words for the sign-in screen */
  sessionEnded: string | null;
  user: User | null;
  roles: Role[];
  permissions: string[];
  capabilities: Capabilities;
  organizations: Array<{ id: Id; name: string }>;
  organizationId: Id | null;
  locations: Array<{ id: Id; name: string; timezone: string }>;
  locationId: Id | null;
  /** chosen by the worker (defaults: own organization, first location, first building's default floor) */
  buildingId: Id | null;
  floorId: Id | null;
  navigation: NavigationState;
  /** IANA time zone of the loaded location ('UTC' without one) */
  timeZone: string;
  /** resolved configuration of the loaded location (spec §3 order), typed */
  config: BaseConfig;
  cdnBaseUrl: string | null;
  progress: LoadProgress | null;
  /** what is shown came from this device's saved data; live data not loaded yet */
  fromCache: boolean;
}

/** One numbered step of a route, in words and where to draw it. */
export interface RouteStepView {
  /** 1-based */
  n: number;
  /** 'Walk 12 m to the lift', 'Take the lift to Floor 2' */
  text: string;
  kind: 'walk' | 'change';
  /** the floor the step starts on, and the one it ends on (the same for a walk) */
  floorId: Id;
  toFloorId: Id;
  from: Vec2;
  to: Vec2;
}

/** Directions (view `route`): the steps, or why there are none. */
export interface RouteView {
  /** unavailable: the route finding's code could not be loaded (offline before it was cached) */
  status: 'ok' | 'off' | 'noStart' | 'noDestination' | 'noRoute' | 'unavailable';
  steps: RouteStepView[];
  /** floors crossed, in order */
  floorIds: Id[];
  /** spec §9 floor link costs summed */
  linkCost: number;
  /** walking, rounded */
  metres: number;
}

/** What a room-status display shows (docs/ui.md "Room display"). */
export interface RoomDisplayEntry {
  id: Id;
  name: string;
  floorName: string | null;
  buildingName: string | null;
  /** §4 room colour (css) and what it means */
  color: string;
  statusKind: StatusKind;
  /** 'free' | 'reserved' | 'occupied' | 'occupied and reserved' | 'no data' | 'not applicable' */
  status: string;
  /** §4 reservation text: the current slot, then 'Next: …' or 'No reservations' */
  text: string | null;
  current: ReservationEvent | null;
  /** the next meeting, when it starts on the local day */
  next: ReservationEvent | null;
  /** the local day's meetings by start, ended ones included */
  agenda: ReservationEvent[];
  /** "Book now" lengths that fit before the next meeting; empty when booking is off or a meeting runs */
  bookMinutes: number[];
  /** the room has a reservation sensor */
  bookable: boolean;
  timeZone: string;
}

/** One finder result: an asset or a co-worker, with where to show it. */
export interface SearchResult {
  /** 'a:<asset id>' or 'p:<user id>' */
  key: string;
  id: Id;
  target: 'asset' | 'person';
  group: SearchGroup;
  kind: AssetKind;
  name: string;
  /** 0 is the best match */
  rank: number;
  /** the live status and value in words ('free', 'CO2 812 ppm', 'not on site') */
  status: string | null;
  statusKind: StatusKind;
  /** map layers that draw it (the UI turns one on to show it) */
  layers: readonly MapLayer[];
  floorId: Id | null;
  floorName: string | null;
  buildingId: Id | null;
  buildingName: string | null;
  x: number | null;
  y: number | null;
}

export interface SearchMeta {
  /** the query as answered */
  query: string;
  /** every match, beyond the ones listed */
  total: number;
  /** groups in the order to show them (best match first), with their full counts */
  groups: Array<{ group: SearchGroup; count: number }>;
  /** the index is still being built (first search of a location): documents done of all */
  indexing: { done: number; total: number } | null;
  /** the search's code could not be loaded (offline before it was cached): what to tell the user */
  error?: string;
}

export interface FeedEntry extends PostedError {
  seq: number;
}

export interface ViewTypes {
  floor: { entry: DrawState; meta: FloorViewMeta };
  structure: { entry: StructureEntry; meta: StructureMeta };
  connection: { entry: ConnectionView; meta: null };
  notifications: { entry: Notification; meta: null };
  people: { entry: PersonEntry; meta: null };
  rooms: { entry: RoomEntry; meta: null };
  session: { entry: SessionView; meta: null };
  feed: { entry: FeedEntry; meta: null };
  report: { entry: ReportRow; meta: ReportMeta };
  asset: { entry: AssetDetail; meta: null };
  search: { entry: SearchResult; meta: SearchMeta };
  roomDisplay: { entry: RoomDisplayEntry; meta: null };
  route: { entry: RouteView; meta: null };
  playback: { entry: DrawState; meta: PlaybackMeta };
}

// ---------------------------------------------------------------- actions

/**
 * What kind of failure it was, where the caller acts on the kind rather than the words:
 * `serverUnreachable`: a write refused before anything was sent, because the server cannot be
 * reached now (the browser offline, or the session not connected); nothing was drafted or changed.
 */
export type ApiFailureCode = 'serverUnreachable';

/** Non-OK responses reach the caller as data (status and parsed body). */
export type ApiResult<T> =
  | { ok: true; value: T }
  | { ok: false; status: number; body: unknown; message: string; code?: ApiFailureCode };

/**
 * Why a write is not available (docs/ui.md "Writes wait for the server"): the words the UI says
 * beside a disabled action, and the message of a write the worker refuses with `serverUnreachable`.
 * The spec has no message for this (its §8 errors are the engine's connection errors).
 */
export const NEEDS_SERVER = 'Not available while the server cannot be reached.';

export interface EngineInit {
  /** e.g. http://127.0.0.1:8080 */
  host: string;
  /** API version of the unversioned paths; default 1 */
  version?: number;
}

/** What a password link of a reset or invite mail names: `#/set-password?organization=…&user=…&code=…`. */
export interface PasswordLink {
  organizationId: Id;
  userId: Id;
  code: string;
}

/** A signup the mailed code confirmed: the new account and its address, to sign in with. */
export interface SignUpConfirmed {
  userId: Id;
  organizationId: Id;
  email: string;
}

/** How long a booking made now lasts: minutes, or the rest of the location's local day. */
/**
 * How long a booking made now lasts: a number of minutes, up to an instant (the next booking's start, so
 * a room free for less than the shortest length can still be booked until then), or the rest of the day.
 */
export type BookingLength = { minutes: number } | { endsAt: number } | 'restOfDay';

export interface BookRoomRequest {
  roomId: Id;
  until: BookingLength;
  subject?: string;
}

/** Asset fields an update may carry: spec §3 excludes the server-owned ones, and client-derived ones are never sent. */
export type AssetChanges = Partial<Pick<Asset,
  'name' | 'subtype' | 'parent_id' | 'x' | 'y' | 'z' | 'angles' | 'outline' | 'width' | 'height' | 'depth'
  | 'shade' | 'overriding_color' | 'speech_bubble' | 'unpublished' | 'timeout_action' | 'alert_on_activity'
  | 'config' | 'popup_width' | 'popup_height' | 'popup_type' | 'data_providers' | 'default_sensor_type'>>;

export interface TicketRequest {
  kind: 'ticket' | 'voice';
  floorId: Id;
  x: number;
  y: number;
  label: string;
  text: string;
  email?: string;
}

/** How this device signs in. */
export interface SignInOptions {
  /**
   * 'display': a room display signing in once; the server issues a token kept
   * alive by use that may only read and book (docs/security.md "Room displays").
   */
  device?: 'display';
}

export interface EngineApi {
  init(options: EngineInit): Promise<void>;
  subscribe(spec: ViewSpec, listener: ViewListener): Promise<number>;
  unsubscribe(subscriptionId: number): Promise<void>;

  signIn(email: string, password: string, options?: SignInOptions): Promise<ApiResult<Settings>>;
  signInWithIdToken(idToken: string): Promise<ApiResult<Settings>>;
  signUp(email: string): Promise<ApiResult<unknown>>;
  authUri(email: string): Promise<ApiResult<{ uri: string | null }>>;
  recoverPassword(email: string): Promise<ApiResult<unknown>>;
  /** finishes a signup with the code of its mail and the new account's password; then sign in as usual */
  confirmSignUp(code: string, password: string): Promise<ApiResult<SignUpConfirmed>>;
  /** sets a new password with the code of a reset or invite link; every session of that account ends */
  setPasswordWithCode(link: PasswordLink, password: string): Promise<ApiResult<void>>;
  /** resumes the stored session, if any; resolves to whether one was found */
  resume(): Promise<boolean>;
  signOut(): Promise<void>;

  // Navigation intents: the worker owns the choice and its defaults.
  /** loads the organization (stopping the previous one's subscriptions); resolves when loaded or superseded */
  selectOrganization(organizationId: Id): Promise<ApiResult<void>>;
  /** loads a location of the loaded organization; resolves when loaded or superseded */
  selectLocation(locationId: Id): Promise<ApiResult<void>>;
  /** opens the building's default floor */
  selectBuilding(buildingId: Id): Promise<void>;
  selectFloor(floorId: Id): Promise<void>;

  // Actions, named by intent; payloads are built and checked in the worker.
  bookRoom(request: BookRoomRequest): Promise<ApiResult<ReservationEvent>>;
  cancelBooking(roomId: Id, bookingRef: string): Promise<ApiResult<unknown>>;
  createTicket(request: TicketRequest): Promise<ApiResult<unknown>>;
  closeTicket(ticketId: Id): Promise<ApiResult<unknown>>;
  vote(assetId: Id, direction: 1 | -1 | 0): Promise<ApiResult<unknown>>;
  updateAsset(assetId: Id, changes: AssetChanges): Promise<ApiResult<unknown>>;
  setManualLocation(location: { floorId: Id; x: number; y: number } | null): Promise<ApiResult<unknown>>;
  markNotificationRead(notificationId: Id): Promise<ApiResult<unknown>>;

  /** stops paging the report of this request (its view shows 'cancelled') */
  cancelReport(request: ReportRequest): Promise<void>;
  /** runs a cancelled or failed report of this request again; its open views follow */
  rerunReport(request: ReportRequest): Promise<void>;
  /** moves the playback of a floor and day to an instant (clamped to the day) */
  setPlaybackTime(floorId: Id, day: string, time: number): Promise<void>;

  /** the browser went online or offline (forwarded by the worker entry) */
  setOnline(online: boolean): Promise<void>;
}

/**
 * The key of the one message the engine worker sends outside Comlink: its engine's code could not be
 * loaded, so it will never answer (the page says the app cannot start; docs/ui.md "If the app cannot start").
 */
export const ENGINE_UNAVAILABLE = 'storeyEngineUnavailable';
