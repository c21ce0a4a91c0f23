import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SELF_KEY, type RouteView } from '../../../src/shared/api.js';
import type { Engine } from '../../../src/worker/engine.js';
import {
  collect, createTestEngine, feedLocation, locationScope, organizationScope, TWO_FLOORS_BY_LIFT, wireLift, wireOrganization,
} from '../engine/harness.js';

const T0 = Date.UTC(2025, 0, 15, 10, 0, 0);
let engine: Engine;

beforeEach(() => { vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'Date'] }); });
afterEach(async () => { await engine?.dispose(); vi.useRealTimers(); });


function setup(wayfinding = true) {
  ({ engine } = createTestEngine());
  feedLocation(engine, TWO_FLOORS_BY_LIFT, []);
  engine.internals.sink.apply({ scope: organizationScope, changes: [{ collection: 'organizations', kind: 'modified', data: { ...wireOrganization(), config: { wayfindingEnabled: wayfinding } } }] });
}

async function route() {
  const view = await collect<RouteView>(engine, { view: 'route', from: { kind: 'asset', id: 'd1' }, to: { kind: 'asset', id: 'r2' } });
  // the route finding's code loads on the first route (lazyModule.ts); the view answers in the next flush
  await engine.internals.modules.settled();
  engine.internals.hub.flush();
  return () => view.entries.get(SELF_KEY)!;
}

describe('route view', () => {
  it('lists numbered steps in words across floors, with where to draw each', async () => {
    setup();
    const entry = (await route())();
    expect(entry).toMatchObject({ status: 'ok', floorIds: ['f1', 'f2'], linkCost: 1, metres: 15 });
    expect(entry.steps.map((s) => `${s.n}. ${s.text}`)).toEqual(['1. Walk 7 m to the lift', '2. Take the lift to Floor f2', '3. Walk 8 m to Aurora']);
    expect(entry.steps[0]).toMatchObject({ kind: 'walk', floorId: 'f1', toFloorId: 'f1', from: [4, 3], to: [10, 0] });
    expect(entry.steps[1]).toMatchObject({ kind: 'change', floorId: 'f1', toFloorId: 'f2' });
  });

  it('says directions are off unless the configuration enables wayfinding', async () => {
    setup(false);
    expect((await route())()).toMatchObject({ status: 'off', steps: [] });
  });

  it('follows live changes: a lift that no longer leads there leaves no route', async () => {
    setup();
    const entry = await route();
    engine.internals.sink.apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'modified', data: { ...wireLift('l1', 'f1', 'l2'), targets: [] } }] });
    engine.internals.hub.flush();
    expect(entry()).toMatchObject({ status: 'noRoute', steps: [] });
  });

  it('has no start when the viewer is not placed on a floor', async () => {
    setup();
    const view = await collect<RouteView>(engine, { view: 'route', from: { kind: 'me' }, to: { kind: 'asset', id: 'r2' } });
    expect(view.entries.get(SELF_KEY)).toMatchObject({ status: 'noStart' });
  });
});
