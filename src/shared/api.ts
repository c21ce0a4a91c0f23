// The engine's public surface as the UI sees it through Comlink (DESIGN §4).
// Views are keyed records: one snapshot, then batched patches that carry only
// what changed. Actions return typed results instead of throwing, because
// Comlink passes only message and name of thrown errors (DESIGN §6).

import type { MapLayer } from './constants.js';
import type { PostedError } from './messages.js';
import type { ReportMeta, ReportRequest, ReportRow } from './reports/types.js';
import type {
  Building, Floor, Id, Notification, Role, Settings, User, Vec2, ReservationEvent,
} from './types.js';

// ---------------------------------------------------------------- views

export type ViewSpec =
  | { view: 'floor'; floorId: Id; layers: readonly MapLayer[] }
  | { view: 'structure' }
  | { view: 'connection' }
  | { view: 'notifications' }
  | { view: 'people' }
  | { view: 'rooms' }
  | { view: 'session' }
  | { view: 'feed' }
  /** a report of the loaded location (src/shared/reports/types.ts, docs/reports.md) */
  | { view: 'report'; report: ReportRequest };

export type ViewName = ViewSpec['view'];

/** Key used by singleton views (connection, session). */
export const SELF_KEY = 'self';

export interface ViewSnapshotMessage<T = unknown, M = unknown> {
  type: 'snapshot';
  /** increases by one per message of this subscription */
  version: number;
  entries: Record<string, T>;
  meta: M;
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

export type ViewMessage<T = unknown, M = unknown> = ViewSnapshotMessage<T, M> | ViewPatchMessage<T, M>;
export type ViewListener = (message: ViewMessage) => void;

/** Colour legend of a scale-coloured layer (environment sensors, clean desk…). */
export interface Legend {
  layer: MapLayer;
  title: string;
  unit: string | null;
  /** ordered stops: value and css colour */
  stops: Array<{ value: number; color: string; label: string }>;
}

/** What the UI draws for one asset. Computed in the worker; the UI only draws. */
export interface DrawState {
  id: Id;
  type: string;
  subtype: string | null;
  name: string;
  /** layers this asset is drawn on; the UI shows it if any is active */
  layers: MapLayer[];
  x: number;
  y: number;
  /** rotation in degrees around z */
  angle: number;
  width: number;
  depth: number;
  /** local outline for shape assets (rooms, zones, outlines, holes) */
  outline: Vec2[] | null;
  visible: boolean;
  /** css colour, or null for the default style */
  color: string | null;
  alpha: number;
  greyedOut: boolean;
  missingSymbol: boolean;
  /** short label (name or value) */
  label: string | null;
  /** longer text: reservation text, speech bubble, sensor value with unit */
  text: string | null;
  /** symbol name the UI maps to an icon: 'desk', 'locker', 'portal', 'ticket', 'voice', 'sensor', 'employee', 'missing'… */
  symbol: string | null;
  /** status words, so no information is given by colour alone */
  status: string | null;
  value: number | string | null;
  unit: string | null;
  popup: { width: number; height: number; type: string | null };
  /** employees */
  avatarUrl?: string | null;
  decoration?: string | null;
  /** rooms with a reservation sensor */
  activeEvent?: ReservationEvent | null;
  nextEvent?: ReservationEvent | null;
  /** heatmap weight 0..1 (co-workers-heatmap) */
  heat?: number;
  /** devices and monitoring layers: lowest battery level (%) of the asset's sensors */
  battery?: number | null;
  /** devices and monitoring layers: newest communication time of its sensors (corrected-clock ms) */
  lastCommunication?: number | null;
  /** recent history for the popup, newest first, as display text (added by the UI issue) */
  history?: Array<{ time: number; text: string }>;
  /** votes on tickets and voices (added by the UI issue) */
  votes?: { up: number; down: number; mine?: 1 | -1 | 0 };
}

export interface FloorViewMeta {
  floor: Floor | null;
  building: Building | null;
  legends: Legend[];
  /** served from IndexedDB, live data not loaded yet */
  fromCache: boolean;
  loading: boolean;
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
  state: ConnectionStateName;
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
  /** false when hidden (privacy, invisible, stale) */
  visible: boolean;
  lastSeen: number | null;
  manual: boolean;
}

export interface RoomEntry {
  id: Id;
  name: string;
  floorId: Id | null;
  buildingId: Id | null;
  capacity: number | null;
  statusIndex: number | null;
  color: string | null;
  /** 'free' | 'reserved' | 'occupied' | 'occupied and reserved' | 'unknown' */
  status: string;
  free: boolean;
  text: string | null;
  activeEvent: ReservationEvent | null;
  nextEvent: ReservationEvent | null;
  reservationSensorId: Id | null;
  bookable: boolean;
}

export interface LoadProgress {
  /** what is loading, e.g. 'assets', 'measurements' */
  what: string;
  done: number;
  total: number | null;
}

export interface SessionView {
  signedIn: boolean;
  user: User | null;
  roles: Role[];
  permissions: string[];
  organizations: Array<{ id: Id; name: string }>;
  organizationId: Id | null;
  locations: Array<{ id: Id; name: string; timezone: string }>;
  locationId: Id | null;
  floorId: Id | null;
  /** resolved configuration of the loaded location (flags, labels…) */
  config: Record<string, unknown>;
  cdnBaseUrl: string | null;
  progress: LoadProgress | null;
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
}

// ---------------------------------------------------------------- actions

/** Non-OK responses reach the caller as data (status and parsed body). */
export type ApiResult<T> =
  | { ok: true; value: T }
  | { ok: false; status: number; body: unknown; message: string };

export interface EngineInit {
  /** e.g. http://127.0.0.1:8080 */
  host: string;
  /** API version of the unversioned paths; default 1 */
  version?: number;
}

export interface BookingRequest {
  roomId: Id;
  start: number;
  end: number;
  subject: string;
}

export interface TicketRequest {
  kind: 'ticket' | 'voice';
  floorId: Id;
  x: number;
  y: number;
  label: string;
  text: string;
  email?: string;
}

export interface EngineApi {
  init(options: EngineInit): Promise<void>;
  subscribe(spec: ViewSpec, listener: ViewListener): Promise<number>;
  unsubscribe(subscriptionId: number): Promise<void>;

  signIn(email: string, password: string): Promise<ApiResult<Settings>>;
  signInWithIdToken(idToken: string): Promise<ApiResult<Settings>>;
  signUp(email: string): Promise<ApiResult<unknown>>;
  authUri(email: string): Promise<ApiResult<{ uri: string | null }>>;
  recoverPassword(email: string): Promise<ApiResult<unknown>>;
  /** resumes the stored session, if any; resolves to whether one was found */
  resume(): Promise<boolean>;
  signOut(): Promise<void>;

  loadOrganization(organizationId: Id): Promise<ApiResult<void>>;
  loadLocation(locationId: Id): Promise<ApiResult<void>>;
  selectFloor(floorId: Id): Promise<void>;

  book(request: BookingRequest): Promise<ApiResult<unknown>>;
  cancelBooking(roomId: Id, bookingRef: string): Promise<ApiResult<unknown>>;
  createTicket(request: TicketRequest): Promise<ApiResult<unknown>>;
  vote(assetId: Id, direction: 1 | -1 | 0): Promise<ApiResult<unknown>>;
  updateAsset(assetId: Id, patch: Record<string, unknown>): Promise<ApiResult<unknown>>;
  setManualLocation(location: { floorId: Id; x: number; y: number } | null): Promise<ApiResult<unknown>>;
  markNotificationRead(notificationId: Id): Promise<ApiResult<unknown>>;

  /** stops paging the report of this request (its view shows 'cancelled') */
  cancelReport(request: ReportRequest): Promise<void>;

  /** the browser went online or offline (forwarded by the worker entry) */
  setOnline(online: boolean): Promise<void>;
}
