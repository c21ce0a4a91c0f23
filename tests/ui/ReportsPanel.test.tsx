// The reports panel says where a report stands: paging with a progress bar
// and Cancel, cancelled or failed with a way to run it again, nothing
// measured, or done with charts whose legends name what they show.

import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { SELF_KEY, type AssetDetail } from '../../src/shared/api.js';
import type { ReservationEvent } from '../../src/shared/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  emptySkipped, type BookingItem, type EnvironmentRow, type LocationRow, type ReportMeta, type ReportProgress, type ReportRequest, type ReportSummary, type RoomRow,
} from '../../src/shared/reports/types.js';
import { BOOKINGS_UPDATING } from '../../src/ui/components/reports/ReportDetails.js';
import { PeriodPicker } from '../../src/ui/components/reports/PeriodPicker.js';
import { ReportsPanel, summaryLines } from '../../src/ui/components/reports/ReportsPanel.js';
import { cellText, REPORT_COLUMNS } from '../../src/ui/components/reports/reportColumns.js';
import { EngineContext } from '../../src/ui/hooks/engineContext.js';
import { createFakeEngine, signedInWorld } from './fakeEngine.js';
import { renderShell } from './renderShell.js';

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
    // the period's days in the app's date words, without the year in the year they are of
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2025, 3, 8, 10) });
    show(progress({ state: 'done', pagesLoaded: 7, pagesEstimated: 7 }), { d1: { kind: 'desk', id: 'd1', name: 'Desk 1', floorId: null, utilisation: null, occupiedHours: 0, daysUsed: 0, cleanDeskBreaches: 0, class: 'no_data' } });
    expect((await screen.findByTestId('report-empty')).textContent)
      .toBe('No readings from Apr 1 to Apr 7 in the whole location: the sensors sent nothing in this period. Choose another period.');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull();
    vi.useRealTimers();
  });

  it('writes the peak day of the location report in the app\'s date words, in its KPI and its table', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 10, 25, 10) });
    const location: ReportRequest = { kind: 'location', scope: { kind: 'location' }, period: { from: '2026-11-19', to: '2026-11-25' } };
    const row: LocationRow = {
      kind: 'location', id: 'f1', name: 'Floor 0', buildingId: 'b1', buildingName: 'Helsinki HQ A',
      peakPeople: 12, meanPeople: 4.5, peakOccupied: 9, meanOccupancy: 0.31, peakDay: '2026-11-23', peakHour: 10,
    };
    const meta: ReportMeta = {
      request: location, timeZone: 'Europe/Helsinki', hourStart: 7, hourEnd: 18,
      progress: progress({ state: 'done', pagesLoaded: 3, pagesEstimated: 3, rows: 420 }),
      summary: { ...summary(), highlights: [{ label: 'Peak day', value: '2026-11-23', day: '2026-11-23' }, { label: 'Peak hour', value: '10:00' }] },
      measure: null,
    };
    const engine = createFakeEngine({ report: { entries: { f1: row }, meta } });
    render(
      <EngineContext.Provider value={engine.client}>
        <ReportsPanel request={location} onChange={vi.fn()} timeZone="Europe/Helsinki" buildingId={null} buildingName={null} floorId={null} floorName={() => null} />
      </EngineContext.Provider>,
    );
    await screen.findByTestId('report-done');
    const kpis = Object.fromEntries([...document.querySelectorAll('.report-totals > div')].map((d) => [d.querySelector('dt')!.textContent, d.querySelector('dd')!.textContent]));
    expect(kpis).toMatchObject({ 'Peak day': 'Nov 23', 'Peak hour': '10:00' });
    const table = screen.getByRole('table');
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    const cells = within(table).getAllByRole('cell').map((c) => c.textContent);
    expect(cells[headers.indexOf('Peak day')]).toBe('Nov 23');
    expect(document.body.textContent).not.toContain('2026-11-23');
    vi.useRealTimers();
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
    expect(legends[0]).toBe('MeanPeak (highest ten minutes)Working hours 7–18No use outside them');
    expect(legends[1]).toBe('0 %40 %No data');
    expect(screen.getByRole('table')).toBeTruthy();
  });
});

describe('RecentBookings in a room popup', () => {
  afterEach(cleanup);
  const H = 3_600_000;
  const booking = (ref: string, startH: number, endH: number, cls: BookingItem['class']): BookingItem => {
    const now = Date.now();
    return { ref, subject: ref, plannedStart: now + startH * H, plannedEnd: now + endH * H, actualStart: now + startH * H, actualEnd: now + endH * H, class: cls, used: null };
  };
  const event = (subject: string, startH: number, endH: number): ReservationEvent => ({
    start: Date.now() + startH * H, end: Date.now() + endH * H, subject, user_id: 'u1', booking_ref: subject,
  });
  const roomRow = (items: BookingItem[]): RoomRow => ({
    kind: 'room', id: 'r1', name: 'Room r1', floorId: 'f1', hasOccupancySensor: false, bookings: items.length, bookedHours: 6, usedHours: null,
    usedWhileBookedHours: null, unbookedUseHours: null, noShows: null, noShowRate: null,
    classes: { completed_as_planned: 0, ended_early: 0, extended: 0, removed: 0, upcoming: 0, unknown: 0 }, busiestHour: null, items,
  });
  const done: ReportMeta = { request: null, timeZone: 'UTC', hourStart: 7, hourEnd: 18, progress: progress({ state: 'done' }), summary: null, measure: null };

  /** the shell with room r1's popup open: its live bookings to come, and the week's report */
  async function openRoom(upcoming: ReservationEvent[], report: { entries: Record<string, unknown>; meta: ReportMeta }) {
    const world = signedInWorld();
    const detail = world['asset:r1']!.entries[SELF_KEY] as AssetDetail;
    detail.reservation = { text: 'No reservations', active: upcoming.find((e) => e.start < Date.now()) ?? null, next: null, upcoming };
    world.report = report;
    const engine = createFakeEngine(world);
    renderShell(engine);
    fireEvent.keyDown(await screen.findByRole('button', { name: /Room r1/ }), { key: 'Enter' });
    const section = await within(await screen.findByTestId('asset-popup')).findByRole('region', { name: 'Recent bookings' });
    return { engine, section, detail };
  }
  const lines = (list: HTMLElement) => within(list).getAllByRole('listitem').map((li) => li.textContent);

  it('lists what is coming up first, soonest first, from the live bookings, then what is over, newest first', async () => {
    // the live reservation sensor, soonest first (as the worker sends it); the report keeps its items newest first
    const upcoming = [event('Running now', -0.5, 0.5), event('Lunch talk', 1, 2), event('Evening review', 5, 6)];
    const items = [
      booking('Lunch talk', 1, 2, 'upcoming'), booking('Cancelled later', 3, 4, 'removed'), booking('Running now', -0.5, 0.5, 'unknown'),
      booking('Cancelled earlier', -1.5, -1, 'removed'), booking('Morning standup', -3, -2, 'completed_as_planned'), booking('Yesterday', -24, -23, 'ended_early'),
    ];
    const { section } = await openRoom(upcoming, { entries: { r1: roomRow(items) }, meta: done });
    const coming = await within(section).findByRole('list', { name: 'Coming up' });
    expect(lines(coming)).toEqual([
      expect.stringMatching(/Running now Now$/), expect.stringMatching(/Lunch talk Upcoming$/), expect.stringMatching(/Evening review Upcoming$/),
    ]);
    const earlier = within(section).getByRole('list', { name: 'Earlier' });
    expect(lines(earlier)).toEqual([
      expect.stringMatching(/Cancelled earlier Removed$/), expect.stringMatching(/Morning standup Completed as planned$/), expect.stringMatching(/Yesterday Ended early/),
    ]);
    expect(within(section).getAllByRole('heading', { level: 4 }).map((h) => h.textContent)).toEqual(['Coming up', 'Earlier']);
  });

  it('shows a booking just made at once, before any report would read it again', async () => {
    const { engine, section, detail } = await openRoom([], { entries: { r1: roomRow([booking('Morning standup', -3, -2, 'completed_as_planned')]) }, meta: done });
    await within(section).findByRole('list', { name: 'Earlier' });
    expect(within(section).queryByRole('list', { name: 'Coming up' })).toBeNull();
    act(() => engine.emit('asset:r1', { upserted: { [SELF_KEY]: { ...detail, reservation: { ...detail.reservation!, upcoming: [event('Just booked', 0.25, 0.75)] } } } }));
    const coming = await within(section).findByRole('list', { name: 'Coming up' });
    expect(lines(coming)).toEqual([expect.stringMatching(/Just booked Upcoming$/)]);
  });

  it('lists what is coming up while the week is still loading, and says when the week had none', async () => {
    const loading: ReportMeta = { ...done, progress: progress({ state: 'loading' }) };
    const { engine, section } = await openRoom([event('Lunch talk', 1, 2)], { entries: {}, meta: loading });
    expect(lines(await within(section).findByRole('list', { name: 'Coming up' }))).toEqual([expect.stringMatching(/Lunch talk Upcoming$/)]);
    expect(within(section).getByText('Loading bookings…')).toBeTruthy();
    act(() => engine.emit('report', { meta: done }));
    expect(await within(section).findByText('No earlier bookings in the last 7 days.')).toBeTruthy();
  });

  it('keeps the earlier bookings while the week is read again, saying it is updating, then shows the new answer', async () => {
    const loading: ReportMeta = { ...done, progress: progress({ state: 'loading' }) };
    const { engine, section } = await openRoom([], { entries: { r1: roomRow([booking('Morning standup', -3, -2, 'completed_as_planned')]) }, meta: done });
    expect(lines(await within(section).findByRole('list', { name: 'Earlier' }))).toEqual([expect.stringMatching(/Morning standup Completed as planned$/)]);
    expect(within(section).queryByText(BOOKINGS_UPDATING)).toBeNull();
    // a booking ended: the worker reads the week again (docs/reports.md "Kept runs and today")
    act(() => engine.emit('report', { meta: loading }));
    await within(section).findByText(BOOKINGS_UPDATING);
    expect(within(section).queryByText('Loading bookings…')).toBeNull();
    expect(lines(within(section).getByRole('list', { name: 'Earlier' }))).toEqual([expect.stringMatching(/Morning standup Completed as planned$/)]);
    act(() => engine.emit('report', { upserted: { r1: roomRow([booking('Review', -1, -0.5, 'completed_as_planned'), booking('Morning standup', -3, -2, 'completed_as_planned')]) }, meta: done }));
    await waitFor(() => { expect(within(section).queryByText(BOOKINGS_UPDATING)).toBeNull(); });
    expect(lines(within(section).getByRole('list', { name: 'Earlier' }))).toEqual([
      expect.stringMatching(/Review Completed as planned$/), expect.stringMatching(/Morning standup Completed as planned$/),
    ]);
  });

  it('says there were none when the week had no bookings and none are coming', async () => {
    const { section } = await openRoom([], { entries: {}, meta: done });
    expect(await within(section).findByText('No bookings in the last 7 days.')).toBeTruthy();
    expect(within(section).queryByRole('heading', { level: 4 })).toBeNull();
  });
});

describe('summaryLines', () => {
  it('writes a day in the app\'s date words in the location\'s zone, with the year for another year\'s day', () => {
    const now = Date.UTC(2026, 0, 1, 12);
    const lines = summaryLines([], [
      { label: 'Peak day', value: '2025-12-30', day: '2025-12-30' }, { label: 'Busiest day', value: '2026-01-01', day: '2026-01-01' }, { label: 'Peak day', value: '—' },
    ], () => null, 'Europe/Helsinki', now);
    expect(lines.map((l) => l.value)).toEqual(['Dec 30, 2025', 'Jan 1', '—']);
    // 23:30 on Dec 31 in New York is Jan 1 in Helsinki: the year is the location's
    expect(summaryLines([], [{ label: 'Peak day', value: '2025-12-30', day: '2025-12-30' }], () => null, 'America/New_York', Date.UTC(2026, 0, 1, 4, 30))[0]!.value).toBe('Dec 30');
  });

  it('tells a place the report gives a floor by that floor, and leaves one without as it is', () => {
    const floors: Record<string, string> = { fa1: 'Floor 1, Helsinki HQ A', fb1: 'Floor 1, Helsinki HQ B' };
    const lines = summaryLines(
      [{ label: 'CO₂ outside 0–800 ppm', value: '36 %' }],
      [
        { label: 'Worst CO₂: F1-R2', value: '55 %', floorId: 'fb1' },
        { label: 'Worst CO₂: F0-R9', value: '42 %', floorId: null },
        { label: 'Worst CO₂: F1-R2', value: '40 %', floorId: 'fa1' },
        { label: 'Busiest hour', value: '10:00' },
      ],
      (id) => floors[id] ?? null,
      'Europe/Helsinki',
    );
    expect(lines.map((l) => l.label)).toEqual([
      'CO₂ outside 0–800 ppm', 'Worst CO₂: F1-R2 (Floor 1, Helsinki HQ B)', 'Worst CO₂: F0-R9', 'Worst CO₂: F1-R2 (Floor 1, Helsinki HQ A)', 'Busiest hour',
    ]);
  });
});

describe('the location report\'s table and CSV', () => {
  it('show the peak day in the app\'s date words on screen and as an ISO date in the file', () => {
    const row: LocationRow = {
      kind: 'location', id: 'f1', name: 'Floor 0', buildingId: 'b1', buildingName: 'Helsinki HQ A',
      peakPeople: 12, meanPeople: 4.5, peakOccupied: 9, meanOccupancy: 0.31, peakDay: '2026-11-23', peakHour: 10,
    };
    const column = REPORT_COLUMNS.location.find((c) => c.header === 'Peak day')!;
    expect(column.value(row, () => null)).toBe('2026-11-23');
    expect(cellText(column, row, () => null, 'Europe/Helsinki', Date.UTC(2026, 10, 25))).toBe('Nov 23');
    expect(cellText(column, { ...row, peakDay: null }, () => null, 'Europe/Helsinki')).toBe('—');
  });
});

describe('the environment report\'s table and CSV', () => {
  it('name a row\'s sensor type as the map\'s layers do, under the same headers as before', () => {
    const row: EnvironmentRow = {
      kind: 'environment', id: 'co2:r1', type: 'co2', unit: 'ppm', groupId: 'r1', groupName: 'F0-R1', groupKind: 'room', floorId: 'f1',
      sensors: 1, mean: 640, min: 420, max: 1210, coveredHours: 11, outsideHours: 2.5, outsideShare: 0.2273, band: [0, 800],
    };
    const cells = REPORT_COLUMNS.environment.map((c) => c.value(row, () => 'Floor 0'));
    expect(REPORT_COLUMNS.environment.map((c) => c.header)).toEqual(['Type', 'Place', 'Floor', 'Mean', 'Min', 'Max', 'Unit', 'Comfort band', 'Outside band h', 'Outside band %']);
    expect(cells).toEqual(['CO₂', 'F0-R1', 'Floor 0', 640, 420, 1210, 'ppm', '0–800', 2.5, 22.7]);
    expect(REPORT_COLUMNS.environment[0]!.value({ ...row, type: 'temperature' }, () => null)).toBe('Temperature');
  });
});
