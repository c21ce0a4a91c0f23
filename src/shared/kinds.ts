// Typed meaning that crosses the worker→UI line (STYLE "house habits"): what
// an asset is (kind) and what its status means (statusKind). The worker
// computes both; the UI maps them to marks and icons and never parses words.
// Also the one home of the sensor types the rules key on.

import type { MapLayer } from './constants.js';

/** What a drawn asset is. Desks and lockers are `shape` assets told apart by subtype or categories.shape (spec §3 has no desk type). */
export const ASSET_KINDS = [
  'room', 'zone', 'floor_outline', 'floor_hole', 'portal', 'employee', 'auto_tag', 'ticket',
  'voice', 'container', 'sensor', 'desk', 'locker', 'shape', 'other',
] as const;
export type AssetKind = (typeof ASSET_KINDS)[number];

/**
 * What a status means, whatever the words: free, booked (reserved, not in
 * use), busy (in use), attention (needs someone: clean-desk policy exceeded,
 * battery low), unknown (no recent data), none (no status).
 */
export const STATUS_KINDS = ['none', 'free', 'booked', 'busy', 'attention', 'unknown'] as const;
export type StatusKind = (typeof STATUS_KINDS)[number];

/** Environment layers coloured by a sensor of the same type (spec §2). */
export const SENSOR_LAYERS = [
  'tvoc', 'temperature', 'humidity', 'co2', 'illuminance', 'pressure', 'loudness', 'satisfaction', 'stress',
] as const satisfies readonly MapLayer[];
export type SensorLayer = (typeof SENSOR_LAYERS)[number];

export function isSensorLayer(type: string): type is SensorLayer {
  return (SENSOR_LAYERS as readonly string[]).includes(type);
}

/**
 * What people call the quantity of each sensor layer: the layer panel, the
 * legends, a sensor's history and the reports all say these words (never the
 * type's id, "co2").
 */
export const SENSOR_LAYER_TITLES: Readonly<Record<SensorLayer, string>> = {
  tvoc: 'TVOC',
  temperature: 'Temperature',
  humidity: 'Humidity',
  co2: 'CO₂',
  illuminance: 'Illuminance',
  pressure: 'Pressure',
  loudness: 'Loudness',
  satisfaction: 'Satisfaction',
  stress: 'Stress',
};

/** A sensor type's words for people: its layer's title, or the type itself when no layer shows it. */
export function sensorTypeTitle(type: string): string {
  return isSensorLayer(type) ? SENSOR_LAYER_TITLES[type] : type;
}

/** Sensor types that report desk or room occupancy. */
export const OCCUPANCY_SENSOR_TYPES = ['occupancy', 'presence', 'desk', 'motion'] as const;

export function isOccupancySensorType(type: string): boolean {
  return (OCCUPANCY_SENSOR_TYPES as readonly string[]).includes(type);
}

/** Spec §3: sensor type whose values carry reservation events. */
export const RESERVATION_SENSOR_TYPE = 'reservation';
/** Spec §3: sensor type whose values carry x, y and floor. */
export const LOCATION_SENSOR_TYPE = 'location';
