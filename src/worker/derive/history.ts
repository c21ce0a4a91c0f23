// The popup's recent history and votes (AssetDetail.history, AssetDetail.votes):
// the asset's own history list merged with the last values of its default
// sensor, newest first, as display text with the unit (occupancy as its changes). Location values are
// never listed: past positions would leak what privacy filtering hides.

import type { AssetDetail } from '../../shared/api.js';
import { isOccupiedValue } from '../../shared/rules/roomStatus.js';
import type { Asset, Sensor } from '../../shared/types.js';
import { RECENT_VALUES_KEPT, type Store } from '../store/store.js';
import { isOccupancySensorType, isSensorLayer, LOCATION_SENSOR_TYPE, RESERVATION_SENSOR_TYPE } from '../../shared/kinds.js';
import { SENSOR_SCALES } from './sensorScales.js';

/** Entries shown in a popup's history. */
export const HISTORY_LENGTH = RECENT_VALUES_KEPT;

export type HistoryItem = AssetDetail['history'][number];

/** Sensor types whose values are not history: positions (privacy) and reservation lists (shown as reservation text). */
const NOT_HISTORY = new Set([LOCATION_SENSOR_TYPE, RESERVATION_SENSOR_TYPE]);

function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** Display text of one value, or null when it has nothing to show. */
export function historyText(value: unknown, unit: string | null, sensorType: string | null): string | null {
  if (sensorType && isOccupancySensorType(sensorType)) {
    return value === null || value === undefined ? null : isOccupiedValue(value) ? 'occupied' : 'free';
  }
  if (typeof value === 'number' && Number.isFinite(value)) return `${formatNumber(value)}${unit ? ` ${unit}` : ''}`;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value.trim() ? `${value}${unit && !Number.isNaN(Number(value)) ? ` ${unit}` : ''}` : null;
  if (value && typeof value === 'object') {
    // ticket values and the like: their status or text
    const v = value as { status?: unknown; text?: unknown; value?: unknown };
    if (typeof v.status === 'string' && v.status) return v.status;
    if (typeof v.text === 'string' && v.text) return v.text;
    if (v.value !== undefined && v.value !== value) return historyText(v.value, unit, sensorType);
  }
  return null;
}

/** The sensor whose values make the history: the default sensor type's, else the first that is not a position or reservation list. */
export function historySensor(asset: Asset, sensors: readonly Sensor[]): Sensor | null {
  if (asset.default_sensor_type) {
    const preferred = sensors.find((s) => s.type === asset.default_sensor_type);
    if (preferred) return NOT_HISTORY.has(preferred.type) ? null : preferred;
  }
  return sensors.find((s) => !NOT_HISTORY.has(s.type)) ?? null;
}

function unitOf(asset: Asset, sensor: Sensor | null): string | null {
  const own = (sensor as { unit?: unknown } | null)?.unit;
  if (typeof own === 'string' && own) return own;
  if (sensor && isSensorLayer(sensor.type)) return SENSOR_SCALES[sensor.type].unit;
  return asset.unit;
}

/** The quantity and unit the history lists, so the popup can name them. */
export function historyQuantity(asset: Asset, sensors: readonly Sensor[]): AssetDetail['historyOf'] {
  const sensor = historySensor(asset, sensors);
  if (!sensor) return null;
  const unit = unitOf(asset, sensor);
  const quantity = isSensorLayer(sensor.type) ? SENSOR_SCALES[sensor.type].title : isOccupancySensorType(sensor.type) ? 'Occupancy' : null;
  return quantity || unit ? { quantity, unit } : null;
}

/** Adds a displayable value unless its time is already listed (module level: no closure per derivation). */
function addItem(items: HistoryItem[], seen: Set<number>, time: number, text: string | null): void {
  if (text === null || seen.has(time)) return;
  seen.add(time);
  items.push({ time, text });
}

/** Up to HISTORY_LENGTH entries, newest first. */
export function assetHistory(store: Store, asset: Asset, sensors: readonly Sensor[]): HistoryItem[] {
  const sensor = historySensor(asset, sensors);
  const unit = unitOf(asset, sensor);
  const items: HistoryItem[] = [];
  const seen = new Set<number>();
  if (sensor) {
    const recent = store.sensors.entry(sensor.id)?.recent;
    if (recent) for (const v of recent) if (v) addItem(items, seen, v.time, historyText(v.value, unit, sensor.type));
    const last = sensor.last_measurement;
    if (last) addItem(items, seen, last.time, historyText(last.value, unit, sensor.type));
    const previous = sensor.previous_measurement;
    if (previous) addItem(items, seen, previous.time, historyText(previous.value, unit, sensor.type));
  }
  if (asset.type !== 'employee' && asset.type !== 'auto_tag') {
    const type = sensor?.type ?? null;
    for (const h of asset.history) addItem(items, seen, h.timestamp, historyText(h.value, unit, type));
  }
  items.sort(newestFirst);
  // occupancy is a state: its history lists changes, each at the time the state began ("free, free"
  // from two readings of an unchanged desk said nothing a person could use)
  const listed = sensor && isOccupancySensorType(sensor.type) ? items.filter((item, i) => item.text !== items[i + 1]?.text) : items;
  if (listed.length > HISTORY_LENGTH) listed.length = HISTORY_LENGTH;
  return listed;
}

function newestFirst(a: HistoryItem, b: HistoryItem): number {
  return b.time - a.time;
}

/** Votes of a ticket or voice, with the viewer's own vote (kept by the engine, since asset records carry only the tally). */
export function assetVotes(store: Store, asset: Asset): AssetDetail['votes'] {
  if (asset.type !== 'ticket' && asset.type !== 'voice') return null;
  const mine = store.myVotes.get(asset.id) ?? asset.votes?.mine ?? 0;
  return { up: asset.votes?.up ?? 0, down: asset.votes?.down ?? 0, mine };
}
