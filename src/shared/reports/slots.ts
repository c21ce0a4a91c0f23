// Ten-minute slots of a local day (the sampling interval occupancy
// dashboards use) and the cell statistics the charts show: mean and peak per
// hour × weekday, per hour, per weekday and per day. Memory per day is one
// small array, whatever the number of readings.

import type { CalendarDay } from './calendar.js';
import type { Cell, ReportSummary } from './types.js';

export const SLOT_MS = 10 * 60_000;
/** Mondays to Fridays: the working days of utilisation figures (docs/reports.md) */
export const WORKING_WEEKDAYS: ReadonlySet<number> = new Set([1, 2, 3, 4, 5]);

export interface DaySlots {
  day: CalendarDay;
  /** per slot: the weight-ms added (e.g. occupied desk-ms) */
  values: Float64Array;
  /** local hour of each slot's start */
  hour: Int8Array;
}

export function createDaySlots(day: CalendarDay): DaySlots {
  const count = Math.ceil((day.end - day.start) / SLOT_MS);
  const hour = new Int8Array(count);
  let seg = 0;
  for (let i = 0; i < count; i += 1) {
    const t = day.start + i * SLOT_MS;
    while (seg < day.hours.length - 1 && t >= day.hours[seg]!.end) seg += 1;
    hour[i] = day.hours[seg]!.hour;
  }
  return { day, values: new Float64Array(count), hour };
}

/** Adds `weight` for every ms of [a, b) to the slots it covers. */
export function addToSlots(slots: DaySlots, a: number, b: number, weight = 1): void {
  const { day, values } = slots;
  const lo = Math.max(a, day.start);
  const hi = Math.min(b, day.end);
  if (hi <= lo) return;
  let i = Math.floor((lo - day.start) / SLOT_MS);
  let t = lo;
  while (t < hi && i < values.length) {
    const slotEnd = day.start + (i + 1) * SLOT_MS;
    const e = hi < slotEnd ? hi : slotEnd;
    values[i]! += (e - t) * weight;
    t = e;
    i += 1;
  }
}

interface Acc { sum: number; n: number; peak: number }
const acc = (): Acc => ({ sum: 0, n: 0, peak: -Infinity });
const add = (a: Acc, v: number) => { a.sum += v; a.n += 1; if (v > a.peak) a.peak = v; };
// rounded, so sums added in another order (days arrive concurrently) give the same figures
const r6 = (v: number) => Math.round(v * 1e6) / 1e6;
const cell = (a: Acc): Cell | null => (a.n ? { mean: r6(a.sum / a.n), peak: r6(a.peak) } : null);

/** Mean and peak of slot values, per hour × weekday, hour, weekday and day. */
export interface CellStats {
  /** `scale` turns a slot's weight-ms into the measure (e.g. desks × SLOT_MS for a share) */
  addDay(slots: DaySlots, scale: number, hourStart: number, hourEnd: number): void;
  summary(): Pick<ReportSummary, 'grid' | 'byHour' | 'byWeekday' | 'byDay'>;
  /** the day and the hour of day with the highest peak and mean, or null */
  peakDay(): string | null;
  peakHour(): number | null;
}

export function createCellStats(): CellStats {
  const grid = Array.from({ length: 8 }, () => Array.from({ length: 24 }, acc));
  const byHour = Array.from({ length: 24 }, acc);
  const byWeekday = Array.from({ length: 8 }, acc);
  const byDay: Array<{ day: string; acc: Acc }> = [];
  return {
    addDay(slots, scale, hourStart, hourEnd) {
      const { day } = slots;
      const dayAcc = acc();
      const working = WORKING_WEEKDAYS.has(day.weekday);
      for (let i = 0; i < slots.values.length; i += 1) {
        const h = slots.hour[i]!;
        const v = scale > 0 ? slots.values[i]! / scale : 0;
        add(grid[day.weekday]![h]!, v);
        if (working) add(byHour[h]!, v);
        if (h >= hourStart && h < hourEnd) {
          add(byWeekday[day.weekday]!, v);
          add(dayAcc, v);
        }
      }
      byDay.push({ day: day.key, acc: dayAcc });
    },
    summary() {
      return {
        grid: grid.map((row) => row.map(cell)),
        byHour: byHour.map(cell),
        byWeekday: byWeekday.map(cell),
        byDay: [...byDay].sort((a, b) => (a.day < b.day ? -1 : 1)).map((d) => ({ day: d.day, value: cell(d.acc) })),
      };
    },
    peakDay() {
      let best: { day: string; acc: Acc } | null = null;
      for (const d of byDay) if (d.acc.n && (!best || d.acc.peak > best.acc.peak)) best = d;
      return best && best.acc.peak > 0 ? best.day : null;
    },
    peakHour() {
      let best = -1;
      let bestMean = 0;
      byHour.forEach((a, h) => { if (a.n && a.sum / a.n > bestMean) { bestMean = a.sum / a.n; best = h; } });
      return best < 0 ? null : best;
    },
  };
}

export function emptySummary(): ReportSummary {
  return {
    grid: Array.from({ length: 8 }, () => Array.from({ length: 24 }, () => null)),
    byHour: Array.from({ length: 24 }, () => null),
    byWeekday: Array.from({ length: 8 }, () => null),
    byDay: [],
    totals: [],
    counts: {},
    series: [],
    highlights: [],
  };
}
