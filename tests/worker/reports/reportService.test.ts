import { describe, expect, it, vi } from 'vitest';
import type { ReportMeta, ReportRequest } from '../../../src/shared/reports/types.js';
import type { MeasurementsQuery, MeasurementsResponse } from '../../../src/shared/rest.js';
import { createConfigResolver } from '../../../src/worker/derive/configResolver.js';
import { createLateReadings } from '../../../src/worker/reports/lateReadings.js';
import { createReportService, type ReportServiceOptions } from '../../../src/worker/reports/reportService.js';
import type { ViewSource } from '../../../src/worker/views/viewHub.js';
import { loadedStore, wireDesk, wireOccupancySensor } from '../engine/harness.js';

// Runs kept in the worker for a reopen are bounded (docs/reports.md "Kept in memory"): by count and by
// about the bytes their rows take, the least recently opened first, never one a view is open on.

const H = 3_600_000;
const NOW = Date.UTC(2025, 1, 20, 12);
const day = (n: number) => `2025-01-${String(n).padStart(2, '0')}`;
const request = (n: number): ReportRequest => ({ kind: 'desk', scope: { kind: 'location' }, period: { from: day(n), to: day(n) } });

function setup(kept?: ReportServiceOptions['kept'], hold?: (q: MeasurementsQuery) => Promise<void> | null) {
  const { store } = loadedStore([wireDesk('d1', 'f1'), wireDesk('d2', 'f1')], [wireOccupancySensor('s-d1', NOW - H, 1), wireOccupancySensor('s-d2', NOW - H, 0)], () => NOW);
  const config = createConfigResolver(store);
  /** the days asked for, one entry per first page of a day */
  const asked: string[] = [];
  const fetchPage = async (type: string, q: MeasurementsQuery): Promise<MeasurementsResponse> => {
    if (!q.ignore_previous_validity) asked.push(new Date(q.start!).toISOString().slice(0, 10));
    await hold?.(q);
    const rows = type === 'occupancy' ? [[q.start! + 8 * H, 's-d1', 4 * H, 1]] : [];
    return { columns: ['time', 'sensor_id', 'valid_for', 'value'], rows, has_more_results: false } as MeasurementsResponse;
  };
  const late = createLateReadings({ store, now: () => NOW, cache: null });
  const service = createReportService({
    store, config: () => config.location(), roles: () => ['regular'], permissions: () => ['USER_UPDATE_SELF'], now: () => NOW,
    fetchPage, cache: null, markDirty: () => undefined, ready: () => true, rolesKnown: () => true, offline: () => false, warn: () => undefined, kept, late,
  });
  const open = (n: number) => service.source({ view: 'report', report: request(n) });
  return { service, open, asked, late };
}

const state = (view: ViewSource) => (view.meta() as ReportMeta).progress.state;
async function done(view: ViewSource) {
  await vi.waitFor(() => { expect(state(view)).toBe('done'); });
  return view;
}
/** Opens the report of day n, waits for it, and closes it: kept for a reopen, or not. */
async function look(open: (n: number) => ViewSource, n: number) {
  const view = await done(open(n));
  view.close!();
}

describe('report runs kept in the worker', () => {
  it('answers a reopen from the kept run, and reads a run dropped past the count again', async () => {
    const { open, asked } = setup();
    for (let n = 1; n <= 8; n += 1) await look(open, n);
    expect(asked).toHaveLength(8);
    // eight kept: reopening the first asks nothing and is done at once
    const again = open(1);
    expect(state(again)).toBe('done');
    expect([...again.keys()]).toEqual(['d1', 'd2']);
    again.close!();
    expect(asked).toHaveLength(8);
    // a ninth pushes out the least recently opened, which is day 2 now (day 1 was just reopened)
    await look(open, 9);
    await look(open, 1);
    expect(asked).toHaveLength(9);
    const second = open(2);
    expect(state(second)).toBe('loading');
    await done(second);
    expect(asked).toEqual([...[1, 2, 3, 4, 5, 6, 7, 8, 9].map(day), day(2)]);
    expect([...second.keys()]).toEqual(['d1', 'd2']);
  });

  it('never drops a run a view is open on, however many come and go, and Cancel still reaches it', async () => {
    let release: (() => void) | null = null;
    const waiting = new Promise<void>((resolve) => { release = resolve; });
    // day 1 pages slowly: its run is still loading while others come and go
    const { service, open, asked } = setup(undefined, (q) => (new Date(q.start!).toISOString().startsWith(day(1)) ? waiting : null));
    const held = open(1);
    for (let n = 2; n <= 12; n += 1) await look(open, n);
    // a second view of the same report joins the run under way: no second reading of day 1
    const joined = open(1);
    await new Promise((resolve) => { setTimeout(resolve, 10); });
    expect(asked.filter((d) => d === day(1))).toHaveLength(1);
    service.cancel(request(1));
    release!();
    await vi.waitFor(() => { expect(state(held)).toBe('cancelled'); });
    expect(state(joined)).toBe('cancelled');
  });

  it('keeps a finished run open in a view past the byte budget, and drops it once its last view closes', async () => {
    // a budget smaller than any report: only what a view is open on stays
    const { open, asked } = setup({ bytes: 1 });
    const first = await done(open(1));
    await look(open, 2);
    const joined = open(1);
    expect(state(joined)).toBe('done');
    expect([...joined.keys()]).toEqual(['d1', 'd2']);
    expect(asked).toEqual([day(1), day(2)]);
    first.close!();
    joined.close!();
    const reopened = open(1);
    expect(state(reopened)).toBe('loading');
    await done(reopened);
    expect(asked).toEqual([day(1), day(2), day(1)]);
    // within the budget again (a roomy one), a closed run is kept
    const roomy = setup({ bytes: 1_000_000 });
    await look(roomy.open, 1);
    expect(state(roomy.open(1))).toBe('done');
    expect(roomy.asked).toEqual([day(1)]);
  });

  it('runs a kept report again when it is reopened after a late reading came live for one of its days', async () => {
    const { open, asked, late } = setup();
    const view = await done(open(3));
    await look(open, 5);
    const reading = (time: number, sensor = 's-d1') => ({ collection: 'measurements' as const, kind: 'created' as const, id: sensor, data: { sensor_id: sensor, value: { time, valid_for: H, value: 0 } } });
    // a late reading of the 3rd, while its report is open: the open view keeps what it shows
    late.take([reading(Date.UTC(2025, 0, 3, 10))]);
    expect(state(view)).toBe('done');
    // reopened: read again, and the view open on it follows the new run
    const again = open(3);
    expect(state(again)).toBe('loading');
    await done(again);
    expect(state(view)).toBe('done');
    expect(asked).toEqual([day(3), day(5), day(3)]);
    // a late reading of another day leaves the 5th as it was read
    late.take([reading(Date.UTC(2025, 0, 9, 10))]);
    expect(state(open(5))).toBe('done');
    expect(asked).toEqual([day(3), day(5), day(3)]);
  });
});
