// The reports' charts by hour (src/ui/components/reports/ReportCharts.tsx,
// src/ui/lib/chartHours.ts): they keep to the working hours a facility manager
// reads them for (spec §9: 7 to 18), and widen to take in any hour outside
// them that had use, never leaving measured use out (docs/reports.md "Charts
// by hour").

import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Cell, ReportSummary } from '../../src/shared/reports/types.js';
import { HeatGrid, HourBars } from '../../src/ui/components/reports/ReportCharts.js';
import { chartHours, hourRanges } from '../../src/ui/lib/chartHours.js';

afterEach(cleanup);

/** A day of working days as the report gives it: every hour has slots, the night's are zero. */
const day = (use: Record<number, number>): Array<Cell | null> =>
  Array.from({ length: 24 }, (_, h) => ({ mean: (use[h] ?? 0) / 2, peak: use[h] ?? 0 }));
const OFFICE = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [7 + i, 0.2 + i / 20]));

const barHours = (root: Element) => [...root.querySelectorAll('svg.hour-bars g[data-hour]')].map((g) => Number(g.getAttribute('data-hour')));
const axis = (root: Element, svg: string) => [...root.querySelectorAll(`${svg} text.axis`)].map((t) => t.textContent);
const legend = (root: Element) => root.querySelector('[aria-label="Legend"]')!.textContent;

describe('HourBars', () => {
  it('draws the working hours only, marked, when nothing was used outside them, and says there was none', () => {
    const { container } = render(<HourBars cells={day(OFFICE)} share hourStart={7} hourEnd={18} label="Desks: mean and peak by hour of working days" />);
    expect(barHours(container)).toEqual([7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
    // one label an hour, and the top of the scale
    expect(axis(container, 'svg.hour-bars')).toEqual(['7h', '8h', '9h', '10h', '11h', '12h', '13h', '14h', '15h', '16h', '17h', '70 %']);
    expect(container.querySelector('title')!.textContent).toBe('07:00 peak 20 %');
    expect(legend(container)).toBe('MeanPeak (highest ten minutes)Working hours 7–18No use outside them');
    // the working hours' mark runs under every bar
    const mark = container.querySelector('svg.hour-bars rect.working-hours')!;
    const bars = [...container.querySelectorAll('svg.hour-bars rect.peak')];
    expect(Number(mark.getAttribute('x'))).toBeLessThan(Number(bars[0]!.getAttribute('x')));
    expect(Number(mark.getAttribute('x')) + Number(mark.getAttribute('width')))
      .toBeGreaterThan(Number(bars.at(-1)!.getAttribute('x')) + Number(bars.at(-1)!.getAttribute('width')));
  });

  it('widens to the hours outside the working hours that had use, says which, and marks only the working hours', () => {
    const { container } = render(<HourBars cells={day({ ...OFFICE, 5: 0.05, 20: 0.1, 19: 0.002 })} share hourStart={7} hourEnd={18} label="Desks" />);
    expect(barHours(container)).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    // sixteen hours: a label every second hour
    expect(axis(container, 'svg.hour-bars').slice(0, -1)).toEqual(['6h', '8h', '10h', '12h', '14h', '16h', '18h', '20h']);
    const titles = [...container.querySelectorAll('svg.hour-bars title')].map((t) => t.textContent);
    expect(titles).toContain('05:00 peak 5 %, outside working hours');
    expect(titles).toContain('20:00 mean 5 %, outside working hours');
    // a little use is not told as none
    expect(titles).toContain('19:00 peak < 1 %, outside working hours');
    expect(titles).toContain('17:00 peak 70 %');
    // paler than the working hours' bars
    expect([...container.querySelectorAll('svg.hour-bars g.outside')].map((g) => g.getAttribute('data-hour'))).toEqual(['5', '6', '18', '19', '20']);
    expect(legend(container)).toBe('MeanPeak (highest ten minutes)Working hours 7–18In use outside them too (paler): 5–6, 19–21');
    const mark = container.querySelector('svg.hour-bars rect.working-hours')!;
    const bar = (h: number) => container.querySelector(`g[data-hour="${h}"] rect.peak`)!;
    const left = Number(mark.getAttribute('x'));
    const right = left + Number(mark.getAttribute('width'));
    expect(left).toBeGreaterThan(Number(bar(6).getAttribute('x')) + Number(bar(6).getAttribute('width')));
    expect(left).toBeLessThan(Number(bar(7).getAttribute('x')));
    expect(right).toBeGreaterThan(Number(bar(17).getAttribute('x')) + Number(bar(17).getAttribute('width')));
    expect(right).toBeLessThan(Number(bar(18).getAttribute('x')));
  });
});

describe('HeatGrid', () => {
  it('keeps to the working hours, and shows an hour outside them that had use on any day', () => {
    const grid: ReportSummary['grid'] = Array.from({ length: 8 }, () => day(OFFICE));
    const quiet = render(<HeatGrid grid={grid} hourStart={7} hourEnd={18} share label="Mean by hour and weekday" />);
    expect(axis(quiet.container, 'svg.heat-grid').slice(0, 11)).toEqual(['7', '8', '9', '10', '11', '12', '13', '14', '15', '16', '17']);
    expect(axis(quiet.container, 'svg.heat-grid')[11]).toBe('Mon');
    cleanup();
    // a Saturday's late event
    grid[6] = day({ ...OFFICE, 21: 0.3 });
    const late = render(<HeatGrid grid={grid} hourStart={7} hourEnd={18} share label="Mean by hour and weekday" />);
    // fifteen hours: a label every second hour
    expect(axis(late.container, 'svg.heat-grid').slice(0, 8)).toEqual(['8', '10', '12', '14', '16', '18', '20', 'Mon']);
    expect(late.container.querySelectorAll('svg.heat-grid rect')).toHaveLength(7 * 15);
    expect([...late.container.querySelectorAll('svg.heat-grid title')].map((t) => t.textContent)).toContain('Sat 21:00 mean 15 %, peak 30 %');
  });
});

describe('chartHours', () => {
  it('is the working hours widened to the earliest and latest hour used, with no gap', () => {
    expect(chartHours(7, 18, () => false)).toEqual([7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
    expect(chartHours(7, 18, (h) => h === 10)).toEqual([7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
    expect(chartHours(7, 18, (h) => h === 3 || h === 23)).toEqual(Array.from({ length: 21 }, (_, i) => 3 + i));
    expect(chartHours(9, 10, (h) => h === 12)).toEqual([9, 10, 11, 12]);
  });

  it('draws the whole day when the working hours are no range', () => {
    expect(chartHours(18, 7, () => false)).toHaveLength(24);
    expect(chartHours(8, 8, () => false)).toHaveLength(24);
  });

  it('names hours as ranges', () => {
    expect(hourRanges([])).toBe('');
    expect(hourRanges([20, 5, 6, 18])).toBe('5–7, 18–19, 20–21');
  });
});
