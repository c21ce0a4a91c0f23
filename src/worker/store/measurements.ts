// Live measurements and heartbeats (spec §4, §5): a value updates its sensor
// and dirties the assets it feeds; a location value moves them; a newer value
// of a watched type clears alert-on-activity. Unknown sensors are logged and
// ignored; values older than the sensor's last one are ignored too.

import { normalizeMeasurementValue } from '../../shared/normalize/sensor.js';
import { clearAlertOnActivity } from '../../shared/rules/location.js';
import { isOccupancySensorType } from '../../shared/kinds.js';
import { isOccupiedValue } from '../../shared/rules/roomStatus.js';
import { isRecord, toId, toNumOrNull, toTime } from '../../shared/normalize/primitives.js';
import type { Logger } from '../ports.js';
import { markPersist, type StoreDelta } from './delta.js';
import { placeAsset } from './located.js';
import { RECENT_VALUES_KEPT, type Store } from './store.js';
import type { MeasurementValue, Sensor } from '../../shared/types.js';
import type { AssetSlot } from './assetMap.js';
import type { SensorEntry } from './sensorMap.js';

interface Context {
  logger: Logger;
}

export function applyMeasurement(store: Store, data: unknown, delta: StoreDelta, options: Context): void {
  const { logger } = options;
  if (!isRecord(data)) { logger.warn('Ignoring malformed measurement', data); return; }
  const wireId = toId(data.sensor_id);
  // one lookup: the record, its recent values and the assets it feeds (issue 14)
  const entry = wireId ? store.sensors.entry(wireId) : undefined;
  const sensor = entry?.record;
  if (!sensor) { logger.warn(`Ignoring measurement for unknown sensor ${String(data.sensor_id)}`); return; }
  // the stored id from here on (the very string the maps hold as key): each lookup below matches it by
  // identity rather than by its text, and the sets the batch fills keep no copy of the packet (issue 14)
  const sensorId = entry.id;
  const value = normalizeMeasurementValue(data.value, { sensorId, type: sensor.type }, { logger });
  if (!value) return;
  const previous = sensor.last_measurement;
  // the last reading's fields as the entry kept them, when it is the one the record holds (sensorMap.ts `seen`)
  const seen = previous !== null && previous === entry.seen;
  const previousTime = previous === null ? 0 : seen ? entry.seenTime : previous.time;
  if (previous && value.time < previousTime) {
    logger.debug(`Ignoring measurement older than the last one (sensor ${sensorId})`);
    return;
  }
  const newer = !previous || value.time > previousTime;
  if (newer) sensor.previous_measurement = previous;
  rememberValue(entry.recent, value, newer);
  sensor.last_measurement = value;
  const leftAt = sensor.left_at;
  const occupancy = newer && isOccupancySensorType(sensor.type);
  let repeat = false;
  if (occupancy) {
    const previousValue = previous === null ? null : seen ? entry.seenValue : previous.value;
    noteOccupancy(sensor, value, previous !== null && isOccupiedValue(previousValue));
    // a newer reading that says what the last one said, valid at least as long, with the time the desk was left
    // unchanged (a loaded sensor's may be missing rather than null): a desk whose facts came from the last one
    // and are still fresh looks the same with it. Occupancy sensors repeat their state periodically, so most of
    // a live load's readings are such (issue 14)
    repeat = previous !== null && previousValue === value.value && value.valid_to >= (seen ? entry.seenValidTo : previous.valid_to)
      && (sensor.left_at ?? null) === (leftAt ?? null);
  }
  entry.seen = value;
  entry.seenTime = value.time;
  entry.seenValidTo = value.valid_to;
  entry.seenValue = value.value;
  sensor.prev_value = newer ? sensor.value : sensor.prev_value;
  sensor.value = value.value;
  // a new status object only when the level changed: most readings repeat it, and each object kept costs the GC
  if (value.battery_level !== null) noteBattery(sensor, entry, value.battery_level);
  sensor.last_communication_time = Math.max(sensor.last_communication_time ?? 0, value.time);
  // a location value places its assets (again after the batch, when it replaced one of the same time);
  // other readings place nothing, and are not walked again after the batch
  if (sensor.type === 'location') delta.sensors.add(sensorId);
  markPersist(delta, 'sensors', sensorId);
  // the assets it feeds as their slots: no set to walk and no lookup per asset (issue 14); a move re-indexes
  // assets, so only then iterate over a copy; the one asset of most sensors without the list
  if (sensor.type === 'location') for (const slot of [...entry.fed]) reach(store, slot, sensor, value, previous, newer, repeat, delta);
  else if (entry.only) reach(store, entry.only, sensor, value, previous, newer, repeat, delta);
  else for (const slot of entry.fed) reach(store, slot, sensor, value, previous, newer, repeat, delta);
}

/** A reading of `sensor` reaches one asset it feeds. */
function reach(
  store: Store, slot: AssetSlot, sensor: Sensor, value: MeasurementValue, previous: MeasurementValue | null, newer: boolean, repeat: boolean,
  delta: StoreDelta,
): void {
  const asset = slot.record;
  if (!asset) return;
  const assetId = slot.id;
  let changed = false;
  if (sensor.type === 'location' && newer) {
    placeAsset(store, asset, value);
    markPersist(delta, 'assets', assetId);
    changed = true;
  }
  // most assets watch nothing: no result object per reading for them, and the record is not even read
  const alert = slot.watching ? clearAlertOnActivity(asset.alert_on_activity, sensor.type, value, previous) : null;
  if (alert?.triggered) {
    asset.alert_on_activity = alert.watched;
    slot.watching = alert.watched.length > 0;
    delta.activity.push({ assetId, sensorType: sensor.type });
    markPersist(delta, 'assets', assetId);
    changed = true;
  }
  // a moved asset or a cleared alert is the asset's own change, and so is any reading of a person's asset
  // (which of their assets places them may change: derived afresh with their other assets); otherwise only
  // its readings changed. Decided here, where the asset is at hand, not by looking each one up again later.
  if (changed || sensor.type === 'location' || slot.person) delta.assets.add(assetId);
  else {
    delta.values.add(assetId);
    // the facts cache sees the version move and re-derives the readings' part on the next get; a repeated
    // occupancy leaves the look count: a fresh desk drawn from the last one looks the same (views/sources.ts)
    slot.version += 1;
    if (!repeat) slot.looks += 1;
  }
}

export function applyHeartbeat(store: Store, data: unknown, delta: StoreDelta, options: Context): void {
  const { logger } = options;
  if (!isRecord(data)) { logger.warn('Ignoring malformed heartbeat', data); return; }
  const wireId = toId(data.sensor_id);
  const entry = wireId ? store.sensors.entry(wireId) : undefined;
  const sensor = entry?.record;
  if (!sensor) { logger.warn(`Ignoring heartbeat for unknown sensor ${String(data.sensor_id)}`); return; }
  const sensorId = entry.id;
  const time = toTime(data.time);
  if (time === null) { logger.warn(`Ignoring heartbeat without a time (sensor ${sensorId})`); return; }
  sensor.last_communication_time = Math.max(sensor.last_communication_time ?? 0, time);
  const battery = toNumOrNull(data.battery_level);
  if (battery !== null) noteBattery(sensor, entry, battery);
  markPersist(delta, 'sensors', sensorId);
  // the devices and monitoring layers show battery and last communication
  if (entry.only) delta.beats.add(entry.only.id);
  else for (const slot of entry.fed) delta.beats.add(slot.id);
}

/**
 * Clean desk (spec §9): the phase counts from when the desk was last left, so
 * it survives the periodic 'free' readings that follow; a new occupancy ends it.
 */
function noteOccupancy(sensor: Sensor, value: MeasurementValue, wasOccupied: boolean): void {
  if (isOccupiedValue(value.value)) sensor.left_at = null;
  else if (wasOccupied) sensor.left_at = value.time;
}

/**
 * The battery level a reading or heartbeat reports: a new status object only when the level changed (most repeat
 * it, and each object kept costs the GC), compared with the level the entry kept while the record still holds
 * the status object it kept it for (sensorMap.ts `seenStatus`).
 */
function noteBattery(sensor: Sensor, entry: SensorEntry, level: number): void {
  const status = sensor.last_status;
  const known = status === entry.seenStatus ? entry.seenBattery : status.battery_level;
  if (level !== known) sensor.last_status = { battery_level: level };
  entry.seenStatus = sensor.last_status;
  entry.seenBattery = level;
}

/** Keeps the last RECENT_VALUES_KEPT values of a sensor, newest first; a repeated time replaces its value. */
function rememberValue(list: MeasurementValue[], value: MeasurementValue, newer: boolean): void {
  if (!newer && list[0]?.time === value.time) { list[0] = value; return; }
  // shifted in place: unshift and a shorter length made the list's storage anew for most readings (issue 14)
  const length = list.length;
  let i = length < RECENT_VALUES_KEPT ? length : RECENT_VALUES_KEPT - 1;
  for (; i > 0; i--) list[i] = list[i - 1]!;
  list[0] = value;
  if (length > RECENT_VALUES_KEPT) list.length = RECENT_VALUES_KEPT;
}
