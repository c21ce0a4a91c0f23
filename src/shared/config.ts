// Base configuration: every constant and flag of spec §9 plus the map layers
// of §2, and the resolution order asset → parent chain → location →
// organization → base (§3). Nearer levels win; objects merge key by key.

import {
  CLEAN_DESK_POLICY, CLEAN_DESK_THRESHOLDS, CORE_VERSION, DEFAULT_BUILDING_OFFSET, DEFAULT_LAYERS,
  FADE_OUT_MIN_ALPHA, FLOOR_DEFAULT_HEIGHT, FLOOR_LINK_CROSS_BUILDING_COST, HOUR_END, HOUR_START,
  MANUAL_LOCATION_TIMEOUT_MS, MAP_LAYERS, MAX_RECHECK_DELAY_MS, MEASUREMENT_PAGE_LIMIT,
  MEETING_RECENT_READING_MS, MQTT_CONNECT_TIMEOUT_MS, MQTT_KEEPALIVE_S, MQTT_PROTOCOL_VERSION,
  MQTT_RECONNECT_PERIOD_MS, POPUP_DEFAULT_HEIGHT, POPUP_DEFAULT_WIDTH, QS_ARRAY_LIMIT, QS_DEPTH,
  QS_PARAMETER_LIMIT, REALTIME_TIMELINE_INTERVAL_MS, RECONNECT_MAX_DELAY_MS, RECONNECT_STEP_MS,
  RESERVATION_REFRESH_CAP_MS, TIME_SYNC_INTERVAL_MS, ASSET_DEFAULT_SIZE, type MapLayer,
} from './constants.js';
import { MSG } from './messages.js';
import type { Config, Id, Role } from './types.js';

export const TICKET_LABELS = ['it', 'cleaning', 'maintenance', 'facility'] as const;
export const VOICE_LABELS = ['space', 'tech', 'culture', 'work', 'other'] as const;
export const ZONE_KINDS = ['generic', 'communication', 'collaboration', 'concentration', 'chilling'] as const;
export type ZoneKind = (typeof ZONE_KINDS)[number];
export const REPORT_KINDS = ['location', 'desk', 'room', 'environment'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export interface TicketLabelConfig {
  emailRecipients: string[];
}

export interface BaseConfig {
  coreVersion: string;
  hourStart: number;
  hourEnd: number;
  /** minutes a left desk may stay uncleared (see rules/cleanDesk.ts) */
  cleanDeskPolicy: number;
  /** ms */
  manualLocationTimeout: number;
  popup: { width: number; height: number };
  floorHeight: number;
  assetSize: { width: number; height: number; depth: number };
  fadeOutMinAlpha: number;
  maxRecheckDelay: number;
  ticketLabels: Record<string, TicketLabelConfig>;
  voiceLabels: string[];
  ticketsVoicesRequireModeration: boolean;
  ticketsRequireCategory: boolean;
  ticketsAskForEmail: boolean;
  wayfindingEnabled: boolean;
  assetBookingFeature: boolean;
  allDayBookingButton: boolean;
  booking: { showUserBookings: boolean; forceShowUserBookings: boolean };
  useTaitoriEmbedURLv2: boolean;
  /** map layer → on by default */
  layers: Record<MapLayer, boolean>;
  zoneKinds: Record<string, { label: string }>;
  reportViewingRolesAtLeast: Record<ReportKind, Role>;
  statusColors: {
    /** room colour status: free, reserved, occupied, occupied and reserved */
    room: string[];
    missing: string;
    notApplicable: string;
  };
  theme: Record<string, string>;
  /** colour stops over the share of cleanDeskPolicy elapsed (rules/cleanDesk.ts) */
  cleanDesk: { thresholds: number[]; colors: string[] };
  timeSyncInterval: number;
  reconnect: { step: number; max: number };
  mqtt: { keepalive: number; protocolVersion: number; reconnectPeriod: number; connectTimeout: number };
  measurementPageLimit: number;
  buildingOffset: number;
  meetingRecentReadingWindow: number;
  reservationRefreshCap: number;
  floorLinkCrossBuildingCost: number;
  query: { depth: number; arrayLimit: number; parameterLimit: number };
  realtimeTimelineInterval: number;
}

export type ResolvedConfig = BaseConfig & Config;

/** A fresh, mutable copy of the base configuration. */
export function createBaseConfig(): BaseConfig {
  const layers = Object.fromEntries(MAP_LAYERS.map((l) => [l, DEFAULT_LAYERS.includes(l)])) as Record<MapLayer, boolean>;
  return {
    coreVersion: CORE_VERSION,
    hourStart: HOUR_START,
    hourEnd: HOUR_END,
    cleanDeskPolicy: CLEAN_DESK_POLICY,
    manualLocationTimeout: MANUAL_LOCATION_TIMEOUT_MS,
    popup: { width: POPUP_DEFAULT_WIDTH, height: POPUP_DEFAULT_HEIGHT },
    floorHeight: FLOOR_DEFAULT_HEIGHT,
    assetSize: { width: ASSET_DEFAULT_SIZE, height: ASSET_DEFAULT_SIZE, depth: ASSET_DEFAULT_SIZE },
    fadeOutMinAlpha: FADE_OUT_MIN_ALPHA,
    maxRecheckDelay: MAX_RECHECK_DELAY_MS,
    ticketLabels: Object.fromEntries(TICKET_LABELS.map((l) => [l, { emailRecipients: [] }])),
    voiceLabels: [...VOICE_LABELS],
    ticketsVoicesRequireModeration: false,
    ticketsRequireCategory: false,
    ticketsAskForEmail: false,
    wayfindingEnabled: false,
    assetBookingFeature: false,
    allDayBookingButton: false,
    booking: { showUserBookings: false, forceShowUserBookings: false },
    useTaitoriEmbedURLv2: false,
    layers,
    zoneKinds: {
      generic: { label: MSG.ZONE_GENERIC_LABEL },
      communication: { label: 'Communication' },
      collaboration: { label: 'Collaboration' },
      concentration: { label: 'Concentration' },
      chilling: { label: MSG.ZONE_CHILLING_LABEL },
    },
    reportViewingRolesAtLeast: { location: 'regular', desk: 'regular', room: 'regular', environment: 'regular' },
    statusColors: {
      room: ['#43a047', '#fb8c00', '#e53935', '#8e24aa'],
      missing: '#9e9e9e',
      notApplicable: '#cfd8dc',
    },
    theme: {
      primary: '#1565c0',
      secondary: '#00897b',
      background: '#fafafa',
      surface: '#ffffff',
      text: '#212121',
      muted: '#757575',
      error: '#c62828',
      warning: '#f9a825',
      success: '#2e7d32',
    },
    cleanDesk: {
      thresholds: [...CLEAN_DESK_THRESHOLDS],
      colors: ['#2e7d32', '#9ccc65', '#fdd835', '#fb8c00', '#c62828'],
    },
    timeSyncInterval: TIME_SYNC_INTERVAL_MS,
    reconnect: { step: RECONNECT_STEP_MS, max: RECONNECT_MAX_DELAY_MS },
    mqtt: {
      keepalive: MQTT_KEEPALIVE_S,
      protocolVersion: MQTT_PROTOCOL_VERSION,
      reconnectPeriod: MQTT_RECONNECT_PERIOD_MS,
      connectTimeout: MQTT_CONNECT_TIMEOUT_MS,
    },
    measurementPageLimit: MEASUREMENT_PAGE_LIMIT,
    buildingOffset: DEFAULT_BUILDING_OFFSET,
    meetingRecentReadingWindow: MEETING_RECENT_READING_MS,
    reservationRefreshCap: RESERVATION_REFRESH_CAP_MS,
    floorLinkCrossBuildingCost: FLOOR_LINK_CROSS_BUILDING_COST,
    query: { depth: QS_DEPTH, arrayLimit: QS_ARRAY_LIMIT, parameterLimit: QS_PARAMETER_LIMIT },
    realtimeTimelineInterval: REALTIME_TIMELINE_INTERVAL_MS,
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The base configuration, frozen; use `createBaseConfig()` for a copy to change. */
export const BASE_CONFIG: Readonly<BaseConfig> = deepFreeze(createBaseConfig());

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Merges `override` over `base`. Where the base has a value, an override of a
 * different kind (a string for a number, an object for an array…) is ignored,
 * so a sloppy server-side config cannot turn a typed flag into garbage.
 */
export function mergeConfig<T extends object>(base: T, override: Config | null | undefined): T {
  if (!override) return base;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined) continue;
    const current = out[key];
    if (current === undefined || current === null) {
      out[key] = value;
    } else if (isPlainObject(current)) {
      if (isPlainObject(value)) out[key] = mergeConfig(current, value);
    } else if (Array.isArray(current)) {
      if (Array.isArray(value)) out[key] = value;
    } else if (typeof current === typeof value) {
      out[key] = value;
    }
  }
  return out as T;
}

/** Anything with a config that may sit in the parent chain: an asset, a floor, a building. */
export interface ConfigNode {
  config?: Config | null;
  parent_id?: Id | null;
}

export interface ResolveConfigOptions {
  /** finds an asset, floor or building by id, to walk `parent_id` upwards */
  lookup?: (id: Id) => ConfigNode | null | undefined;
  location?: { config?: Config | null } | null;
  organization?: { config?: Config | null } | null;
  base?: BaseConfig;
}

/** Parent chains deeper than this are treated as cycles in bad data. */
const MAX_PARENT_DEPTH = 64;

/**
 * Configuration effective at `start`: its own config, then each parent's
 * (asset → … → floor → building), then the location's, the organization's
 * and the base. The nearest level wins.
 */
export function resolveConfig(start: ConfigNode | null | undefined, options: ResolveConfigOptions = {}): ResolvedConfig {
  const chain: Array<Config | null | undefined> = [];
  const seen = new Set<Id>();
  let node = start ?? null;
  while (node && chain.length < MAX_PARENT_DEPTH) {
    chain.push(node.config);
    const parentId = node.parent_id;
    if (!parentId || seen.has(parentId) || !options.lookup) break;
    seen.add(parentId);
    node = options.lookup(parentId) ?? null;
  }
  chain.push(options.location?.config, options.organization?.config);
  let resolved = (options.base ?? createBaseConfig()) as ResolvedConfig;
  for (let i = chain.length - 1; i >= 0; i--) resolved = mergeConfig(resolved, chain[i]);
  return resolved;
}

/** A zone's kind: its subtype when that is a known kind, else generic. */
export function zoneKind(subtype: string | null | undefined, config: Pick<BaseConfig, 'zoneKinds'> = BASE_CONFIG): string {
  return subtype && Object.hasOwn(config.zoneKinds, subtype) ? subtype : 'generic';
}

/** Display label of a zone kind; unknown kinds read as the generic label. */
export function zoneLabel(subtype: string | null | undefined, config: Pick<BaseConfig, 'zoneKinds'> = BASE_CONFIG): string {
  const kind = zoneKind(subtype, config);
  return config.zoneKinds[kind]?.label ?? MSG.ZONE_GENERIC_LABEL;
}

/**
 * The category a ticket or voice gets when the person picks none: null when
 * the location requires a choice (ticketsRequireCategory), else the last
 * configured label — the lists run from specific to general (spec §9: …,
 * facility; …, other), so the default is the general one.
 */
export function defaultTicketLabel(
  config: Pick<BaseConfig, 'ticketLabels' | 'voiceLabels' | 'ticketsRequireCategory'>,
  kind: 'ticket' | 'voice',
): string | null {
  if (config.ticketsRequireCategory) return null;
  const labels = kind === 'ticket' ? Object.keys(config.ticketLabels) : config.voiceLabels;
  return labels.length ? labels[labels.length - 1]! : null;
}
