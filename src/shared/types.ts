// Normalized entity types of spec §3: what the engine stores and the UI reads.
// Wire JSON is loose (see normalize*.ts); these shapes are what every other
// module may rely on after normalization, with the §3/§9 defaults applied.

export type Id = string;
export type Vec3 = [number, number, number];
export type Vec2 = [number, number];
export type Rgb = [number, number, number];

export interface Config {
  [key: string]: unknown;
}

export interface Organization {
  id: Id;
  uuid: string;
  name: string;
  locations: Id[];
  /** location id → short info, as the server sends it */
  locations_map: Record<Id, { id: Id; name: string }>;
  config: Config;
}

export interface Location {
  id: Id;
  organization_id: Id;
  name: string;
  timezone: string;
  latitude: number;
  longitude: number;
  /** ordered building ids */
  buildings: Id[];
  config: Config;
}

export interface Building {
  id: Id;
  name: string;
  /** ordered floor ids */
  floors: Id[];
  default_floor: number;
  ground_level: number;
  ground_floor_adjust: number;
  latitude: number | null;
  longitude: number | null;
  north_vector: number;
  /** local offset of the building; default [80 × building index, 0] */
  location_offset: Vec2;
  config: Config;
}

export interface Floor {
  id: Id;
  name: string;
  /** the building */
  parent_id: Id;
  height: number;
  hidden: boolean;
  building_relative_z: number;
  building_relative_index: number;
  outline: Vec2[];
  floor_plan_img_path: string | null;
  zones_img_path: string | null;
  floor_plan_img_offset_x: number;
  floor_plan_img_offset_y: number;
  config: Config;
}

export const ASSET_TYPES = [
  'building', 'floor', 'room', 'zone', 'zone_auto', 'floor_hole', 'floor_outline',
  'portal', 'employee', 'auto_tag', 'ticket', 'voice', 'container', 'sensor', 'shape',
] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

export const SHAPE_ASSET_TYPES = ['room', 'zone', 'floor_outline', 'floor_hole'] as const;

export type TimeoutAction = 'skip' | 'fade_out' | 'missing' | 'grey_out' | 'none';

export interface AssetCategories {
  affects_parent?: boolean;
  shape?: string;
  [key: string]: unknown;
}

export interface HistoryEntry {
  timestamp: number;
  value: unknown;
  [key: string]: unknown;
}

export interface Asset {
  id: Id;
  uuid: string;
  name: string;
  type: AssetType | string;
  /** 'privacy' (zone), 'meeting' (room), or a zone kind for zones */
  subtype: string | null;
  /** floor id for assets placed on a floor; building id for floors; etc. */
  parent_id: Id | null;
  x: number;
  y: number;
  z: number;
  coords: Vec3;
  angles: Vec3;
  outline: Vec2[] | null;
  wgs84_coords: Vec3 | null;
  wgs84_outline: Vec2[] | null;
  texture_path: string | null;
  model_path: string | null;
  value: unknown;
  prev_value: unknown;
  unit: string | null;
  width: number;
  height: number;
  depth: number;
  shade: Rgb | null;
  overriding_color: Rgb | null;
  /** sensor ids */
  data_providers: Id[];
  data_provider_refs: Record<string, Id>;
  default_sensor_type: string | null;
  capabilities: string[];
  /** external object ids */
  external_objects: Id[];
  /** portal targets: asset ids of the linked portals */
  targets: Id[];
  speech_bubble: string | null;
  unpublished: boolean;
  /** derived client-side only (user employee assets) */
  local: boolean;
  travelling_asset_floor_index: number | null;
  tag_zones: Id[];
  config: Config;
  timeout_action: TimeoutAction | null;
  popup_type: string | null;
  popup_content_type: string | null;
  popup_width: number;
  popup_height: number;
  alert_on_activity: string[];
  privacy_filtered: boolean;
  categories: AssetCategories;
  floor_shade: Rgb | null;
  history: HistoryEntry[];
  // shape assets (room, zone, floor_outline, floor_hole)
  floor_texture: string | null;
  floor_texture_repeat: number | null;
  openings: unknown[];
  wall_shade: Rgb | null;
  edge_shade: Rgb | null;
  /** derived from outline for shape assets */
  shape: ShapeGeometry | null;
  /** votes on tickets and voices */
  votes?: { up: number; down: number; mine?: 1 | -1 | 0 };
}

export interface ShapeGeometry {
  center: Vec2;
  width: number;
  depth: number;
  area: number;
  size: number;
}

export interface MeasurementValue {
  time: number;
  valid_for: number | null;
  valid_to: number;
  battery_level: number | null;
  events: ReservationEvent[] | null;
  value: unknown;
  // location values
  x?: number;
  y?: number;
  floor_id?: Id;
  floor?: number;
  zones?: Id[];
}

export interface ReservationEvent {
  start: number;
  end: number;
  subject: string;
  user_id: Id | null;
  booking_ref: string;
}

export interface Sensor {
  id: Id;
  uuid: string;
  legacy_id: string | null;
  /** reservation, location, generic, occupancy, co2, temperature, … */
  type: string;
  subtype: string | null;
  /** the asset this sensor reports for, when known */
  asset_id: Id | null;
  value: unknown;
  prev_value: unknown;
  daily_delta_value: number | null;
  day_start_value: number | null;
  last_measurement: MeasurementValue | null;
  previous_measurement: MeasurementValue | null;
  last_communication_time: number | null;
  last_status: { battery_level: number | null };
  virtual_sensor_id: Id | null;
  vendor_id: string | null;
  /** derived client-side (manual-location sensors) */
  local?: boolean;
  /**
   * derived client-side for occupancy sensors: when the desk or room last went
   * from occupied to free (the clean-desk phase counts from it; spec §9);
   * null while occupied or unknown
   */
  left_at?: number | null;
}

export interface ExternalObject {
  id: Id;
  name: string;
  type: string;
  data: Record<string, unknown>;
}

export interface UserLocation {
  location_id: Id;
  floor_id: Id;
  time: number;
  /** floor-local position of a manually set location, when known */
  x?: number;
  y?: number;
}

export interface User {
  id: Id;
  uuid: string;
  organization_id: Id;
  first_name: string;
  last_name: string;
  email: string;
  visible: boolean;
  location_tag_id: Id | null;
  location: UserLocation | null;
  avatar_timestamp: number | null;
  avatar_url: string;
  speech_bubble: string | null;
  decoration: { name: string } | null;
  external_objects: Id[];
  /** derived: id of the local-only employee asset */
  local_user_asset: Id | null;
  /** derived: id of the manual-location sensor */
  manual_location_sensor: Id | null;
}

export type Permission =
  | 'FOREIGN_ORGANIZATION_ACCESS'
  | 'ASSET_UPDATE'
  | 'ASSET_UPDATE_SERVICE_TICKET'
  | 'USER_UPDATE_SELF'
  | string;

export type Role = 'admin' | 'edit' | 'service' | 'regular';

export interface PusherConfig {
  app_key: string;
  cluster: string;
  /** reference server / self-hosted endpoint; absent for hosted Pusher */
  ws_host?: string;
  ws_port?: number;
  force_tls?: boolean;
}

export interface MqttConfig {
  hostname?: string;
  username?: string;
  password?: string;
  /** full broker URL (ws:// or wss:// in browsers, mqtt:// in Node) */
  url?: string;
  /** TCP URL of the same broker (mqtt://), for Node clients; url stays the browser one */
  mqtt_url?: string;
  /** the client id these credentials must connect with (the reference server binds them; docs/security.md) */
  client_id?: string;
}

export interface Settings {
  user: User;
  permissions: Permission[];
  cdn_base_url: string | null;
  pusher_config?: PusherConfig;
  mqtt_config?: MqttConfig;
}

export interface Notification {
  id: Id;
  user_id: Id;
  title: string;
  body: string;
  created: number;
  read: boolean;
  [key: string]: unknown;
}
