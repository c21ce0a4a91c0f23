import { describe, expect, it } from 'vitest';
import { createEnvironmentAggregator } from '../../../src/shared/reports/environmentReport.js';
import { createLocationAggregator } from '../../../src/shared/reports/locationReport.js';
import { mergePages, readPage } from '../../../src/shared/reports/readings.js';
import { createRoomAggregator } from '../../../src/shared/reports/roomReport.js';
import { emptySkipped, type EnvironmentRow, type LocationRow, type RoomRow } from '../../../src/shared/reports/types.js';
import { H, M, at, context, feed } from './helpers.js';

const D = '2025-03-12';
const ev = (ref: string, start: number, end: number) => ({ start, end, subject: ref, user_id: 'u', booking_ref: ref });

describe('readPage', () => {
  it('skips and counts rows of unknown sensors, wrong column counts, non-numeric values and times out of order', () => {
    const check = { known: new Set(['1', '2']), numeric: true, lastTime: -Infinity, skipped: emptySkipped() };
    const columns = ['time', 'sensor_id', 'valid_for', 'value', 'battery_level'];
    const page = readPage(columns, [
      [100, '1', 10, 1, 50], [110, '9', 10, 1, 50], [120, '1', 10], [130, '2', 10, 'on', 50],
      [140, '2', 10, null, 50], [90, '1', 10, 0, 50], [150, 2, null, 0, 50],
    ], check);
    expect(page.n).toBe(2);
    expect(Array.from(page.time)).toEqual([100, 150]);
    expect(check.skipped).toEqual({ unknownSensor: 1, columnCount: 1, nonNumeric: 2, outOfOrder: 1 });
  });

  it('ends validity at valid_to, else time + valid_for, else at the time itself', () => {
    const check = { known: new Set(['1']), numeric: false, lastTime: -Infinity, skipped: emptySkipped() };
    const page = readPage(['time', 'sensor_id', 'valid_for', 'value', 'valid_to'], [[1, '1', 10, 0, 5], [2, '1', 10, 0, null], [3, '1', null, 0, null]], check);
    expect(Array.from(page.validTo)).toEqual([5, 12, 3]);
  });

  it('keeps battery levels only when asked (a replay shows them), through a merge of pages', () => {
    const columns = ['time', 'sensor_id', 'valid_for', 'value', 'battery_level'];
    const rows = [[1, '1', 10, 0, 80], [2, '1', 10, 1, null]];
    const check = () => ({ known: new Set(['1']), numeric: true, lastTime: -Infinity, skipped: emptySkipped() });
    expect(readPage(columns, rows, check()).battery).toBeUndefined();
    const kept = readPage(columns, rows, { ...check(), battery: true });
    expect(Array.from(kept.battery!)).toEqual([80, NaN]);
    const without = readPage(columns.slice(0, 4), [[3, '1', 10, 0]], { ...check(), battery: true });
    expect(Array.from(without.battery!)).toEqual([NaN]);
    expect(Array.from(mergePages([kept, without]).battery!)).toEqual([80, NaN, NaN]);
  });
});

describe('room report', () => {
  const rooms = [
    { id: 'r1', name: 'Room 1', floorId: 'f1', occupancySensorId: 'o1', reservationSensorId: 'res1' },
    { id: 'r2', name: 'Room 2', floorId: 'f1', occupancySensorId: null, reservationSensorId: 'res2' },
  ];
  const a = ev('a', at(D, 9), at(D, 10));
  const b = ev('b', at(D, 11), at(D, 12));
  const c = ev('c', at(D, 14), at(D, 15));
  const removed = ev('x', at(D, 16), at(D, 17));
  const reservations = [
    [at(D, 0, 5), 'res1', 24 * H, null, 90, [a, b, c, removed]],
    [at(D, 9, 40), 'res1', 24 * H, null, 90, [{ ...a, end: at(D, 9, 40) }, b, c, removed]],
    [at(D, 13), 'res1', 24 * H, null, 90, [b, c]],
    [at(D, 14, 50), 'res1', 24 * H, null, 90, [{ ...c, end: at(D, 15, 30) }]],
    [at(D, 0, 5), 'res2', 24 * H, null, 90, [ev('n', at(D, 10), at(D, 11))]],
  ];
  const occupancy = [
    [at(D, 9), 'o1', 40 * M, 1, 90], [at(D, 9, 40), 'o1', 4 * H, 0, 90],
    [at(D, 14), 'o1', 90 * M, 1, 90], [at(D, 15, 30), 'o1', 2 * H, 0, 90],
    [at(D, 17, 30), 'o1', 30 * M, 1, 90], [at(D, 18), 'o1', 6 * H, 0, 90],
  ];
  const ctx = context(D, D);
  const agg = createRoomAggregator(ctx, rooms);
  feed(agg, ctx, 'reservation', reservations);
  feed(agg, ctx, 'occupancy', occupancy);
  const { rows, summary } = agg.result();
  const r1 = rows.find((r) => r.id === 'r1') as RoomRow;
  const r2 = rows.find((r) => r.id === 'r2') as RoomRow;

  it('classes every booking by its history and counts a booked room never used as a no-show', () => {
    expect(r1.classes).toMatchObject({ ended_early: 1, completed_as_planned: 1, extended: 1, removed: 1 });
    expect(r1.items.find((i) => i.ref === 'b')).toMatchObject({ class: 'completed_as_planned', used: false });
    expect(r1.items.find((i) => i.ref === 'a')).toMatchObject({ class: 'ended_early', used: true });
    expect(r1.noShows).toBe(1);
    expect(r1.noShowRate).toBeCloseTo(1 / 3, 4);
    expect(summary.counts.no_show).toBe(1);
  });

  it('compares booked hours with hours in use and finds use without a booking', () => {
    // booked: 40 min + 60 min + 90 min; in use: 40 + 90 + 30 (unbooked) minutes
    expect(r1.bookedHours).toBeCloseTo(190 / 60, 1);
    expect(r1.usedHours).toBeCloseTo(160 / 60, 1);
    expect(r1.unbookedUseHours).toBe(0.5);
    expect(r1.busiestHour).toBe(14);
  });

  it('lists a room with bookings but no occupancy sensor without guessing its use', () => {
    expect(r2.bookings).toBe(1);
    expect(r2.hasOccupancySensor).toBe(false);
    expect(r2.usedHours).toBeNull();
    expect(r2.noShows).toBeNull();
    expect(r2.items[0]!.used).toBeNull();
  });
});

describe('environment report', () => {
  it('weights the mean by time, keeps min and max, and measures the time outside the comfort band in working hours', () => {
    const ctx = context(D, D);
    const agg = createEnvironmentAggregator(ctx, [
      { sensorId: 'c1', type: 'co2', groupId: 'r1', groupName: 'Room 1', groupKind: 'room', floorId: 'f1' },
      { sensorId: 'c2', type: 'co2', groupId: 'r2', groupName: 'Room 2', groupKind: 'room', floorId: 'f1' },
    ]);
    feed(agg, ctx, 'co2', [
      [at(D, 5), 'c1', 3 * H, 2000, 90], // before working hours: only 07:00–08:00 counts
      [at(D, 8), 'c1', 3 * H, 600, 90],
      [at(D, 11), 'c1', 1 * H, 1000, 90],
      [at(D, 9), 'c2', 1 * H, 500, 90],
    ]);
    const rows = agg.result().rows as EnvironmentRow[];
    const room1 = rows.find((r) => r.groupId === 'r1')!;
    expect(room1.coveredHours).toBe(5);
    expect(room1.outsideHours).toBe(2);
    expect(room1.mean).toBeCloseTo((2000 + 600 * 3 + 1000) / 5, 1);
    expect([room1.min, room1.max]).toEqual([600, 2000]);
    expect(rows[0]!.groupId).toBe('r1'); // worst first
    expect(rows.find((r) => r.groupId === 'r2')!.outsideShare).toBe(0);
  });

  it('names each sensor type as the map\'s layers and legends do (CO₂, Temperature), never by its id', () => {
    const ctx = context(D, D);
    const agg = createEnvironmentAggregator(ctx, [
      { sensorId: 'c1', type: 'co2', groupId: 'r1', groupName: 'Room 1', groupKind: 'room', floorId: 'f1' },
      { sensorId: 't1', type: 'temperature', groupId: 'r1', groupName: 'Room 1', groupKind: 'room', floorId: 'f1' },
    ]);
    feed(agg, ctx, 'co2', [[at(D, 8), 'c1', 2 * H, 1000, 90]]);
    feed(agg, ctx, 'temperature', [[at(D, 8), 't1', 2 * H, 25, 90]]);
    const { rows, summary } = agg.result();
    // the rows keep the type's id, for the map's marks and the sorting
    expect((rows as EnvironmentRow[]).map((r) => r.type)).toEqual(['co2', 'temperature']);
    expect(summary.totals.map((t) => t.label)).toEqual(['CO₂ outside 0–800 ppm', 'Temperature outside 20–23 °C']);
    expect(summary.highlights.map((h) => h.label)).toEqual(['Worst CO₂: Room 1', 'Worst Temperature: Room 1']);
    expect(summary.series.map((s) => s.label)).toEqual(['CO₂ (ppm)', 'Temperature (°C)']);
  });

  it('gives a worst room its floor when another floor has a room of that name, whether or not that one is among the worst', () => {
    const ctx = context(D, D);
    const agg = createEnvironmentAggregator(ctx, [
      { sensorId: 'a', type: 'co2', groupId: 'ra', groupName: 'F0-R1', groupKind: 'room', floorId: 'fa0' },
      { sensorId: 'b', type: 'co2', groupId: 'rb', groupName: 'F0-R1', groupKind: 'room', floorId: 'fb0' },
      { sensorId: 'c', type: 'co2', groupId: 'rc', groupName: 'F0-R2', groupKind: 'room', floorId: 'fa0' },
    ]);
    // building A's F0-R1 and F0-R2 are stuffy; building B's F0-R1 never is, so only one F0-R1 is among the worst
    feed(agg, ctx, 'co2', [[at(D, 8), 'a', 2 * H, 1000, 90], [at(D, 8), 'b', 2 * H, 500, 90], [at(D, 8), 'c', 2 * H, 900, 90]]);
    const { summary } = agg.result();
    expect(summary.highlights.map((h) => [h.label, h.floorId ?? null])).toEqual([['Worst CO₂: F0-R1', 'fa0'], ['Worst CO₂: F0-R2', null]]);
  });

  it('has no rows for an empty period', () => {
    const ctx = context(D, D);
    const agg = createEnvironmentAggregator(ctx, [{ sensorId: 'c1', type: 'co2', groupId: 'r1', groupName: 'Room 1', groupKind: 'room', floorId: 'f1' }]);
    feed(agg, ctx, 'co2', []);
    expect(agg.result().rows).toEqual([]);
  });
});

describe('location report', () => {
  it('counts people present per floor from the floor of each reading, and occupied desks', () => {
    const ctx = context(D, D);
    const agg = createLocationAggregator(ctx, [
      { id: 'f1', name: 'Floor 1', buildingId: 'b', buildingName: 'A', occupancySensorIds: ['o1', 'o2'] },
      { id: 'f2', name: 'Floor 2', buildingId: 'b', buildingName: 'A', occupancySensorIds: [] },
    ], ['p1', 'p2']);
    feed(agg, ctx, 'location', [
      [at(D, 9), 'p1', 2 * H, null, 90, 1, 1, 'f1', []],
      [at(D, 9), 'p2', 1 * H, null, 90, 1, 1, 'f1', []],
      [at(D, 10), 'p2', 1 * H, null, 90, 1, 1, 'f2', []],
    ]);
    feed(agg, ctx, 'occupancy', [[at(D, 9), 'o1', 2 * H, 1, 90]]);
    const { rows: all, summary } = agg.result();
    const rows = all as LocationRow[];
    const f1 = rows.find((r) => r.id === 'f1')!;
    // the KPI's day as a day, which the UI writes in its date words ("Nov 23"), not as words of its own
    expect(summary.highlights[0]).toEqual({ label: 'Peak day', value: D, day: D });
    expect(f1.peakPeople).toBe(2);
    expect(f1.peakOccupied).toBe(1);
    expect(f1.peakHour).toBe(9);
    expect(f1.peakDay).toBe(D);
    expect(rows.find((r) => r.id === 'f2')!.peakPeople).toBe(1);
  });
});
