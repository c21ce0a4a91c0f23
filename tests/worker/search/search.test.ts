import MiniSearch from 'minisearch';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SearchMeta, SearchResult } from '../../../src/shared/api.js';
import type { Engine } from '../../../src/worker/engine.js';
import { SEARCH_RESULTS_PER_GROUP } from '../../../src/worker/search/searchSource.js';
import { lookOf, statusKindOf } from '../../../src/worker/derive/drawState.js';
import { MAP_LAYERS } from '../../../src/shared/constants.js';
import {
  collect, createTestEngine, feedLocation, locationScope, wireDesk, wireOccupancySensor, wireUser,
} from '../engine/harness.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const MIN = 60_000;

let engine: Engine;

beforeEach(() => { vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'Date'] }); });
afterEach(async () => { await engine?.dispose(); vi.useRealTimers(); vi.restoreAllMocks(); });

const ASSETS = [
  wireDesk('d1', 'f1', { name: 'Desk 1.12' }),
  wireDesk('d2', 'f1', { name: 'Desk 1.13' }),
  wireDesk('d3', 'f2', { name: 'Desk 2.12' }),
  { id: 'r1', type: 'room', subtype: 'meeting', name: 'Aurora', parent_id: 'f2', x: 5, y: 5, data_providers: [] },
  { id: 'l1', type: 'container', subtype: 'locker', name: 'Locker 4', parent_id: 'f1', x: 1, y: 1, categories: { shape: 'locker' } },
  { id: 'air1', type: 'sensor', subtype: 'environment', name: 'Air 1', parent_id: 'f1', x: 3, y: 3, data_providers: ['s-co2'], default_sensor_type: 'co2' },
  { id: 't1', type: 'ticket', name: 'Broken chair', speech_bubble: 'The chair by the window is broken', parent_id: 'f2', x: 2, y: 2, value: { time: T0, valid_for: 60 * MIN, status: 'open' } },
  wireDesk('d-secret', 'f1', { name: 'Desk 1.99', unpublished: true }),
];
const SENSORS = [
  wireOccupancySensor('s-d1', T0 - MIN, 0),
  wireOccupancySensor('s-d2', T0 - MIN, 1),
  wireOccupancySensor('s-d3', T0 - MIN, 0),
  { id: 's-co2', type: 'co2', unit: 'ppm', last_measurement: { time: T0 - MIN, valid_for: 60 * MIN, value: 812 } },
];
const USERS = [wireUser('u1', { first_name: 'Aino', last_name: 'Mäkelä' }), wireUser('u2', { first_name: 'Jussi', last_name: 'Makinen' })];

async function search(query: string) {
  const view = await collect<SearchResult, SearchMeta>(engine, { view: 'search', query });
  // the index's code loads on the first search (lazyModule.ts): the view answers in the next flush,
  // and the build's progress it reports comes in the one after
  await engine.internals.modules.settled();
  engine.internals.hub.flush();
  engine.internals.hub.flush();
  const ranked = () => [...view.entries.values()].sort((a, b) => a.rank - b.rank);
  return { view, ranked, names: () => ranked().map((r) => r.name) };
}

function setup() {
  ({ engine } = createTestEngine());
  feedLocation(engine, ASSETS, SENSORS, USERS);
}

describe('search view', () => {
  it('finds a co-worker whatever the diacritics, both ways', async () => {
    setup();
    expect((await search('makela')).names()).toEqual(['Aino Mäkelä']);
    const found = await search('MÄKELÄ');
    expect(found.names()).toEqual(['Aino Mäkelä']);
    expect(found.ranked()[0]).toMatchObject({ target: 'person', group: 'person', id: 'u1', key: 'p:u1' });
  });

  it('forgives a typo in a name and in a kind word', async () => {
    setup();
    expect((await search('Aurra')).names()).toEqual(['Aurora']);
    expect((await search('lockr 4')).names()).toEqual(['Locker 4']);
  });

  it('finds a desk by its number with its floor and building, and by its id', async () => {
    setup();
    const desk = await search('desk 1.12');
    expect(desk.ranked()[0]).toMatchObject({ id: 'd1', group: 'desk', kind: 'desk', floorId: 'f1', floorName: 'Floor f1', buildingName: 'Main', x: 1, y: 2 });
    expect((await search('d3')).names()).toEqual(['Desk 2.12']);
  });

  it('groups the results by type, the best group first, with full counts', async () => {
    setup();
    const found = await search('12');
    expect(found.view.meta).toEqual({ query: '12', total: 2, groups: [{ group: 'desk', count: 2 }], indexing: null });
    expect(found.names()).toEqual(['Desk 1.12', 'Desk 2.12']);
  });

  it('reads status words as the live status: free desks are the ones free now', async () => {
    setup();
    expect((await search('free desks')).names()).toEqual(['Desk 1.12', 'Desk 2.12']);
    expect((await search('occupied desk')).names()).toEqual(['Desk 1.13']);
  });

  it('lists the free desks of the floor the viewer looks at first, then the rest, and follows a floor switch', async () => {
    setup();
    await engine.selectFloor('f2');
    const found = await search('free desks');
    expect(found.names()).toEqual(['Desk 2.12', 'Desk 1.12']);
    await engine.selectFloor('f1');
    engine.internals.hub.flush();
    expect(found.names()).toEqual(['Desk 1.12', 'Desk 2.12']);
    // words to match keep the order of the match, wherever the viewer is
    await engine.selectFloor('f2');
    expect((await search('desk 1.12')).names()[0]).toBe('Desk 1.12');
  });

  it('says at which other location a co-worker is, as the People panel does', async () => {
    ({ engine } = createTestEngine());
    const other = { id: 'l2', organization_id: 'o1', name: 'New York office', timezone: 'America/New_York', latitude: 0, longitude: 0, buildings: [], config: {} };
    feedLocation(engine, ASSETS, SENSORS, [...USERS, wireUser('u3', { first_name: 'Kaisa', last_name: 'Koski', location: { location_id: 'l2', floor_id: 'ny-f1', time: T0 - 30 * MIN } })]);
    engine.internals.store.locations.set('l2', other as never);
    const found = await search('koski');
    expect(found.ranked()[0]).toMatchObject({ id: 'u3', status: 'at New York office', floorId: null });
    expect((await search('makela')).ranked()[0]!.status).toBe('not on site');
  });

  it('stops saying where a co-worker is when their location passes its 12 hours, with the finder still open', async () => {
    ({ engine } = createTestEngine());
    const other = { id: 'l2', organization_id: 'o1', name: 'New York office', timezone: 'America/New_York', latitude: 0, longitude: 0, buildings: [], config: {} };
    // its end falls between two of the engine's minute-long timeline ticks, which re-read everyone
    const since = T0 - 12 * 60 * MIN + 5.5 * MIN;
    feedLocation(engine, [], [], [...USERS, wireUser('u3', { first_name: 'Kaisa', last_name: 'Koski', location: { location_id: 'l2', floor_id: 'ny-f1', time: since } })]);
    engine.internals.store.locations.set('l2', other as never);
    const found = await search('koski');
    expect(found.ranked()[0]!.status).toBe('at New York office');
    await vi.advanceTimersByTimeAsync(5.5 * MIN);
    engine.internals.hub.flush();
    expect(found.ranked()[0]!.status).toBe('at New York office');
    await vi.advanceTimersByTimeAsync(1);
    engine.internals.hub.flush();
    expect(found.ranked()[0]).toMatchObject({ id: 'u3', status: 'not on site' });
  });

  it('finds sensors by what they measure and shows their value', async () => {
    setup();
    const found = await search('co2');
    expect(found.ranked()[0]).toMatchObject({ id: 'air1', group: 'sensor', status: expect.stringContaining('812 ppm') });
  });

  it("finds a ticket by what it says", async () => {
    setup();
    expect((await search('window')).names()).toEqual(['Broken chair']);
  });

  it('never finds what the viewer may not see (an unpublished desk, for a regular user)', async () => {
    setup();
    expect((await search('1.99')).names()).toEqual([]);
    expect((await search('d-secret')).names()).toEqual([]);
  });

  it('answers an empty query with nothing, and lists at most a page per group', async () => {
    ({ engine } = createTestEngine());
    const desks = Array.from({ length: 30 }, (_, i) => wireDesk(`d${i}`, 'f1', { name: `Desk 9.${i}` }));
    feedLocation(engine, desks, desks.map((d) => wireOccupancySensor(`s-${d.id}`, T0 - MIN, 0)));
    expect((await search('   ')).names()).toEqual([]);
    const all = await search('desks');
    expect(all.view.meta!.total).toBe(30);
    expect(all.names()).toHaveLength(SEARCH_RESULTS_PER_GROUP);
    // natural order: 9.2 before 9.10
    expect(all.names().slice(0, 3)).toEqual(['Desk 9.0', 'Desk 9.1', 'Desk 9.2']);
  });

  it('follows live changes: a renamed desk is found by its new name and no longer by the old one', async () => {
    setup();
    const byNew = await search('Kuusi');
    const byOld = await search('desk 1.13');
    expect(byNew.names()).toEqual([]);
    engine.internals.sink.apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'modified', data: { ...ASSETS[1], name: 'Kuusi corner' } }] });
    await vi.advanceTimersByTimeAsync(0);
    engine.internals.hub.flush();
    expect(byNew.names()).toEqual(['Kuusi corner']);
    expect(byOld.names()).toEqual([]);
  });

  it('follows live status: a desk that becomes occupied leaves the free desks', async () => {
    setup();
    const free = await search('free desk');
    expect(free.names()).toEqual(['Desk 1.12', 'Desk 2.12']);
    engine.internals.sink.apply({ scope: locationScope, changes: [{ collection: 'measurements', kind: 'created', id: 's-d1', data: { sensor_id: 's-d1', type: 'occupancy', value: { time: T0, valid_for: 60 * MIN, value: 1 } } }] });
    await vi.advanceTimersByTimeAsync(0);
    engine.internals.hub.flush();
    expect(free.names()).toEqual(['Desk 2.12']);
    expect(free.view.meta!.total).toBe(1);
  });

  it('filters by the same status kind the map shows with every layer on', () => {
    setup();
    const stale = wireDesk('d-stale', 'f1', { data_providers: ['s-stale'] });
    engine.internals.sink.apply({ scope: locationScope, changes: [
      { collection: 'assets', kind: 'created', data: stale },
      { collection: 'sensors', kind: 'created', data: wireOccupancySensor('s-stale', T0 - 120 * MIN, 1, MIN) },
    ] });
    const kinds = new Set<string>();
    for (const id of engine.internals.store.assets.keys()) {
      const facts = engine.internals.facts.get(id)!;
      kinds.add(statusKindOf(facts));
      expect(statusKindOf(facts), id).toBe(lookOf(facts, new Set(MAP_LAYERS)).statusKind);
    }
    expect([...kinds].sort()).toEqual(['busy', 'free', 'none', 'unknown']);
  });

  it('shows an edited desk where it now is without searching again while what it is found by stays the same', async () => {
    setup();
    const found = await search('desk 1.1');
    const before = found.names();
    expect([...before].sort()).toEqual(['Desk 1.12', 'Desk 1.13']);
    const searched = vi.spyOn(MiniSearch.prototype, 'search');
    // moved and given another shade: the same words, so the same results; the moved one shows its new place
    engine.internals.sink.apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'modified', data: { ...ASSETS[1], x: 9, y: 7, shade: [10, 20, 30] } }] });
    engine.internals.hub.flush();
    expect(found.ranked().find((r) => r.id === 'd2')).toMatchObject({ x: 9, y: 7 });
    expect(found.names()).toEqual(before);
    expect(searched).not.toHaveBeenCalled();
    // renamed: the words changed, and the query runs again
    engine.internals.sink.apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'modified', data: { ...ASSETS[1], name: 'Kuusi corner' } }] });
    engine.internals.hub.flush();
    expect(found.names()).toEqual(['Desk 1.12']);
    expect(searched).toHaveBeenCalled();
  });

  it('shows a new reading in its own result without searching again, and readings of other things send nothing', async () => {
    setup();
    const found = await search('co2');
    expect(found.ranked()[0]).toMatchObject({ id: 'air1', status: expect.stringContaining('812 ppm') });
    const searched = vi.spyOn(MiniSearch.prototype, 'search');
    const sent = found.view.messages.length;
    const reading = (sensorId: string, type: string, value: number) => ({
      collection: 'measurements' as const, kind: 'created' as const, id: sensorId, data: { sensor_id: sensorId, type, value: { time: T0, valid_for: 60 * MIN, value } },
    });
    // desks that are not among the results: nothing for this view
    engine.internals.sink.apply({ scope: locationScope, changes: [reading('s-d1', 'occupancy', 1), reading('s-d3', 'occupancy', 1)] });
    engine.internals.hub.flush();
    expect(found.view.messages.length).toBe(sent);
    // the sensor found: its result shows the new value, with the desks' readings in the same flush
    engine.internals.sink.apply({ scope: locationScope, changes: [reading('s-d1', 'occupancy', 0), reading('s-co2', 'co2', 950), reading('s-d2', 'occupancy', 0)] });
    engine.internals.hub.flush();
    expect(found.ranked()[0]).toMatchObject({ id: 'air1', status: expect.stringContaining('950 ppm') });
    expect(found.view.messages.length).toBe(sent + 1);
    expect(searched).not.toHaveBeenCalled();
  });

  it("follows a co-worker's tag to another floor in the person's result", async () => {
    ({ engine } = createTestEngine());
    const employee = { id: 'e1', type: 'employee', name: 'Employee e1', parent_id: null, data_providers: ['t1'], data_provider_refs: { location: 't1' }, default_sensor_type: 'location', config: { user_id: 'u1' } };
    feedLocation(engine, [...ASSETS, employee], [...SENSORS, { id: 't1', type: 'location', subtype: 'tag', last_measurement: { time: T0 - MIN, valid_for: 10 * MIN, x: 3, y: 4, floor_id: 'f1' } }], USERS);
    const found = await search('makela');
    expect(found.ranked()[0]).toMatchObject({ key: 'p:u1', floorId: 'f1', x: 3, y: 4 });
    engine.internals.sink.apply({ scope: locationScope, changes: [{ collection: 'measurements', kind: 'created', id: 't1', data: { sensor_id: 't1', type: 'location', value: { time: T0, valid_for: 10 * MIN, x: 7, y: 8, floor_id: 'f2' } } }] });
    engine.internals.hub.flush();
    expect(found.ranked()[0]).toMatchObject({ key: 'p:u1', floorId: 'f2', x: 7, y: 8 });
  });

  // an edit that changes nothing the finder reads is not read and re-worded again (issue 14); these are the
  // edits that do change what it reads, alone and with another change of the same batch before or after it
  it('follows an edit of what a thing is found by, while edits of its look change nothing found', async () => {
    setup();
    const edit = (data: Record<string, unknown>) => ({ collection: 'assets' as const, kind: 'modified' as const, id: data.id as string, data });
    const apply = (...changes: unknown[]) => { engine.internals.sink.apply({ scope: locationScope, changes } as never); engine.internals.hub.flush(); };
    const window = await search('window');
    const lamp = await search('lamp');
    const desk = await search('desk 1.12');
    // a ticket's bubble is what it says: found by the new text only
    apply(edit({ ...ASSETS[6], speech_bubble: 'The lamp flickers' }));
    expect(window.names()).toEqual([]);
    expect(lamp.names()).toEqual(['Broken chair']);
    // a desk's colour and bubble are not words of it: found as before
    apply(edit({ ...ASSETS[0], overriding_color: [255, 152, 0], speech_bubble: 'Reserved for the team day' }));
    expect(desk.names()).toEqual(['Desk 1.12']);
    // made a locker: found among the lockers
    apply(edit({ ...ASSETS[0], subtype: 'locker', categories: { shape: 'locker' } }));
    expect((await search('lockers')).names()).toContain('Desk 1.12');
    // unpublished: no longer found by a regular user
    apply(edit({ ...ASSETS[1], unpublished: true }));
    expect((await search('desk 1.13')).names()).toEqual([]);
  });

  it('finds a thing by the type of a sensor replaced in the same batch as an edit of its look, either order', async () => {
    setup();
    const look = { collection: 'assets', kind: 'modified', id: 'air1', data: { ...ASSETS[5], overriding_color: [1, 2, 3] } };
    const sensor = (type: string) => ({ collection: 'sensors', kind: 'modified', id: 's-co2', data: { ...SENSORS[3], type } });
    const temperature = await search('temperature');
    const co2 = await search('co2');
    engine.internals.sink.apply({ scope: locationScope, changes: [look, sensor('temperature')] } as never);
    engine.internals.hub.flush();
    expect(temperature.names()).toEqual(['Air 1']);
    expect(co2.names()).toEqual([]);
    engine.internals.sink.apply({ scope: locationScope, changes: [sensor('co2'), look] } as never);
    engine.internals.hub.flush();
    expect(co2.names()).toEqual(['Air 1']);
    expect(temperature.names()).toEqual([]);
  });

  it('forgets a deleted asset', async () => {
    setup();
    const found = await search('Aurora');
    engine.internals.sink.apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'deleted', id: 'r1' }] });
    engine.internals.hub.flush();
    expect(found.names()).toEqual([]);
    expect((await search('Aurora')).names()).toEqual([]);
  });
});
