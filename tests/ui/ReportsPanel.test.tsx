// The reports panel says where a report stands: paging with a progress bar
// and Cancel, cancelled or failed with a way to run it again, nothing
// measured, or done with charts whose legends name what they show.

import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptySkipped, type ReportMeta, type ReportProgress, type ReportRequest, type ReportSummary } from '../../src/shared/reports/types.js';
import { PeriodPicker } from '../../src/ui/components/reports/PeriodPicker.js';
import { ReportsPanel } from '../../src/ui/components/reports/ReportsPanel.js';
import { EngineContext } from '../../src/ui/hooks/engineContext.js';
import { createFakeEngine } from './fakeEngine.js';

const request: ReportRequest = { kind: 'desk', scope: { kind: 'location' }, period: { from: '2025-04-01', to: '2025-04-07' } };

const progress = (patch: Partial<ReportProgress>): ReportProgress => ({
  state: 'loading', pagesLoaded: 0, pagesEstimated: 0, pagesFromCache: 0, rows: 0, elapsedMs: 0, skipped: emptySkipped(), message: null, ...patch,
});

const summary = (): ReportSummary => ({
  grid: Array.from({ length: 8 }, () => Array.from({ length: 24 }, (_, h) => (h >= 7 && h < 18 ? { mean: 0.4, peak: 0.7 } : null))),
  byHour: Array.from({ length: 24 }, (_, h) => (h >= 7 && h < 18 ? { mean: 0.4, peak: 0.7 } : null)),
  byWeekday: [], byDay: [], totals: [{ label: 'Desks', value: '1' }], counts: {}, series: [], highlights: [],
});

function show(p: ReportProgress, rows: Record<string, unknown> = {}) {
  const meta: ReportMeta = { request, timeZone: 'Europe/Helsinki', hourStart: 7, hourEnd: 18, progress: p, summary: p.state === 'done' ? summary() : null, measure: null };
  const engine = createFakeEngine({ report: { entries: rows, meta } });
  render(
    <EngineContext.Provider value={engine.client}>
      <ReportsPanel request={request} onChange={vi.fn()} timeZone="Europe/Helsinki" buildingId={null} buildingName={null} floorId={null} floorName={() => null} />
    </EngineContext.Provider>,
  );
  return engine;
}

describe('ReportsPanel', () => {
  afterEach(cleanup);

  it('shows the pages loaded of those expected while it pages, and cancels the report', async () => {
    const engine = show(progress({ pagesLoaded: 12, pagesEstimated: 40, rows: 123_456, pagesFromCache: 5, elapsedMs: 3_400 }));
    const bar = await screen.findByRole('progressbar', { name: 'Report progress' });
    expect(bar.getAttribute('value')).toBe('12');
    expect(bar.getAttribute('max')).toBe('40');
    expect(screen.getByTestId('report-loading').textContent).toContain('Loading 12 of about 40 pages, 123,456 readings, 5 pages saved on this device · 3 s');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(engine.cancelReport).toHaveBeenCalledWith(request);
  });

  it('says it waits for the location instead of showing an empty progress bar', async () => {
    show(progress({ message: 'Waiting for the location to load…' }));
    expect((await screen.findByTestId('report-waiting')).textContent).toBe('Waiting for the location to load…');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('offers to run a cancelled report again', async () => {
    const engine = show(progress({ state: 'cancelled', pagesLoaded: 3, pagesEstimated: 40 }));
    expect((await screen.findByTestId('report-cancelled')).textContent).toContain('Report cancelled after 3 of about 40 pages.');
    fireEvent.click(screen.getByRole('button', { name: 'Run again' }));
    expect(engine.rerunReport).toHaveBeenCalledWith(request);
  });

  it('says why a report failed and offers to try again', async () => {
    const engine = show(progress({ state: 'error', message: 'The server could not be reached (offline?).' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The report could not be computed: The server could not be reached (offline?).');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(engine.rerunReport).toHaveBeenCalledWith(request);
  });

  it("shows the role gate's refusal in the spec's words", async () => {
    show(progress({ state: 'denied', message: 'No role' }));
    expect((await screen.findByRole('alert')).textContent).toBe('No role');
    expect(screen.queryByRole('button', { name: /Try again|Run again/ })).toBeNull();
  });

  it('says so when nothing was measured in the period, instead of a table of empty rows', async () => {
    show(progress({ state: 'done', pagesLoaded: 7, pagesEstimated: 7 }), { d1: { kind: 'desk', id: 'd1', name: 'Desk 1', floorId: null, utilisation: null, occupiedHours: 0, daysUsed: 0, cleanDeskBreaches: 0, class: 'no_data' } });
    expect((await screen.findByTestId('report-empty')).textContent)
      .toBe('No readings from 2025-04-01 to 2025-04-07 in the whole location: the sensors sent nothing in this period. Choose another period.');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull();
  });

  it('applies a typed period only on Apply, and says why a period cannot be applied', async () => {
    const onChange = vi.fn();
    const engine = createFakeEngine({ report: { entries: {}, meta: null } });
    render(
      <EngineContext.Provider value={engine.client}>
        <ReportsPanel request={request} onChange={onChange} timeZone="Europe/Helsinki" buildingId={null} buildingName={null} floorId={null} floorName={() => null} />
      </EngineContext.Provider>,
    );
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-04-09' } });
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByText('The period ends before it starts.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Apply' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2024-01-01' } });
    expect(screen.getByText('A report covers at most 92 days.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-03-30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(onChange).toHaveBeenCalledWith({ ...request, period: { from: '2025-03-30', to: '2025-04-07' } });
  });

  it('moves its fields to a period chosen elsewhere (a preset, a link), dropping a half-typed one', () => {
    const onChange = vi.fn();
    const { rerender } = render(<PeriodPicker period={request.period} timeZone="Europe/Helsinki" onChange={onChange} />);
    const from = screen.getByLabelText('From') as HTMLInputElement;
    const to = screen.getByLabelText('To') as HTMLInputElement;
    fireEvent.change(from, { target: { value: '2025-04-05' } });
    expect(from.value).toBe('2025-04-05');
    rerender(<PeriodPicker period={{ from: '2025-05-01', to: '2025-05-07' }} timeZone="Europe/Helsinki" onChange={onChange} />);
    expect([from.value, to.value]).toEqual(['2025-05-01', '2025-05-07']);
    expect((screen.getByRole('button', { name: 'Apply' }) as HTMLButtonElement).disabled).toBe(true);
    // the same period again changes nothing typed since
    fireEvent.change(to, { target: { value: '2025-05-09' } });
    rerender(<PeriodPicker period={{ from: '2025-05-01', to: '2025-05-07' }} timeZone="Europe/Helsinki" onChange={onChange} />);
    expect(to.value).toBe('2025-05-09');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('names what its charts show in legends', async () => {
    show(progress({ state: 'done', pagesLoaded: 7, pagesEstimated: 7, rows: 500 }), { d1: { kind: 'desk', id: 'd1', name: 'Desk 1', floorId: null, utilisation: 0.4, occupiedHours: 30, daysUsed: 5, cleanDeskBreaches: 0, class: 'under_used' } });
    await screen.findByTestId('report-done');
    const legends = screen.getAllByRole('list', { name: 'Legend' }).map((l) => l.textContent);
    expect(legends[0]).toBe('MeanPeak (highest ten minutes)');
    expect(legends[1]).toBe('0 %40 %No data');
    expect(screen.getByRole('table')).toBeTruthy();
  });
});
