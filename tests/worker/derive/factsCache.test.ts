import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DrawState, RoomEntry } from '../../../src/shared/api.js';
import type { Engine } from '../../../src/worker/engine.js';
import {
  collect, createTestEngine, feedLocation, locationScope, measurement, wireDesk, wireOccupancySensor,
} from '../engine/harness.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const engines: Engine[] = [];

beforeEach(() => { vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'Date'] }); });
afterEach(async () => { for (const e of engines.splice(0)) await e.dispose(); vi.useRealTimers(); });

const sensorAsset = { id: 'm1', type: 'sensor', name: 'Meter', parent_id: 'f1', x: 5, y: 5, data_providers: ['s-m1'] };
const meterSensor = { id: 's-m1', type: 'co2', last_measurement: { time: T0, valid_for: 3_600_000, value: 500 }, last_status: { battery_level: 80 } };

function loaded(): Engine {
  const { engine } = createTestEngine();
  engines.push(engine);
  feedLocation(engine, [wireDesk('d1', 'f1'), wireDesk('d2', 'f1'), sensorAsset], [
    wireOccupancySensor('s-d1', T0, 0), wireOccupancySensor('s-d2', T0, 0), meterSensor,
  ]);
  return engine;
}

const heartbeat = (sensorId: string, battery: number) => ({
  scope: locationScope, changes: [{ collection: 'heartbeats' as const, kind: 'created' as const, id: sensorId, data: { sensor_id: sensorId, time: T0 + 5_000, battery_level: battery } }],
});

describe('factsCache', () => {
  describe('refresh (only readings changed)', () => {
    it("re-derives a desk's status from its new reading and keeps its standing facts", () => {
      const engine = loaded();
      const { facts } = engine.internals;
      const before = facts.get('d1')!;
      expect(before.desk?.occupied).toBe(false);
      engine.internals.sink.apply(measurement('s-d1', 'occupancy', { time: T0 + 1_000, valid_for: 3_600_000, value: 1 }));
      const after = facts.get('d1')!;
      expect(after).not.toBe(before);
      expect(after.desk?.occupied).toBe(true);
      // what does not follow from readings is the very same, not derived again
      expect(after.layers).toBe(before.layers);
      expect(after.config).toBe(before.config);
    });

    it('derives an asset afresh when its record changed, even together with a reading', () => {
      const engine = loaded();
      const { facts } = engine.internals;
      const before = facts.get('d1')!;
      engine.internals.sink.apply({
        scope: locationScope, changes: [
          { collection: 'measurements', kind: 'created', id: 's-d1', data: { sensor_id: 's-d1', type: 'occupancy', value: { time: T0 + 1_000, valid_for: 3_600_000, value: 1 } } },
          { collection: 'assets', kind: 'modified', id: 'd1', data: wireDesk('d1', 'f1', { name: 'Renamed' }) },
        ],
      });
      const after = facts.get('d1')!;
      expect(after.asset.name).toBe('Renamed');
      // the standing facts were derived anew (their layers are the one shared list of a desk's layers)
      expect(after.standing).not.toBe(before.standing);
      expect(after.layers).toBe(before.layers);
      expect(after.desk?.occupied).toBe(true);
    });
  });

  describe('the record a refresh derives from', () => {
    it('is the one the store holds now, also after the store was emptied and filled again', () => {
      const engine = loaded();
      const { facts, store } = engine.internals;
      const first = facts.get('d1')!;
      // the cache follows each asset's record through its slot; emptying the store leaves no slot behind
      store.assets.clear();
      store.assets.set('d1', { ...first.asset, name: 'Again' });
      expect(facts.get('d1')!.asset.name).toBe('Again');
      // and the slot taken then follows the next record
      store.assets.set('d1', { ...first.asset, name: 'Third' });
      expect(facts.get('d1')!.asset.name).toBe('Third');
      store.assets.delete('d1');
      expect(facts.get('d1')).toBeNull();
    });
  });

  describe('refresh reads the sensors its standing facts keep', () => {
    const LAYERS = ['desks', 'desk_usage', 'devices'] as const;
    const reading = (sensorId: string, value: Record<string, unknown>) => measurement(sensorId, 'occupancy', value);

    it("changes exactly the read desk's facts and drawn state; every other entry keeps its very object", async () => {
      const engine = loaded();
      const { facts, hub, sink } = engine.internals;
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: [...LAYERS] });
      const sentBefore = new Map(hub.sent((s) => s.view === 'floor')!.entries);
      const factsBefore = { d1: facts.get('d1'), d2: facts.get('d2'), m1: facts.get('m1') };
      const messages = floor.messages.length;
      sink.apply(reading('s-d1', { time: T0 + 1_000, valid_for: 3_600_000, value: 1 }));
      hub.flush();
      expect(facts.get('d1')).not.toBe(factsBefore.d1);
      expect(facts.get('d1')!.desk).toMatchObject({ occupied: true, statusKind: 'busy' });
      expect(facts.get('d2')).toBe(factsBefore.d2);
      expect(facts.get('m1')).toBe(factsBefore.m1);
      // one patch, of the read desk only
      expect(floor.messages.length).toBe(messages + 1);
      const patch = floor.messages.at(-1)!;
      expect(patch.type === 'patch' && Object.keys(patch.upserted)).toEqual(['d1']);
      expect(floor.entries.get('d1')).toMatchObject({ statusKind: 'busy' });
      const sentAfter = hub.sent((s) => s.view === 'floor')!.entries;
      for (const [key, entry] of sentBefore) if (key !== 'd1') expect(sentAfter.get(key), key).toBe(entry);
      expect(sentAfter.get('d1')).not.toBe(sentBefore.get('d1'));
    });

    it('reads a sensor whose record was replaced, created or deleted after the desk was derived', () => {
      const { engine } = createTestEngine();
      engines.push(engine);
      feedLocation(engine, [wireDesk('d1', 'f1'), wireDesk('d3', 'f1', { data_providers: ['s-d3'] })], [wireOccupancySensor('s-d1', T0, 0)]);
      const { facts, sink, store } = engine.internals;
      expect(facts.get('d1')!.desk?.occupied).toBe(false);
      expect(facts.get('d3')!.desk).toBeNull();
      // the record replaced (a sensor update from the server), then a reading: the new record is read
      sink.apply({ scope: locationScope, changes: [{ collection: 'sensors', kind: 'modified', id: 's-d1', data: wireOccupancySensor('s-d1', T0 + 500, 0) }] });
      sink.apply(reading('s-d1', { time: T0 + 1_000, valid_for: 3_600_000, value: 1 }));
      expect(facts.get('d1')!.desk?.occupied).toBe(true);
      expect(facts.get('d1')!.standing.sources).toEqual([store.sensors.get('s-d1')]);
      expect(facts.get('d1')!.standing.sources[0]).toBe(store.sensors.get('s-d1'));
      // a sensor the desk named but that did not exist yet: created, then read
      sink.apply({ scope: locationScope, changes: [{ collection: 'sensors', kind: 'created', id: 's-d3', data: wireOccupancySensor('s-d3', T0, 0) }] });
      sink.apply(reading('s-d3', { time: T0 + 1_000, valid_for: 3_600_000, value: 1 }));
      expect(facts.get('d3')!.desk?.occupied).toBe(true);
      // deleted: the desk has no occupancy sensor any more, and a later reading of it is dropped
      sink.apply({ scope: locationScope, changes: [{ collection: 'sensors', kind: 'deleted', id: 's-d1' }] });
      expect(facts.get('d1')!.desk).toBeNull();
      sink.apply(reading('s-d1', { time: T0 + 2_000, valid_for: 3_600_000, value: 0 }));
      expect(facts.get('d1')!.desk).toBeNull();
    });

    it("drops a reading of an unknown sensor or without a time with a warning, and keeps what is stored and drawn", async () => {
      const { engine, logger } = createTestEngine();
      engines.push(engine);
      feedLocation(engine, [wireDesk('d1', 'f1'), wireDesk('d2', 'f1')], [wireOccupancySensor('s-d1', T0, 1), wireOccupancySensor('s-d2', T0, 0)]);
      const { facts, hub, sink, store } = engine.internals;
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: [...LAYERS] });
      const factsBefore = facts.get('d1');
      const stored = store.sensors.get('s-d1')!.last_measurement;
      const messages = floor.messages.length;
      sink.apply(reading('s-nope', { time: T0 + 1_000, valid_for: 3_600_000, value: 0 }));
      sink.apply(reading('s-d1', { valid_for: 3_600_000, value: 0 }));
      hub.flush();
      expect(logger.warnings).toContain('Ignoring measurement for unknown sensor s-nope');
      expect(logger.warnings.some((w) => w.includes('s-d1'))).toBe(true);
      expect(store.sensors.get('s-d1')!.last_measurement).toBe(stored);
      expect(facts.get('d1')).toBe(factsBefore);
      expect(floor.messages.length).toBe(messages);
      expect(floor.entries.get('d1')).toMatchObject({ statusKind: 'busy' });
      // the next good reading is taken as usual
      sink.apply(reading('s-d1', { time: T0 + 2_000, valid_for: 3_600_000, value: 0 }));
      hub.flush();
      expect(facts.get('d1')!.desk).toMatchObject({ occupied: false, phase: 'short_break' });
      expect(floor.entries.get('d1')?.status).toBe('short break');
    });
  });

  describe('beat (only heartbeats arrived)', () => {
    it("leaves a desk's facts and its drawn state untouched, and sends nothing", async () => {
      const engine = loaded();
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['desks', 'desk_usage', 'devices'] });
      const before = engine.internals.facts.get('d1');
      const sent = floor.messages.length;
      engine.internals.sink.apply(heartbeat('s-d1', 10));
      engine.internals.hub.flush();
      expect(engine.internals.facts.get('d1')).toBe(before);
      expect(floor.messages.length).toBe(sent);
    });

    it("updates a sensor asset's battery on the devices layer", async () => {
      const engine = loaded();
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['devices'] });
      expect(floor.entries.get('m1')?.status ?? '').not.toContain('battery low');
      engine.internals.sink.apply(heartbeat('s-m1', 10));
      engine.internals.hub.flush();
      expect(floor.entries.get('m1')?.status).toContain('battery low');
      expect(floor.entries.get('m1')?.statusKind).toBe('attention');
    });
  });

  describe('time alone (a re-check)', () => {
    it("re-derives a desk whose reading expired and wakes only the views that show readings", async () => {
      const { engine } = createTestEngine();
      engines.push(engine);
      feedLocation(engine, [wireDesk('d1', 'f1')], [wireOccupancySensor('s-d1', T0, 1, 60_000)]);
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['desks', 'desk_usage'] });
      expect(floor.entries.get('d1')?.statusKind).toBe('busy');
      const before = engine.internals.facts.get('d1')!;
      const marked = vi.spyOn(engine.internals.hub, 'markDirty');
      await vi.advanceTimersByTimeAsync(61_000);
      engine.internals.hub.flush();
      // the reading is no longer valid: the desk no longer says it is busy
      expect(floor.entries.get('d1')?.statusKind).not.toBe('busy');
      expect(engine.internals.facts.get('d1')!.layers).toBe(before.layers);
      const channels = marked.mock.calls.filter(([, keys]) => keys !== undefined && [...keys].includes('d1')).map(([channel]) => channel);
      expect(channels).toContain('values');
      expect(channels).not.toContain('assets');
    });
  });

  describe('re-checks under a stream of readings', () => {
    it("keeps a desk busy past its first reading's validity when a later one extends it, then expires it", async () => {
      const { engine } = createTestEngine();
      engines.push(engine);
      feedLocation(engine, [wireDesk('d1', 'f1')], [wireOccupancySensor('s-d1', T0, 1, 60_000)]);
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['desks', 'desk_usage'] });
      await vi.advanceTimersByTimeAsync(30_000);
      engine.internals.sink.apply(measurement('s-d1', 'occupancy', { time: Date.now(), valid_for: 60_000, value: 1 }));
      engine.internals.hub.flush();
      // past the first reading's validity: the re-check due then finds the later reading and keeps the desk busy
      await vi.advanceTimersByTimeAsync(31_000);
      engine.internals.hub.flush();
      expect(floor.entries.get('d1')?.statusKind).toBe('busy');
      // past the later reading's: no data
      await vi.advanceTimersByTimeAsync(30_000);
      engine.internals.hub.flush();
      expect(floor.entries.get('d1')?.statusKind).toBe('unknown');
    });
  });

  describe('re-checks the cache keeps the due time of', () => {
    it('re-checks a desk derived afresh while its re-check was pending, and schedules the next one after it ran', async () => {
      const { engine } = createTestEngine();
      engines.push(engine);
      feedLocation(engine, [wireDesk('d1', 'f1')], [wireOccupancySensor('s-d1', T0, 1, 60_000)]);
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['desks', 'desk_usage'] });
      const { scheduler, sink, hub } = engine.internals;
      expect(scheduler.dueAt('asset:d1')).toBe(T0 + 60_001);
      await vi.advanceTimersByTimeAsync(30_000);
      // the record changes: its facts are derived afresh by a new entry, which takes the pending re-check as it is
      sink.apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'modified', id: 'd1', data: wireDesk('d1', 'f1', { name: 'Renamed' }) }] });
      hub.flush();
      expect(floor.entries.get('d1')).toMatchObject({ statusKind: 'busy' });
      expect(scheduler.dueAt('asset:d1')).toBe(T0 + 60_001);
      await vi.advanceTimersByTimeAsync(31_000);
      hub.flush();
      expect(floor.entries.get('d1')?.statusKind).toBe('unknown');
      // the re-check ran: a new reading schedules the next one at its own validity's end
      sink.apply(measurement('s-d1', 'occupancy', { time: Date.now(), valid_for: 60_000, value: 1 }));
      hub.flush();
      expect(floor.entries.get('d1')?.statusKind).toBe('busy');
      expect(scheduler.dueAt('asset:d1')).toBe(Date.now() + 60_001);
      await vi.advanceTimersByTimeAsync(61_000);
      hub.flush();
      expect(floor.entries.get('d1')?.statusKind).toBe('unknown');
    });
  });

  describe('views of readings', () => {
    it('wakes no view of assets when only readings changed', () => {
      const engine = loaded();
      const marked = vi.spyOn(engine.internals.hub, 'markDirty');
      engine.internals.sink.apply(measurement('s-d1', 'occupancy', { time: T0 + 1_000, valid_for: 3_600_000, value: 1 }));
      expect(marked.mock.calls.map(([channel]) => channel)).toContain('values');
      // an 'assets' mark, even an empty one, would re-run the finder's name query and the people view on every reading
      expect(marked.mock.calls.map(([channel]) => channel)).not.toContain('assets');
    });

    it("follows a room's readings in the rooms view, and an asset that becomes a room", async () => {
      const { engine } = createTestEngine();
      engines.push(engine);
      const room = { id: 'r1', type: 'room', subtype: 'office', name: 'Room', parent_id: 'f1', x: 3, y: 3, data_providers: ['s-r1'] };
      feedLocation(engine, [room, wireDesk('d1', 'f1')], [wireOccupancySensor('s-r1', T0, 0), wireOccupancySensor('s-d1', T0, 0)]);
      const rooms = await collect<RoomEntry>(engine, { view: 'rooms' });
      expect(rooms.entries.get('r1')?.free).toBe(true);
      engine.internals.sink.apply(measurement('s-r1', 'occupancy', { time: T0 + 1_000, valid_for: 3_600_000, value: 1 }));
      engine.internals.hub.flush();
      expect(rooms.entries.get('r1')?.free).toBe(false);
      // d1's record now says it is a room: listed, and its readings reach the list from then on
      engine.internals.sink.apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'modified', id: 'd1', data: { ...room, id: 'd1', name: 'Was a desk', data_providers: ['s-d1'] } }] });
      engine.internals.hub.flush();
      expect(rooms.entries.get('d1')?.free).toBe(true);
      engine.internals.sink.apply(measurement('s-d1', 'occupancy', { time: T0 + 2_000, valid_for: 3_600_000, value: 1 }));
      engine.internals.hub.flush();
      expect(rooms.entries.get('d1')?.free).toBe(false);
    });

    it('tells the rooms view only of rooms, so desks changing derive nothing there', async () => {
      const engine = loaded();
      const rooms = await collect<RoomEntry>(engine, { view: 'rooms' });
      const derived = vi.spyOn(engine.internals.facts, 'get');
      engine.internals.sink.apply(measurement('s-d2', 'occupancy', { time: T0 + 1_000, valid_for: 3_600_000, value: 1 }));
      engine.internals.hub.flush();
      expect(rooms.entries.size).toBe(0);
      // nobody shows d2 now: neither the rooms view nor anyone else derived it
      expect(derived.mock.calls.map(([id]) => id)).not.toContain('d2');
    });
  });
  describe('the floor view after readings (redrawn, not rebuilt)', () => {
    const LAYERS = ['desks', 'desk_usage', 'devices'] as const;
    const occupancy = (value: number, at: number, validFor = 3_600_000) =>
      measurement('s-d1', 'occupancy', { time: at, valid_for: validFor, value });

    it('follows readings of a desk moved onto the floor, and none of a desk moved away', async () => {
      const { engine } = createTestEngine();
      engines.push(engine);
      feedLocation(engine, [wireDesk('d1', 'f1'), wireDesk('d3', 'f2', { data_providers: ['s-d3'] })], [wireOccupancySensor('s-d1', T0, 0), wireOccupancySensor('s-d3', T0, 0)]);
      const { hub, sink } = engine.internals;
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: [...LAYERS] });
      const read = (sensorId: string, value: number, at: number) => measurement(sensorId, 'occupancy', { time: at, valid_for: 3_600_000, value });
      // on another floor: nothing for this view
      const sent = floor.messages.length;
      sink.apply(read('s-d3', 1, T0 + 1_000));
      hub.flush();
      expect(floor.messages.length).toBe(sent);
      expect(floor.entries.has('d3')).toBe(false);
      // moved here, then read: drawn, and its readings follow
      sink.apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'modified', id: 'd3', data: wireDesk('d3', 'f1', { data_providers: ['s-d3'] }) }] });
      hub.flush();
      expect(floor.entries.get('d3')?.statusKind).toBe('busy');
      sink.apply(read('s-d3', 0, T0 + 2_000));
      hub.flush();
      expect(floor.entries.get('d3')?.status).toBe('short break');
      // moved away: gone, and its readings send nothing more
      sink.apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'modified', id: 'd1', data: wireDesk('d1', 'f2') }] });
      hub.flush();
      expect(floor.entries.has('d1')).toBe(false);
      const after = floor.messages.length;
      sink.apply(read('s-d1', 1, T0 + 3_000));
      hub.flush();
      expect(floor.messages.length).toBe(after);
    });

    it('keeps the very draw state when a reading changes nothing drawn, and sends nothing', async () => {
      const engine = loaded();
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: [...LAYERS] });
      const sent = floor.messages.length;
      const before = engine.internals.hub.sent((s) => s.view === 'floor')!.entries.get('d1');
      engine.internals.sink.apply(occupancy(0, T0 + 1_000));
      engine.internals.hub.flush();
      expect(engine.internals.facts.get('d1')!.desk?.occupied).toBe(false);
      expect(engine.internals.hub.sent((s) => s.view === 'floor')!.entries.get('d1')).toBe(before);
      expect(floor.messages.length).toBe(sent);
    });

    it('draws what a fresh snapshot draws through occupied, left, cleared and timed-out readings', async () => {
      const engine = loaded();
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: [...LAYERS] });
      const steps: Array<() => Promise<void> | void> = [
        () => { engine.internals.sink.apply(occupancy(1, Date.now() + 1_000)); },
        // left: the clean-desk phase and its colour
        () => { engine.internals.sink.apply(occupancy(0, Date.now() + 2_000)); },
        () => vi.advanceTimersByTimeAsync(20 * 60_000),
        () => { engine.internals.sink.apply(occupancy(1, Date.now(), 60_000)); },
        // the short reading expires: no data
        () => vi.advanceTimersByTimeAsync(3 * 60_000),
      ];
      const seen = new Set<string>();
      for (const step of steps) {
        await step();
        engine.internals.hub.flush();
        const fresh = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: [...LAYERS] });
        expect(floor.entries.get('d1')).toEqual(fresh.entries.get('d1'));
        expect(floor.entries.get('d2')).toEqual(fresh.entries.get('d2'));
        seen.add(`${floor.entries.get('d1')?.statusKind}/${floor.entries.get('d1')?.status}`);
        await engine.unsubscribe(fresh.id);
      }
      // the steps did walk the desk through its looks
      expect(seen.size).toBeGreaterThanOrEqual(4);
    });
  });
});
