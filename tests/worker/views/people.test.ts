import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DrawState, PersonEntry } from '../../../src/shared/api.js';
import { MANUAL_LOCATION_TIMEOUT_MS } from '../../../src/shared/constants.js';
import { userAssetId } from '../../../src/shared/normalize/people.js';
import type { Engine } from '../../../src/worker/engine.js';
import { collect, createTestEngine, feedLocation, LOCATION_ID, measurement, organizationScope, wireUser } from '../engine/harness.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const MIN = 60_000;

let engine: Engine;

beforeEach(() => { vi.useFakeTimers({ now: T0 }); });
afterEach(async () => { await engine?.dispose(); vi.useRealTimers(); });

async function advance(ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
  engine.internals.hub.flush();
}

/** An employee asset fed by a location tag, as the reference server seeds them. */
const tagged = (id: string, userId: string | null, tagId: string) => ({
  id, type: 'employee', name: `Employee ${id}`, parent_id: null, data_providers: [tagId], data_provider_refs: { location: tagId },
  default_sensor_type: 'location', ...(userId ? { config: { user_id: userId } } : {}),
});
const tag = (id: string, value: Record<string, unknown>) => ({ id, type: 'location', subtype: 'tag', last_measurement: { valid_for: 10 * MIN, ...value } });
const privacyZone = { id: 'z1', type: 'zone', subtype: 'privacy', name: 'Quiet', parent_id: 'f1', outline: [[10, 10], [20, 10], [20, 20], [10, 20]] };

describe('views', () => {
  describe('people view', () => {
    it('gives a co-worker placed by their location tag a position on the floor, without a manual location', async () => {
      ({ engine } = createTestEngine());
      feedLocation(engine,
        [tagged('e2', 'u2', 't2'), tagged('e3', null, 't3')],
        [tag('t2', { time: T0 - MIN, x: 3, y: 4, floor_id: 'f1' }), tag('t3', { time: T0 - 2 * MIN, x: 5, y: 6, floor_id: 'f2' })],
        [wireUser('u2', { location_tag_id: 't2' }), wireUser('u3', { location_tag_id: 't3' })]);
      const people = await collect<PersonEntry>(engine, { view: 'people' });
      // linked by config.user_id; drawn by its tag's asset, which "Show" highlights
      expect(people.entries.get('u2')).toEqual({
        id: 'u2', name: 'Firstu2 Last', email: 'u2@example.com', avatarUrl: expect.anything(), decoration: null,
        locationId: LOCATION_ID, floorId: 'f1', x: 3, y: 4, visible: true, lastSeen: T0 - MIN, manual: false, assetId: 'e2', elsewhere: null,
      });
      // linked by the user's location_tag_id alone
      expect(people.entries.get('u3')).toMatchObject({ locationId: LOCATION_ID, floorId: 'f2', x: 5, y: 6, visible: true, lastSeen: T0 - 2 * MIN, manual: false });
    });

    it('follows the tag to another floor and patches only that person', async () => {
      ({ engine } = createTestEngine());
      feedLocation(engine, [tagged('e2', 'u2', 't2'), tagged('e3', 'u3', 't3')],
        [tag('t2', { time: T0, x: 3, y: 4, floor_id: 'f1' }), tag('t3', { time: T0, x: 1, y: 1, floor_id: 'f1' })],
        [wireUser('u2', { location_tag_id: 't2' }), wireUser('u3', { location_tag_id: 't3' })]);
      const people = await collect<PersonEntry>(engine, { view: 'people' });
      engine.internals.sink.apply(measurement('t2', 'location', { time: T0 + 1000, valid_for: 10 * MIN, x: 7, y: 8, floor_id: 'f2' }));
      await advance(0);
      expect(people.entries.get('u2')).toMatchObject({ floorId: 'f2', x: 7, y: 8, lastSeen: T0 + 1000, visible: true });
      expect(people.messages.at(-1)).toMatchObject({ type: 'patch', removed: [] });
      expect(Object.keys((people.messages.at(-1) as { upserted: object }).upserted)).toEqual(['u2']);
    });

    it('says at which other location of the organization a person is, from their user location, and only what may be told', async () => {
      ({ engine } = createTestEngine());
      const { store } = engine.internals;
      const other = { id: 'l2', organization_id: 'o1', name: 'New York office', timezone: 'America/New_York', latitude: 0, longitude: 0, buildings: [], config: {} };
      const at = (time: number, locationId = 'l2') => ({ location: { location_id: locationId, floor_id: 'ny-f1', time } });
      feedLocation(engine, [], [], [
        wireUser('u2', at(T0 - 30 * MIN)),
        wireUser('u3', { ...at(T0 - 30 * MIN), visible: false }),
        wireUser('u4', at(T0 - MANUAL_LOCATION_TIMEOUT_MS - MIN)),
        wireUser('u5', at(T0 - MIN, 'l9')),
        wireUser('u6', at(T0 - MIN, LOCATION_ID)),
      ]);
      // the organization's other location, as its locations list gives it
      store.locations.set('l2', other as never);
      const people = await collect<PersonEntry>(engine, { view: 'people' });
      expect(people.entries.get('u2')).toMatchObject({ visible: false, floorId: null, elsewhere: { locationId: 'l2', locationName: 'New York office', since: T0 - 30 * MIN } });
      // not for a person who is not visible, nor past a location's 12 hours, nor at a location not known, nor here
      for (const id of ['u3', 'u4', 'u5', 'u6']) expect(people.entries.get(id)?.elsewhere, id).toBeNull();
      // the location only: never the floor there
      expect(JSON.stringify(people.entries.get('u2'))).not.toContain('ny-f1');
    });

    it('ends an "at <location>" note when it passes its 12 hours, while the view stays open', async () => {
      ({ engine } = createTestEngine());
      const other = { id: 'l2', organization_id: 'o1', name: 'New York office', timezone: 'America/New_York', latitude: 0, longitude: 0, buildings: [], config: {} };
      const since = T0 - 11 * 60 * MIN;
      feedLocation(engine, [], [], [
        wireUser('u2', { location: { location_id: 'l2', floor_id: 'ny-f1', time: since } }),
        wireUser('u3', { location: { location_id: 'l2', floor_id: 'ny-f1', time: T0 - MIN } }),
      ]);
      engine.internals.store.locations.set('l2', other as never);
      const people = await collect<PersonEntry>(engine, { view: 'people' });
      expect(people.entries.get('u2')?.elsewhere).toMatchObject({ locationName: 'New York office', since });
      // nothing arrives from the server; the clock alone passes the note's end (since + 12 h), which
      // falls on one of the engine's minute-long timeline ticks: the note must end 1 ms after, not a tick later
      await advance(since + MANUAL_LOCATION_TIMEOUT_MS - T0);
      expect(people.entries.get('u2')?.elsewhere).not.toBeNull();
      const sent = people.messages.length;
      await advance(1);
      expect(people.entries.get('u2')).toMatchObject({ visible: false, elsewhere: null });
      // only that person is sent again; the other's note still stands
      expect(Object.keys((people.messages.at(-1) as { upserted: object }).upserted)).toEqual(['u2']);
      expect(people.messages.length).toBe(sent + 1);
      expect(people.entries.get('u3')?.elsewhere).toMatchObject({ locationName: 'New York office' });
    });

    it('lists a tagged co-worker inside a privacy zone without any position', async () => {
      ({ engine } = createTestEngine());
      feedLocation(engine, [tagged('e2', 'u2', 't2'), privacyZone], [tag('t2', { time: T0, x: 3, y: 4, floor_id: 'f1' })],
        [wireUser('u2', { location_tag_id: 't2', location: { location_id: LOCATION_ID, floor_id: 'f1', x: 30, y: 30, time: T0 - 60 * MIN } })]);
      const people = await collect<PersonEntry>(engine, { view: 'people' });
      expect(people.entries.get('u2')).toMatchObject({ visible: true, x: 3 });
      engine.internals.sink.apply(measurement('t2', 'location', { time: T0 + 1000, valid_for: 10 * MIN, x: 12, y: 17, floor_id: 'f1' }));
      await advance(0);
      // the older manual location must not stand in for a position that privacy hides
      expect(people.entries.get('u2')).toMatchObject({ visible: false, locationId: null, floorId: null, x: null, y: null, lastSeen: null, manual: false });
      expect(JSON.stringify(people.messages)).not.toContain('"y":17');
    });

    it('hides an invisible co-worker from the people view and from the floor', async () => {
      ({ engine } = createTestEngine());
      feedLocation(engine, [tagged('e2', 'u2', 't2')], [tag('t2', { time: T0, x: 3, y: 4, floor_id: 'f1' })],
        [wireUser('u2', { location_tag_id: 't2' })]);
      const people = await collect<PersonEntry>(engine, { view: 'people' });
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['co-workers'] });
      expect(floor.entries.get('e2')).toMatchObject({ x: 3, y: 4, name: 'Employee e2' });
      engine.internals.sink.apply({ scope: organizationScope, changes: [
        { collection: 'users', kind: 'modified', id: 'u2', data: wireUser('u2', { location_tag_id: 't2', visible: false }) },
      ] });
      await advance(0);
      expect(people.entries.get('u2')).toMatchObject({ visible: false, floorId: null, x: null });
      expect(floor.entries.has('e2')).toBe(false);
    });

    it('draws a tagged co-worker with the avatar of their user', async () => {
      ({ engine } = createTestEngine());
      feedLocation(engine, [tagged('e2', 'u2', 't2')], [tag('t2', { time: T0, x: 3, y: 4, floor_id: 'f1' })],
        [wireUser('u2', { location_tag_id: 't2', avatar_url: 'avatars/u2.svg', decoration: { name: 'crown' } })]);
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['co-workers'] });
      expect(floor.entries.get('e2')).toMatchObject({ avatarUrl: 'avatars/u2.svg', decoration: 'crown' });
    });

    it('falls back to the manual location once the tag times out, until the manual location expires after 12 h', async () => {
      ({ engine } = createTestEngine());
      const manualAt = T0 - 60 * MIN;
      feedLocation(engine, [tagged('e2', 'u2', 't2')], [tag('t2', { time: T0, x: 3, y: 4, floor_id: 'f1' })],
        [wireUser('u2', { location_tag_id: 't2', location: { location_id: LOCATION_ID, floor_id: 'f2', x: 30, y: 31, time: manualAt } })]);
      const people = await collect<PersonEntry>(engine, { view: 'people' });
      const f1 = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['co-workers'] });
      const f2 = await collect<DrawState>(engine, { view: 'floor', floorId: 'f2', layers: ['co-workers'] });
      // the newer tag reading places them; the person is drawn once
      expect(people.entries.get('u2')).toMatchObject({ floorId: 'f1', x: 3, y: 4, manual: false, lastSeen: T0 });
      expect(f1.entries.has('e2')).toBe(true);
      expect(f2.entries.has(userAssetId('u2'))).toBe(false);

      await advance(10 * MIN + 1);
      expect(people.entries.get('u2')).toMatchObject({ floorId: 'f2', x: 30, y: 31, manual: true, lastSeen: manualAt, visible: true });
      expect(f1.entries.has('e2')).toBe(false);
      expect(f2.entries.get(userAssetId('u2'))).toMatchObject({ x: 30, y: 31 });

      await advance(manualAt + MANUAL_LOCATION_TIMEOUT_MS - Date.now());
      expect(people.entries.get('u2')!.visible).toBe(true);
      await advance(1);
      expect(MANUAL_LOCATION_TIMEOUT_MS).toBe(432e5);
      expect(people.entries.get('u2')).toMatchObject({ visible: false, floorId: null, x: null, manual: false });
      expect(f2.entries.has(userAssetId('u2'))).toBe(false);
    });

    it('lets a manual location set after the last tag reading override it until the tag reads again', async () => {
      ({ engine } = createTestEngine());
      feedLocation(engine, [tagged('e2', 'u2', 't2')], [tag('t2', { time: T0 - MIN, x: 3, y: 4, floor_id: 'f1' })],
        [wireUser('u2', { location_tag_id: 't2', location: { location_id: LOCATION_ID, floor_id: 'f1', x: 9, y: 9, time: T0 } })]);
      const people = await collect<PersonEntry>(engine, { view: 'people' });
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['co-workers'] });
      expect(people.entries.get('u2')).toMatchObject({ x: 9, y: 9, manual: true });
      expect([...floor.entries.keys()]).toEqual([userAssetId('u2')]);

      engine.internals.sink.apply(measurement('t2', 'location', { time: T0 + 1000, valid_for: 10 * MIN, x: 5, y: 5, floor_id: 'f1' }));
      await advance(0);
      expect(people.entries.get('u2')).toMatchObject({ x: 5, y: 5, manual: false, lastSeen: T0 + 1000 });
      expect([...floor.entries.keys()]).toEqual(['e2']);
    });

    it("re-reads nobody on the minute's timer: untouched people stay the very entries they were, and a boundary between ticks is kept on time", async () => {
      ({ engine } = createTestEngine());
      const other = { id: 'l2', organization_id: 'o1', name: 'New York office', timezone: 'America/New_York', latitude: 0, longitude: 0, buildings: [], config: {} };
      // u2's tag is fresh for 9 more minutes (its heatmap weight moves every minute); u3's runs out at T0 + 90 s,
      // between two ticks; u4 is at the other location
      const u3Until = T0 + 90_000;
      feedLocation(engine, [tagged('e2', 'u2', 't2'), tagged('e3', 'u3', 't3')],
        [tag('t2', { time: T0 - MIN, x: 3, y: 4, floor_id: 'f1' }), tag('t3', { time: u3Until - 10 * MIN, x: 5, y: 6, floor_id: 'f1' })],
        [wireUser('u2', { location_tag_id: 't2' }), wireUser('u3', { location_tag_id: 't3' }),
          wireUser('u4', { location: { location_id: 'l2', floor_id: 'ny-f1', time: T0 - MIN } })]);
      engine.internals.store.locations.set('l2', other as never);
      const people = await collect<PersonEntry>(engine, { view: 'people' });
      const heatmap = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['co-workers', 'co-workers-heatmap'] });
      const before = new Map(people.entries);
      const heatBefore = heatmap.entries.get('e2')!.heat!;
      const sent = people.messages.length;
      const marks = vi.spyOn(engine.internals.hub, 'markDirty');

      // the first minute's tick: only what changes continuously is derived again, on the readings' channel
      await advance(MIN);
      const channels = marks.mock.calls.map(([channel]) => channel);
      expect(channels).not.toContain('users');
      expect(channels).not.toContain('assets');
      const values = marks.mock.calls.filter(([channel]) => channel === 'values').flatMap(([, keys]) => [...(keys as Iterable<string>)]);
      expect(new Set(values)).toEqual(new Set(['e2', 'e3']));
      // the heatmap moved with the minute
      expect(heatmap.entries.get('e2')!.heat!).toBeLessThan(heatBefore);
      // and no person was sent again: each is the very entry it was
      expect(people.messages.length).toBe(sent);
      for (const [id, entry] of before) expect(people.entries.get(id)).toBe(entry);

      // u3's tag runs out between two ticks: that person alone, at that instant
      await advance(u3Until - Date.now());
      expect(people.entries.get('u3')).toMatchObject({ visible: true, floorId: 'f1' });
      await advance(1);
      expect(people.entries.get('u3')).toMatchObject({ visible: false, floorId: null });
      expect(Object.keys((people.messages.at(-1) as { upserted: object }).upserted)).toEqual(['u3']);
      expect(people.entries.get('u2')).toBe(before.get('u2'));
      expect(people.entries.get('u4')).toBe(before.get('u4'));
      expect(before.get('u4')?.elsewhere).toMatchObject({ locationName: 'New York office' });
    });

    it('tells an "at <location>" note set ahead of this clock from its time on, without waiting for a tick', async () => {
      ({ engine } = createTestEngine());
      const other = { id: 'l2', organization_id: 'o1', name: 'New York office', timezone: 'America/New_York', latitude: 0, longitude: 0, buildings: [], config: {} };
      // the server's clock is 20 s ahead of this one
      const at = T0 + 20_000;
      feedLocation(engine, [], [], [wireUser('u2', { location: { location_id: 'l2', floor_id: 'ny-f1', time: at } })]);
      engine.internals.store.locations.set('l2', other as never);
      const people = await collect<PersonEntry>(engine, { view: 'people' });
      expect(people.entries.get('u2')?.elsewhere).toBeNull();
      await advance(at - T0 - 1);
      expect(people.entries.get('u2')?.elsewhere).toBeNull();
      await advance(1);
      expect(people.entries.get('u2')?.elsewhere).toMatchObject({ locationName: 'New York office', since: at });
    });

    it('keeps a person without any position in the list, unplaced', async () => {
      ({ engine } = createTestEngine());
      feedLocation(engine, [], [], [wireUser('u4')]);
      const people = await collect<PersonEntry>(engine, { view: 'people' });
      expect(people.entries.get('u4')).toMatchObject({ name: 'Firstu4 Last', visible: false, locationId: null, floorId: null, lastSeen: null });
    });
  });
});
