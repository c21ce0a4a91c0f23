// The report view's contract (DESIGN §9, docs/reports.md): what the UI asks
// for (kind, scope, period) and what the worker answers — one entry per table
// row, a summary for the charts, and progress with the skipped-row counts.

import type { ReportKind } from '../config.js';
import type { ReservationHistoryClass } from '../rules/reservationHistory.js';
import type { Id } from '../types.js';

export type ReportScope =
  | { kind: 'location' }
  | { kind: 'building'; id: Id }
  | { kind: 'floor'; id: Id };

/** Longest period a report covers (a quarter); longer requests are cut to it. */
export const REPORT_MAX_DAYS = 92;

/** Local dates of the location, both included ('YYYY-MM-DD'). */
export interface ReportPeriod {
  from: string;
  to: string;
}

export interface ReportRequest {
  kind: ReportKind;
  scope: ReportScope;
  period: ReportPeriod;
}

export const SKIP_REASONS = ['unknownSensor', 'columnCount', 'nonNumeric', 'outOfOrder'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];
export type SkippedRows = Record<SkipReason, number>;

export type ReportState = 'loading' | 'done' | 'cancelled' | 'error' | 'denied';

/** What a report view opened before the location's live load says while it waits (its progress message). */
export const REPORT_WAITING = 'Waiting for the location to load…';
/**
 * The same wait while the server cannot be reached (offline, or retrying
 * after a failed attempt): a report reads the server's readings, so it starts
 * only once the connection is back. Shown instead of a wait that would never end.
 */
export const REPORT_WAITING_OFFLINE = 'Reports need the connection to the server: this one starts once it is back.';

export interface ReportProgress {
  state: ReportState;
  pagesLoaded: number;
  /** pages expected in all, refined as pages arrive */
  pagesEstimated: number;
  /** of pagesLoaded, read from IndexedDB instead of the network */
  pagesFromCache: number;
  rows: number;
  elapsedMs: number;
  skipped: SkippedRows;
  /** the spec's words for a refused role check, or an error message */
  message: string | null;
}

// ---------------------------------------------------------------- rows

export const DESK_CLASSES = ['unused', 'under_used', 'in_use', 'no_data'] as const;
export type DeskClass = (typeof DESK_CLASSES)[number];

export interface DeskRow {
  kind: 'desk';
  id: Id;
  name: string;
  floorId: Id | null;
  /** occupied share of the working-hours minutes of the period's working days, 0..1 */
  utilisation: number | null;
  occupiedHours: number;
  daysUsed: number;
  cleanDeskBreaches: number;
  class: DeskClass;
}

export interface RoomRow {
  kind: 'room';
  id: Id;
  name: string;
  floorId: Id | null;
  hasOccupancySensor: boolean;
  bookings: number;
  bookedHours: number;
  usedHours: number | null;
  usedWhileBookedHours: number | null;
  unbookedUseHours: number | null;
  noShows: number | null;
  /** no-shows per booking that took place, 0..1 */
  noShowRate: number | null;
  classes: Record<ReservationHistoryClass, number>;
  /** local hour with the most use, or null */
  busiestHour: number | null;
  /** the period's bookings, newest first */
  items: BookingItem[];
}

export interface BookingItem {
  ref: string;
  subject: string | null;
  plannedStart: number;
  plannedEnd: number;
  actualStart: number;
  actualEnd: number;
  class: ReservationHistoryClass;
  /** whether the room was in use during it; null without an occupancy sensor or before it ended */
  used: boolean | null;
}

export interface EnvironmentRow {
  kind: 'environment';
  /** `${type}:${groupId}` */
  id: Id;
  type: string;
  unit: string | null;
  groupId: Id;
  groupName: string;
  groupKind: 'room' | 'zone' | 'sensor';
  floorId: Id | null;
  sensors: number;
  mean: number | null;
  min: number | null;
  max: number | null;
  /** hours with data inside working hours */
  coveredHours: number;
  /** hours outside the comfort band inside working hours */
  outsideHours: number;
  outsideShare: number | null;
  band: [number, number];
}

export interface LocationRow {
  kind: 'location';
  /** floor id */
  id: Id;
  name: string;
  buildingId: Id | null;
  buildingName: string;
  peakPeople: number;
  meanPeople: number;
  peakOccupied: number;
  /** mean occupied share of desks and rooms in working hours, 0..1 */
  meanOccupancy: number | null;
  peakDay: string | null;
  peakHour: number | null;
}

/** How the `report` map layer draws a row's asset: colour on the measure's scale, and words. */
export interface ReportMark {
  assetId: Id;
  color: string;
  label: string;
}

/** A row as the view sends it: with its layer mark once the report is done (worker/reports/reportMarks.ts). */
export type ReportRow = (DeskRow | RoomRow | EnvironmentRow | LocationRow) & { mark?: ReportMark | null };

/** Mean and peak of a share (0..1) or a count, per cell of a chart. */
export interface Cell {
  mean: number;
  peak: number;
}

export interface ReportSummary {
  /** ISO weekday 1..7 → local hour 0..23 → cell, null where there is no data */
  grid: Array<Array<Cell | null>>;
  byHour: Array<Cell | null>;
  byWeekday: Array<Cell | null>;
  /** per day of the period */
  byDay: Array<{ day: string; value: Cell | null }>;
  /** headline numbers, in words the UI shows as they are */
  totals: Array<{ label: string; value: string }>;
  /** desk classes, booking classes… */
  counts: Record<string, number>;
  /** per series (floor, sensor type) → hour → mean, for small multiples */
  series: Array<{ id: string; label: string; byHour: Array<number | null>; band?: [number, number] }>;
  /**
   * the rows to look at first (worst rooms, busiest hours…); the floor of a place whose name the report's
   * rows give to places on more than one floor (F1-R2 of two buildings), so the UI tells them apart; a line
   * whose value is a local day of the location carries it as `day` (YYYY-MM-DD), which the UI writes in the
   * app's date words ("Nov 23"), as every date it shows (docs/reports.md "Dates")
   */
  highlights: Array<{ label: string; value: string; floorId?: string | null; day?: string }>;
}

export interface ReportMeta {
  request: ReportRequest | null;
  timeZone: string;
  hourStart: number;
  hourEnd: number;
  progress: ReportProgress;
  summary: ReportSummary | null;
  /** the measure the report layer colours by, per row id; the legend's title and stops */
  measure: { title: string; unit: string | null; stops: Array<{ value: number; color: string; label: string }> } | null;
}

export function emptySkipped(): SkippedRows {
  return { unknownSensor: 0, columnCount: 0, nonNumeric: 0, outOfOrder: 0 };
}
