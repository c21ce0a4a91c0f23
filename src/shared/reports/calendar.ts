// Local calendar of a location for reports (DESIGN §9): its days, their wall
// hours and the working-hours window, in the location's IANA time zone via
// @date-fns/tz. DST days have 23 or 25 hours; a skipped hour has no segment and
// a repeated hour has two, so every instant belongs to exactly one local hour.

import { TZDate } from '@date-fns/tz';
import { safeTimeZone } from '../time.js';
import { WORKING_WEEKDAYS } from './slots.js';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
/** Zone offsets change on quarter hours everywhere, so stepping by this finds every hour boundary. */
const STEP_MS = 15 * 60_000;

/** A wall-clock hour of a local day as an epoch range; a repeated DST hour comes twice. */
export interface HourSegment {
  hour: number;
  start: number;
  end: number;
}

export interface CalendarDay {
  /** 'YYYY-MM-DD' in the location's zone */
  key: string;
  start: number;
  end: number;
  /** ISO weekday: 1 Monday … 7 Sunday */
  weekday: number;
  hours: HourSegment[];
}

const DATE_KEY = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isDateKey(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATE_KEY.exec(value);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.getUTCFullYear() === Number(m[1]) && date.getUTCMonth() === Number(m[2]) - 1 && date.getUTCDate() === Number(m[3]);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The last few local days looked up per zone: live derivation asks for today (and yesterday) thousands of times a second. */
const recentDays = new Map<string, CalendarDay[]>();
const RECENT_DAYS_KEPT = 4;

/** 'YYYY-MM-DD' of an instant in the zone. */
export function dateKeyOf(epochMs: number, timeZone: string): string {
  const zone = safeTimeZone(timeZone);
  const recent = recentDays.get(zone);
  if (recent) for (const day of recent) if (epochMs >= day.start && epochMs < day.end) return day.key;
  const d = new TZDate(epochMs, zone);
  const key = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const list = recent ?? [];
  list.unshift(calendarDay(key, zone));
  if (list.length > RECENT_DAYS_KEPT) list.length = RECENT_DAYS_KEPT;
  if (!recent) {
    if (recentDays.size >= 64) recentDays.clear();
    recentDays.set(zone, list);
  }
  return key;
}

/**
 * The date key of the last working day (WORKING_WEEKDAYS, Monday to Friday, the days the reports count) before
 * the local day of `epochMs` in `timeZone`: the day "Play back a day" opens, so a Monday replays the Friday and
 * not a nearly empty Sunday (docs/reports.md "## Playback").
 */
export function lastWorkingDayBefore(epochMs: number, timeZone: string): string {
  let day = addDaysToKey(dateKeyOf(epochMs, timeZone), -1);
  for (let i = 0; i < 7 && !WORKING_WEEKDAYS.has(calendarDay(day, timeZone).weekday); i += 1) day = addDaysToKey(day, -1);
  return day;
}

/** The date key `days` after `key` (negative: before); pure calendar arithmetic. */
export function addDaysToKey(key: string, days: number): string {
  const m = DATE_KEY.exec(key);
  if (!m) throw new RangeError(`Not a date: ${key}`);
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** Whole days from `a` to `b` (b − a). */
export function daysBetweenKeys(a: string, b: string): number {
  const [ya, ma, da] = a.split('-').map(Number) as [number, number, number];
  const [yb, mb, db] = b.split('-').map(Number) as [number, number, number];
  return Math.round((Date.UTC(yb, mb - 1, db) - Date.UTC(ya, ma - 1, da)) / DAY_MS);
}

/** Epoch of local midnight (or the first existing instant of the day, where a zone skips midnight). */
function startOfKey(key: string, zone: string): number {
  const [y, m, d] = key.split('-').map(Number) as [number, number, number];
  return new TZDate(y, m - 1, d, 0, 0, zone).getTime();
}

function hourSegments(start: number, end: number, zone: string): HourSegment[] {
  const segments: HourSegment[] = [];
  let current: HourSegment | null = null;
  for (let t = start; t < end; t += STEP_MS) {
    const hour = new TZDate(t, zone).getHours();
    if (!current || current.hour !== hour) {
      if (current) current.end = t;
      current = { hour, start: t, end };
      segments.push(current);
    }
  }
  return segments;
}

const dayMemo = new Map<string, CalendarDay>();
const DAY_MEMO_MAX = 2_000;

/** The local day of a date key in a zone, with its hour segments (memoized). */
export function calendarDay(key: string, timeZone: string): CalendarDay {
  const zone = safeTimeZone(timeZone);
  const memoKey = `${zone}|${key}`;
  const hit = dayMemo.get(memoKey);
  if (hit) return hit;
  const start = startOfKey(key, zone);
  const end = startOfKey(addDaysToKey(key, 1), zone);
  const [y, m, d] = key.split('-').map(Number) as [number, number, number];
  const weekday = ((new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7) + 1;
  const day: CalendarDay = { key, start, end, weekday, hours: hourSegments(start, end, zone) };
  if (dayMemo.size >= DAY_MEMO_MAX) dayMemo.clear();
  dayMemo.set(memoKey, day);
  return day;
}

/** The local day containing an instant. */
export function calendarDayAt(epochMs: number, timeZone: string): CalendarDay {
  return calendarDay(dateKeyOf(epochMs, timeZone), timeZone);
}

/** Every local day from `from` to `to`, both included. */
export function calendarDays(from: string, to: string, timeZone: string): CalendarDay[] {
  const n = daysBetweenKeys(from, to);
  const days: CalendarDay[] = [];
  for (let i = 0; i <= n; i += 1) days.push(calendarDay(addDaysToKey(from, i), timeZone));
  return days;
}

/** Wall hour (fractional, 0 ≤ h < 24) of an instant inside the day; NaN outside it. */
export function wallHour(day: CalendarDay, epochMs: number): number {
  const segments = day.hours;
  let lo = 0;
  let hi = segments.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = segments[mid]!;
    if (epochMs < s.start) hi = mid - 1;
    else if (epochMs >= s.end) lo = mid + 1;
    else return s.hour + (epochMs - s.start) / HOUR_MS;
  }
  return NaN;
}

/**
 * Epoch of a wall time (fractional hour) on the day: the first occurrence of a
 * repeated hour; a skipped hour resolves to the first instant after the gap.
 */
export function wallToEpoch(day: CalendarDay, hour: number): number {
  const whole = Math.floor(hour);
  for (const s of day.hours) {
    if (s.hour === whole) return Math.min(s.end, s.start + (hour - whole) * HOUR_MS);
    if (s.hour > whole) return s.start;
  }
  return day.end;
}

/** The working-hours window of a day as epoch ranges: hours h with hourStart ≤ h < hourEnd, merged. */
export function workingWindow(day: CalendarDay, hourStart: number, hourEnd: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const s of day.hours) {
    if (s.hour < hourStart || s.hour >= hourEnd) continue;
    const last = out[out.length - 1];
    if (last && last[1] === s.start) last[1] = s.end;
    else out.push([s.start, s.end]);
  }
  return out;
}

/** ms of [a, b) inside the ranges. */
export function overlapMs(a: number, b: number, ranges: ReadonlyArray<readonly [number, number]>): number {
  let total = 0;
  // an indexed loop: this runs once or twice per reading of every report
  for (let i = 0; i < ranges.length; i += 1) {
    const range = ranges[i]!;
    const lo = a > range[0] ? a : range[0];
    const hi = b < range[1] ? b : range[1];
    if (hi > lo) total += hi - lo;
  }
  return total;
}
