// Business constants and limits of spec §9, with units in their names.

export const CORE_VERSION = '0.27.0';

export const HOUR_START = 7;
export const HOUR_END = 18;
export const CLEAN_DESK_POLICY = 120;
export const MANUAL_LOCATION_TIMEOUT_MS = 432e5;

/** same-origin image used when a user has no avatar_url (spec §3 "a local image") */
export const DEFAULT_AVATAR_URL = '/avatar-default.svg';

export const POPUP_DEFAULT_WIDTH = 300;
export const POPUP_DEFAULT_HEIGHT = 250;
export const FLOOR_DEFAULT_HEIGHT = 2.8;
export const ASSET_DEFAULT_SIZE = 1.5;
export const FADE_OUT_MIN_ALPHA = 0.2;
/** fade-out happens during the last 75 % of validity */
export const FADE_OUT_PORTION = 0.75;
export const MAX_RECHECK_DELAY_MS = 6048e5;

export const TIME_SYNC_INTERVAL_MS = 30_000;
export const RECONNECT_STEP_MS = 5_000;
export const RECONNECT_MAX_DELAY_MS = 60_000;

export const MQTT_KEEPALIVE_S = 30;
export const MQTT_PROTOCOL_VERSION = 5;
export const MQTT_RECONNECT_PERIOD_MS = 2_000;
export const MQTT_CONNECT_TIMEOUT_MS = 15_000;

export const MEASUREMENT_PAGE_LIMIT = 20_000;
export const DEFAULT_BUILDING_OFFSET = 80;
export const MEETING_RECENT_READING_MS = 80_000;
export const RESERVATION_REFRESH_CAP_MS = 7 * 24 * 3600 * 1000;

export const FLOOR_LINK_CROSS_BUILDING_COST = 1000;

export const QS_DEPTH = 5;
export const QS_ARRAY_LIMIT = 20;
export const QS_PARAMETER_LIMIT = 1000;
export const REALTIME_TIMELINE_INTERVAL_MS = 60_000;

export const EARTH_RADIUS_M = 6_371_000;

export const CLEAN_DESK_THRESHOLDS = [0, 0.08, 0.081, 0.999, 1] as const;

/** Pusher's message size limit; packets are split below it (DESIGN §3) */
export const PUSHER_MESSAGE_LIMIT_BYTES = 10_240;

/** Colours of the co-worker heatmap from its edge to a hot spot (the viewer's gradient and the legend). */
export const HEATMAP_COLORS = ['#ffd600', '#ffab00', '#ff3d00'] as const;

export const MAP_LAYERS = [
  'floorplan', 'info', 'zones', 'rooms', 'room_reservation', 'desks', 'desk_usage',
  'co-workers', 'co-workers-heatmap', 'lockers', 'tvoc', 'temperature', 'humidity', 'co2',
  'illuminance', 'pressure', 'loudness', 'satisfaction', 'stress', 'service', 'devices',
  'monitoring', 'mesh', 'all_sensors', 'report',
] as const;
export type MapLayer = (typeof MAP_LAYERS)[number];
export const DEFAULT_LAYERS: readonly MapLayer[] = [
  'floorplan', 'info', 'desk_usage', 'room_reservation', 'co-workers',
];

export const ROLE_PERMISSIONS = {
  admin: 'FOREIGN_ORGANIZATION_ACCESS',
  edit: 'ASSET_UPDATE',
  service: 'ASSET_UPDATE_SERVICE_TICKET',
  regular: 'USER_UPDATE_SELF',
} as const;
