// Sensors, measurement values and reservation events (spec §3, §5). A value's
// valid_to defaults to time + valid_for, or time; reservation events without
// booking_ref and location values without coordinates are dropped.

import type { Id, MeasurementValue, ReservationEvent, Sensor } from '../types.js';
import { identifiedRecord, normalizeList } from './list.js';
import {
  isRecord, toId, toIdList, toIntOrNull, toNumOrNull, toStr, toStrOrNull, toTime,
  type NormalizeContext,
} from './primitives.js';
import { WARN } from './warnings.js';

import { LOCATION_SENSOR_TYPE, RESERVATION_SENSOR_TYPE } from '../kinds.js';
import { isOccupiedValue } from '../rules/roomStatus.js';

export { LOCATION_SENSOR_TYPE, RESERVATION_SENSOR_TYPE };

export interface MeasurementMeta {
  /** for warnings */
  sensorId: Id;
  /** the sensor's type: 'location' values need coordinates, 'reservation' values carry events */
  type: string;
}

/** Normalizes the events of a reservation value, sorted by start. */
export function normalizeReservationEvents(raw: unknown, sensorId: Id, ctx: NormalizeContext): ReservationEvent[] {
  if (!Array.isArray(raw)) return [];
  const out: ReservationEvent[] = [];
  for (const item of raw) {
    if (!isRecord(item)) {
      ctx.logger.warn(WARN.notAnObject('reservation event'), item);
      continue;
    }
    const bookingRef = toStrOrNull(item.booking_ref);
    if (!bookingRef) {
      ctx.logger.warn(WARN.reservationWithoutBookingRef(sensorId), item);
      continue;
    }
    const start = toTime(item.start);
    const end = toTime(item.end);
    if (start === null || end === null) {
      ctx.logger.warn(WARN.reservationMalformed(sensorId), item);
      continue;
    }
    out.push({
      start,
      end,
      subject: toStr(item.subject),
      user_id: toId(item.user_id),
      booking_ref: bookingRef,
    });
  }
  return out.sort((a, b) => a.start - b.start || a.end - b.end);
}

/**
 * One measurement value. Returns null (with a warning) when it has no time, or
 * when a location value lacks its building-relative x/y: such values are
 * ignored rather than moving anyone to 0,0.
 */
export function normalizeMeasurementValue(raw: unknown, meta: MeasurementMeta, ctx: NormalizeContext): MeasurementValue | null {
  if (!isRecord(raw)) {
    ctx.logger.warn(WARN.notAnObject('measurement value'), raw);
    return null;
  }
  const time = toTime(raw.time);
  if (time === null) {
    ctx.logger.warn(WARN.measurementWithoutTime(meta.sensorId), raw);
    return null;
  }
  const validFor = toNumOrNull(raw.valid_for);
  const validTo = toTime(raw.valid_to) ?? (validFor !== null ? time + validFor : time);
  const value: MeasurementValue = {
    time,
    valid_for: validFor,
    valid_to: validTo,
    battery_level: toNumOrNull(raw.battery_level),
    events: meta.type === RESERVATION_SENSOR_TYPE || Array.isArray(raw.events)
      ? normalizeReservationEvents(raw.events, meta.sensorId, ctx)
      : null,
    value: raw.value ?? null,
  };
  if (meta.type === LOCATION_SENSOR_TYPE) {
    const x = toNumOrNull(raw.x);
    const y = toNumOrNull(raw.y);
    if (x === null || y === null) {
      ctx.logger.warn(WARN.locationWithoutCoordinates(meta.sensorId), raw);
      return null;
    }
    value.x = x;
    value.y = y;
    const floorId = toId(raw.floor_id);
    if (floorId !== null) value.floor_id = floorId;
    const floor = toIntOrNull(raw.floor);
    if (floor !== null) value.floor = floor;
    if (Array.isArray(raw.zones)) value.zones = toIdList(raw.zones);
  }
  return value;
}

export function normalizeSensor(raw: unknown, ctx: NormalizeContext): Sensor | null {
  const got = identifiedRecord(raw, 'sensor', ctx);
  if (!got) return null;
  const { r, id } = got;
  const type = toStr(r.type, 'generic');
  const meta = { sensorId: id, type };
  const measurement = (v: unknown) => (v === undefined || v === null ? null : normalizeMeasurementValue(v, meta, ctx));
  const status = isRecord(r.last_status) ? r.last_status : {};
  const sensor: Sensor = {
    id,
    uuid: toStr(r.uuid),
    legacy_id: toStrOrNull(r.legacy_id),
    type,
    subtype: toStrOrNull(r.subtype),
    asset_id: toId(r.asset_id),
    value: r.value ?? null,
    prev_value: r.prev_value ?? null,
    daily_delta_value: toNumOrNull(r.daily_delta_value),
    day_start_value: toNumOrNull(r.day_start_value),
    last_measurement: measurement(r.last_measurement),
    previous_measurement: measurement(r.previous_measurement),
    last_communication_time: toTime(r.last_communication_time),
    last_status: { battery_level: toNumOrNull(status.battery_level) },
    virtual_sensor_id: toId(r.virtual_sensor_id),
    vendor_id: toStrOrNull(r.vendor_id),
  };
  if (r.local === true) sensor.local = true;
  const leftAt = toTime(r.left_at) ?? leftAtOf(sensor.last_measurement, sensor.previous_measurement);
  if (leftAt !== null) sensor.left_at = leftAt;
  return sensor;
}

/** When a reading pair shows the occupied → free transition: the free reading's time; else null. */
export function leftAtOf(last: MeasurementValue | null, previous: MeasurementValue | null): number | null {
  return last && previous && !isOccupiedValue(last.value) && isOccupiedValue(previous.value) ? last.time : null;
}

/** Normalizes a listing; duplicate ids warn and the later copy wins. */
export function normalizeSensors(raw: unknown, ctx: NormalizeContext): Sensor[] {
  return normalizeList(raw, 'sensor', ctx, normalizeSensor);
}
