// Desk report (docs/reports.md): utilisation per desk within working hours
// of working days, its class (unused < 15 %, under-used < 50 %, in use), mean
// and peak occupancy of the scope per hour × weekday from ten-minute slots,
// and clean-desk policy breaches. State is per desk and per day, never per row.

import { overlapMs, type CalendarDay } from './calendar.js';
import { dayLine, HOUR_MS, percent, periodOf, round, type Aggregator, type ReportContext } from './aggregator.js';
import { createDayStream } from './readings.js';
import { addToSlots, createCellStats, createDaySlots, emptySummary } from './slots.js';
import type { DeskClass, DeskRow } from './types.js';

export const DESK_UNUSED_BELOW = 0.15;
export const DESK_UNDER_USED_BELOW = 0.5;

export interface ScopeDesk {
  id: string;
  name: string;
  floorId: string | null;
  sensorId: string | null;
}

export function deskClass(utilisation: number | null): DeskClass {
  if (utilisation === null) return 'no_data';
  if (utilisation < DESK_UNUSED_BELOW) return 'unused';
  if (utilisation < DESK_UNDER_USED_BELOW) return 'under_used';
  return 'in_use';
}

export const DESK_CLASS_LABELS: Record<DeskClass, string> = {
  unused: 'Unused', under_used: 'Under-used', in_use: 'In use', no_data: 'No data',
};

export function createDeskAggregator(ctx: ReportContext, desks: readonly ScopeDesk[]): Aggregator {
  const period = periodOf(ctx);
  const bySensor = new Map<string, number>();
  desks.forEach((d, i) => { if (d.sensorId) bySensor.set(d.sensorId, i); });
  const known = new Set(bySensor.keys());
  const occupied = new Float64Array(desks.length);
  const covered = new Float64Array(desks.length);
  const daysUsed = new Int32Array(desks.length);
  const breaches = new Int32Array(desks.length);
  const stats = createCellStats();
  const policyMs = ctx.cleanDeskPolicy * 60_000;
  const sensed = bySensor.size;

  return {
    types: ['occupancy'],
    known: () => known,
    numeric: () => true,
    openDay(_type, day: CalendarDay) {
      const window = period.windows.get(day.key) ?? [];
      const slots = createDaySlots(day);
      const usedToday = new Uint8Array(desks.length);
      // end of the desk's last occupied interval today, for the clean-desk rule
      const lastEnd = new Float64Array(desks.length).fill(NaN);
      const stream = createDayStream(day.start, day.end, (sensorId, a, b, r) => {
        const i = bySensor.get(sensorId);
        if (i === undefined) return;
        const inWindow = overlapMs(a, b, window);
        covered[i]! += inWindow;
        if (!(r.value > 0)) return;
        occupied[i]! += inWindow;
        if (inWindow > 0) usedToday[i] = 1;
        addToSlots(slots, a, b);
        const prev = lastEnd[i]!;
        // back after a break longer than the policy: the desk was held uncleared that long
        if (!Number.isNaN(prev) && a - prev > policyMs && overlapMs(prev, prev + 1, window) > 0) breaches[i]! += 1;
        lastEnd[i] = b;
      });
      return {
        push: (page) => stream.push(page),
        finish() {
          stream.finish();
          for (let i = 0; i < desks.length; i += 1) daysUsed[i]! += usedToday[i]!;
          stats.addDay(slots, sensed * 600_000, ctx.hourStart, ctx.hourEnd);
        },
      };
    },
    result() {
      const rows: DeskRow[] = desks.map((d, i) => {
        const utilisation = d.sensorId && period.workingMs > 0 && covered[i]! > 0 ? Math.min(1, occupied[i]! / period.workingMs) : null;
        return {
          kind: 'desk', id: d.id, name: d.name, floorId: d.floorId,
          utilisation: utilisation === null ? null : round(utilisation, 4),
          occupiedHours: round(occupied[i]! / HOUR_MS, 1),
          daysUsed: daysUsed[i]!,
          cleanDeskBreaches: breaches[i]!,
          class: deskClass(utilisation),
        };
      });
      const counts: Record<string, number> = { unused: 0, under_used: 0, in_use: 0, no_data: 0 };
      for (const r of rows) counts[r.class]! += 1;
      const withData = rows.filter((r) => r.utilisation !== null);
      const mean = withData.length ? withData.reduce((s, r) => s + r.utilisation!, 0) / withData.length : null;
      const summary = { ...emptySummary(), ...stats.summary() };
      const peakHour = stats.peakHour();
      const peak = summary.byHour.reduce((m, c) => Math.max(m, c?.peak ?? 0), 0);
      summary.counts = counts;
      summary.totals = [
        { label: 'Desks', value: String(desks.length) },
        { label: 'Mean utilisation', value: percent(mean) },
        { label: 'Peak occupancy', value: percent(withData.length ? peak : null) },
        { label: 'Clean-desk breaches', value: String(rows.reduce((s, r) => s + r.cleanDeskBreaches, 0)) },
      ];
      summary.highlights = [
        { label: 'Unused desks (< 15 %)', value: String(counts.unused) },
        { label: 'Under-used desks (< 50 %)', value: String(counts.under_used) },
        { label: 'Busiest hour', value: peakHour === null ? '—' : `${String(peakHour).padStart(2, '0')}:00` },
        dayLine('Busiest day', stats.peakDay()),
      ];
      return {
        rows,
        summary,
        measure: {
          title: 'Desk utilisation', unit: '%',
          stops: [
            { value: 0, color: '#c62828', label: 'Unused (< 15 %)' },
            { value: DESK_UNUSED_BELOW, color: '#fb8c00', label: 'Under-used (15–50 %)' },
            { value: DESK_UNDER_USED_BELOW, color: '#2e7d32', label: 'In use (≥ 50 %)' },
          ],
        },
      };
    },
  };
}
