// REST bodies and paths of spec §7 whose shapes the spec leaves open, as the
// reference server serves them and the engine's REST client sends them
// (docs/protocol.md explains every choice). Pure types and string builders.
// Request bodies, queries and the small responses are declared once as
// TypeBox schemas in ./schemas/ (the server validates with them); their
// types are re-exported here as `Static<>` of those schemas. Entities
// (WireAsset, WireUser, …) build on the normalized types of types.ts.

import type { Static } from 'typebox';
import { stringifyQuery } from './query.js';
import type { AssetsQuery } from './schemas/assets.js';
import type { ExternalObjectsQuery } from './schemas/people.js';
import type { MeasurementsQuery as MeasurementsQuerySchema, SensorsQuery } from './schemas/sensors.js';
import type {
  Asset, Config, Id, Location, Notification, Settings, User, Vec2, Vec3, Rgb, ReservationEvent,
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

/** `?a=1&b=2&b=3` from a flat record through qs (arrays repeat their key, spec §7), or '' when empty. */
export function queryString(params: Record<string, string | number | boolean | ReadonlyArray<string | number> | undefined | null>): string {
  const text = stringifyQuery(params);
  return text ? `?${text}` : '';
}

const e = encodeURIComponent;

/** Paths relative to `apiBase(host, version)`; settings and measurement ingest live under v2. */
export const restPaths = {
  login: () => '/login',
  /** POST: ends the session of the token sent (and clears the session cookie) */
  logout: () => '/logout',
  openidLogin: () => '/openid_login',
  signup: () => '/signup',
  signupConfirm: () => '/signup/confirm',
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

export type { ErrorResponse } from './schemas/accounts.js';

/** JSON bodies nested deeper than this are refused with 400 (docs/protocol.md §1). */
export const JSON_MAX_DEPTH = 32;

// ---------------------------------------------------------------- accounts

export type {
  AcceptedResponse, AuthUriResponse, CurrentTimeResponse, EmailRequest, LoginRequest, LoginResponse, OpenIdLoginRequest,
  PusherAuthRequest, PusherAuthResponse, SetPasswordRequest, SignupConfirmRequest, SignupConfirmResponse,
} from './schemas/accounts.js';

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
export type {
  CreateLocationRequest, CreateOrganizationRequest, UpdateLocationRequest, UpdateOrganizationRequest,
} from './schemas/organizations.js';

/** A location as the server sends it: already the normalized shape (`buildings` orders its building assets). */
export type WireLocation = Location;
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

export type { AssetsQuery, CreateAssetRequest, ImageResponse, UpdateAssetRequest, VoteRequest, VoteResponse } from './schemas/assets.js';

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

/** raw image bodies (image/* content type) of the image PUTs */
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
export type {
  CreateSensorRequest, IngestMeasurementsRequest, IngestMeasurementsResponse, MeasurementsResponse, SensorsQuery, UpdateSensorRequest,
} from './schemas/sensors.js';

/** GET .../measurements/{type} query; the client may give one sensor id or several. */
export type MeasurementsQuery = Omit<Static<typeof MeasurementsQuerySchema>, 'sensor_id'> & { sensor_id?: ReadonlyArray<Id> | Id };

/** Fixed leading columns of every measurements response; type-specific columns follow. */
export const MEASUREMENT_BASE_COLUMNS = ['time', 'sensor_id', 'valid_for', 'value', 'battery_level'] as const;
/** Extra columns by measurement type. */
export const MEASUREMENT_EXTRA_COLUMNS: Record<string, readonly string[]> = {
  location: ['x', 'y', 'floor_id', 'zones'],
  reservation: ['events'],
};

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
export type { CreateExternalObjectRequest, ExternalObjectsQuery, UpdateExternalObjectRequest } from './schemas/people.js';

/** A user as the server sends it; `local_user_asset` and `manual_location_sensor` are derived by the client. */
export type WireUser = Omit<User, 'local_user_asset' | 'manual_location_sensor' | 'avatar_url'> & {
  /** relative to settings.cdn_base_url (or absolute); null for the client's default image */
  avatar_url: string | null;
  permissions: string[];
};
export type { CreateUserRequest, InviteUserRequest, UpdateUserRequest } from './schemas/people.js';
/** Profile fields a user changes about themself (docs/security.md); USER_UPDATE_SELF. */
export const SELF_UPDATABLE_USER_FIELDS = ['first_name', 'last_name', 'visible', 'speech_bubble', 'location', 'decoration'] as const;
export const PASSWORD_MIN_LENGTH = 8;
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
export type { CreateNotificationRequest, UpdateNotificationRequest } from './schemas/people.js';

// ---------------------------------------------------------------- booking and pusher

export type { BookingRequest, BookingResponse, CancelBookingRequest } from './schemas/people.js';
