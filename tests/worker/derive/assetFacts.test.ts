import { describe, expect, it } from 'vitest';
import { computeFacts } from '../../../src/worker/derive/assetFacts.js';
import { createConfigResolver } from '../../../src/worker/derive/configResolver.js';
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
});
