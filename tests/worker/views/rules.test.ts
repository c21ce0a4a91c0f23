import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SELF_KEY, type AssetDetail, type DrawState, type FloorViewMeta, type RoomEntry } from '../../../src/shared/api.js';
import { BASE_CONFIG } from '../../../src/shared/config.js';
import { FADE_OUT_MIN_ALPHA, REALTIME_TIMELINE_INTERVAL_MS } from '../../../src/shared/constants.js';
import { MSG } from '../../../src/shared/messages.js';
import type { Engine } from '../../../src/worker/engine.js';
import { collect, createTestEngine, feedLocation, locationScope, measurement } from '../engine/harness.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const MIN = 60_000;
const ROOM = BASE_CONFIG.statusColors.room;

let engine: Engine;

beforeEach(() => { vi.useFakeTimers({ now: T0 }); });
afterEach(async () => { await engine?.dispose(); vi.useRealTimers(); });

/** advances the clock, then sends what the view flush timer would send next */
async function advance(ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
  engine.internals.hub.flush();
}

describe('views', () => {
  describe('floor view freshness', () => {
    it('fades a voice toward the minimum alpha and then drops it', async () => {
      ({ engine } = createTestEngine());
      const voice = { id: 'v1', type: 'voice', name: 'Voice', parent_id: 'f1', x: 1, y: 1, speech_bubble: 'Too cold', value: { time: T0, valid_for: 4 * MIN, text: 'Too cold' } };
      feedLocation(engine, [voice], []);
      const view = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['info'] });
      expect(view.entries.get('v1')).toMatchObject({ alpha: 1, text: 'Too cold', kind: 'voice' });

      await advance(2 * MIN);
      const halfway = view.entries.get('v1')!.alpha;
      expect(halfway).toBeLessThan(1);
      expect(halfway).toBeGreaterThan(FADE_OUT_MIN_ALPHA);

      await advance(MIN);
      const later = view.entries.get('v1')!.alpha;
      expect(later).toBeLessThan(halfway);
      expect(later).toBeGreaterThanOrEqual(FADE_OUT_MIN_ALPHA);

      await advance(MIN + 1);
      expect(view.entries.has('v1')).toBe(false);
      expect(view.messages.at(-1)).toMatchObject({ type: 'patch', removed: ['v1'] });
    });

    it('shows the missing symbol on a container whose value timed out', async () => {
      ({ engine } = createTestEngine());
      const container = { id: 'c1', type: 'container', name: 'Bin', parent_id: 'f1', data_providers: ['s-c1'] };
      const sensor = { id: 's-c1', type: 'fill_level', last_measurement: { time: T0, valid_for: 5 * MIN, value: 40 } };
      feedLocation(engine, [container], [sensor]);
      const view = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['info'] });
      expect(view.entries.get('c1')).toMatchObject({ missingSymbol: false, kind: 'container', statusKind: 'none' });
      await advance(5 * MIN);
      expect(view.entries.get('c1')!.missingSymbol).toBe(false);
      await advance(1);
      expect(view.entries.get('c1')).toMatchObject({ missingSymbol: true, kind: 'container', statusKind: 'unknown', status: 'missing' });
    });

    it('skips an employee whose location timed out', async () => {
      ({ engine } = createTestEngine());
      feedLocation(engine, [{ id: 'e1', type: 'employee', name: 'Ann', parent_id: 'f1', data_providers: ['s-e1'] }],
        [{ id: 's-e1', type: 'location', last_measurement: { time: T0, valid_for: MIN, x: 1, y: 1, floor_id: 'f1' } }]);
      const view = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['co-workers'] });
      expect(view.entries.has('e1')).toBe(true);
      await advance(MIN + 1);
      expect(view.entries.has('e1')).toBe(false);
    });
  });

  describe('scheduling', () => {
    it('re-checks a thousand fading voices on one platform timer', async () => {
      ({ engine } = createTestEngine());
      const voices = Array.from({ length: 1000 }, (_, i) => ({ id: `v${i}`, type: 'voice', parent_id: 'f1', value: { time: T0, valid_for: (i + 1) * 1000 } }));
      feedLocation(engine, voices, []);
      const view = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['info'] });
      expect(view.entries.size).toBe(1000);
      engine.internals.hub.flush();
      expect(vi.getTimerCount()).toBe(1);
      expect(engine.internals.scheduler.size()).toBeGreaterThan(1000);
      await advance(500_001);
      expect(view.entries.size).toBe(500);
    });
  });

  describe('floor view rooms', () => {
    it('turns a room from free to reserved at the reservation\'s start and back at its end', async () => {
      ({ engine } = createTestEngine());
      const start = T0 + 10 * MIN;
      const end = T0 + 40 * MIN;
      const room = { id: 'r1', type: 'room', name: 'Aalto', parent_id: 'f1', outline: [[0, 0], [4, 0], [4, 4], [0, 4]], data_providers: ['s-r1'] };
      const sensor = { id: 's-r1', type: 'reservation', last_measurement: { time: T0 - MIN, valid_for: 24 * 60 * MIN, events: [{ start, end, subject: 'Standup', booking_ref: 'b-1' }] } };
      feedLocation(engine, [room], [sensor]);
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['room_reservation'] });
      const rooms = await collect<RoomEntry>(engine, { view: 'rooms' });
      const popup = await collect<AssetDetail>(engine, { view: 'asset', assetId: 'r1' });
      const reservation = () => popup.entries.get(SELF_KEY)!.reservation!;

      expect(floor.entries.get('r1')).toMatchObject({ color: ROOM[0], status: 'free', statusKind: 'free' });
      expect(reservation()).toMatchObject({ text: 'Next: 09:10–09:40 Standup', active: null });
      expect(rooms.entries.get('r1')).toMatchObject({ free: true, status: 'free', reservationSensorId: 's-r1' });

      await advance(10 * MIN - 1);
      expect(floor.entries.get('r1')!.status).toBe('free');
      await advance(2);
      expect(floor.entries.get('r1')).toMatchObject({ color: ROOM[2], status: 'reserved', statusKind: 'booked' });
      expect(reservation().text).toBe(`09:10–09:40 Standup\n${MSG.NO_RESERVATIONS}`);
      expect(reservation().text).toContain('No reservations');
      expect(reservation().active).toMatchObject({ booking_ref: 'b-1' });
      expect(rooms.entries.get('r1')).toMatchObject({ free: false, status: 'reserved', statusIndex: 2 });

      await advance(30 * MIN - 2);
      expect(floor.entries.get('r1')!.status).toBe('reserved');
      await advance(2);
      expect(floor.entries.get('r1')).toMatchObject({ color: ROOM[0], status: 'free' });
      expect(reservation()).toMatchObject({ text: 'No reservations', active: null });
      expect(rooms.entries.get('r1')!.free).toBe(true);
    });

    it('adds the reservation to an occupied room\'s status and uses the missing colour for an expired reading', async () => {
      ({ engine } = createTestEngine());
      const room = { id: 'r1', type: 'room', name: 'Aalto', parent_id: 'f1', data_providers: ['s-occ', 's-res'] };
      const sensors = [
        { id: 's-occ', type: 'occupancy', last_measurement: { time: T0, valid_for: 5 * MIN, value: 1 } },
        { id: 's-res', type: 'reservation', last_measurement: { time: T0, valid_for: 60 * MIN, events: [{ start: T0 - MIN, end: T0 + 30 * MIN, subject: 'x', booking_ref: 'b' }] } },
      ];
      feedLocation(engine, [room], sensors);
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['rooms'] });
      expect(floor.entries.get('r1')).toMatchObject({ color: ROOM[3], status: 'occupied and reserved', statusKind: 'busy' });
      await advance(5 * MIN + 1);
      expect(floor.entries.get('r1')).toMatchObject({ color: BASE_CONFIG.statusColors.missing, status: 'no data', statusKind: 'unknown' });
    });
  });

  describe('floor view people', () => {
    const zone = { id: 'z1', type: 'zone', subtype: 'privacy', name: 'Quiet', parent_id: 'f1', outline: [[10, 10], [20, 10], [20, 20], [10, 20]] };
    const ann = { id: 'e1', type: 'employee', name: 'Ann', parent_id: 'f1', data_providers: ['s-e1'] };
    const annSensor = { id: 's-e1', type: 'location', last_measurement: { time: T0, valid_for: 10 * MIN, x: 1, y: 1, floor_id: 'f1' } };

    it('drops an employee who enters a privacy zone from everyone else\'s floor view', async () => {
      ({ engine } = createTestEngine());
      feedLocation(engine, [ann, zone], [annSensor]);
      const view = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['co-workers', 'zones'] });
      expect(view.entries.get('e1')).toMatchObject({ x: 1, y: 1 });
      engine.internals.sink.apply(measurement('s-e1', 'location', { time: T0 + 1000, valid_for: 10 * MIN, x: 12, y: 17, floor_id: 'f1' }));
      await advance(0);
      expect(view.entries.has('e1')).toBe(false);
      // the position inside the zone never reached the view
      expect(JSON.stringify(view.messages)).not.toContain('"y":17');
      engine.internals.sink.apply(measurement('s-e1', 'location', { time: T0 + 2000, valid_for: 10 * MIN, x: 30, y: 30, floor_id: 'f1' }));
      await advance(0);
      expect(view.entries.get('e1')).toMatchObject({ x: 30, y: 30 });
    });

    describe('privacy zones changing around someone (spec §4)', () => {
      const inside = { ...annSensor, last_measurement: { ...annSensor.last_measurement, x: 12, y: 17 } };
      const asset = (data: Record<string, unknown>) => ({ scope: locationScope, changes: [{ collection: 'assets' as const, kind: 'modified' as const, id: String(data.id), data }] });

      it('filters an employee when a privacy zone is created around them, and unfilters them when it is deleted', async () => {
        ({ engine } = createTestEngine());
        feedLocation(engine, [ann], [inside]);
        const view = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['co-workers'] });
        expect(view.entries.get('e1')).toMatchObject({ x: 12, y: 17 });
        engine.internals.sink.apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'created', id: 'z1', data: zone }] });
        await advance(0);
        expect(view.entries.has('e1')).toBe(false);
        engine.internals.sink.apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'deleted', id: 'z1' }] });
        await advance(0);
        expect(view.entries.get('e1')).toMatchObject({ x: 12, y: 17 });
      });

      it('re-decides when the zone is moved away or re-typed', async () => {
        ({ engine } = createTestEngine());
        feedLocation(engine, [ann, zone], [inside]);
        const view = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['co-workers'] });
        expect(view.entries.has('e1')).toBe(false);
        engine.internals.sink.apply(asset({ ...zone, outline: [[30, 30], [40, 30], [40, 40], [30, 40]] }));
        await advance(0);
        expect(view.entries.has('e1')).toBe(true);
        engine.internals.sink.apply(asset(zone));
        await advance(0);
        expect(view.entries.has('e1')).toBe(false);
        engine.internals.sink.apply(asset({ ...zone, subtype: 'collaboration' }));
        await advance(0);
        expect(view.entries.has('e1')).toBe(true);
      });

      it('keeps the position and privacy filter of the last location value when the employee record changes (a rename)', async () => {
        ({ engine } = createTestEngine());
        feedLocation(engine, [ann, zone], [annSensor]);
        const view = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['co-workers'] });
        engine.internals.sink.apply(measurement('s-e1', 'location', { time: T0 + 1000, valid_for: 10 * MIN, x: 30, y: 31, floor_id: 'f1' }));
        await advance(0);
        engine.internals.sink.apply(asset({ ...ann, name: 'Ann Smith' }));
        await advance(0);
        expect(view.entries.get('e1')).toMatchObject({ name: 'Ann Smith', x: 30, y: 31 });
        engine.internals.sink.apply(measurement('s-e1', 'location', { time: T0 + 2000, valid_for: 10 * MIN, x: 12, y: 17, floor_id: 'f1' }));
        await advance(0);
        expect(view.entries.has('e1')).toBe(false);
        engine.internals.sink.apply(asset({ ...ann, name: 'Ann S.' }));
        await advance(0);
        // the rename does not lift the filter, nor send her back to the record's (1, 1)
        expect(view.entries.has('e1')).toBe(false);
        expect(engine.internals.store.assets.get('e1')).toMatchObject({ x: 12, y: 17, privacy_filtered: true });
      });
    });

    it('moves an asset that changes floor out of one floor view and into the other', async () => {
      ({ engine } = createTestEngine());
      feedLocation(engine, [ann], [annSensor]);
      const f1 = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['co-workers'] });
      const f2 = await collect<DrawState>(engine, { view: 'floor', floorId: 'f2', layers: ['co-workers'] });
      expect(f1.entries.has('e1')).toBe(true);
      expect(f2.entries.has('e1')).toBe(false);
      engine.internals.sink.apply(measurement('s-e1', 'location', { time: T0 + 1000, valid_for: 10 * MIN, x: 3, y: 4, floor_id: 'f2' }));
      await advance(0);
      expect(f1.messages.at(-1)).toMatchObject({ type: 'patch', removed: ['e1'], upserted: {} });
      expect(f2.messages.at(-1)).toMatchObject({ type: 'patch', removed: [] });
      expect(f2.entries.get('e1')).toMatchObject({ x: 3, y: 4 });
    });
  });

  describe('floor view layers', () => {
    it('draws an asset only when one of its layers is requested and colours environment layers on a scale with a legend', async () => {
      ({ engine } = createTestEngine());
      const room = { id: 'r1', type: 'room', name: 'Aalto', parent_id: 'f1', data_providers: ['s-co2'] };
      feedLocation(engine, [room, { id: 'd1', type: 'shape', subtype: 'desk', parent_id: 'f1' }],
        [{ id: 's-co2', type: 'co2', last_measurement: { time: T0, valid_for: 10 * MIN, value: 400 } }]);
      const view = await collect<DrawState, FloorViewMeta>(engine, { view: 'floor', floorId: 'f1', layers: ['co2'] });
      expect([...view.entries.keys()]).toEqual(['r1']);
      const low = view.entries.get('r1')!;
      expect(low).toMatchObject({ layers: ['co2'], text: '400 ppm' });
      expect(view.meta!.legends.map((l) => l.layer)).toEqual(['co2']);
      expect(view.meta!.legends[0]!.stops[0]).toMatchObject({ value: 400, color: low.color });
      engine.internals.sink.apply(measurement('s-co2', 'co2', { time: T0 + 1000, valid_for: 10 * MIN, value: 1800 }));
      await advance(0);
      expect(view.entries.get('r1')!.color).not.toBe(low.color);
      expect(view.entries.get('r1')!.text).toBe('1800 ppm');
    });

    it('shows the battery and last communication on the devices layer, updated by heartbeats', async () => {
      ({ engine } = createTestEngine());
      const device = { id: 'dev1', type: 'sensor', name: 'Gateway', parent_id: 'f1', data_providers: ['s-dev1'] };
      feedLocation(engine, [device], [{
        id: 's-dev1', type: 'temperature', last_communication_time: T0 - MIN, last_status: { battery_level: 80 },
        last_measurement: { time: T0 - MIN, valid_for: 60 * MIN, value: 21 },
      }]);
      const view = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['devices'] });
      const popup = await collect<AssetDetail>(engine, { view: 'asset', assetId: 'dev1' });
      expect(view.entries.get('dev1')).toMatchObject({ status: null, statusKind: 'none' });
      expect(popup.entries.get(SELF_KEY)).toMatchObject({ battery: 80, lastCommunication: T0 - MIN, value: { text: '21 °C', quantity: 'Temperature', unit: '°C' } });
      engine.internals.sink.apply({
        scope: locationScope,
        changes: [{ collection: 'heartbeats', kind: 'created', id: 's-dev1', data: { sensor_id: 's-dev1', time: T0 + MIN, battery_level: 15 } }],
      });
      await advance(0);
      expect(view.entries.get('dev1')).toMatchObject({ status: 'battery low', statusKind: 'attention' });
      expect(popup.entries.get(SELF_KEY)).toMatchObject({ battery: 15, lastCommunication: T0 + MIN, status: 'battery low' });
    });

    it('keeps the clean-desk phase through the free readings that follow a desk being left (spec §9)', async () => {
      ({ engine } = createTestEngine());
      const desk = { id: 'd1', type: 'shape', subtype: 'desk', name: 'D1', parent_id: 'f1', data_providers: ['s-d1'] };
      feedLocation(engine, [desk], [{ id: 's-d1', type: 'occupancy', last_measurement: { time: T0 - MIN, valid_for: 8 * 60 * MIN, value: 1 } }]);
      const view = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['desk_usage'] });
      engine.internals.sink.apply(measurement('s-d1', 'occupancy', { time: T0, valid_for: 8 * 60 * MIN, value: 0 }));
      await advance(30 * MIN);
      // sensors report periodically: a second and third 'free' reading must not erase the phase
      engine.internals.sink.apply(measurement('s-d1', 'occupancy', { time: T0 + 30 * MIN, valid_for: 8 * 60 * MIN, value: 0 }));
      await advance(60 * MIN);
      engine.internals.sink.apply(measurement('s-d1', 'occupancy', { time: T0 + 90 * MIN, valid_for: 8 * 60 * MIN, value: 0 }));
      await advance(0);
      expect(view.entries.get('d1')).toMatchObject({ status: 'should be cleared', statusKind: 'attention' });
      await advance(31 * MIN);
      expect(view.entries.get('d1')).toMatchObject({ status: 'clean desk policy exceeded' });
      // sitting down again ends it
      engine.internals.sink.apply(measurement('s-d1', 'occupancy', { time: T0 + 122 * MIN, valid_for: 8 * 60 * MIN, value: 1 }));
      await advance(0);
      expect(view.entries.get('d1')).toMatchObject({ status: 'occupied', statusKind: 'busy' });
    });

    it('counts only the minutes inside the working hours (hourStart 7 – hourEnd 18, the location\'s zone)', async () => {
      ({ engine } = createTestEngine());
      // left at 17:30 UTC (the fixture location is in UTC); policy 120 working minutes
      const left = Date.UTC(2025, 0, 15, 17, 30);
      vi.setSystemTime(left - MIN);
      const desk = { id: 'd1', type: 'shape', subtype: 'desk', name: 'D1', parent_id: 'f1', data_providers: ['s-d1'] };
      feedLocation(engine, [desk], [{ id: 's-d1', type: 'occupancy', last_measurement: { time: left - 2 * MIN, valid_for: 8 * 60 * MIN, value: 1 } }]);
      const view = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['desk_usage'] });
      engine.internals.sink.apply(measurement('s-d1', 'occupancy', { time: left, valid_for: 8 * 60 * MIN, value: 0 }));
      await advance(MIN + 3 * 60 * MIN); // 20:30: three wall hours later, but only 30 working minutes
      expect(view.entries.get('d1')).toMatchObject({ status: 'should be cleared' });
      expect(view.entries.get('d1')!.status).not.toBe('clean desk policy exceeded');
    });

    it('re-derives clean-desk colours on the real-time timeline after a desk is left', async () => {
      ({ engine } = createTestEngine());
      const desk = { id: 'd1', type: 'shape', subtype: 'desk', name: 'D1', parent_id: 'f1', data_providers: ['s-d1'] };
      feedLocation(engine, [desk], [{ id: 's-d1', type: 'occupancy', last_measurement: { time: T0 - MIN, valid_for: 8 * 60 * MIN, value: 1 } }]);
      const view = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['desk_usage'] });
      expect(view.entries.get('d1')).toMatchObject({ status: 'occupied', statusKind: 'busy', color: ROOM[2] });
      engine.internals.sink.apply(measurement('s-d1', 'occupancy', { time: T0, valid_for: 8 * 60 * MIN, value: 0 }));
      await advance(0);
      const justLeft = view.entries.get('d1')!;
      expect(justLeft).toMatchObject({ status: 'short break', statusKind: 'busy' });
      const patches = view.messages.length;
      await advance(REALTIME_TIMELINE_INTERVAL_MS * 15);
      expect(view.messages.length).toBeGreaterThan(patches);
      expect(view.entries.get('d1')).toMatchObject({ status: 'should be cleared', statusKind: 'attention' });
      expect(view.entries.get('d1')!.color).not.toBe(justLeft.color);
      await advance(120 * MIN);
      expect(view.entries.get('d1')).toMatchObject({ status: 'clean desk policy exceeded', statusKind: 'attention' });
    });
  });
});
