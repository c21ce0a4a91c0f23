import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SELF_KEY, type AssetDetail, type DrawState, type ViewPatchMessage } from '../../../src/shared/api.js';
import type { Engine } from '../../../src/worker/engine.js';
import { HISTORY_LENGTH } from '../../../src/worker/derive/history.js';
import {
  collect, createFakeBackend, createTestEngine, feedLocation, LOCATION_ID, locationScope, measurement, ORG_ID,
  wireDesk, wireOccupancySensor,
} from '../engine/harness.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const MIN = 60_000;

let engine: Engine;

beforeEach(() => { vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'Date'] }); });
afterEach(async () => { await engine?.dispose(); vi.useRealTimers(); });

async function advance(ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
  engine.internals.hub.flush();
}

describe('views', () => {
  describe('asset view (popup) history', () => {
    it('lists the default sensor\'s last five values newest first, with their unit', async () => {
      ({ engine } = createTestEngine());
      const sensorAsset = { id: 'a1', type: 'sensor', subtype: 'environment', name: 'Climate', parent_id: 'f1', data_providers: ['s-t', 's-co2'], default_sensor_type: 'temperature' };
      feedLocation(engine, [sensorAsset], [
        { id: 's-t', type: 'temperature', last_measurement: { time: T0 - 10 * MIN, valid_for: 60 * MIN, value: 20 } },
        { id: 's-co2', type: 'co2', last_measurement: { time: T0 - 10 * MIN, valid_for: 60 * MIN, value: 600 } },
      ]);
      const popup = await collect<AssetDetail>(engine, { view: 'asset', assetId: 'a1' });
      expect(popup.entries.get(SELF_KEY)!.history).toEqual([{ time: T0 - 10 * MIN, text: '20 °C' }]);
      for (let i = 1; i <= 7; i++) engine.internals.sink.apply(measurement('s-t', 'temperature', { time: T0 + i * 1000, valid_for: 60 * MIN, value: 20 + i / 4 }));
      await advance(0);
      const history = popup.entries.get(SELF_KEY)!.history;
      expect(HISTORY_LENGTH).toBe(5);
      expect(history).toHaveLength(5);
      expect(history[0]).toEqual({ time: T0 + 7000, text: '21.8 °C' });
      expect(history.map((h) => h.time)).toEqual([7, 6, 5, 4, 3].map((i) => T0 + i * 1000));
    });

    it('names the quantity and unit its history lists, the default sensor\'s, and shows that value first', async () => {
      ({ engine } = createTestEngine());
      // TVOC comes before CO₂ in the layer order; the asset's default sensor is CO₂
      const sensorAsset = { id: 'a1', type: 'sensor', subtype: 'environment', name: 'Air', parent_id: 'f1', data_providers: ['s-v', 's-co2'], default_sensor_type: 'co2' };
      feedLocation(engine, [sensorAsset], [
        { id: 's-v', type: 'tvoc', last_measurement: { time: T0 - 10 * MIN, valid_for: 60 * MIN, value: 120 } },
        { id: 's-co2', type: 'co2', last_measurement: { time: T0 - 10 * MIN, valid_for: 60 * MIN, value: 600 } },
      ]);
      const popup = await collect<AssetDetail>(engine, { view: 'asset', assetId: 'a1' });
      const detail = popup.entries.get(SELF_KEY)!;
      expect(detail.historyOf).toEqual({ quantity: 'CO₂', unit: 'ppm' });
      expect(detail.history[0]!.text).toBe('600 ppm');
      expect(detail.value).toMatchObject({ quantity: 'CO₂', unit: 'ppm', text: '600 ppm' });
    });

    it('words occupancy values and merges the asset\'s own history list', async () => {
      ({ engine } = createTestEngine());
      const desk = wireDesk('d1', 'f1', { history: [{ timestamp: T0 - 60 * MIN, value: 1 }] });
      feedLocation(engine, [desk], [wireOccupancySensor('s-d1', T0 - MIN, 0)]);
      const popup = await collect<AssetDetail>(engine, { view: 'asset', assetId: 'd1' });
      engine.internals.sink.apply(measurement('s-d1', 'occupancy', { time: T0, valid_for: 60 * MIN, value: 1 }));
      await advance(0);
      expect(popup.entries.get(SELF_KEY)!.history).toEqual([
        { time: T0, text: 'occupied' },
        { time: T0 - MIN, text: 'free' },
        { time: T0 - 60 * MIN, text: 'occupied' },
      ]);
    });

    it('lists occupancy as its changes: a state read again keeps the time it began', async () => {
      ({ engine } = createTestEngine());
      feedLocation(engine, [wireDesk('d1', 'f1')], [wireOccupancySensor('s-d1', T0 - 10 * MIN, 0)]);
      const popup = await collect<AssetDetail>(engine, { view: 'asset', assetId: 'd1' });
      for (const [minutes, value] of [[-8, 0], [-5, 1], [-2, 1], [-1, 0], [0, 0]] as const) {
        engine.internals.sink.apply(measurement('s-d1', 'occupancy', { time: T0 + minutes * MIN, valid_for: 60 * MIN, value }));
      }
      await advance(0);
      expect(popup.entries.get(SELF_KEY)!.history).toEqual([
        { time: T0 - MIN, text: 'free' },
        { time: T0 - 5 * MIN, text: 'occupied' },
        { time: T0 - 8 * MIN, text: 'free' },
      ]);
    });

    it('never lists past positions of a co-worker', async () => {
      ({ engine } = createTestEngine());
      feedLocation(engine, [{ id: 'e1', type: 'employee', parent_id: 'f1', data_providers: ['s-e1'] }],
        [{ id: 's-e1', type: 'location', last_measurement: { time: T0, valid_for: 10 * MIN, x: 1, y: 1, floor_id: 'f1' } }]);
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['co-workers'] });
      const popup = await collect<AssetDetail>(engine, { view: 'asset', assetId: 'e1' });
      engine.internals.sink.apply(measurement('s-e1', 'location', { time: T0 + 1000, valid_for: 10 * MIN, x: 2, y: 2, floor_id: 'f1' }));
      await advance(0);
      expect(floor.entries.get('e1')).toMatchObject({ x: 2, y: 2 });
      expect(popup.entries.get(SELF_KEY)!.history).toEqual([]);
    });

    it('sends a floor patch with only the changed desk, lean, whatever the floor\'s size; the history comes with the popup', async () => {
      const patchFor = async (desks: number) => {
        ({ engine } = createTestEngine());
        feedLocation(engine,
          Array.from({ length: desks }, (_, i) => wireDesk(`d${i}`, 'f1')),
          Array.from({ length: desks }, (_, i) => wireOccupancySensor(`s-d${i}`, T0 - MIN, 0)));
        const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['desk_usage'] });
        engine.internals.sink.apply(measurement('s-d7', 'occupancy', { time: T0, valid_for: 60 * MIN, value: 1 }));
        await advance(0);
        const patch = floor.messages.at(-1) as ViewPatchMessage<DrawState>;
        await engine.dispose();
        return patch;
      };
      const small = await patchFor(100);
      const large = await patchFor(2000);
      expect(Object.keys(small.upserted)).toEqual(['d7']);
      expect(small.upserted.d7).toMatchObject({ kind: 'desk', statusKind: 'busy', status: 'occupied' });
      expect(small.upserted.d7).not.toHaveProperty('history');
      expect(JSON.stringify(large).length).toBe(JSON.stringify(small).length);
    });
  });

  describe('asset view (popup) bookings coming up', () => {
    it('lists the room\'s bookings not over yet, soonest first, and follows a new reading of its reservation sensor', async () => {
      ({ engine } = createTestEngine());
      const room = { id: 'r1', type: 'room', subtype: 'meeting', name: 'Aurora', parent_id: 'f1', data_providers: ['res1'] };
      const ev = (ref: string, start: number, end: number) => ({ start, end, subject: ref, user_id: 'u1', booking_ref: ref });
      const events = [ev('later', T0 + 120 * MIN, T0 + 150 * MIN), ev('ended', T0 - 90 * MIN, T0 - 60 * MIN), ev('running', T0 - 10 * MIN, T0 + 20 * MIN)];
      feedLocation(engine, [room], [{ id: 'res1', type: 'reservation', last_measurement: { time: T0 - MIN, valid_for: 86_400_000, events } }]);
      const popup = await collect<AssetDetail>(engine, { view: 'asset', assetId: 'r1' });
      const upcoming = () => popup.entries.get(SELF_KEY)!.reservation!.upcoming.map((e) => e.booking_ref);
      expect(upcoming()).toEqual(['running', 'later']);
      // a booking made meanwhile (the room's reservation system reports it): listed in its place at once
      engine.internals.sink.apply(measurement('res1', 'reservation', { time: T0, valid_for: 86_400_000, events: [...events, ev('soon', T0 + 30 * MIN, T0 + 60 * MIN)] }));
      await advance(0);
      expect(upcoming()).toEqual(['running', 'soon', 'later']);
      // the running one ends: it is no longer coming up
      await advance(21 * MIN);
      expect(upcoming()).toEqual(['soon', 'later']);
    });
  });

  describe('asset view (popup) votes', () => {
    it('shows a voice\'s tally and keeps the viewer\'s own vote when the live update replaces the asset', async () => {
      const voice = { id: 'v1', type: 'voice', subtype: 'space', name: 'space', parent_id: 'f1', speech_bubble: 'Too warm', value: { time: T0, valid_for: 3_600_000, text: 'Too warm' }, votes: { up: 2, down: 0 } };
      const backend = createFakeBackend({ assets: [voice] });
      ({ engine } = createTestEngine({ fetch: backend.fetch, transportFactory: backend.transportFactory }));
      await engine.init({ host: 'http://127.0.0.1:9' });
      expect((await engine.signIn('ann@example.com', 'pw')).ok).toBe(true);
      expect((await engine.selectOrganization(ORG_ID)).ok).toBe(true);
      expect((await engine.selectLocation(LOCATION_ID)).ok).toBe(true);
      const popup = await collect<AssetDetail>(engine, { view: 'asset', assetId: 'v1' });
      const votes = () => popup.entries.get(SELF_KEY)!.votes;
      expect(votes()).toEqual({ up: 2, down: 0, mine: 0 });

      backend.routes.set(`PUT /v1/organizations/${ORG_ID}/locations/${LOCATION_ID}/assets/v1/vote`, () => ({ body: { up: 2, down: 1, mine: -1 } }));
      expect(await engine.vote('v1', -1)).toEqual({ ok: true, value: { up: 2, down: 1, mine: -1 } });
      await advance(0);
      expect(votes()).toEqual({ up: 2, down: 1, mine: -1 });

      // the server publishes the asset with the new tally only
      engine.internals.sink.apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'modified', id: 'v1', data: { ...voice, votes: { up: 3, down: 1 } } }] });
      await advance(0);
      expect(votes()).toEqual({ up: 3, down: 1, mine: -1 });

      backend.routes.set(`DELETE /v1/organizations/${ORG_ID}/locations/${LOCATION_ID}/assets/v1/vote`, () => ({ body: { up: 3, down: 0, mine: 0 } }));
      expect((await engine.vote('v1', 0)).ok).toBe(true);
      await advance(0);
      expect(votes()).toEqual({ up: 3, down: 0, mine: 0 });
    });

    it('gives desks and rooms no votes', async () => {
      ({ engine } = createTestEngine());
      feedLocation(engine, [wireDesk('d1', 'f1')], [wireOccupancySensor('s-d1', T0, 0)]);
      const popup = await collect<AssetDetail>(engine, { view: 'asset', assetId: 'd1' });
      expect(popup.entries.get(SELF_KEY)).toMatchObject({ votes: null, actions: { vote: false } });
    });
  });
});
