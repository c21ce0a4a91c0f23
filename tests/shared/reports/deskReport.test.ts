import { describe, expect, it } from 'vitest';
import { calendarDay, workingWindow } from '../../../src/shared/reports/calendar.js';
import { createDeskAggregator, deskClass } from '../../../src/shared/reports/deskReport.js';
import type { DeskRow } from '../../../src/shared/reports/types.js';
import { H, M, TZ, at, context, feed } from './helpers.js';

const desks = [
  { id: 'd1', name: 'Desk 1', floorId: 'f1', sensorId: 's1' },
  { id: 'd2', name: 'Desk 2', floorId: 'f1', sensorId: 's2' },
  { id: 'd3', name: 'Desk 3', floorId: 'f1', sensorId: null },
];

function run(from: string, to: string, rows: unknown[][], extra = {}) {
  const ctx = context(from, to, extra);
  const agg = createDeskAggregator(ctx, desks);
  feed(agg, ctx, 'occupancy', rows);
  const result = agg.result();
  return { ...result, row: (id: string) => result.rows.find((r) => r.id === id) as DeskRow };
}

describe('desk report', () => {
  describe('calendar', () => {
    it('gives the spring DST day 23 hours and the autumn one 25, with 11 working hours each', () => {
      const spring = calendarDay('2025-03-30', TZ);
      const autumn = calendarDay('2025-10-26', TZ);
      expect((spring.end - spring.start) / H).toBe(23);
      expect((autumn.end - autumn.start) / H).toBe(25);
      for (const day of [spring, autumn]) expect(workingWindow(day, 7, 18).reduce((s, [a, b]) => s + b - a, 0) / H).toBe(11);
      expect(spring.hours.some((s) => s.hour === 3)).toBe(false);
      expect(autumn.hours.filter((s) => s.hour === 3).reduce((s, x) => s + x.end - x.start, 0) / H).toBe(2);
    });
  });

  it('counts only the minutes inside working hours of working days', () => {
    // Wednesday: occupied 06:00–08:00 (1 h inside), 17:30–19:00 (0.5 h inside)
    const { row } = run('2025-03-12', '2025-03-12', [
      [at('2025-03-12', 6), 's1', 2 * H, 1, 90], [at('2025-03-12', 8), 's1', 9 * H, 0, 90],
      [at('2025-03-12', 17, 30), 's1', 1.5 * H, 1, 90], [at('2025-03-12', 19), 's1', 5 * H, 0, 90],
    ]);
    expect(row('d1').occupiedHours).toBe(1.5);
    expect(row('d1').utilisation).toBeCloseTo(1.5 / 11, 4);
    expect(row('d1').class).toBe('unused');
  });

  it('leaves weekends out of the working time and the utilisation', () => {
    // Friday to Sunday; occupied all of Saturday's working hours
    const { row } = run('2025-03-14', '2025-03-16', [
      [at('2025-03-14', 7), 's1', 11 * H, 1, 90],
      [at('2025-03-15', 7), 's1', 11 * H, 1, 90],
    ]);
    expect(row('d1').utilisation).toBe(1);
    expect(row('d1').daysUsed).toBe(1);
  });

  it('counts a reading that spans midnight in both days, clipped at the day boundary', () => {
    // a 26-hour reading from Tuesday 20:00 keeps the desk occupied through Wednesday's working hours
    const { row } = run('2025-03-11', '2025-03-12', [[at('2025-03-11', 20), 's1', 26 * H, 1, 90]]);
    expect(row('d1').occupiedHours).toBe(11);
    expect(row('d1').utilisation).toBe(0.5);
  });

  it('ends a reading at its valid_for, or at the next reading, whichever is first', () => {
    const { row } = run('2025-03-12', '2025-03-12', [
      [at('2025-03-12', 9), 's1', 30 * M, 1, 90],
      [at('2025-03-12', 10), 's1', 4 * H, 1, 90],
      [at('2025-03-12', 11), 's1', 4 * H, 0, 90],
    ]);
    expect(row('d1').occupiedHours).toBe(1.5);
  });

  it('uses a DST day\'s real working hours', () => {
    // Sunday 30 March 2025 is not a working day; Monday 31 March is, occupied 07:00–18:00 local (EEST)
    const { row } = run('2025-03-30', '2025-03-31', [[at('2025-03-31', 7), 's1', 11 * H, 1, 90]]);
    expect(row('d1').utilisation).toBe(1);
    expect(row('d1').occupiedHours).toBe(11);
  });

  it('answers no data for an empty period and for a desk without a sensor', () => {
    const { row, summary } = run('2025-03-12', '2025-03-12', []);
    expect(row('d1').utilisation).toBeNull();
    expect(row('d1').class).toBe('no_data');
    expect(row('d3').class).toBe('no_data');
    expect(summary.counts.no_data).toBe(3);
  });

  it('classes desks at 15 % and 50 %', () => {
    expect(deskClass(0.149)).toBe('unused');
    expect(deskClass(0.15)).toBe('under_used');
    expect(deskClass(0.499)).toBe('under_used');
    expect(deskClass(0.5)).toBe('in_use');
    expect(deskClass(null)).toBe('no_data');
  });

  it('counts a clean-desk breach when a desk is left longer than the policy and then used again, not when its user goes home', () => {
    const { row } = run('2025-03-12', '2025-03-12', [
      [at('2025-03-12', 8), 's1', 1 * H, 1, 90], [at('2025-03-12', 9), 's1', 3 * H, 0, 90],
      [at('2025-03-12', 12), 's1', 1 * H, 1, 90], [at('2025-03-12', 13), 's1', 1 * H, 0, 90],
      [at('2025-03-12', 14), 's1', 1 * H, 1, 90], [at('2025-03-12', 15), 's1', 9 * H, 0, 90],
      [at('2025-03-12', 8), 's2', 1 * H, 1, 90], [at('2025-03-12', 9), 's2', 10 * H, 0, 90],
    ]);
    expect(row('d1').cleanDeskBreaches).toBe(1);
    expect(row('d2').cleanDeskBreaches).toBe(0);
  });

  it('gives mean and peak occupancy of the scope per hour of the weekday', () => {
    // Wednesday: s1 09:00–10:00, s2 09:30–10:00 → 09:00 hour has mean 0.375 and peak 1 of 2 sensed desks
    const { summary } = run('2025-03-12', '2025-03-12', [
      [at('2025-03-12', 9), 's1', 1 * H, 1, 90],
      [at('2025-03-12', 9, 30), 's2', 30 * M, 1, 90],
    ]);
    const cell = summary.grid[3]![9]!;
    expect(cell.mean).toBeCloseTo(0.75, 5);
    expect(cell.peak).toBe(1);
    expect(summary.grid[3]![8]!.mean).toBe(0);
    // the busiest day as a day (the UI writes it "Mar 12"), beside the busiest hour in words
    expect(summary.highlights.filter((h) => h.label.startsWith('Busiest'))).toEqual([
      { label: 'Busiest hour', value: '09:00' }, { label: 'Busiest day', value: '2025-03-12', day: '2025-03-12' },
    ]);
  });
});
