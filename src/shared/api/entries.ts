// The entries and metas of each view of the engine's API (api.ts): what the worker derives and the page draws
// (draw states, popup details, people, rooms, the session, connection, routes, search results), and ViewTypes,
// which names each view's pair.

import type { BaseConfig, ReportKind } from '../config.js';
import type { MapLayer } from '../constants.js';
import type { AssetKind, StatusKind } from '../kinds.js';
import type { PostedError } from '../messages.js';
import type { SearchGroup } from '../search.js';
import type { ReportMeta, ReportProgress, ReportRow } from '../reports/types.js';
import type { Building, Floor, Id, Notification, Role, User, Vec2, ReservationEvent } from '../types.js';

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
