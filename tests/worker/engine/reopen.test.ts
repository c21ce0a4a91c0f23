import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DrawState, FloorViewMeta } from '../../../src/shared/api.js';
import type { MapLayer } from '../../../src/shared/constants.js';
import { REST_OTHER_FLOORS_MS, type Engine } from '../../../src/worker/engine.js';
import { VIEW_FIRST_SAVE_MS } from '../../../src/worker/engine/viewSaver.js';
import { createIdbStorage } from '../../../src/worker/storage/idbStorage.js';
import {
  collect, createFakeBackend, createTestEngine, LOCATION_ID, measurement, ORG_ID, wireDesk, wireOccupancySensor,
} from './harness.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const HOST = 'http://127.0.0.1:9';
const engines: Engine[] = [];
let dbCount = 0;
const LAYERS = ['desks', 'desk_usage'] as const;
/** IndexedDB work is real (not timers): on a busy machine it takes a while */
const WAIT = { timeout: 10_000 };

beforeEach(() => { vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'Date'] }); });
afterEach(async () => { for (const e of engines.splice(0)) await e.dispose(); vi.useRealTimers(); });

const desks = [wireDesk('d1', 'f1'), wireDesk('d2', 'f1'), wireDesk('d3', 'f2')];
const sensors = ['d1', 'd2', 'd3'].map((d) => wireOccupancySensor(`s-${d}`, T0, 1));

/** Signs in, loads the location, shows floor f1 (optionally with its view open long enough to be saved), then closes. */
async function firstVisit(name: string, options: { view?: boolean; after?(engine: Engine): Promise<void> } = {}): Promise<void> {
  const backend = createFakeBackend({ assets: desks, sensors });
  const { engine } = createTestEngine({ fetch: backend.fetch, transportFactory: backend.transportFactory, storage: createIdbStorage({ name }) });
  engines.push(engine);
  await engine.init({ host: HOST });
  expect((await engine.signIn('ann@example.com', 'pw')).ok).toBe(true);
  await engine.selectOrganization(ORG_ID);
  await engine.selectLocation(LOCATION_ID);
  await vi.waitFor(() => expect(engine.internals.store.assets.has('d3')).toBe(true), WAIT);
  await engine.selectFloor('f1');
  if (options.view) {
    await collect(engine, { view: 'floor', floorId: 'f1', layers: [...LAYERS] });
    await vi.advanceTimersByTimeAsync(VIEW_FIRST_SAVE_MS);
    const saved = createIdbStorage({ name });
    await vi.waitFor(async () => expect(await saved.loadView({ userId: 'u1', locationId: LOCATION_ID })).not.toBeNull(), WAIT);
    await saved.close();
  }
  await options.after?.(engine);
  await engine.internals.persister.flush();
  await engine.dispose();
  engines.splice(engines.indexOf(engine), 1);
}

/** The saved parts a storage was asked for (the shared part, floor ids), in order. */
function partsAsked(reads: { mock: { calls: unknown[][] } }): string[] {
  return reads.mock.calls.flatMap((c) => (c[2] as { parts?(meta: { floorId: string }): readonly string[] } | undefined)?.parts?.({ floorId: 'f1' }) ?? []);
}

/**
 * A page that stays open (no flush, no dispose: it goes the way a reload or a closed tab takes it): signs in on
 * `backend`, shows floor f1 with its view open until the location and the view are saved, and hands back the
 * engine and its live floor view. `present` is an asset whose arrival says the location is loaded.
 */
async function savedOpenPage(
  backend: ReturnType<typeof createFakeBackend>, storage: ReturnType<typeof createIdbStorage>, views: { mock: { results: Array<{ value: unknown }> } },
  layers: readonly MapLayer[], present: string,
) {
  const { engine } = createTestEngine({ fetch: backend.fetch, transportFactory: backend.transportFactory, storage });
  // disposed after the test only
  engines.push(engine);
  await engine.init({ host: HOST });
  expect((await engine.signIn('ann@example.com', 'pw')).ok).toBe(true);
  await engine.selectOrganization(ORG_ID);
  await engine.selectLocation(LOCATION_ID);
  await vi.waitFor(() => expect(engine.internals.store.assets.has(present)).toBe(true), WAIT);
  await engine.selectFloor('f1');
  const live = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: [...layers] });
  // saved: the location and the floor's view
  await vi.advanceTimersByTimeAsync(VIEW_FIRST_SAVE_MS);
  await vi.waitFor(() => expect(views.mock.results.length).toBeGreaterThan(0), WAIT);
  await views.mock.results.at(-1)!.value;
  await engine.internals.persister.settled();
  return { engine, live };
}

/** A reopen with the network held back, so what shows is the saved data alone. */
function reopen(name: string, storage = createIdbStorage({ name })): Engine {
  const { engine } = createTestEngine({
    fetch: () => new Promise<Response>(() => undefined),
    transportFactory: createFakeBackend().transportFactory,
    storage,
  });
  engines.push(engine);
  return engine;
}

describe('reopen', () => {
  it('restores the shown floor with the shared data first and the other floors REST_OTHER_FLOORS_MS later while no live data came', async () => {
    const name = `storey-reopen-${++dbCount}`;
    await firstVisit(name);
    const storage = createIdbStorage({ name });
    const reads = vi.spyOn(storage, 'loadLocation');
    const engine = reopen(name, storage);
    const { store } = engine.internals;
    expect(await engine.resume()).toBe(true);
    expect([...(store.assetsByFloor.get('f1') ?? [])].sort()).toEqual(['d1', 'd2']);
    expect(store.floors.has('f2')).toBe(true);
    expect(store.assets.has('d3')).toBe(false);

    const floor = await collect<DrawState, FloorViewMeta>(engine, { view: 'floor', floorId: 'f1', layers: [...LAYERS] });
    expect([...floor.entries.keys()].sort()).toEqual(['d1', 'd2']);
    expect(floor.meta?.fromCache).toBe(true);
    // the network is held back: the other floors wait their time, then come from the saved data
    expect(REST_OTHER_FLOORS_MS).toBe(3_000);
    await vi.advanceTimersByTimeAsync(REST_OTHER_FLOORS_MS - 100);
    expect(partsAsked(reads)).not.toContain('f2');
    expect(store.assets.has('d3')).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(partsAsked(reads)).toContain('f2');
    await vi.waitFor(() => expect(store.assetsByFloor.get('f2')?.has('d3')).toBe(true), WAIT);
    expect(store.sensors.has('s-d3')).toBe(true);
  });

  it('reads the other floors at once when another floor is opened, or the finder, while they wait or before', async () => {
    for (const [open, early] of [
      [(engine: Engine) => collect(engine, { view: 'floor', floorId: 'f2', layers: [...LAYERS] }), false],
      [(engine: Engine) => collect(engine, { view: 'search', query: 'd' }), false],
      // opened right after the resume, before the worker began on the rest of the saved location
      [(engine: Engine) => collect(engine, { view: 'floor', floorId: 'f2', layers: [...LAYERS] }), true],
      // as the app switches floor: the floor chosen first (it is the shown floor then), its viewer after
      [async (engine: Engine) => { await engine.selectFloor('f2'); return collect(engine, { view: 'floor', floorId: 'f2', layers: [...LAYERS] }); }, false],
    ] as const) {
      const name = `storey-reopen-${++dbCount}`;
      await firstVisit(name);
      const engine = reopen(name);
      const { store } = engine.internals;
      await engine.resume();
      if (!early) {
        await collect(engine, { view: 'floor', floorId: 'f1', layers: [...LAYERS] });
        // the shown floor again (a second viewer of it) does not hurry them
        await collect(engine, { view: 'floor', floorId: 'f1', layers: ['desks'] });
        await vi.advanceTimersByTimeAsync(500);
        expect(store.assets.has('d3')).toBe(false);
      }
      await open(engine);
      // IndexedDB work is real: wait for it without moving the clock to the other floors' time
      await vi.waitFor(() => expect(store.assets.has('d3')).toBe(true), { timeout: 10_000, interval: 20 });
      expect(Date.now() - T0).toBeLessThan(REST_OTHER_FLOORS_MS);
    }
  });

  it('never reads the other floors when live data replaces the saved location first', async () => {
    const name = `storey-reopen-${++dbCount}`;
    await firstVisit(name);
    const backend = createFakeBackend({ assets: desks, sensors });
    const storage = createIdbStorage({ name });
    const { engine } = createTestEngine({ fetch: backend.fetch, transportFactory: backend.transportFactory, storage });
    engines.push(engine);
    const reads = vi.spyOn(storage, 'loadLocation');
    await engine.init({ host: HOST });
    expect(await engine.resume()).toBe(true);
    await collect(engine, { view: 'floor', floorId: 'f1', layers: [...LAYERS] });
    const store = engine.internals.store;
    // live data (the fake backend answers at once) brings every floor, d3 included
    await vi.waitFor(() => expect(store.assets.has('d3')).toBe(true), { timeout: 10_000, interval: 20 });
    expect(Date.now() - T0).toBeLessThan(REST_OTHER_FLOORS_MS);
    await vi.advanceTimersByTimeAsync(REST_OTHER_FLOORS_MS * 2);
    // the parts read from the saved data: the shared part and the shown floor, never the other floor's
    expect(partsAsked(reads)).toContain('f1');
    expect(partsAsked(reads)).not.toContain('f2');
    expect(store.assets.has('d3')).toBe(true);
  });

  it('answers a resume asked twice (the page at start-up, then the app) with one read of the saved data', async () => {
    const name = `storey-reopen-${++dbCount}`;
    await firstVisit(name);
    const storage = createIdbStorage({ name });
    const { engine } = createTestEngine({
      fetch: () => new Promise<Response>(() => undefined),
      transportFactory: createFakeBackend().transportFactory,
      storage,
    });
    engines.push(engine);
    const sessions = vi.spyOn(storage, 'loadSession');
    const reads = vi.spyOn(storage, 'loadLocation');
    await engine.init({ host: HOST });
    const [page, app] = await Promise.all([engine.resume(), engine.resume()]);
    expect([page, app]).toEqual([true, true]);
    expect(await engine.resume()).toBe(true);
    expect(sessions).toHaveBeenCalledTimes(1);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(engine.internals.store.assetsByFloor.get('f1')?.size).toBe(2);

    // signing out forgets that answer: the next resume reads again and finds nothing
    await engine.signOut();
    await vi.waitFor(async () => expect(await storage.loadSession()).toBeNull(), WAIT);
    expect(await engine.resume()).toBe(false);
    expect(engine.internals.store.assets.size).toBe(0);
  });

  it('reads the other floors soon even when no floor is opened', async () => {
    const name = `storey-reopen-${++dbCount}`;
    await firstVisit(name);
    const engine = reopen(name);
    await engine.resume();
    expect(engine.internals.store.assets.has('d3')).toBe(false);
    await vi.advanceTimersByTimeAsync(500 + REST_OTHER_FLOORS_MS);
    await vi.waitFor(() => expect(engine.internals.store.assets.has('d3')).toBe(true), WAIT);
  });

  it('draws the floor from its saved view before the floor is read, then sends only what differs from it', async () => {
    const name = `storey-reopen-${++dbCount}`;
    // the desk empties after the view was saved: the saved view shows it occupied, the saved floor free
    await firstVisit(name, {
      view: true,
      async after(engine) {
        engine.internals.sink.apply(measurement('s-d1', 'occupancy', { time: T0 + 1_000, valid_for: 3_600_000, value: 0 }));
      },
    });
    const engine = reopen(name);
    const { store } = engine.internals;
    await engine.resume();
    expect(store.assets.has('d1')).toBe(false);

    const floor = await collect<DrawState, FloorViewMeta>(engine, { view: 'floor', floorId: 'f1', layers: [...LAYERS] });
    const first = floor.messages[0]!;
    expect(first.type).toBe('snapshot');
    expect(floor.entries.get('d1')).toMatchObject({ id: 'd1', status: 'occupied' });
    expect(floor.entries.get('d2')).toMatchObject({ id: 'd2', status: 'occupied' });
    expect(floor.meta?.fromCache).toBe(true);
    const d2 = floor.entries.get('d2');

    await vi.waitFor(() => expect(store.assets.has('d1')).toBe(true), WAIT);
    await vi.advanceTimersByTimeAsync(100);
    engine.internals.hub.flush();
    expect(floor.entries.get('d1')?.status).not.toBe('occupied');
    // d2 did not change: no patch carried it
    expect(floor.entries.get('d2')).toBe(d2);
    const patched = floor.messages.slice(1).flatMap((m) => (m.type === 'patch' ? Object.keys(m.upserted) : []));
    expect(patched).toEqual(['d1']);
  });

  it('serves no saved view for other layers than it was saved with', async () => {
    const name = `storey-reopen-${++dbCount}`;
    await firstVisit(name, { view: true });
    const engine = reopen(name);
    await engine.resume();
    const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['desks'] });
    expect(floor.entries.size).toBe(0);
    await vi.waitFor(() => { engine.internals.hub.flush(); expect(floor.entries.size).toBe(2); }, WAIT);
  });
  it('draws no ticket or voice removed live just before the page went (no flush, no dispose: a reload)', async () => {
    const name = `storey-reopen-${++dbCount}`;
    const value = { text: 'Printer jammed', label: 'it', status: 'open', time: T0, valid_for: 86_400_000, valid_to: T0 + 86_400_000 };
    const ticket = { id: 't1', type: 'ticket', name: 'Printer jammed', parent_id: 'f1', x: 2, y: 3, value, speech_bubble: 'Printer jammed' };
    const voice = { id: 'v1', type: 'voice', name: 'Too cold', parent_id: 'f1', x: 4, y: 3, value: { ...value, text: 'Too cold', label: 'space' }, timeout_action: 'fade_out' };
    const layers = [...LAYERS, 'info' as const];
    const backend = createFakeBackend({ assets: [...desks, ticket, voice], sensors });
    const storage = createIdbStorage({ name });
    const views = vi.spyOn(storage, 'saveView');
    // a reload drops the page's worker without its last flush
    const { engine: first, live } = await savedOpenPage(backend, storage, views, layers, 'v1');
    expect(live.entries.has('t1') && live.entries.has('v1')).toBe(true);
    // both saved with the ticket and the voice
    const savedKeys = () => Object.keys(views.mock.calls.at(-1)![1].entries);
    expect(savedKeys()).toContain('v1');
    // removed live; the page goes a moment later, before the throttled writer's (1 s) and the view's (5 s) next turns
    const saves = views.mock.calls.length;
    first.internals.sink.apply({
      scope: { kind: 'location', organizationId: ORG_ID, locationId: LOCATION_ID },
      changes: [{ collection: 'assets', kind: 'deleted', id: 't1' }, { collection: 'assets', kind: 'deleted', id: 'v1' }],
    });
    await vi.advanceTimersByTimeAsync(300);
    expect(views.mock.calls.length).toBeGreaterThan(saves);
    expect(savedKeys()).not.toContain('t1');
    expect(savedKeys()).not.toContain('v1');
    await views.mock.results.at(-1)!.value;
    await first.internals.persister.settled();

    const engine = reopen(name);
    await engine.resume();
    const floor = await collect<DrawState, FloorViewMeta>(engine, { view: 'floor', floorId: 'f1', layers });
    expect(floor.meta?.fromCache).toBe(true);
    expect([...floor.entries.keys()].sort()).toEqual(['d1', 'd2']);
    // and once the saved floor itself is read
    await vi.waitFor(() => expect(engine.internals.store.assets.has('d1')).toBe(true), WAIT);
    await vi.advanceTimersByTimeAsync(100);
    engine.internals.hub.flush();
    expect([...floor.entries.keys()].sort()).toEqual(['d1', 'd2']);
  });

  it('draws a ticket reported live just before the page went when the page asked to save (saveNow), and saves nothing more when asked again', async () => {
    const name = `storey-reopen-${++dbCount}`;
    const layers = [...LAYERS, 'info' as const];
    const backend = createFakeBackend({ assets: desks, sensors });
    const storage = createIdbStorage({ name });
    const views = vi.spyOn(storage, 'saveView');
    const writes = vi.spyOn(storage, 'write');
    // saved as they were before the ticket; a closed page drops its worker without the engine's dispose
    const { engine: first, live } = await savedOpenPage(backend, storage, views, layers, 'd3');
    const [viewSaves, locationWrites] = [views.mock.calls.length, writes.mock.calls.length];

    // reported live; the page goes at once, well before the throttled writer's (1 s) and the view's (5 s) next turns
    const value = { text: 'Printer jammed', label: 'it', status: 'open', time: T0, valid_for: 86_400_000, valid_to: T0 + 86_400_000 };
    first.internals.sink.apply({
      scope: { kind: 'location', organizationId: ORG_ID, locationId: LOCATION_ID },
      changes: [{ collection: 'assets', kind: 'created', id: 't1', data: { id: 't1', type: 'ticket', name: 'Printer jammed', parent_id: 'f1', x: 2, y: 3, value, speech_bubble: 'Printer jammed' } }],
    });
    await first.saveNow();
    expect(views.mock.calls.length).toBe(viewSaves + 1);
    expect(writes.mock.calls.length).toBe(locationWrites + 1);
    // the view's patch was sent on the way (it had not been yet: saveNow ran in the same turn as the change)
    expect(live.entries.has('t1')).toBe(true);
    // nothing changed since: asked again (pagehide after visibilitychange), it writes nothing
    await first.saveNow();
    expect([views.mock.calls.length, writes.mock.calls.length]).toEqual([viewSaves + 1, locationWrites + 1]);

    const engine = reopen(name);
    await engine.resume();
    const floor = await collect<DrawState, FloorViewMeta>(engine, { view: 'floor', floorId: 'f1', layers });
    expect(floor.meta?.fromCache).toBe(true);
    expect([...floor.entries.keys()].sort()).toEqual(['d1', 'd2', 't1']);
    // and once the saved floor itself is read
    await vi.waitFor(() => expect(engine.internals.store.assets.has('t1')).toBe(true), WAIT);
    await vi.advanceTimersByTimeAsync(100);
    engine.internals.hub.flush();
    expect([...floor.entries.keys()].sort()).toEqual(['d1', 'd2', 't1']);
  });
});
