import { describe, expect, it } from 'vitest';
import type { ChangeBatch } from '../../../src/worker/ports.js';
import { reindexAll, type Store } from '../../../src/worker/store/store.js';
import { locationScope, measurement, wireDesk, loadedStore } from '../engine/harness.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);

function loaded(assets: unknown[] = [], sensors: unknown[] = []) {
  return loadedStore(assets, sensors, () => T0);
}

const zone = (id: string, floorId: string, subtype = 'privacy') =>
  ({ id, type: 'zone', subtype, parent_id: floorId, outline: [[10, 10], [20, 10], [20, 20], [10, 20]] });
const employee = { id: 'e1', type: 'employee', name: 'e1', parent_id: 'f1', data_providers: ['s-e1'] };
const zonesOn = (store: Store, floorId: string) => [...(store.privacyZonesByFloor.get(floorId) ?? [])].sort();
const modified = (data: unknown): ChangeBatch =>
  ({ scope: locationScope, changes: [{ collection: 'assets', kind: 'modified', id: (data as { id: string }).id, data }] });

describe('store', () => {
  describe('privacyZonesByFloor', () => {
    it('lists only the privacy zones of each floor', () => {
      const { store } = loaded([zone('z1', 'f1'), zone('z2', 'f2'), zone('z3', 'f1', 'other'), wireDesk('d1', 'f1')]);
      expect(zonesOn(store, 'f1')).toEqual(['z1']);
      expect(zonesOn(store, 'f2')).toEqual(['z2']);
    });

    it('follows a zone that moves floor, stops being a privacy zone, or is deleted', () => {
      const { store, apply } = loaded([zone('z1', 'f1'), zone('z2', 'f1')]);
      apply(modified(zone('z1', 'f2')));
      expect(zonesOn(store, 'f1')).toEqual(['z2']);
      expect(zonesOn(store, 'f2')).toEqual(['z1']);
      apply(modified(zone('z2', 'f1', 'meeting')));
      expect(zonesOn(store, 'f1')).toEqual([]);
      apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'deleted', id: 'z1' }] });
      expect(zonesOn(store, 'f2')).toEqual([]);
    });

    it('is rebuilt by reindexAll', () => {
      const { store } = loaded([zone('z1', 'f1')]);
      store.privacyZonesByFloor.clear();
      reindexAll(store);
      expect(zonesOn(store, 'f1')).toEqual(['z1']);
    });

    it('privacy-filters an employee by a zone that became private after the load', () => {
      const { store, apply } = loaded([employee, zone('z1', 'f1', 'meeting')], [{ id: 's-e1', type: 'location' }]);
      apply(measurement('s-e1', 'location', { time: T0, x: 15, y: 15, floor_id: 'f1' }));
      expect(store.assets.get('e1')!.privacy_filtered).toBe(false);
      apply(modified(zone('z1', 'f1')));
      apply(measurement('s-e1', 'location', { time: T0 + 1, x: 16, y: 16, floor_id: 'f1' }));
      expect(store.assets.get('e1')!.privacy_filtered).toBe(true);
    });
  });
});
