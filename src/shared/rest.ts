// REST bodies and paths of spec §7 whose shapes the spec leaves open, as the
// reference server serves them and the engine's REST client sends them
// (docs/protocol.md explains every choice). Pure types and string builders.

import type {
  Asset, Id, Location, Notification, Settings, User, Vec2, Vec3, Rgb, Config, ReservationEvent,
} from './types.js';

// ---------------------------------------------------------------- urls

/** Version of the unversioned paths: `{host}/v1/...` */
export const DEFAULT_API_VERSION = 1;
/** `/v2/settings` and `/v2/measurements` are written with their version in spec §7 */
export const SETTINGS_API_VERSION = 2;
export const MEASUREMENTS_INGEST_API_VERSION = 2;

/** `{host}/v{version}` without a trailing slash. */
export function apiBase(host: string, version: number = DEFAULT_API_VERSION): string {
  return `${host.replace(/\/+$/, '')}/v${version}`;
}

/** Query string from a flat record; arrays repeat the key (sensor_id=1&sensor_id=2); undefined is skipped. */
export function queryString(params: Record<string, string | number | boolean | ReadonlyArray<string | number> | undefined | null>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(v))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

const e = encodeURIComponent;

/** Paths relative to `apiBase(host, version)`; settings and measurement ingest live under v2. */
export const restPaths = {
  login: () => '/login',
  openidLogin: () => '/openid_login',
  signup: () => '/signup',
  authUri: (email: string) => `/auth_uri${queryString({ email })}`,
  recoverPassword: () => '/recover_password',
  currentTime: () => '/current_time',
  /** under SETTINGS_API_VERSION */
  settings: () => '/settings',
  notifications: () => '/notifications',
  notification: (id: Id) => `/notifications/${e(id)}`,
  organizations: () => '/organizations',
  organization: (orgId: Id) => `/organizations/${e(orgId)}`,
  locations: (orgId: Id) => `/organizations/${e(orgId)}/locations`,
  location: (orgId: Id, locId: Id) => `/organizations/${e(orgId)}/locations/${e(locId)}`,
  assets: (orgId: Id, locId: Id, query?: AssetsQuery) =>
    `/organizations/${e(orgId)}/locations/${e(locId)}/assets${queryString({ ...query })}`,
  asset: (orgId: Id, locId: Id, assetId: Id) => `/organizations/${e(orgId)}/locations/${e(locId)}/assets/${e(assetId)}`,
  assetImage: (orgId: Id, locId: Id, assetId: Id, name: string) =>
    `/organizations/${e(orgId)}/locations/${e(locId)}/assets/${e(assetId)}/images/${e(name)}`,
  assetVote: (orgId: Id, locId: Id, assetId: Id) =>
    `/organizations/${e(orgId)}/locations/${e(locId)}/assets/${e(assetId)}/vote`,
  sensors: (orgId: Id, locId: Id, query?: SensorsQuery) =>
    `/organizations/${e(orgId)}/locations/${e(locId)}/sensors${queryString({ ...query })}`,
  sensor: (orgId: Id, locId: Id, sensorId: Id) => `/organizations/${e(orgId)}/locations/${e(locId)}/sensors/${e(sensorId)}`,
  measurements: (orgId: Id, locId: Id, type: string, query?: MeasurementsQuery) =>
    `/organizations/${e(orgId)}/locations/${e(locId)}/measurements/${e(type)}${queryString({ ...query })}`,
  /** under MEASUREMENTS_INGEST_API_VERSION */
  ingestMeasurements: () => '/measurements',
  externalObjects: (query?: ExternalObjectsQuery) => `/external_objects${queryString({ ...query })}`,
  externalObject: (id: Id) => `/external_objects/${e(id)}`,
  users: (orgId: Id) => `/organizations/${e(orgId)}/users`,
  user: (orgId: Id, userId: Id) => `/organizations/${e(orgId)}/users/${e(userId)}`,
  userImage: (orgId: Id, userId: Id) => `/organizations/${e(orgId)}/users/${e(userId)}/image`,
  userPassword: (orgId: Id, userId: Id) => `/organizations/${e(orgId)}/users/${e(userId)}/password`,
  inviteUser: (orgId: Id) => `/organizations/${e(orgId)}/invite_user`,
  locationTag: (id: Id) => `/location_tags/${e(id)}`,
  booking: () => '/booking',
  pusherAuth: () => '/pusher/auth',
} as const;

// ---------------------------------------------------------------- errors

/** Body of every non-OK response. */
export interface ErrorResponse {
  statusCode: number;
  /** HTTP reason phrase, e.g. 'Bad Request' */
  error: string;
  /** human-readable cause, e.g. "body must have required property 'email'" */
  message: string;
}

// ---------------------------------------------------------------- accounts

/** POST /login (form) */
export interface LoginRequest { email: string; password: string }
/** POST /openid_login (form) */
export interface OpenIdLoginRequest { id_token: string }
/** Response of /login and /openid_login. The token goes in `Authorization: Bearer …`. */
export interface LoginResponse {
  token: string;
  token_type: 'Bearer';
  /** ms epoch when the token stops working */
  expires_at: number;
  user_id: Id;
  organization_id: Id;
}
/** POST /signup and POST /recover_password (form). Always 202, whether or not a mail was sent. */
export interface EmailRequest { email: string }
export interface AcceptedResponse { status: 'accepted' }
/** GET /auth_uri?email= : the single-sign-on start URI of the email's organization, or null for password sign-in. */
export interface AuthUriResponse { uri: string | null }
/** GET /current_time */
export interface CurrentTimeResponse {
  /** server time, ms epoch */
  time: number;
}
/** GET /v2/settings (bearer token or the session cookie set by /login). */
export type SettingsResponse = Settings;
/** Name of the HttpOnly session cookie /login sets for `credentials: 'include'`. */
export const SESSION_COOKIE = 'storey_session';

// ---------------------------------------------------------------- organizations and locations

export interface WireOrganization {
  id: Id;
  uuid: string;
  name: string;
  locations: Id[];
  locations_map: Record<Id, { id: Id; name: string }>;
  config: Config;
  /** email domains whose sign-ups join this organization */
  email_domains: string[];
  /** single-sign-on start URI, null for password sign-in */
  sso_uri: string | null;
}
export interface CreateOrganizationRequest { name: string; config?: Config; email_domains?: string[] }
export type UpdateOrganizationRequest = Partial<CreateOrganizationRequest>;

/** A location as the server sends it: already the normalized shape (`buildings` orders its building assets). */
export type WireLocation = Location;
export interface CreateLocationRequest {
  name: string;
  timezone: string;
  latitude: number;
  longitude: number;
  buildings?: Id[];
  config?: Config;
}
export type UpdateLocationRequest = Partial<CreateLocationRequest>;

// ---------------------------------------------------------------- assets

/**
 * An asset as the server sends it. Buildings and floors ARE assets (types
 * 'building' and 'floor') of the location's asset collection, so they travel
 * on the location stream; their own fields are the `building_*`-free fields
 * below, present only on those types. Floors' parent_id is their building;
 * placed assets' parent_id is their floor.
 */
/**
 * An asset as the server sends it: the fields of the normalized `Asset` less
 * what the client derives (local, shape geometry, the viewer's own vote),
 * with the position fields that may be absent on the wire, the building and
 * floor fields (buildings and floors are assets), and server bookkeeping.
 */
export interface WireAsset extends Omit<Asset,
  'local' | 'shape' | 'votes' | 'coords' | 'wgs84_coords' | 'wgs84_outline' | 'timeout_action'
  | 'floor_texture' | 'floor_texture_repeat' | 'openings' | 'wall_shade' | 'edge_shade'> {
  location_id: Id;
  coords?: Vec3 | null;
  wgs84_coords?: Vec3 | null;
  wgs84_outline?: Vec2[] | null;
  timeout_action: string | null;
  floor_texture?: string | null;
  floor_texture_repeat?: number | null;
  openings?: unknown[];
  wall_shade?: Rgb | null;
  edge_shade?: Rgb | null;
  /** tickets and voices */
  votes?: { up: number; down: number };
  /** building fields (type 'building') */
  floors?: Id[];
  default_floor?: number;
  ground_level?: number;
  ground_floor_adjust?: number;
  latitude?: number | null;
  longitude?: number | null;
  north_vector?: number;
  location_offset?: Vec2;
  /** floor fields (type 'floor'); `height` above is the floor height */
  hidden?: boolean;
  building_relative_z?: number;
  building_relative_index?: number;
  /** relative to settings.cdn_base_url, or absolute */
  floor_plan_img_path?: string | null;
  zones_img_path?: string | null;
  floor_plan_img_offset_x?: number;
  floor_plan_img_offset_y?: number;
  // server bookkeeping, never accepted in an update
  version: number;
  creation_timestamp: number;
  update_timestamp: number;
  owner_id: Id | null;
}

/** Fields an update must not carry (spec §3); the server answers 400 if it does. */
export const ASSET_READ_ONLY_FIELDS = ['version', 'creation_timestamp', 'update_timestamp', 'owner_id', 'id', 'uuid'] as const;
export type AssetReadOnlyField = (typeof ASSET_READ_ONLY_FIELDS)[number];

/** POST .../assets. Tickets and voices are assets of type 'ticket'/'voice' (see TicketValue). */
export type CreateAssetRequest = Partial<Omit<WireAsset, AssetReadOnlyField | 'location_id'>> & {
  type: string;
  name: string;
  parent_id: Id | null;
};
/** PATCH .../assets/{id} */
export type UpdateAssetRequest = Partial<Omit<WireAsset, AssetReadOnlyField | 'location_id'>>;

/** GET .../assets query. `type` may be a comma-separated list. */
export interface AssetsQuery {
  type?: string;
  /** drop tickets, voices and other assets whose value's valid_to is past */
  filter_expired?: boolean;
}

export const TICKET_LABELS = ['it', 'cleaning', 'maintenance', 'facility'] as const;
export const VOICE_LABELS = ['space', 'tech', 'culture', 'work', 'other'] as const;
export type TicketStatus = 'open' | 'in_progress' | 'closed';

/**
 * `value` of a ticket or voice asset. The asset's subtype is its label;
 * speech_bubble mirrors text. A regular user may create both (with the
 * ticket's parent_id a floor); the service role may update tickets.
 */
export interface TicketValue {
  text: string;
  label: string;
  status: TicketStatus;
  email?: string | null;
  /** ms epoch of creation */
  time: number;
  /** ms; voices fade out over it, tickets stay until closed */
  valid_for: number;
  valid_to: number;
}

/** PUT .../assets/{id}/vote */
export interface VoteRequest { direction: 1 | -1 }
/** Response of PUT and DELETE .../vote */
export interface VoteResponse { up: number; down: number; mine: 1 | -1 | 0 }

/** Response of PUT .../assets/{id}/images/{name} and PUT users/{id}/image (raw body, image/* content type, ≤ 5 MB). */
export interface ImageResponse {
  name: string;
  /** relative to settings.cdn_base_url */
  path: string;
  content_type: string;
  size: number;
}
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

// ---------------------------------------------------------------- sensors and measurements

/** A measurement value on the wire (normalized on the client). Times in ms epoch, valid_for in ms. */
export interface WireMeasurementValue {
  time: number;
  valid_for: number | null;
  valid_to?: number;
  battery_level?: number | null;
  events?: ReservationEvent[] | null;
  value?: unknown;
  x?: number;
  y?: number;
  floor_id?: Id;
  floor?: number;
  zones?: Id[];
}

export interface WireSensor {
  id: Id;
  uuid: string;
  location_id: Id;
  legacy_id: string | null;
  type: string;
  subtype: string | null;
  asset_id: Id | null;
  unit: string | null;
  value: unknown;
  prev_value: unknown;
  daily_delta_value: number | null;
  day_start_value: number | null;
  last_measurement: WireMeasurementValue | null;
  previous_measurement: WireMeasurementValue | null;
  last_communication_time: number | null;
  last_status: { battery_level: number | null };
  virtual_sensor_id: Id | null;
  vendor_id: string | null;
  /** inactive sensors are left out unless include_inactive=true */
  active: boolean;
}
export interface SensorsQuery { include_inactive?: boolean }
export type CreateSensorRequest = Partial<Omit<WireSensor, 'id' | 'uuid' | 'location_id'>> & { type: string };
export type UpdateSensorRequest = Partial<Omit<WireSensor, 'id' | 'uuid' | 'location_id'>>;

/** GET .../measurements/{type} query. Times are ms epoch. */
export interface MeasurementsQuery {
  start?: number;
  end?: number;
  /** ≤ MEASUREMENT_PAGE_LIMIT (20000) */
  limit?: number;
  sensor_id?: ReadonlyArray<Id> | Id;
  /** false (default): also return, per sensor, the last row before start still valid at start */
  ignore_previous_validity?: boolean;
}

/** Fixed leading columns of every measurements response; type-specific columns follow. */
export const MEASUREMENT_BASE_COLUMNS = ['time', 'sensor_id', 'valid_for', 'value', 'battery_level'] as const;
/** Extra columns by measurement type. */
export const MEASUREMENT_EXTRA_COLUMNS: Record<string, readonly string[]> = {
  location: ['x', 'y', 'floor_id', 'zones'],
  reservation: ['events'],
};

/**
 * Rows sorted by time, then sensor_id. A page never splits one time between
 * pages, so the next page starts at `last row time + 1` with
 * ignore_previous_validity=true.
 */
export interface MeasurementsResponse {
  columns: string[];
  rows: unknown[][];
  has_more_results: boolean;
}

/** POST /v2/measurements (edit role): ingest and publish. */
export interface IngestMeasurementsRequest {
  measurements: Array<{ sensor_id: Id; value: WireMeasurementValue }>;
}
export interface IngestMeasurementsResponse { accepted: number }

// ---------------------------------------------------------------- external objects, users, tags

export interface WireExternalObject {
  id: Id;
  organization_id: Id;
  /** null: organization-wide */
  location_id: Id | null;
  name: string;
  type: string;
  data: Record<string, unknown>;
}
export interface ExternalObjectsQuery { location_id?: Id; organization_id?: Id }
export type CreateExternalObjectRequest = Partial<Omit<WireExternalObject, 'id'>> & { name: string; type: string };
export type UpdateExternalObjectRequest = Partial<Omit<WireExternalObject, 'id' | 'organization_id'>>;

/** A user as the server sends it; `local_user_asset` and `manual_location_sensor` are derived by the client. */
export type WireUser = Omit<User, 'local_user_asset' | 'manual_location_sensor' | 'avatar_url'> & {
  /** relative to settings.cdn_base_url (or absolute); null for the client's default image */
  avatar_url: string | null;
  permissions: string[];
};
export interface CreateUserRequest {
  email: string;
  first_name?: string;
  last_name?: string;
  permissions?: string[];
  password?: string;
}
/**
 * PATCH users/{id}. A user with USER_UPDATE_SELF may change only
 * SELF_UPDATABLE_USER_FIELDS of themselves; permissions need the admin role.
 */
export type UpdateUserRequest = Partial<Pick<WireUser,
  'first_name' | 'last_name' | 'visible' | 'speech_bubble' | 'location' | 'decoration' | 'location_tag_id' | 'email' | 'permissions'>>;
export const SELF_UPDATABLE_USER_FIELDS = ['first_name', 'last_name', 'visible', 'speech_bubble', 'location', 'decoration'] as const;
/**
 * POST users/{id}/password. Either signed in as that user with old_password,
 * or with the one-time `code` of a signup, recovery or invite mail (no token).
 */
export interface SetPasswordRequest { password: string; old_password?: string; code?: string }
export const PASSWORD_MIN_LENGTH = 8;
/** POST /organizations/{orgId}/invite_user */
export interface InviteUserRequest { email: string; first_name?: string; last_name?: string; permissions?: string[] }
export interface InviteUserResponse { user: WireUser }

/** A location tag: a badge whose 'location' sensor places its user. DELETE /location_tags/{id} unassigns and removes it. */
export interface WireLocationTag {
  id: Id;
  organization_id: Id;
  location_id: Id;
  user_id: Id | null;
  sensor_id: Id;
}

// ---------------------------------------------------------------- notifications

/** GET /notifications: the signed-in user's, newest first (user stream headers). */
export type WireNotification = Notification & { level: 'info' | 'warning' | 'error'; link: string | null };
/** POST /notifications (edit or admin): to one user of the caller's organization. */
export interface CreateNotificationRequest { user_id: Id; title: string; body: string; level?: 'info' | 'warning' | 'error'; link?: string | null }
/** PATCH /notifications/{id} (the recipient) */
export interface UpdateNotificationRequest { read?: boolean }

// ---------------------------------------------------------------- booking

/**
 * POST /booking: reserves a room (an asset with a 'reservation' data provider).
 * 409 if it overlaps an event; the reservation sensor gets a new measurement
 * with the updated event list, published live.
 */
export interface BookingRequest { room_id: Id; start: number; end: number; subject: string }
export interface BookingResponse { booking_ref: string; sensor_id: Id; event: ReservationEvent }
/** DELETE /booking with this JSON body (or the same fields as query). The booker, edit or admin. */
export interface CancelBookingRequest { room_id: Id; booking_ref: string }

// ---------------------------------------------------------------- pusher

/** POST /pusher/auth (form or JSON); extra params are accepted and ignored. */
export interface PusherAuthRequest { socket_id: string; channel_name: string; [extra: string]: string }
export interface PusherAuthResponse { auth: string }

