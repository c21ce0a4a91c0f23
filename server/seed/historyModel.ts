// What one sensor did on one local day of the generated history
// (docs/server.md "History"): working-day patterns with a lunch dip, quieter
// Fridays and empty weekends, desks of steady, part-time and rare users,
// room bookings that run as planned, end early, overrun, get cancelled or are
// never used, and CO2 that rises while a room is busy. Pure functions of a
// seeded PRNG and the day, so any day can be regenerated on demand.

import { wallHour, wallToEpoch, type CalendarDay } from '../../src/shared/reports/calendar.js';
import type { ReservationEvent } from '../../src/shared/types.js';
import type { Prng } from './prng.js';
import { dayActivity, readingAt } from './sensorValues.js';

const MIN = 60_000;
const HOUR = 3_600_000;

/** Presence on each ISO weekday (1 Monday … 7 Sunday): Fridays quieter, weekends nearly empty. */
export const WEEKDAY_PRESENCE = [0, 0.9, 1, 1, 0.95, 0.6, 0.04, 0.02] as const;

/** Readings of state sensors: every 30 min by day, every 2 h by night, and at every change. */
export const DAY_PERIOD_MS = 30 * MIN;
export const DAY_VALIDITY_MS = 35 * MIN;
export const NIGHT_PERIOD_MS = 2 * HOUR;
export const NIGHT_VALIDITY_MS = 2 * HOUR + 5 * MIN;
/** Readings of environment and other numeric sensors. */
export const NUMERIC_PERIOD_MS = 15 * MIN;
export const NUMERIC_VALIDITY_MS = 30 * MIN;
/** Position readings of a present employee. */
export const POSITION_PERIOD_MS = 10 * MIN;
export const POSITION_VALIDITY_MS = 12 * MIN;
/** The longest validity of any generated reading: how far back a "previous validity" search looks. */
export const MAX_VALIDITY_MS = NIGHT_VALIDITY_MS;

export type Interval = [number, number];

export interface Row {
  time: number;
  value: number | null;
  validFor: number;
  /** type-specific columns (location: x, y, floor_id, zones; reservation: events) */
  extra?: unknown[];
}

const between = (rng: Prng, a: number, b: number) => a + rng.next() * (b - a);

/** Occupied intervals of a desk's user on a day, or none when they stay away. */
export function deskIntervals(rng: Prng, day: CalendarDay, usage: number): Interval[] {
  if (!rng.chance(usage * WEEKDAY_PRESENCE[day.weekday]!)) return [];
  const arrive = between(rng, 7.4, 10);
  const leave = between(rng, 15.3, 18.6);
  const hours: Array<[number, number]> = [];
  let at = arrive;
  const lunch = rng.chance(0.75) ? between(rng, 11.3, 12.8) : null;
  // a long absence (a workshop, meetings elsewhere) leaves the desk held but unused
  const away = rng.chance(0.1) ? between(rng, 10, 13) : null;
  while (at < leave) {
    let next = Math.min(leave, at + between(rng, 0.6, 2.2));
    if (lunch !== null && at < lunch && next > lunch) next = lunch;
    if (away !== null && at < away && next > away) next = away;
    hours.push([at, next]);
    if (next >= leave) break;
    if (lunch !== null && Math.abs(next - lunch) < 1e-9) at = next + between(rng, 0.4, 0.9);
    else if (away !== null && Math.abs(next - away) < 1e-9) at = next + between(rng, 2.3, 3.2);
    else at = next + between(rng, 0.1, 0.4);
  }
  return hours.filter(([a, b]) => b - a > 0.05).map(([a, b]) => [wallToEpoch(day, a), wallToEpoch(day, b)]);
}

const stateAt = (intervals: readonly Interval[], t: number) => intervals.some(([a, b]) => t >= a && t < b);

/** Readings of an occupancy sensor over its occupied intervals: periodic, plus one at every change. */
export function occupancyRows(rng: Prng, day: CalendarDay, intervals: readonly Interval[]): Row[] {
  const phase = Math.floor(rng.next() * DAY_PERIOD_MS);
  const times = new Set<number>();
  for (let t = day.start + phase; t < day.end; t += DAY_PERIOD_MS) {
    const h = wallHour(day, t);
    if ((h >= 6 && h < 20) || Math.floor((t - day.start - phase) / DAY_PERIOD_MS) % 4 === 0) times.add(t);
  }
  for (const [a, b] of intervals) {
    times.add(Math.round(a));
    times.add(Math.round(b));
  }
  const rows: Row[] = [];
  for (const t of [...times].sort((x, y) => x - y)) {
    if (t < day.start || t >= day.end) continue;
    const h = wallHour(day, t);
    const night = h < 6 || h >= 20;
    rows.push({ time: t, value: stateAt(intervals, t) ? 1 : 0, validFor: night ? NIGHT_VALIDITY_MS : DAY_VALIDITY_MS });
  }
  return rows;
}

// ---------------------------------------------------------------- rooms

export type BookingOutcome = 'as_planned' | 'no_show' | 'ended_early' | 'extended' | 'removed';

export interface RoomBooking {
  planned: ReservationEvent;
  outcome: BookingOutcome;
  /** end after an early release or an overrun; the planned end otherwise */
  actualEnd: number;
  /** when it changed: cancellation, release or extension */
  changedAt: number | null;
}

export interface RoomDay {
  bookings: RoomBooking[];
  occupied: Interval[];
}

const SUBJECTS = ['Stand-up', 'Planning', 'Interview', '1:1', 'Review', 'Workshop', 'Customer call', 'Retro'];

/** One room's bookings and use on a day: most meetings happen, some never do, some change. */
export function roomDay(rng: Prng, day: CalendarDay, busy: number, bookers: readonly string[], refPrefix: string): RoomDay {
  const presence = WEEKDAY_PRESENCE[day.weekday]!;
  const bookings: RoomBooking[] = [];
  const occupied: Interval[] = [];
  for (let hour = 8; hour < 17;) {
    const length = rng.pick([0.5, 1, 1, 1.5]);
    if (!rng.chance(busy * presence)) { hour += 0.5; continue; }
    const start = wallToEpoch(day, hour);
    const end = wallToEpoch(day, hour + length);
    const roll = rng.next();
    const outcome: BookingOutcome = roll < 0.68 ? 'as_planned' : roll < 0.8 ? 'no_show' : roll < 0.87 ? 'ended_early'
      : roll < 0.94 ? 'extended' : 'removed';
    let actualEnd = end;
    let changedAt: number | null = null;
    if (outcome === 'ended_early') {
      actualEnd = start + Math.round((end - start) * between(rng, 0.3, 0.7) / MIN) * MIN;
      changedAt = actualEnd;
    } else if (outcome === 'extended') {
      actualEnd = end + rng.pick([15, 30, 45]) * MIN;
      changedAt = end - 10 * MIN;
    } else if (outcome === 'removed') {
      changedAt = Math.max(day.start + 30 * MIN, start - Math.round(between(rng, 1, 5) * HOUR / MIN) * MIN);
    }
    const planned: ReservationEvent = {
      start, end, subject: rng.pick(SUBJECTS), user_id: bookers.length ? rng.pick(bookers) : null,
      booking_ref: `${refPrefix}-${day.key}-${bookings.length + 1}`,
    };
    bookings.push({ planned, outcome, actualEnd, changedAt });
    if (outcome !== 'no_show' && outcome !== 'removed') {
      occupied.push([start + Math.floor(rng.next() * 6) * MIN, actualEnd - Math.floor(rng.next() * 4) * MIN]);
    }
    hour += length + rng.pick([0, 0, 0.5, 1]);
  }
  // use without booking: someone takes the free room for a quick talk
  if (rng.chance(0.35 * presence)) {
    const at = between(rng, 8, 16.5);
    const a = wallToEpoch(day, at);
    const b = a + Math.round(between(rng, 15, 50)) * MIN;
    if (!occupied.some(([s, e]) => a < e && s < b) && !bookings.some((bk) => a < bk.actualEnd && bk.planned.start < b)) occupied.push([a, b]);
  }
  occupied.sort((x, y) => x[0] - y[0]);
  return { bookings, occupied };
}

/** Reservation sensor values of the day: the plan at the start of the day, then one at every change. */
export function reservationRows(day: CalendarDay, room: RoomDay): Row[] {
  const moments = new Set<number>([day.start + 5 * MIN]);
  for (const b of room.bookings) if (b.changedAt !== null) moments.add(b.changedAt);
  const rows: Row[] = [];
  for (const t of [...moments].sort((a, b) => a - b)) {
    const events: ReservationEvent[] = [];
    for (const b of room.bookings) {
      if (b.outcome === 'removed' && t >= b.changedAt!) continue;
      const changed = b.changedAt !== null && t >= b.changedAt && b.outcome !== 'removed';
      const event = changed ? { ...b.planned, end: b.actualEnd } : b.planned;
      if (event.end > t) events.push(event);
    }
    rows.push({ time: t, value: null, validFor: 24 * HOUR, extra: [events] });
  }
  return rows;
}

/** CO2, temperature and humidity of a room that fills and empties: air follows its use. */
export function roomAirRows(rng: Prng, day: CalendarDay, type: string, occupied: readonly Interval[], capacity: number): Row[] {
  const rows: Row[] = [];
  const phase = Math.floor(rng.next() * NUMERIC_PERIOD_MS);
  let co2 = 430;
  for (let t = day.start + phase; t < day.end; t += NUMERIC_PERIOD_MS) {
    const busy = stateAt(occupied, t);
    co2 += ((busy ? 700 + capacity * 80 : 420) - co2) * (busy ? 0.45 : 0.35);
    const share = (co2 - 420) / 1000;
    const value = type === 'co2' ? Math.round(co2 + between(rng, -15, 15))
      : type === 'temperature' ? Math.round((21 + 2 * share + between(rng, -0.2, 0.2)) * 10) / 10
        : type === 'humidity' ? Math.round(37 + 9 * share + between(rng, -1.5, 1.5))
          : readingAt(type, busy ? 0.8 : 0.1, rng);
    rows.push({ time: t, value, validFor: NUMERIC_VALIDITY_MS });
  }
  return rows;
}

/** Any other numeric sensor: the office's daily activity, scaled by the weekday. */
export function numericRows(rng: Prng, day: CalendarDay, type: string): Row[] {
  const rows: Row[] = [];
  const phase = Math.floor(rng.next() * NUMERIC_PERIOD_MS);
  const presence = WEEKDAY_PRESENCE[day.weekday]!;
  for (let t = day.start + phase; t < day.end; t += NUMERIC_PERIOD_MS) {
    const h = wallHour(day, t);
    // the lunch hour empties the floor a little
    const lunch = h >= 11.5 && h < 12.75 ? 0.7 : 1;
    rows.push({ time: t, value: readingAt(type, dayActivity(h) * presence * lunch, rng), validFor: NUMERIC_VALIDITY_MS });
  }
  return rows;
}

// ---------------------------------------------------------------- people

export interface Spot {
  floorId: string;
  floor: number;
  x: number;
  y: number;
  zones: string[];
}

/** Position readings of an employee who works at `home` and lunches at `lunch`. */
export function positionRows(rng: Prng, day: CalendarDay, home: Spot, lunch: Spot, usage: number): Row[] {
  const intervals = deskIntervals(rng, day, usage);
  const rows: Row[] = [];
  if (intervals.length === 0) return rows;
  const first = intervals[0]![0];
  const last = intervals[intervals.length - 1]![1];
  for (let t = first; t < last; t += POSITION_PERIOD_MS + Math.floor(rng.next() * MIN)) {
    const atDesk = stateAt(intervals, t);
    const h = wallHour(day, t);
    const spot = atDesk ? home : h >= 11 && h < 14 ? lunch : null;
    if (!spot) continue;
    const x = Math.round((spot.x + between(rng, -0.6, 0.6)) * 10) / 10;
    const y = Math.round((spot.y + between(rng, -0.6, 0.6)) * 10) / 10;
    rows.push({ time: Math.round(t), value: null, validFor: POSITION_VALIDITY_MS, extra: [x, y, spot.floorId, spot.zones] });
  }
  return rows;
}

/** Tracked equipment stays put and reports now and then. */
export function equipmentRows(rng: Prng, day: CalendarDay, spot: Spot): Row[] {
  const rows: Row[] = [];
  const phase = Math.floor(rng.next() * NIGHT_PERIOD_MS);
  for (let t = day.start + phase; t < day.end; t += NIGHT_PERIOD_MS) {
    rows.push({ time: t, value: null, validFor: NIGHT_VALIDITY_MS, extra: [spot.x, spot.y, spot.floorId, spot.zones] });
  }
  return rows;
}
