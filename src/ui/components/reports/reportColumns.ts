// The columns of each report's table, shared by the table on screen and the
// CSV export, so the file holds what the table shows (all rows). A day is the
// one thing written apart: the table says it in the app's date words ("Nov
// 23"), the CSV keeps its ISO date (2026-11-23), which a spreadsheet reads as a
// date in any locale and sorts (docs/reports.md "Dates").

import type { ReportKind } from '../../../shared/config.js';
import { sensorTypeTitle } from '../../../shared/kinds.js';
import { DESK_CLASS_LABELS } from '../../../shared/reports/deskReport.js';
import { RESERVATION_HISTORY_CLASSES, RESERVATION_HISTORY_LABELS } from '../../../shared/rules/reservationHistory.js';
import type { DeskRow, EnvironmentRow, LocationRow, ReportRow, RoomRow } from '../../../shared/reports/types.js';
import { formatDay } from '../../lib/timeFormat.js';

export interface Column {
  header: string;
  /** the cell as the CSV holds it */
  value(row: ReportRow, floorName: (id: string) => string | null): string | number | null;
  numeric?: boolean;
  /** the value is a local day of the location (YYYY-MM-DD) */
  day?: boolean;
  /** the column names the row (leading columns only): it stays in view while the table scrolls sideways */
  names?: boolean;
}

/** The cell as the table on screen shows it: a day in the app's date words, nothing as '—'. */
export function cellText(column: Column, row: ReportRow, floorName: (id: string) => string | null, timeZone: string, now = Date.now()): string | number {
  const value = column.value(row, floorName);
  if (value === null) return '—';
  return column.day && typeof value === 'string' ? formatDay(value, timeZone, now) : value;
}

const pct = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 10);
const hour = (h: number | null) => (h === null ? null : `${String(h).padStart(2, '0')}:00`);
const floor = (id: string | null, name: (id: string) => string | null) => (id ? name(id) ?? id : null);

const desk = (f: (r: DeskRow) => string | number | null) => (r: ReportRow) => f(r as DeskRow);
const room = (f: (r: RoomRow) => string | number | null) => (r: ReportRow) => f(r as RoomRow);
const env = (f: (r: EnvironmentRow) => string | number | null) => (r: ReportRow) => f(r as EnvironmentRow);
const loc = (f: (r: LocationRow) => string | number | null) => (r: ReportRow) => f(r as LocationRow);

export const REPORT_COLUMNS: Record<ReportKind, Column[]> = {
  desk: [
    { header: 'Desk', value: desk((r) => r.name), names: true },
    { header: 'Floor', value: (r, n) => floor((r as DeskRow).floorId, n) },
    { header: 'Utilisation %', value: desk((r) => pct(r.utilisation)), numeric: true },
    { header: 'Class', value: desk((r) => DESK_CLASS_LABELS[r.class]) },
    { header: 'Occupied h', value: desk((r) => r.occupiedHours), numeric: true },
    { header: 'Days used', value: desk((r) => r.daysUsed), numeric: true },
    { header: 'Clean-desk breaches', value: desk((r) => r.cleanDeskBreaches), numeric: true },
  ],
  room: [
    { header: 'Room', value: room((r) => r.name), names: true },
    { header: 'Floor', value: (r, n) => floor((r as RoomRow).floorId, n) },
    { header: 'Bookings', value: room((r) => r.bookings), numeric: true },
    { header: 'Booked h', value: room((r) => r.bookedHours), numeric: true },
    { header: 'In use h', value: room((r) => r.usedHours), numeric: true },
    { header: 'Used while booked h', value: room((r) => r.usedWhileBookedHours), numeric: true },
    { header: 'Use without booking h', value: room((r) => r.unbookedUseHours), numeric: true },
    { header: 'No-shows', value: room((r) => r.noShows), numeric: true },
    { header: 'No-show rate %', value: room((r) => pct(r.noShowRate)), numeric: true },
    ...RESERVATION_HISTORY_CLASSES.map((c) => ({ header: RESERVATION_HISTORY_LABELS[c], value: room((r) => r.classes[c]), numeric: true })),
    { header: 'Busiest hour', value: room((r) => hour(r.busiestHour)) },
  ],
  environment: [
    { header: 'Type', value: env((r) => sensorTypeTitle(r.type)), names: true },
    { header: 'Place', value: env((r) => r.groupName), names: true },
    { header: 'Floor', value: (r, n) => floor((r as EnvironmentRow).floorId, n) },
    { header: 'Mean', value: env((r) => r.mean), numeric: true },
    { header: 'Min', value: env((r) => r.min), numeric: true },
    { header: 'Max', value: env((r) => r.max), numeric: true },
    { header: 'Unit', value: env((r) => r.unit) },
    { header: 'Comfort band', value: env((r) => `${r.band[0]}–${r.band[1]}`) },
    { header: 'Outside band h', value: env((r) => r.outsideHours), numeric: true },
    { header: 'Outside band %', value: env((r) => pct(r.outsideShare)), numeric: true },
  ],
  location: [
    { header: 'Building', value: loc((r) => r.buildingName), names: true },
    { header: 'Floor', value: loc((r) => r.name), names: true },
    { header: 'Peak people', value: loc((r) => r.peakPeople), numeric: true },
    { header: 'Mean people', value: loc((r) => r.meanPeople), numeric: true },
    { header: 'Peak occupied', value: loc((r) => r.peakOccupied), numeric: true },
    { header: 'Mean occupancy %', value: loc((r) => pct(r.meanOccupancy)), numeric: true },
    { header: 'Peak day', value: loc((r) => r.peakDay), day: true },
    { header: 'Peak hour', value: loc((r) => hour(r.peakHour)) },
  ],
};
