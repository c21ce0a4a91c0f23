import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../server/clock.js';
import { createPublisher } from '../../server/live/publisher.js';
import { seedDemo } from '../../server/seed/demo.js';
import { pageMeasurements } from '../../server/store/measurementPages.js';
import { createStore, type Store } from '../../server/store/store.js';
import { calendarDayAt, wallHour } from '../../src/shared/reports/calendar.js';
import { reservationHistory } from '../../src/shared/rules/reservationHistory.js';
import type { ReservationEvent } from '../../src/shared/types.js';

// A Wednesday noon in Helsinki, two weeks after the spring DST switch (2025-03-30).
const NOW = Date.UTC(2025, 3, 9, 9, 0, 0);
const DAY = 86_400_000;

function build(seed = 3, days = 14) {
  const clock = createManualClock(NOW);
  const store = createStore(clock, createPublisher());
  const result = seedDemo(store, { seed, now: NOW, desks: 120, employees: 6, historyDays: days });
  return { store, locationId: result.locationIds[0]! };
}

/** every row of a type in [start, end) through the paging rules, with a small page */
function allRows(store: Store, locationId: string, type: string, start: number, end: number, limit = 20_000, sensorIds: string[] | null = null) {
  const rows: unknown[][] = [];
  let from = start;
  let pages = 0;
  for (;;) {
    const page = pageMeasurements(store, locationId, type, { start: from, end, limit, sensorIds, ignorePreviousValidity: true });
    pages += 1;
    rows.push(...page.rows);
    if (!page.has_more_results) return { rows, pages };
    from = (page.rows.at(-1)![0] as number) + 1;
  }
}

describe('generated history', () => {
  const { store, locationId } = build();
  const tz = store.locations.get(locationId)!.timezone;
  const from = NOW - 14 * DAY;

  it('regenerates the same rows for the same seed and others for another seed', () => {
    const again = build();
    const other = build(4);
    const a = pageMeasurements(store, locationId, 'occupancy', { start: from, end: NOW, limit: 5000, sensorIds: null, ignorePreviousValidity: true });
    const b = pageMeasurements(again.store, again.locationId, 'occupancy', { start: from, end: NOW, limit: 5000, sensorIds: null, ignorePreviousValidity: true });
    const c = pageMeasurements(other.store, other.locationId, 'occupancy', { start: from, end: NOW, limit: 5000, sensorIds: null, ignorePreviousValidity: true });
    expect(a.rows).toEqual(b.rows);
    expect(a.rows).not.toEqual(c.rows);
  });

  it('pages weeks of rows in (time, sensor id) order without losing or repeating one', () => {
    const { rows, pages } = allRows(store, locationId, 'occupancy', from, NOW, 7_000);
    expect(pages).toBeGreaterThan(10);
    const keys = rows.map((r) => `${r[0]}|${r[1]}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (let i = 1; i < rows.length; i += 1) {
      const [t0, s0] = [rows[i - 1]![0] as number, Number(rows[i - 1]![1])];
      const [t1, s1] = [rows[i]![0] as number, Number(rows[i]![1])];
      expect(t1 > t0 || (t1 === t0 && s1 > s0)).toBe(true);
    }
    const whole = pageMeasurements(store, locationId, 'occupancy', { start: from, end: NOW, limit: 10_000_000, sensorIds: null, ignorePreviousValidity: true });
    expect(rows).toEqual(whole.rows);
  });

  it('fills desks on working days, less on Fridays, hardly at weekends, with a lunch dip', () => {
    const { rows } = allRows(store, locationId, 'occupancy', from, NOW);
    const byWeekday = new Map<number, number[]>();
    const byHour = new Map<number, number[]>();
    for (const r of rows) {
      const t = r[0] as number;
      const day = calendarDayAt(t, tz);
      const h = Math.floor(wallHour(day, t));
      if (!byWeekday.has(day.weekday)) byWeekday.set(day.weekday, []);
      byWeekday.get(day.weekday)!.push(r[3] as number);
      if (day.weekday > 5) continue;
      if (!byHour.has(h)) byHour.set(h, []);
      byHour.get(h)!.push(r[3] as number);
    }
    const share = (list: number[] | undefined) => (list ?? []).reduce((a, b) => a + b, 0) / (list?.length || 1);
    expect(share(byWeekday.get(2))).toBeGreaterThan(0.2);
    expect(share(byWeekday.get(5))).toBeLessThan(share(byWeekday.get(2)));
    expect(share(byWeekday.get(6))).toBeLessThan(0.05);
    expect(share(byHour.get(12))).toBeLessThan(share(byHour.get(10)));
    expect(share(byHour.get(3))).toBe(0);
  });

  it('books rooms with every history class, and some bookings are never used', () => {
    const reservations = allRows(store, locationId, 'reservation', from, NOW).rows;
    const bySensor = new Map<string, Array<{ time: number; events: ReservationEvent[] }>>();
    for (const r of reservations) {
      if (!bySensor.has(r[1] as string)) bySensor.set(r[1] as string, []);
      bySensor.get(r[1] as string)!.push({ time: r[0] as number, events: r[5] as ReservationEvent[] });
    }
    const classes = new Map<string, number>();
    for (const snapshots of bySensor.values()) {
      for (const item of reservationHistory(snapshots, NOW)) classes.set(item.class, (classes.get(item.class) ?? 0) + 1);
    }
    for (const c of ['completed_as_planned', 'ended_early', 'extended', 'removed']) expect(classes.get(c), c).toBeGreaterThan(0);
  });

  it('raises CO2 in rooms while they are in use', () => {
    const roomAir = [...store.assets.values()].filter((a) => a.location_id === locationId && a.name.endsWith(' air'));
    expect(roomAir.length).toBeGreaterThan(0);
    const co2Ids = roomAir.map((a) => a.data_provider_refs.co2!);
    const { rows } = allRows(store, locationId, 'co2', from, NOW, 20_000, co2Ids);
    const values = rows.map((r) => r[3] as number);
    expect(Math.max(...values)).toBeGreaterThan(1000);
    expect(Math.min(...values)).toBeLessThan(500);
  });

  it('answers the reading still valid at a midnight from the evening before', () => {
    const day = calendarDayAt(NOW - 3 * DAY, tz);
    const sensor = [...store.sensors.values()].find((s) => s.location_id === locationId && s.type === 'occupancy')!;
    const page = pageMeasurements(store, locationId, 'occupancy', { start: day.start, end: day.end, limit: 20_000, sensorIds: [sensor.id], ignorePreviousValidity: false });
    const first = page.rows[0]!;
    expect(first[0] as number).toBeLessThan(day.start);
    expect((first[0] as number) + (first[2] as number)).toBeGreaterThan(day.start);
    expect(page.rows.slice(1).every((r) => (r[0] as number) >= day.start)).toBe(true);
  });

  it('keeps the seeded current value of every sensor equal to its newest generated reading', () => {
    const sensor = [...store.sensors.values()].find((s) => s.location_id === locationId && s.type === 'temperature')!;
    const page = pageMeasurements(store, locationId, 'temperature', { start: NOW - 3_600_000, end: NOW + 1, limit: 20_000, sensorIds: [sensor.id], ignorePreviousValidity: true });
    expect(page.rows.at(-1)![0]).toBe(sensor.last_measurement!.time);
    expect(page.rows.at(-1)![3]).toBe(sensor.last_measurement!.value);
    // the stored copy of that reading is not served twice
    expect(new Set(page.rows.map((r) => r[0])).size).toBe(page.rows.length);
  });
});
