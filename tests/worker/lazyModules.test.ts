// Code loaded on first use (src/worker/lazyModule.ts): directions and the
// finder's index are not loaded when the engine starts, answer the first
// request once their code has come, say they are loading until then, and a
// chunk that cannot load gives a clear error, not a view that waits forever.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SELF_KEY, type RouteView, type SearchMeta, type SearchResult, type ViewSpec } from '../../src/shared/api.js';
import type { ReportMeta, ReportRequest, ReportRow } from '../../src/shared/reports/types.js';
import { MSG } from '../../src/shared/messages.js';
import type { Engine } from '../../src/worker/engine.js';
import type { ModuleLoaders } from '../../src/worker/engineModules.js';
import { lazyLoadError, lazyModule } from '../../src/worker/lazyModule.js';
import { loadRouting } from '../../src/worker/views/routeView.js';
import { loadReports } from '../../src/worker/reports/lazyReports.js';
import {
  collect, createTestEngine, feedLocation, organizationScope, TWO_FLOORS_BY_LIFT, wireOrganization, type TestLogger,
} from './engine/harness.js';

const T0 = Date.UTC(2025, 0, 15, 10, 0, 0);
let engine: Engine;
let logger: TestLogger;

beforeEach(() => { vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'Date'] }); });
afterEach(async () => { await engine?.dispose(); vi.useRealTimers(); });

const ROUTE: ViewSpec = { view: 'route', from: { kind: 'asset', id: 'd1' }, to: { kind: 'asset', id: 'r2' } };
const SEARCH: ViewSpec = { view: 'search', query: 'aurora' };
const REQUEST: ReportRequest = { kind: 'desk', scope: { kind: 'location' }, period: { from: '2025-01-13', to: '2025-01-14' } };
const REPORT: ViewSpec = { view: 'report', report: REQUEST };

function setup(modules: Partial<ModuleLoaders> = {}) {
  ({ engine, logger } = createTestEngine({ modules }));
  feedLocation(engine, TWO_FLOORS_BY_LIFT, []);
  engine.internals.sink.apply({ scope: organizationScope, changes: [{ collection: 'organizations', kind: 'modified', data: { ...wireOrganization(), config: { wayfindingEnabled: true } } }] });
}

/** Lets the code under way arrive and the views it wakes send their patches. */
async function arrive() {
  await engine.internals.modules.settled();
  engine.internals.hub.flush();
  engine.internals.hub.flush();
}

/** A loader that fails `failures` times (as a chunk does offline before it was cached), then loads. */
function flaky<T>(load: () => Promise<T>, failures: number) {
  const calls = { n: 0 };
  const loader = () => {
    calls.n += 1;
    return calls.n <= failures ? Promise.reject(new TypeError('Failed to fetch dynamically imported module')) : load();
  };
  return { loader, calls };
}

describe('code loaded on first use', () => {
  it('loads neither directions nor search when the engine starts and the floor is shown', async () => {
    setup();
    await collect(engine, { view: 'floor', floorId: 'f1', layers: ['desks'] } as ViewSpec);
    await arrive();
    expect(engine.internals.modules.routing.state).toBe('idle');
    expect(engine.internals.modules.search.state).toBe('idle');
    expect(engine.internals.modules.reports.state).toBe('idle');
  });

  it('answers the first route asked for, with no entry (the panel says "Finding the way…") until the code is there', async () => {
    setup();
    const view = await collect<RouteView>(engine, ROUTE);
    expect(view.entries.has(SELF_KEY)).toBe(false);
    expect(engine.internals.modules.routing.state).toBe('loading');
    await arrive();
    expect(view.entries.get(SELF_KEY)).toMatchObject({ status: 'ok', floorIds: ['f1', 'f2'], linkCost: 1, metres: 15 });
  });

  it('answers the first search, saying it is preparing until the index code is there', async () => {
    setup();
    const view = await collect<SearchResult, SearchMeta>(engine, SEARCH);
    expect(view.meta).toEqual({ query: 'aurora', total: 0, groups: [], indexing: { done: 0, total: 0 } });
    await arrive();
    expect([...view.entries.values()].map((r) => r.name)).toEqual(['Aurora']);
    expect(view.meta).toMatchObject({ total: 1, indexing: null });
  });

  it('says directions could not be loaded when their code does not come, and loads it again when asked again', async () => {
    const { loader, calls } = flaky(loadRouting, 1);
    setup({ routing: loader });
    const first = await collect<RouteView>(engine, ROUTE);
    await arrive();
    expect(first.entries.get(SELF_KEY)).toMatchObject({ status: 'unavailable', steps: [] });
    expect(logger.errors).toEqual(['Directions: its code did not load']);
    // opening the directions again asks for the code again
    const again = await collect<RouteView>(engine, ROUTE);
    await arrive();
    expect(calls.n).toBe(2);
    expect(again.entries.get(SELF_KEY)).toMatchObject({ status: 'ok' });
    expect(first.entries.get(SELF_KEY)).toMatchObject({ status: 'ok' });
  });

  it('says search could not be loaded when its code does not come, and loads it again on the next search', async () => {
    const { loader, calls } = flaky(() => import('../../src/worker/search/searchIndex.js'), 1);
    setup({ search: loader });
    const first = await collect<SearchResult, SearchMeta>(engine, SEARCH);
    await arrive();
    expect(first.meta).toEqual({ query: 'aurora', total: 0, groups: [], indexing: null, error: 'Search could not be loaded. Check the connection and try again.' });
    const again = await collect<SearchResult, SearchMeta>(engine, { view: 'search', query: 'desk' });
    await arrive();
    expect(calls.n).toBe(2);
    expect([...again.entries.values()].map((r) => r.name)).toEqual(['Desk 1.1']);
    expect(first.meta).toMatchObject({ total: 1, indexing: null });
    expect(first.meta?.error).toBeUndefined();
  });
});

describe('reports loaded on first use', () => {
  it('answers the first report view: loading until the code is there, then the report service runs it', async () => {
    setup();
    const view = await collect<ReportRow, ReportMeta>(engine, REPORT);
    expect(view.meta).toMatchObject({ request: REQUEST, timeZone: 'UTC', summary: null, progress: { state: 'loading', pagesLoaded: 0, message: null } });
    await arrive();
    // the service's own answer: this engine was given no settings, so no permissions (spec §8 words)
    expect(view.meta?.progress).toMatchObject({ state: 'denied', message: MSG.NO_PERMISSIONS });
  });

  it('refuses a malformed request at once, as before the code has loaded', async () => {
    setup();
    await expect(engine.subscribe({ view: 'report', report: { kind: 'nonsense' } } as unknown as ViewSpec, () => undefined)).rejects.toThrow('Malformed report request');
  });

  it('puts the report in error when its code does not come, and Retry asks for the code again', async () => {
    const { loader, calls } = flaky(loadReports, 1);
    setup({ reports: loader });
    const view = await collect<ReportRow, ReportMeta>(engine, REPORT);
    await arrive();
    expect(view.meta?.progress).toMatchObject({ state: 'error', message: 'Reports could not be loaded. Check the connection and try again.' });
    expect(logger.errors).toEqual(['Reports: its code did not load']);
    await engine.rerunReport(REQUEST);
    await arrive();
    expect(calls.n).toBe(2);
    expect(view.meta?.progress).toMatchObject({ state: 'denied', message: MSG.NO_PERMISSIONS });
  });
});

describe('lazyModule', () => {
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };

  it('loads once however often it is asked while loading or loaded', async () => {
    const load = vi.fn(async () => ({ answer: 42 }));
    const settled = vi.fn();
    const code = lazyModule('Reports', load, { onSettled: settled, logger: quiet });
    expect(code.get()).toBeNull();
    code.load();
    code.load();
    await code.settled();
    code.load();
    expect(load).toHaveBeenCalledTimes(1);
    expect(settled).toHaveBeenCalledTimes(1);
    expect(code.get()).toEqual({ answer: 42 });
    expect(code.state).toBe('ready');
  });

  it('fails, not hangs, when the loader throws before giving a promise', async () => {
    const settled = vi.fn();
    const code = lazyModule('Reports', () => { throw new Error('no such chunk'); }, { onSettled: settled, logger: quiet });
    code.load();
    await code.settled();
    expect(code.state).toBe('failed');
    expect(code.error).toBe(lazyLoadError('Reports'));
    expect(code.error).toBe('Reports could not be loaded. Check the connection and try again.');
    expect(settled).toHaveBeenCalledTimes(1);
  });
});
