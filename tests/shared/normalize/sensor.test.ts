import { describe, expect, it } from 'vitest';
import {
  normalizeMeasurementValue, normalizeReservationEvents, normalizeSensor, normalizeSensors,
} from '../../../src/shared/normalize/sensor.js';
import { WARN } from '../../../src/shared/normalize/warnings.js';
import { recordingContext } from '../helpers.js';

const meta = { sensorId: 's1', type: 'occupancy' };

describe('normalizeMeasurementValue', () => {
  it('defaults valid_to to time + valid_for', () => {
    const { ctx } = recordingContext();
    const v = normalizeMeasurementValue({ time: 1000, valid_for: 500, value: 1 }, meta, ctx)!;
    expect(v).toMatchObject({ time: 1000, valid_for: 500, valid_to: 1500, value: 1, events: null, battery_level: null });
  });

  it('defaults valid_to to time without valid_for', () => {
    const { ctx } = recordingContext();
    expect(normalizeMeasurementValue({ time: 1000 }, meta, ctx)!.valid_to).toBe(1000);
  });

  it('keeps a given valid_to and reads ISO times', () => {
    const { ctx } = recordingContext();
    const v = normalizeMeasurementValue({ time: '2024-01-01T00:00:00Z', valid_for: 10, valid_to: '2024-01-01T01:00:00Z' }, meta, ctx)!;
    expect(v.time).toBe(Date.UTC(2024, 0, 1));
    expect(v.valid_to).toBe(Date.UTC(2024, 0, 1, 1));
  });

  it('ignores a value without a time, with a warning', () => {
    const { ctx, messages } = recordingContext();
    expect(normalizeMeasurementValue({ value: 1 }, meta, ctx)).toBeNull();
    expect(messages()).toEqual([WARN.measurementWithoutTime('s1')]);
  });

  it('reads x, y, floor_id, floor and zones of a location value', () => {
    const { ctx } = recordingContext();
    const v = normalizeMeasurementValue({ time: 1, x: 1.5, y: '2', floor_id: 9, floor: 1, zones: [3] }, { sensorId: 't', type: 'location' }, ctx)!;
    expect(v).toMatchObject({ x: 1.5, y: 2, floor_id: '9', floor: 1, zones: ['3'] });
  });

  it('ignores a location value missing building-relative coordinates', () => {
    const { ctx, messages } = recordingContext();
    expect(normalizeMeasurementValue({ time: 1, x: 1, floor_id: 9 }, { sensorId: 't', type: 'location' }, ctx)).toBeNull();
    expect(normalizeMeasurementValue({ time: 1, x: 1, y: null }, { sensorId: 't', type: 'location' }, ctx)).toBeNull();
    expect(messages()).toEqual([WARN.locationWithoutCoordinates('t'), WARN.locationWithoutCoordinates('t')]);
  });

  it('reads the events of a reservation value', () => {
    const { ctx } = recordingContext();
    const v = normalizeMeasurementValue({
      time: 1, events: [{ start: 200, end: 300, subject: 'B', booking_ref: 'b' }, { start: 100, end: 150, subject: 'A', user_id: 4, booking_ref: 'a' }],
    }, { sensorId: 'r', type: 'reservation' }, ctx)!;
    expect(v.events).toEqual([
      { start: 100, end: 150, subject: 'A', user_id: '4', booking_ref: 'a' },
      { start: 200, end: 300, subject: 'B', user_id: null, booking_ref: 'b' },
    ]);
  });
});

describe('normalizeReservationEvents', () => {
  it('discards events without booking_ref with a warning', () => {
    const { ctx, messages } = recordingContext();
    const events = normalizeReservationEvents([
      { start: 1, end: 2, subject: 'kept', booking_ref: 'k' },
      { start: 3, end: 4, subject: 'no ref' },
      { start: 5, end: 6, booking_ref: '' },
    ], 'r', ctx);
    expect(events.map((e) => e.subject)).toEqual(['kept']);
    expect(messages()).toEqual([WARN.reservationWithoutBookingRef('r'), WARN.reservationWithoutBookingRef('r')]);
    expect(messages()[0]).toBe('Discarding reservation event without booking_ref (sensor r)');
  });

  it('discards events with unreadable times with a warning', () => {
    const { ctx, messages } = recordingContext();
    expect(normalizeReservationEvents([{ start: 'soon', end: 2, booking_ref: 'x' }], 'r', ctx)).toEqual([]);
    expect(messages()).toEqual([WARN.reservationMalformed('r')]);
  });
});

describe('normalizeSensor', () => {
  it('reads every field of spec §3', () => {
    const { ctx } = recordingContext();
    const s = normalizeSensor({
      id: 5, uuid: 'u', legacy_id: 'L5', type: 'location', subtype: 'manual', value: 1, prev_value: 0,
      daily_delta_value: 3, day_start_value: 10, last_measurement: { time: 10, valid_for: 5, x: 1, y: 2 },
      previous_measurement: { time: 5, x: 0, y: 0 }, last_communication_time: 11,
      last_status: { battery_level: 80 }, virtual_sensor_id: 9, vendor_id: 'v',
    }, ctx)!;
    expect(s).toMatchObject({
      id: '5', uuid: 'u', legacy_id: 'L5', type: 'location', subtype: 'manual', value: 1, prev_value: 0,
      daily_delta_value: 3, day_start_value: 10, last_communication_time: 11, last_status: { battery_level: 80 },
      virtual_sensor_id: '9', vendor_id: 'v',
    });
    expect(s.last_measurement).toMatchObject({ time: 10, valid_to: 15, x: 1, y: 2 });
    expect(s.previous_measurement).toMatchObject({ time: 5, valid_to: 5 });
  });

  it('leaves missing measurements null without warnings', () => {
    const { ctx, warn } = recordingContext();
    const s = normalizeSensor({ id: 1, type: 'co2' }, ctx)!;
    expect(s.last_measurement).toBeNull();
    expect(s.last_status).toEqual({ battery_level: null });
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('normalizeSensors', () => {
  it('warns on duplicate ids', () => {
    const { ctx, messages } = recordingContext();
    expect(normalizeSensors([{ id: 1 }, { id: 1 }], ctx)).toHaveLength(1);
    expect(messages()).toEqual([WARN.duplicateId('sensor', '1')]);
  });
});
