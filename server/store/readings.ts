// Readings and heartbeats: each is kept in its sensor's history (bounded),
// updates the sensor, and goes out per location in one batch, to the public
// only when neither the sensor nor the place it reports is hidden. A tag's
// reading also moves its wearer (docs/server.md "A user's location").

import type { LiveChange } from '../../src/shared/protocol.js';
import type { WireLocationTag, WireMeasurementValue, WireSensor } from '../../src/shared/rest.js';
import type { Id } from '../../src/shared/types.js';
import type { Store } from './store.js';
import type { StoreContext } from './storeContext.js';
import { isPositionHidden, isSensorHidden, namesGoneZone, publicReading, type Hidden } from './visibility.js';

/** Rows kept per sensor; older ones are dropped so a long simulation stays bounded. */
export const HISTORY_MAX_ROWS = 5_000;
/** A user's location follows their tag's readings at most this often while they stay on one floor, ms. */
export const USER_LOCATION_REFRESH_MS = 5 * 60_000;

type Readings = Pick<Store, 'addMeasurement' | 'addMeasurements' | 'heartbeat'>;

export function createReadings(ctx: StoreContext): Readings {
  const { s, index, publisher, mustGet, locationScope, store } = ctx;

  function recordMeasurement(sensor: WireSensor, value: WireMeasurementValue): LiveChange {
    const rows = s.history.get(sensor.id) ?? [];
    if (!s.history.has(sensor.id)) s.history.set(sensor.id, rows);
    // keep ascending order even if an ingest arrives late
    let i = rows.length;
    while (i > 0 && rows[i - 1]!.time > value.time) i -= 1;
    rows.splice(i, 0, value);
    if (rows.length > HISTORY_MAX_ROWS) rows.splice(0, rows.length - HISTORY_MAX_ROWS);
    if (!sensor.last_measurement || value.time >= sensor.last_measurement.time) {
      sensor.previous_measurement = sensor.last_measurement;
      sensor.last_measurement = value;
      sensor.prev_value = sensor.value;
      sensor.value = value.value ?? (value.events ? value.events : null);
      sensor.last_communication_time = Math.max(sensor.last_communication_time ?? 0, value.time);
      if (value.battery_level !== undefined && value.battery_level !== null) sensor.last_status = { battery_level: value.battery_level };
    }
    return { collection: 'measurements', kind: 'created', id: sensor.id, data: { sensor_id: sensor.id, type: sensor.type, value } };
  }

  /**
   * A tag's reading places its wearer: the user's `location` (spec §3: location_id, floor_id, time)
   * follows it, so every client of the organization knows at which location they are, though each
   * loads one location's tags (docs/server.md "A user's location"). Written when the location or
   * floor changes, else at most every USER_LOCATION_REFRESH_MS, so the organization's stream does
   * not carry every reading again; hidden floors are left out of the shared version (publicUser), and
   * a reading in a privacy zone clears it.
   */
  function followTags(readings: Array<{ sensor: WireSensor; value: WireMeasurementValue }>) {
    const tagOf = new Map<Id, WireLocationTag>();
    for (const tag of s.locationTags.values()) if (tag.user_id) tagOf.set(tag.sensor_id, tag);
    for (const { sensor, value } of readings) {
      const tag = tagOf.get(sensor.id);
      const user = tag?.user_id ? s.users.get(tag.user_id) : undefined;
      if (!user || user.location_tag_id !== tag!.id) continue;
      const at = user.location;
      // in a privacy zone nobody is told where they are, not even the location (the client hides their position too)
      if ((value.zones ?? []).some((z) => s.assets.get(z)?.subtype === 'privacy')) {
        if (at) store.updateUser(user.id, { location: null });
        continue;
      }
      if (at && value.time < at.time) continue;
      const moved = !at || at.location_id !== sensor.location_id || at.floor_id !== value.floor_id;
      if (!moved && value.time - at.time < USER_LOCATION_REFRESH_MS) continue;
      store.updateUser(user.id, { location: { location_id: sensor.location_id, floor_id: value.floor_id!, time: value.time } });
    }
  }

  return {
    addMeasurement(sensorId, value) {
      store.addMeasurements([{ sensorId, value }]);
    },
    addMeasurements(items) {
      let placed: Array<{ sensor: WireSensor; value: WireMeasurementValue }> | undefined;
      const byLocation = new Map<Id, { all: LiveChange[]; shown: LiveChange[]; hidden: Hidden }>();
      for (const { sensorId, value } of items) {
        const sensor = mustGet(s.sensors, sensorId, 'sensor');
        let batch = byLocation.get(sensor.location_id);
        if (!batch) {
          batch = { all: [], shown: [], hidden: index.hidden(sensor.location_id) };
          byLocation.set(sensor.location_id, batch);
        }
        const change = recordMeasurement(sensor, value);
        batch.all.push(change);
        // readings of a sensor serving a hidden asset, or placing a tag on a hidden floor, go to the edit stream only
        if (!isSensorHidden(sensor, batch.hidden) && !isPositionHidden(value, batch.hidden)) {
          // a zone deleted while hidden is not named to the public, even by a tag still reporting it
          batch.shown.push(namesGoneZone(value.zones, batch.hidden) ? { ...change, data: { sensor_id: sensor.id, type: sensor.type, value: publicReading(value, batch.hidden) } } : change);
        }
        if (sensor.type === 'location' && value.floor_id) (placed ??= []).push({ sensor, value });
      }
      for (const [locId, batch] of byLocation) publisher.publishAudiences(locationScope(locId), batch.shown, batch.all);
      if (placed) followTags(placed);
    },
    heartbeat(sensorId, time, batteryLevel) {
      const sensor = mustGet(s.sensors, sensorId, 'sensor');
      sensor.last_communication_time = Math.max(sensor.last_communication_time ?? 0, time);
      if (batteryLevel !== null) sensor.last_status = { battery_level: batteryLevel };
      const change: LiveChange[] = [{
        collection: 'heartbeats', kind: 'created', id: sensorId, data: { sensor_id: sensorId, time, battery_level: batteryLevel },
      }];
      publisher.publishAudiences(locationScope(sensor.location_id), isSensorHidden(sensor, index.hidden(sensor.location_id)) ? [] : change, change);
    },
  };
}
