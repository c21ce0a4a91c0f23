import { describe, expect, it } from 'vitest';
import { computeFacts } from '../../../src/worker/derive/assetFacts.js';
import { createConfigResolver } from '../../../src/worker/derive/configResolver.js';
import { toDrawState } from '../../../src/worker/derive/drawState.js';
import { createMemoryStorage } from '../../../src/worker/storage/memoryStorage.js';
import { createTestEngine, feedLocation } from '../engine/harness.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const zone = { id: 'z1', type: 'zone', subtype: 'privacy', name: 'Quiet', parent_id: 'f1', outline: [[10, 10], [20, 10], [20, 20], [10, 20]] };
const inZone = { id: 's-e1', type: 'location', last_measurement: { time: T0, valid_for: 600_000, x: 12, y: 17, floor_id: 'f1' } };

describe('computeFacts', () => {
  describe('freshness: not drawn when privacy-filtered and not local (spec §4)', () => {
    it("reads 'local' as the asset's own flag: a server asset standing for the viewer is hidden in a privacy zone", async () => {
      const { engine } = createTestEngine({ storage: createMemoryStorage() });
      feedLocation(engine, [zone, { id: 'e1', type: 'employee', name: 'Me', parent_id: 'f1', data_providers: ['s-e1'], config: { user_id: 'me' } }], [inZone]);
      const { store } = engine.internals;
      const facts = computeFacts(store.assets.get('e1')!, {
        store, now: T0, viewerUserId: 'me', roles: ['regular'], config: createConfigResolver(store), timeZone: 'UTC',
      })!;
      expect(facts.own).toBe(true);
      expect(store.assets.get('e1')!.privacy_filtered).toBe(true);
      expect(facts.freshness.visible).toBe(false);
      await engine.dispose();
    });

    it('draws the client-derived local asset of a user (local: true) inside a privacy zone', async () => {
      const { engine } = createTestEngine({ storage: createMemoryStorage() });
      feedLocation(engine, [zone, { id: 'e2', type: 'employee', name: 'Local', parent_id: 'f1', data_providers: ['s-e1'], local: true }], [inZone]);
      const { store } = engine.internals;
      const asset = store.assets.get('e2')!;
      expect(asset.privacy_filtered).toBe(true);
      const facts = computeFacts(asset, { store, now: T0, viewerUserId: null, roles: ['regular'], config: createConfigResolver(store), timeZone: 'UTC' })!;
      expect(facts.freshness.visible).toBe(true);
      await engine.dispose();
    });
  });

  describe('what thousands of desks hold in common is held once (issue 14: floor view memory)', () => {
    const desk = (id: string) => ({ id, type: 'shape', subtype: 'desk', name: id, parent_id: 'f1', x: 1, y: 1, width: 1, depth: 1 });

    it('gives desks drawn on the same layers one list, and a view of fewer layers the right part of it', async () => {
      const { engine } = createTestEngine({ storage: createMemoryStorage() });
      feedLocation(engine, [desk('d1'), desk('d2')], []);
      const { store } = engine.internals;
      const ctx = { store, now: T0, viewerUserId: null, roles: ['regular' as const], config: createConfigResolver(store), timeZone: 'UTC' };
      const a = computeFacts(store.assets.get('d1')!, ctx)!;
      const b = computeFacts(store.assets.get('d2')!, ctx)!;
      expect(a.layers).toEqual(['desks', 'desk_usage', 'report']);
      expect(b.layers).toBe(a.layers);
      // no environment layer read: one empty sensor facts object for all
      expect(a.sensors).toEqual({});
      expect(b.sensors).toBe(a.sensors);

      const all = new Set(['desks', 'desk_usage', 'report'] as const);
      expect(toDrawState(a, all)!.layers).toBe(a.layers);
      const some = new Set(['desk_usage', 'zones'] as const);
      const drawnA = toDrawState(a, some)!;
      expect(drawnA.layers).toEqual(['desk_usage']);
      expect(toDrawState(b, some)!.layers).toBe(drawnA.layers);
      expect(toDrawState(a, new Set(['zones'] as const))).toBeUndefined();
      await engine.dispose();
    });
  });
});
