import type { Aggregator, ReportContext } from '../../../src/shared/reports/aggregator.js';
import { calendarDays } from '../../../src/shared/reports/calendar.js';
import { readPage } from '../../../src/shared/reports/readings.js';
import { emptySkipped } from '../../../src/shared/reports/types.js';
import { MEASUREMENT_BASE_COLUMNS, MEASUREMENT_EXTRA_COLUMNS } from '../../../src/shared/rest.js';

export const TZ = 'Europe/Helsinki';
export const H = 3_600_000;
export const M = 60_000;

export function context(from: string, to: string, extra: Partial<ReportContext> = {}): ReportContext {
  return { timeZone: TZ, hourStart: 7, hourEnd: 18, cleanDeskPolicy: 120, now: Date.UTC(2030, 0, 1), period: { from, to }, ...extra };
}

/** Feeds wire rows of one type to the aggregator day by day, as the runner does (each day gets the rows before it as previous validity). */
export function feed(agg: Aggregator, ctx: ReportContext, type: string, rows: unknown[][], columnsAsSent?: readonly string[]): void {
  const columns = columnsAsSent ?? [...MEASUREMENT_BASE_COLUMNS, ...(MEASUREMENT_EXTRA_COLUMNS[type] ?? [])];
  for (const day of calendarDays(ctx.period.from, ctx.period.to, ctx.timeZone)) {
    const sorted = [...rows].sort((a, b) => (a[0] as number) - (b[0] as number));
    // the server's previous validity: per sensor the last row before the day, if it reaches the day
    const previous = new Map<unknown, unknown[]>();
    for (const r of sorted) if ((r[0] as number) < day.start) previous.set(r[1], r);
    const inDay = sorted.filter((r) => (r[0] as number) >= day.start && (r[0] as number) < day.end);
    const before = [...previous.values()].filter((r) => r[2] === null || (r[0] as number) + (r[2] as number) > day.start);
    const stream = agg.openDay(type, day);
    stream.push(readPage(columns, [...before, ...inDay], { known: agg.known(type), numeric: agg.numeric(type), lastTime: -Infinity, skipped: emptySkipped() }));
    stream.finish();
  }
}

/** Epoch of a Helsinki wall time. */
export function at(date: string, hour: number, minute = 0): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d, hour, minute);
  const offset = (t: number) => {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: TZ, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' }).formatToParts(new Date(t));
    const get = (k: string) => Number(parts.find((p) => p.type === k)!.value);
    return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute')) - t;
  };
  return guess - offset(guess - offset(guess));
}
