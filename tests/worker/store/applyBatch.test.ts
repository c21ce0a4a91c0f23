import { describe, expect, it } from 'vitest';
import { MSG } from '../../../src/shared/messages.js';
import { manualLocationSensorId, userAssetId } from '../../../src/shared/normalize/people.js';
import type { ChangeBatch } from '../../../src/worker/ports.js';
import { applyBatch } from '../../../src/worker/store/applyBatch.js';
import { createStore, type Store } from '../../../src/worker/store/store.js';
import {
  createTestLogger, LOCATION_ID, locationBatches, locationScope, measurement, ORG_ID, organizationScope,
  wireBuilding, wireDesk, wireFloor, wireOccupancySensor, wireUser,
} from '../engine/harness.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);

function loaded(assets: unknown[] = [], sensors: unknown[] = [], users: unknown[] = []) {
  const store = createStore();
  store.organizationId = ORG_ID;
  store.locationId = LOCATION_ID;
  const logger = createTestLogger();
  const options = { logger, now: () => T0, manualLocationTimeoutMs: 432e5 };
  const apply = (batch: ChangeBatch) => applyBatch(store, batch, options);
  for (const b of locationBatches(assets, sensors, users)) apply(b);
  return { store, logger, apply };
}

const employee = (id: string, floorId: string) => ({ id, type: 'employee', name: id, parent_id: floorId, data_providers: [`s-${id}`] });
const locationSensor = (id: string) => ({ id, type: 'location' });
const privacyZone = { id: 'z1', type: 'zone', subtype: 'privacy', parent_id: 'f1', outline: [[10, 10], [20, 10], [20, 20], [10, 20]] };
const floorIds = (store: Store, floorId: string) => [...(store.assetsByFloor.get(floorId) ?? [])].sort();

describe('store', () => {
  describe('applyBatch', () => {
    it('places two assets fed by one location sensor whose value names no floor, without hanging (initial load and live)', () => {
      // placing re-indexes each asset out of and back into the sensor's set: walking that live set never ended
      const shared = { id: 's-shared', type: 'location', last_measurement: { time: T0, valid_for: 600_000, x: 3, y: 4 } };
      const a = { id: 'e1', type: 'employee', name: 'A', parent_id: 'f1', data_providers: ['s-shared'] };
      const b = { id: 'e2', type: 'employee', name: 'B', parent_id: 'f1', data_providers: ['s-shared'] };
      const { store, apply } = loaded([a, b], [shared]);
      expect(store.assets.get('e1')).toMatchObject({ x: 3, y: 4, parent_id: 'f1' });
      expect(store.assets.get('e2')).toMatchObject({ x: 3, y: 4, parent_id: 'f1' });
      apply({ scope: locationScope, changes: [{ collection: 'sensors', kind: 'modified', id: 's-shared', data: { ...shared, last_measurement: { time: T0 + 1, valid_for: 600_000, x: 5, y: 6, floor_id: 'elsewhere' } } }] });
      expect(store.assets.get('e1')).toMatchObject({ x: 5, y: 6 });
      expect([...store.assetsBySensor.get('s-shared')!].sort()).toEqual(['e1', 'e2']);
    });

    it('keeps buildings and floors apart from drawable assets and indexes assets per floor', () => {
      const { store } = loaded([wireDesk('d1', 'f1'), wireDesk('d2', 'f2')], [wireOccupancySensor('s-d1', T0, 0)]);
      expect([...store.buildings.keys()]).toEqual(['b1']);
      expect([...store.floors.keys()].sort()).toEqual(['f1', 'f2']);
      expect(store.floors.get('f2')!.building_relative_index).toBe(1);
      expect(store.assets.has('b1')).toBe(false);
      expect(floorIds(store, 'f1')).toEqual(['d1']);
      expect(floorIds(store, 'f2')).toEqual(['d2']);
      expect([...store.assetsBySensor.get('s-d1')!]).toEqual(['d1']);
    });

    it('indexes an asset placed inside a room under the room\'s floor', () => {
      const room = { id: 'r1', type: 'room', parent_id: 'f2', outline: [[0, 0], [1, 0], [1, 1]] };
      const { store } = loaded([wireDesk('d1', 'r1'), room]);
      expect(floorIds(store, 'f2')).toEqual(['d1', 'r1']);
    });

    it('deletes objects an initial load no longer contains', () => {
      const { store, apply } = loaded([wireDesk('d1', 'f1'), wireDesk('d2', 'f1')]);
      const delta = apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'initial', items: [wireDesk('d1', 'f1')] }] });
      expect(store.assets.has('d2')).toBe(false);
      expect(store.floors.size).toBe(0);
      expect(delta.assets.has('d2')).toBe(true);
      expect(floorIds(store, 'f1')).toEqual([]);
    });

    it('removes a deleted asset from its floor list', () => {
      const { store, apply } = loaded([wireDesk('d1', 'f1')]);
      apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'deleted', id: 'd1' }] });
      expect(store.assets.has('d1')).toBe(false);
      expect(floorIds(store, 'f1')).toEqual([]);
    });

    it('moves an asset on a location value and between per-floor lists when the floor changes', () => {
      const { store, apply } = loaded([employee('e1', 'f1')], [locationSensor('s-e1')]);
      apply(measurement('s-e1', 'location', { time: T0, valid_for: 60_000, x: 5, y: 6, floor_id: 'f1' }));
      expect(store.assets.get('e1')).toMatchObject({ x: 5, y: 6, parent_id: 'f1' });
      const delta = apply(measurement('s-e1', 'location', { time: T0 + 1000, valid_for: 60_000, x: 7, y: 8, floor_id: 'f2' }));
      expect(store.assets.get('e1')).toMatchObject({ x: 7, y: 8, parent_id: 'f2' });
      expect(floorIds(store, 'f1')).toEqual([]);
      expect(floorIds(store, 'f2')).toEqual(['e1']);
      expect(delta.assets.has('e1')).toBe(true);
    });

    it('moves an asset when a location value is replaced by another of the same time', () => {
      const { store, apply } = loaded([employee('e1', 'f1')], [locationSensor('s-e1')]);
      apply(measurement('s-e1', 'location', { time: T0, valid_for: 60_000, x: 5, y: 6, floor_id: 'f1' }));
      const delta = apply(measurement('s-e1', 'location', { time: T0, valid_for: 60_000, x: 9, y: 2, floor_id: 'f2' }));
      expect(store.assets.get('e1')).toMatchObject({ x: 9, y: 2, parent_id: 'f2' });
      expect(floorIds(store, 'f2')).toEqual(['e1']);
      expect(delta.assets.has('e1')).toBe(true);
    });

    it('resolves a floor index of a location value in the asset\'s building', () => {
      const { store, apply } = loaded([employee('e1', 'f1')], [locationSensor('s-e1')]);
      apply(measurement('s-e1', 'location', { time: T0, x: 1, y: 1, floor: 1 }));
      expect(store.floorOf.get('e1')).toBe('f2');
    });

    it('ignores a location value without building-relative coordinates', () => {
      const { store, apply, logger } = loaded([employee('e1', 'f1')], [locationSensor('s-e1')]);
      apply(measurement('s-e1', 'location', { time: T0, floor_id: 'f2' }));
      expect(store.floorOf.get('e1')).toBe('f1');
      expect(logger.warnings.some((w) => w.includes('without building-relative coordinates'))).toBe(true);
    });

    it('privacy-filters an employee inside a privacy zone and lifts it when the employee leaves', () => {
      const { store, apply } = loaded([employee('e1', 'f1'), privacyZone], [locationSensor('s-e1')]);
      apply(measurement('s-e1', 'location', { time: T0, x: 15, y: 15, floor_id: 'f1' }));
      expect(store.assets.get('e1')!.privacy_filtered).toBe(true);
      apply(measurement('s-e1', 'location', { time: T0 + 1, x: 30, y: 30, floor_id: 'f1' }));
      expect(store.assets.get('e1')!.privacy_filtered).toBe(false);
    });

    it('never privacy-filters assets other than employees', () => {
      const tag = { id: 't1', type: 'auto_tag', parent_id: 'f1', data_providers: ['s-t1'] };
      const { store, apply } = loaded([tag, privacyZone], [locationSensor('s-t1')]);
      apply(measurement('s-t1', 'location', { time: T0, x: 15, y: 15, floor_id: 'f1' }));
      expect(store.assets.get('t1')!.privacy_filtered).toBe(false);
    });

    it('clears alert-on-activity when a newer value of a watched type arrives, not for an older one', () => {
      const watched = { ...wireDesk('d1', 'f1'), alert_on_activity: ['occupancy'] };
      const { store, apply } = loaded([watched], [wireOccupancySensor('s-d1', T0, 0)]);
      const older = apply(measurement('s-d1', 'occupancy', { time: T0 - 5000, value: 1 }));
      expect(store.assets.get('d1')!.alert_on_activity).toEqual(['occupancy']);
      expect(older.activity).toEqual([]);
      const newer = apply(measurement('s-d1', 'occupancy', { time: T0 + 5000, value: 1 }));
      expect(store.assets.get('d1')!.alert_on_activity).toEqual([]);
      expect(newer.activity).toEqual([{ assetId: 'd1', sensorType: 'occupancy' }]);
    });

    it('keeps the previous value when a newer measurement arrives', () => {
      const { store, apply } = loaded([wireDesk('d1', 'f1')], [wireOccupancySensor('s-d1', T0, 1)]);
      apply(measurement('s-d1', 'occupancy', { time: T0 + 1000, valid_for: 1000, value: 0 }));
      const s = store.sensors.get('s-d1')!;
      expect(s.last_measurement).toMatchObject({ time: T0 + 1000, value: 0, valid_to: T0 + 2000 });
      expect(s.previous_measurement).toMatchObject({ time: T0, value: 1 });
    });

    it('logs and ignores measurements and heartbeats for unknown sensors', () => {
      const { store, apply, logger } = loaded([wireDesk('d1', 'f1')]);
      const before = JSON.stringify([...store.sensors]);
      apply(measurement('nope', 'occupancy', { time: T0, value: 1 }));
      apply({ scope: locationScope, changes: [{ collection: 'heartbeats', kind: 'created', id: 'nope', data: { sensor_id: 'nope', time: T0 } }] });
      expect(logger.warnings).toContain('Ignoring measurement for unknown sensor nope');
      expect(logger.warnings).toContain('Ignoring heartbeat for unknown sensor nope');
      expect(JSON.stringify([...store.sensors])).toBe(before);
    });

    it('records heartbeats as communication time and battery level, and tells which assets only heard a heartbeat', () => {
      const { store, apply } = loaded([wireDesk('d1', 'f1')], [wireOccupancySensor('s-d1', T0, 0)]);
      const delta = apply({ scope: locationScope, changes: [{ collection: 'heartbeats', kind: 'created', id: 's-d1', data: { sensor_id: 's-d1', time: T0 + 60_000, battery_level: 42 } }] });
      expect(store.sensors.get('s-d1')).toMatchObject({ last_communication_time: T0 + 60_000, last_status: { battery_level: 42 } });
      // a heartbeat places nothing: stored and marked for persistence, not walked again after the batch
      expect(delta.sensors.has('s-d1')).toBe(false);
      expect(delta.persist.get('sensors')?.has('s-d1')).toBe(true);
      expect(delta.beats.has('d1')).toBe(true);
      expect(delta.assets.has('d1')).toBe(false);
    });

    it('warns about duplicate ids in listings and in created changes', () => {
      const { apply, logger } = loaded([wireDesk('d1', 'f1'), wireDesk('d1', 'f1')], [wireOccupancySensor('s1', T0, 0), wireOccupancySensor('s1', T0, 0)], [wireUser('u1'), wireUser('u1')]);
      apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'created', id: 'd1', data: wireDesk('d1', 'f1') }] });
      expect(logger.warnings.filter((w) => w.startsWith('Duplicate')).length).toBeGreaterThanOrEqual(4);
      expect(logger.warnings).toContain('Duplicate id d1 in assets; the later one wins');
    });

    it('takes a created after the answer to its own create as the same record, once, until a reload or a deletion', () => {
      const { apply, logger } = loaded();
      const change = (kind: 'created' | 'modified' | 'deleted', id: string, extra: Record<string, unknown> = {}) => ({ collection: 'assets' as const, kind, id, data: wireDesk(id, 'f1'), ...extra });
      apply({ scope: locationScope, changes: [change('modified', 't1', { ownCreate: true }), change('modified', 't2', { ownCreate: true }), change('modified', 't3', { ownCreate: true })] });
      apply({ scope: locationScope, changes: [change('created', 't1'), change('created', 't1')] });
      expect(logger.warnings).toEqual(['Duplicate id t1 in assets; the later one wins']);
      // deleted, then created again: a new record, no duplicate; a reload settles what was awaited
      apply({ scope: locationScope, changes: [change('deleted', 't2'), change('created', 't2')] });
      apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'initial', items: [wireBuilding(), wireFloor('f1'), wireFloor('f2'), wireDesk('t3', 'f1')] }] });
      apply({ scope: locationScope, changes: [change('created', 't3')] });
      expect(logger.warnings).toEqual(['Duplicate id t1 in assets; the later one wins', 'Duplicate id t3 in assets; the later one wins']);
    });

    it('ignores a batch whose scope is not the loaded one with a warning', () => {
      const { store, apply, logger } = loaded();
      apply({ scope: { kind: 'location', organizationId: ORG_ID, locationId: 'other' }, changes: [{ collection: 'assets', kind: 'created', id: 'x', data: wireDesk('x', 'f1') }] });
      expect(store.assets.has('x')).toBe(false);
      expect(logger.warnings).toContain(MSG.NO_SOURCE_SUBSCRIPTION);
      expect(logger.warnings).toContain('Object has no source subscription!');
    });

    it('never throws on bad input and leaves the store as it was', () => {
      const { store, apply } = loaded([wireDesk('d1', 'f1')], [wireOccupancySensor('s-d1', T0, 0)]);
      const snapshot = JSON.stringify({ a: [...store.assets], s: [...store.sensors], f: [...store.floorOf] });
      const garbage: unknown[] = [
        null, 42, { scope: null, changes: [] }, { scope: locationScope, changes: 'x' },
        { scope: locationScope, changes: [null, 7, { collection: 'nope', kind: 'created' }, { collection: 'assets', kind: 'created', data: 'x' }] },
        { scope: locationScope, changes: [{ collection: 'assets', kind: 'initial', items: 'not a list' }] },
        { scope: locationScope, changes: [{ collection: 'measurements', kind: 'created', data: { sensor_id: 's-d1', value: 'no time' } }] },
        { scope: locationScope, changes: [{ collection: 'sensors', kind: 'deleted' }] },
        { scope: organizationScope, changes: [{ collection: 'users', kind: 'created', data: { id: '' } }] },
      ];
      for (const batch of garbage) expect(() => apply(batch as ChangeBatch)).not.toThrow();
      expect(JSON.stringify({ a: [...store.assets], s: [...store.sensors], f: [...store.floorOf] })).toBe(snapshot);
    });

    it('derives a local employee asset and a manual-location sensor for every user', () => {
      const placed = wireUser('u2', { location: { location_id: LOCATION_ID, floor_id: 'f2', x: 3, y: 4, time: T0 } });
      const { store } = loaded([], [], [wireUser('u1'), placed]);
      for (const id of ['u1', 'u2']) {
        expect(store.assets.get(userAssetId(id))).toMatchObject({ type: 'employee', local: true });
        expect(store.sensors.get(manualLocationSensorId(id))).toMatchObject({ type: 'location', subtype: 'manual', local: true });
      }
      expect(store.floorOf.get(userAssetId('u2'))).toBe('f2');
      expect(store.assets.get(userAssetId('u2'))).toMatchObject({ x: 3, y: 4 });
      expect(store.sensors.get(manualLocationSensorId('u2'))!.last_measurement).toMatchObject({ valid_to: T0 + 432e5 });
      expect(store.floorOf.has(userAssetId('u1'))).toBe(false);
    });

    it('keeps derived local entities when a live initial load replaces assets and sensors', () => {
      const { store, apply } = loaded([], [], [wireUser('u1')]);
      apply({ scope: locationScope, changes: [{ collection: 'sensors', kind: 'initial', items: [] }, { collection: 'assets', kind: 'initial', items: [] }] });
      expect(store.assets.has(userAssetId('u1'))).toBe(true);
      expect(store.sensors.has(manualLocationSensorId('u1'))).toBe(true);
    });
  });
});
