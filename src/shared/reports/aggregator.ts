// What every report aggregator shares: the period's calendar in the
// location's zone, the working hours, and the interface the worker's runner
// drives (one day stream per sensor type and local day, then the result).

import { calendarDays, workingWindow, type CalendarDay } from './calendar.js';
import type { DayStream } from './readings.js';
import type { ReportMeta, ReportPeriod, ReportRow, ReportSummary } from './types.js';
import { WORKING_WEEKDAYS } from './slots.js';

export interface ReportContext {
  timeZone: string;
  hourStart: number;
  hourEnd: number;
  /** minutes (spec §9 cleanDeskPolicy) */
  cleanDeskPolicy: number;
  /** corrected-clock now: bookings still running are not classified yet */
  now: number;
  period: ReportPeriod;
}

export interface ReportResult {
  rows: ReportRow[];
  summary: ReportSummary;
  measure: ReportMeta['measure'];
}

export interface Aggregator {
  /** measurement types to read */
  readonly types: readonly string[];
  /** sensors of a type the report knows */
  known(type: string): ReadonlySet<string>;
  /** whether values of the type must be numbers */
  numeric(type: string): boolean;
  openDay(type: string, day: CalendarDay): DayStream;
  result(): ReportResult;
}

export interface Period {
  days: CalendarDay[];
  start: number;
  end: number;
  /** working-hours ranges of each day (none on weekends), by day key */
  windows: Map<string, Array<[number, number]>>;
  workingMs: number;
}

export function periodOf(ctx: ReportContext): Period {
  const days = calendarDays(ctx.period.from, ctx.period.to, ctx.timeZone);
  const windows = new Map<string, Array<[number, number]>>();
  let workingMs = 0;
  for (const day of days) {
    const w = WORKING_WEEKDAYS.has(day.weekday) ? workingWindow(day, ctx.hourStart, ctx.hourEnd) : [];
    windows.set(day.key, w);
    for (const [a, b] of w) workingMs += b - a;
  }
  return { days, start: days[0]?.start ?? 0, end: days[days.length - 1]?.end ?? 0, windows, workingMs };
}

export const HOUR_MS = 3_600_000;
export const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;
export const percent = (share: number | null) => (share === null ? '—' : `${Math.round(share * 100)} %`);

/** A highlight whose value is a local day (a YYYY-MM-DD key, which the UI writes in its date words), or '—' when there is none. */
export function dayLine(label: string, day: string | null): { label: string; value: string; day?: string } {
  return day === null ? { label, value: '—' } : { label, value: day, day };
}
