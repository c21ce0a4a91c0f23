// Every aggregation at its edges (issue 13 §5): working-hour boundaries to
// the minute, DST days that fall on working days, a reading that spans
// midnight, validity ends (valid_to before valid_for, no validity at all),
// empty periods, and rooms with bookings but no occupancy sensor.

import { describe, expect, it } from 'vitest';
import { calendarDay, wallToEpoch } from '../../../src/shared/reports/calendar.js';
import { createDeskAggregator } from '../../../src/shared/reports/deskReport.js';
import { createEnvironmentAggregator } from '../../../src/shared/reports/environmentReport.js';
import { createLocationAggregator } from '../../../src/shared/reports/locationReport.js';
import { createRoomAggregator } from '../../../src/shared/reports/roomReport.js';
import type { DeskRow, EnvironmentRow, LocationRow, RoomRow } from '../../../src/shared/reports/types.js';
import { H, M, at, context, feed } from './helpers.js';

const WED = '2025-03-12';
const TUE = '2025-03-11';
const desks = [
  { id: 'd1', name: 'Desk 1', floorId: 'f1', sensorId: 's1' },
  { id: 'd2', name: 'Desk 2', floorId: 'f1', sensorId: 's2' },
];
const rooms = [
  { id: 'r1', name: 'Room 1', floorId: 'f1', occupancySensorId: 'o1', reservationSensorId: 'res1' },
  { id: 'r2', name: 'Room 2', floorId: 'f1', occupancySensorId: null, reservationSensorId: 'res2' },
];
const ev = (ref: string, start: number, end: number) => ({ start, end, subject: ref, user_id: 'u', booking_ref: ref });

function desk(from: string, to: string, rows: unknown[][], extra: Parameters<typeof context>[2] = {}, columns?: readonly string[]) {
  const ctx = context(from, to, extra);
  const agg = createDeskAggregator(ctx, desks);
  feed(agg, ctx, 'occupancy', rows, columns);
  const result = agg.result();
  return { ...result, row: (id: string) => result.rows.find((r) => r.id === id) as DeskRow };
}

function room(from: string, to: string, occupancy: unknown[][], reservations: unknown[][] = [], extra: Parameters<typeof context>[2] = {}) {
  const ctx = context(from, to, extra);
  const agg = createRoomAggregator(ctx, rooms);
  feed(agg, ctx, 'reservation', reservations);
  feed(agg, ctx, 'occupancy', occupancy);
  const result = agg.result();
  return { ...result, row: (id: string) => result.rows.find((r) => r.id === id) as RoomRow };
}

describe('working-hour boundaries', () => {
  it('counts a desk from 07:00 sharp to 18:00 sharp, and nothing of the minutes on either side', () => {
    const { row } = desk(WED, WED, [
      // 06:30–07:30: only the half hour after 07:00; 17:30–18:30: only the half hour before 18:00
      [at(WED, 6, 30), 's1', 1 * H, 1, 90], [at(WED, 7, 30), 's1', 10 * H, 0, 90],
      [at(WED, 17, 30), 's1', 1 * H, 1, 90],
      // occupied 06:00–07:00 and from 18:00 on: outside, though the sensor spoke in working hours
      [at(WED, 6), 's2', 1 * H, 1, 90], [at(WED, 7), 's2', 11 * H, 0, 90], [at(WED, 18), 's2', 3 * H, 1, 90],
    ]);
    expect(row('d1').occupiedHours).toBe(1);
    expect(row('d1').utilisation).toBe(Math.round((1 / 11) * 1e4) / 1e4);
    expect(row('d2').occupiedHours).toBe(0);
    expect(row('d2').utilisation).toBe(0);
    expect(row('d2').class).toBe('unused');
  });

  it('answers no data for a desk whose sensor spoke only outside working hours', () => {
    const { row } = desk(WED, WED, [[at(WED, 5), 's1', 2 * H, 1, 90], [at(WED, 19), 's1', 2 * H, 1, 90]]);
    expect(row('d1').utilisation).toBeNull();
    expect(row('d1').class).toBe('no_data');
    expect(row('d1').occupiedHours).toBe(0);
  });

  it('takes other working hours from the configuration', () => {
    // 09:00–17:00 is an 8-hour day: a desk used 09:00–13:00 is used half of it
    const { row } = desk(WED, WED, [[at(WED, 8), 's1', 5 * H, 1, 90]], { hourStart: 9, hourEnd: 17 });
    expect(row('d1').utilisation).toBe(0.5);
    expect(row('d1').class).toBe('in_use');
  });
});

describe('DST days on working days', () => {
  // Cairo moves its clocks on a Friday (2025-04-25, 00:00 → 01:00) and on a
  // Thursday night (2025-10-30, 24:00 → 23:00): working days of 23 and 25 hours
  const CAIRO = 'Africa/Cairo';
  const wall = (key: string, hour: number) => wallToEpoch(calendarDay(key, CAIRO), hour);

  it('keeps 11 working hours on a 23-hour and a 25-hour working day', () => {
    expect((calendarDay('2025-04-25', CAIRO).end - calendarDay('2025-04-25', CAIRO).start) / H).toBe(23);
    expect((calendarDay('2025-10-30', CAIRO).end - calendarDay('2025-10-30', CAIRO).start) / H).toBe(25);
    for (const day of ['2025-04-25', '2025-10-30']) {
      // occupied the whole local day: the working window is 11 h, not 10 or 12
      const { row } = desk(day, day, [[calendarDay(day, CAIRO).start, 's1', 25 * H, 1, 90]], { timeZone: CAIRO });
      expect(row('d1').occupiedHours).toBe(11);
      expect(row('d1').utilisation).toBe(1);
      // and 07:00–12:30 local is 5.5 h on either
      const half = desk(day, day, [[wall(day, 7), 's1', 5.5 * H, 1, 90]], { timeZone: CAIRO });
      expect(half.row('d1').occupiedHours).toBe(5.5);
      expect(half.row('d1').utilisation).toBe(0.5);
    }
  });

  it('counts all 25 hours of use of a room on the long day, and 23 on the short one', () => {
    const long = room('2025-10-30', '2025-10-30', [[calendarDay('2025-10-30', CAIRO).start, 'o1', 30 * H, 1, 90]], [], { timeZone: CAIRO });
    expect(long.row('r1').usedHours).toBe(25);
    const short = room('2025-04-25', '2025-04-25', [[calendarDay('2025-04-25', CAIRO).start, 'o1', 30 * H, 1, 90]], [], { timeZone: CAIRO });
    expect(short.row('r1').usedHours).toBe(23);
  });

  it('puts the people of the short day into the right local hour', () => {
    const ctx = context('2025-04-25', '2025-04-25', { timeZone: CAIRO });
    const agg = createLocationAggregator(ctx, [{ id: 'f1', name: 'Floor 1', buildingId: 'b', buildingName: 'A', occupancySensorIds: [] }], ['p1']);
    feed(agg, ctx, 'location', [[wall('2025-04-25', 10), 'p1', 1 * H, null, 90, 1, 1, 'f1', []]]);
    feed(agg, ctx, 'occupancy', []);
    const f1 = agg.result().rows[0] as LocationRow;
    expect(f1.peakPeople).toBe(1);
    expect(f1.peakHour).toBe(10);
  });
});

describe('a reading that spans midnight', () => {
  it('counts a room occupied from 22:00 to 02:00 in both days, and only its own part when the period is the second day', () => {
    const occupancy = [[at(TUE, 22), 'o1', 4 * H, 1, 90], [at(WED, 2), 'o1', 10 * H, 0, 90]];
    expect(room(TUE, WED, occupancy).row('r1').usedHours).toBe(4);
    expect(room(WED, WED, occupancy).row('r1').usedHours).toBe(2);
    expect(room(TUE, TUE, occupancy).row('r1').usedHours).toBe(2);
  });

  it('carries the air of the evening into the next morning\'s working hours', () => {
    const ctx = context(WED, WED);
    const agg = createEnvironmentAggregator(ctx, [{ sensorId: 'c1', type: 'co2', groupId: 'r1', groupName: 'Room 1', groupKind: 'room', floorId: 'f1' }]);
    // 1200 ppm from Tuesday 16:00 for 17 hours: Wednesday 07:00–09:00 is inside the working hours and outside the band
    feed(agg, ctx, 'co2', [[at(TUE, 16), 'c1', 17 * H, 1200, 90], [at(WED, 9), 'c1', 2 * H, 600, 90]]);
    const row = agg.result().rows[0] as EnvironmentRow;
    expect(row.coveredHours).toBe(4);
    expect(row.outsideHours).toBe(2);
    expect(row.outsideShare).toBe(0.5);
    expect(row.max).toBe(1200);
  });

  it('keeps a booking that crosses midnight once, with its whole booked time', () => {
    const late = ev('late', at(TUE, 22), at(WED, 1));
    const { row } = room(TUE, WED, [[at(TUE, 22), 'o1', 3 * H, 1, 90]], [[at(TUE, 8), 'res1', 48 * H, null, 90, [late]]], { now: at(WED, 12) });
    expect(row('r1').bookings).toBe(1);
    expect(row('r1').bookedHours).toBe(3);
    expect(row('r1').items[0]).toMatchObject({ ref: 'late', class: 'completed_as_planned', used: true });
    expect(row('r1').unbookedUseHours).toBe(0);
  });
});

describe('validity', () => {
  const WITH_VALID_TO = ['time', 'sensor_id', 'valid_for', 'value', 'battery_level', 'valid_to'];

  it('ends a reading at its valid_to when that comes before time + valid_for', () => {
    const { row } = desk(WED, WED, [[at(WED, 9), 's1', 4 * H, 1, 90, at(WED, 10)]], {}, WITH_VALID_TO);
    expect(row('d1').occupiedHours).toBe(1);
  });

  it('ends it at time + valid_for when valid_to is missing, and gives a reading without validity no duration', () => {
    const { row } = desk(WED, WED, [
      [at(WED, 9), 's1', 2 * H, 1, 90, null],
      [at(WED, 12), 's2', null, 1, 90, null],
    ], {}, WITH_VALID_TO);
    expect(row('d1').occupiedHours).toBe(2);
    expect(row('d2').occupiedHours).toBe(0);
  });

  it('leaves the time after a reading\'s validity as no data, not as the last value', () => {
    // occupied 09:00 valid 1 h, then silence: 10:00–18:00 is neither occupied nor covered
    const { row } = desk(WED, WED, [[at(WED, 9), 's1', 1 * H, 1, 90]]);
    expect(row('d1').occupiedHours).toBe(1);
    expect(row('d1').utilisation).toBe(Math.round((1 / 11) * 1e4) / 1e4);
    const env = createEnvironmentAggregator(context(WED, WED), [{ sensorId: 'c1', type: 'co2', groupId: 'r1', groupName: 'Room 1', groupKind: 'room', floorId: 'f1' }]);
    feed(env, context(WED, WED), 'co2', [[at(WED, 9), 'c1', 30 * M, 900, 90]]);
    expect((env.result().rows[0] as EnvironmentRow).coveredHours).toBe(0.5);
  });
});

describe('empty periods', () => {
  it('gives rooms no bookings and no busiest hour', () => {
    const { rows, summary } = room(WED, WED, []);
    expect(rows).toHaveLength(2);
    for (const r of rows as RoomRow[]) {
      expect(r.bookings).toBe(0);
      expect(r.busiestHour).toBeNull();
      expect(r.noShowRate).toBeNull();
      expect(r.items).toEqual([]);
    }
    expect(summary.counts.no_show).toBe(0);
  });

  it('gives floors no peak day or hour and no occupancy share', () => {
    const ctx = context(WED, WED);
    const agg = createLocationAggregator(ctx, [{ id: 'f1', name: 'Floor 1', buildingId: 'b', buildingName: 'A', occupancySensorIds: ['o1'] }], ['p1']);
    feed(agg, ctx, 'location', []);
    feed(agg, ctx, 'occupancy', []);
    const f1 = agg.result().rows[0] as LocationRow;
    expect(f1.peakPeople).toBe(0);
    expect(f1.peakDay).toBeNull();
    expect(f1.peakHour).toBeNull();
    expect(agg.result().summary.highlights).toEqual([{ label: 'Peak day', value: '—' }, { label: 'Peak hour', value: '—' }]);
  });

  it('gives a weekend-only period no working time: every desk has no data', () => {
    const { rows } = desk('2025-03-15', '2025-03-16', [[at('2025-03-15', 9), 's1', 3 * H, 1, 90]]);
    expect((rows as DeskRow[]).map((r) => r.class)).toEqual(['no_data', 'no_data']);
  });
});

describe('a room with bookings but no occupancy sensor', () => {
  it('classes its bookings, counts its booked hours, and guesses no use, no no-show and no busiest hour', () => {
    const planned = ev('p', at(WED, 10), at(WED, 11));
    const gone = ev('g', at(WED, 14), at(WED, 15));
    const { row } = room(WED, WED, [], [
      [at(WED, 8), 'res2', 24 * H, null, 90, [planned, gone]],
      [at(WED, 9), 'res2', 24 * H, null, 90, [planned]],
    ], { now: at(WED, 20) });
    const r2 = row('r2');
    expect(r2.bookings).toBe(2);
    expect(r2.classes).toMatchObject({ completed_as_planned: 1, removed: 1 });
    expect(r2.bookedHours).toBe(1);
    expect([r2.usedHours, r2.usedWhileBookedHours, r2.unbookedUseHours, r2.noShows, r2.noShowRate]).toEqual([null, null, null, null, null]);
    expect(r2.busiestHour).toBeNull();
    expect(r2.items.map((i) => i.used)).toEqual([null, null]);
  });
});
