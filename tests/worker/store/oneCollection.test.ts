import { describe, expect, it } from 'vitest';
import type { ChangeBatch } from '../../../src/worker/ports.js';
import { applyBatch } from '../../../src/worker/store/applyBatch.js';
import { createStore } from '../../../src/worker/store/store.js';
import {
  createTestLogger, LOCATION_ID, locationBatches, locationScope, ORG_ID, organizationScope, wireDesk, wireFloor, wireUser,
} from '../engine/harness.js';

// Issue 11 §5: an id belongs to one collection. A change that turns an asset
// into a building or floor (or back) moves it, and a later delete leaves
// nothing behind; a malformed initial load never wipes a collection.

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);

function loaded(assets: unknown[] = [], users: unknown[] = []) {
  const store = createStore();
  store.organizationId = ORG_ID;
  store.locationId = LOCATION_ID;
  const logger = createTestLogger();
  const apply = (batch: ChangeBatch) => applyBatch(store, batch, { logger, now: () => T0, manualLocationTimeoutMs: 432e5 });
  for (const b of locationBatches(assets, [], users)) apply(b);
  return { store, logger, apply };
}

const inCollections = (store: ReturnType<typeof createStore>, id: string) =>
  [store.assets.has(id) && 'assets', store.buildings.has(id) && 'buildings', store.floors.has(id) && 'floors'].filter(Boolean);

describe('store', () => {
  describe('applyBatch keeps every id in one collection', () => {
    it('moves a desk that becomes a floor, and back, and a delete then removes it everywhere', () => {
      const { store, logger, apply } = loaded([wireDesk('d1', 'f1')]);
      apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'modified', id: 'd1', data: wireFloor('d1') }] });
      expect(inCollections(store, 'd1')).toEqual(['floors']);
      expect(store.floorOf.has('d1')).toBe(false);
      expect([...(store.assetsByFloor.get('f1') ?? [])]).not.toContain('d1');
      expect(logger.warnings.some((w) => w.includes('changed its type'))).toBe(true);

      apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'modified', id: 'd1', data: wireDesk('d1', 'f2') }] });
      expect(inCollections(store, 'd1')).toEqual(['assets']);
      expect(store.floorOf.get('d1')).toBe('f2');

      apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'deleted', id: 'd1' }] });
      expect(inCollections(store, 'd1')).toEqual([]);
      expect([...store.assetsByFloor.values()].some((set) => set.has('d1'))).toBe(false);
    });

    it('moves a floor that becomes a building and keeps the other floors and desks as they were', () => {
      const { store, apply } = loaded([wireDesk('d1', 'f1'), wireDesk('d2', 'f2')]);
      const before = structuredClone(store.assets.get('d1'));
      apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'modified', id: 'f2', data: { id: 'f2', type: 'building', floors: [] } }] });
      expect(inCollections(store, 'f2')).toEqual(['buildings']);
      expect(store.assets.get('d1')).toEqual(before);
      expect(store.floorOf.get('d1')).toBe('f1');
      // d2's floor is gone: it stands on no floor, but it is still there
      expect(store.assets.has('d2')).toBe(true);
      expect(store.floorOf.has('d2')).toBe(false);
    });

    it('keeps the building or floor when an initial load lists the same id as a drawable asset too', () => {
      const { store, logger } = loaded([wireDesk('f1', 'f2')]);
      expect(inCollections(store, 'f1')).toEqual(['floors']);
      expect(logger.warnings).toContain('Duplicate id f1 in assets; the building or floor wins');
    });
  });

  describe('applyBatch never wipes a collection with a malformed initial load', () => {
    it.each([
      ['an object', { id: 'u9' }], ['a string', '<html>Bad gateway</html>'], ['null', null], ['a number', 404],
    ])('keeps the users when their initial load is %s', (_, items) => {
      const { store, logger, apply } = loaded([], [wireUser('u1'), wireUser('u2')]);
      apply({ scope: organizationScope, changes: [{ collection: 'users', kind: 'initial', items: items as never }] });
      expect([...store.users.keys()].sort()).toEqual(['u1', 'u2']);
      expect(logger.warnings).toContain('Expected a list of users; got something else');
    });

    it('keeps the assets, buildings and floors when their initial load is not a list', () => {
      const { store, apply } = loaded([wireDesk('d1', 'f1')]);
      apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'initial', items: { 0: wireDesk('d1', 'f1') } as never }] });
      expect(store.assets.has('d1')).toBe(true);
      expect(store.floors.size).toBe(2);
    });

    it.each([
      ['without an id', { name: 'Nameless' }], ['with an object for an id', { id: { $gt: '' } }], ['that is a number', 7],
    ])('deletes nothing when an initial load holds a record %s, and still applies the others', (_, odd) => {
      const { store, logger, apply } = loaded([], [wireUser('u1'), wireUser('u2')]);
      apply({ scope: organizationScope, changes: [{ collection: 'users', kind: 'initial', items: [odd, wireUser('u1', { first_name: 'Renamed' }), wireUser('u3')] }] });
      expect([...store.users.keys()].sort()).toEqual(['u1', 'u2', 'u3']);
      expect(store.users.get('u1')!.first_name).toBe('Renamed');
      expect(logger.warnings).toContain('An initial load of users has 1 record(s) without a usable id; keeping the stored ones it leaves out');
    });

    it('keeps the building, its floors and their order when the building\'s record in an initial load has no id', () => {
      const { store, apply } = loaded([wireDesk('d1', 'f2')]);
      const floorsBefore = structuredClone([...store.floors.values()]);
      const { id: _id, ...buildingWithoutId } = { id: 'b1', type: 'building', name: 'Main', parent_id: null, floors: ['f1', 'f2'] };
      apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'initial', items: [buildingWithoutId, wireFloor('f1'), wireFloor('f2'), wireDesk('d1', 'f2')] }] });
      expect([...store.buildings.keys()]).toEqual(['b1']);
      expect([...store.floors.values()]).toEqual(floorsBefore);
      expect(store.floorOf.get('d1')).toBe('f2');
    });

    it('still deletes what a list of identifiable records leaves out, and moves an id that changed its type', () => {
      const { store, apply } = loaded([wireDesk('d1', 'f1'), wireDesk('d2', 'f1')]);
      apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'initial', items: [{ id: 'b1', type: 'building', name: 'Main', floors: ['f1', 'd2'] }, wireFloor('f1'), wireFloor('d2')] }] });
      expect(store.assets.has('d1')).toBe(false);
      expect(store.floors.has('f2')).toBe(false);
      expect(inCollections(store, 'd2')).toEqual(['floors']);
    });
  });
});
