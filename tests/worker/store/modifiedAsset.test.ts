// A modified asset whose record keeps every index key (parent and floor,
// sensors, user, privacy-zone membership) is not indexed again (issue 14:
// most live edits change a colour or a bubble). Whatever does change a key
// must still move the asset in the indexes, and after any sequence of edits
// the indexes are exactly what a full rebuild makes of the records.
import { describe, expect, it } from 'vitest';
import type { ChangeBatch } from '../../../src/worker/ports.js';
import { keepsIndexes, reindexAll, type Store } from '../../../src/worker/store/store.js';
import { locationScope, loadedStore, measurement, wireDesk, wireOccupancySensor } from '../engine/harness.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
let clock = T0;
const reading = (sensorId: string) => measurement(sensorId, 'occupancy', { time: (clock += 1000), value: 1 });

const modified = (data: { id: string } & Record<string, unknown>): ChangeBatch => ({
  scope: locationScope, changes: [{ collection: 'assets', kind: 'modified', id: data.id, data }],
});
const created = (data: { id: string } & Record<string, unknown>): ChangeBatch => ({
  scope: locationScope, changes: [{ collection: 'assets', kind: 'created', id: data.id, data }],
});

function indexes(store: Store) {
  const sets = (m: Map<string, Set<string>>) => Object.fromEntries([...m].map(([k, v]) => [k, [...v].sort()]).sort());
  return {
    byFloor: sets(store.assetsByFloor),
    privacy: sets(store.privacyZonesByFloor),
    floorOf: Object.fromEntries([...store.floorOf].sort()),
    bySensor: sets(store.assetsBySensor),
    byUser: sets(store.assetsByUser),
    fed: Object.fromEntries([...store.sensors.linkedIds()].sort().map((id) => [id, store.sensors.entry(id)!.fed.map((s) => s.id).sort()])),
  };
}

/** The indexes as they are equal those a full rebuild makes from the same records. */
function expectAsRebuilt(store: Store) {
  const now = indexes(store);
  reindexAll(store);
  expect(now).toEqual(indexes(store));
}

const zone = (subtype: string | null) => ({ id: 'z1', type: 'zone', subtype, name: 'Zone', parent_id: 'f1', x: 0, y: 0, data_providers: [] });

describe('a modified asset in the indexes', () => {
  it('keeps its place and sensor after an edit of its colour, and a reading still reaches the new record', () => {
    const { store, apply } = loadedStore([wireDesk('d1', 'f1')], [wireOccupancySensor('s-d1', T0, 0)], () => T0);
    apply(modified(wireDesk('d1', 'f1', { overriding_color: [255, 152, 0], speech_bubble: 'Reserved' })));
    expect(store.floorOf.get('d1')).toBe('f1');
    const delta = apply(reading('s-d1'));
    expect([...delta.values]).toEqual(['d1']);
    expect(store.sensors.entry('s-d1')!.fed[0]!.record).toBe(store.assets.get('d1'));
    expectAsRebuilt(store);
  });

  it('moves to the floor a new parent puts it on', () => {
    const { store, apply } = loadedStore([wireDesk('d1', 'f1')], [wireOccupancySensor('s-d1', T0, 0)], () => T0);
    apply(modified(wireDesk('d1', 'f2')));
    expect(store.floorOf.get('d1')).toBe('f2');
    expect(store.assetsByFloor.get('f1')?.has('d1') ?? false).toBe(false);
    expect(store.assetsByFloor.get('f2')?.has('d1')).toBe(true);
    expectAsRebuilt(store);
  });

  it('gets the floor of a room created after it once it is edited, though its parent stayed the same', () => {
    const { store, apply } = loadedStore([wireDesk('d1', 'r1')], [wireOccupancySensor('s-d1', T0, 0)], () => T0);
    expect(store.floorOf.get('d1')).toBeUndefined();
    apply(created({ id: 'r1', type: 'room', subtype: 'meeting', name: 'Aurora', parent_id: 'f1', x: 5, y: 5, data_providers: [] }));
    apply(modified(wireDesk('d1', 'r1', { overriding_color: [1, 2, 3] })));
    expect(store.floorOf.get('d1')).toBe('f1');
    expectAsRebuilt(store);
  });

  it('feeds from its new sensors only, also when a sensor is named by type only', () => {
    const { store, apply } = loadedStore([wireDesk('d1', 'f1')], [wireOccupancySensor('s-d1', T0, 0), wireOccupancySensor('s-x', T0, 0)], () => T0);
    apply(modified(wireDesk('d1', 'f1', { data_providers: ['s-x'] })));
    expect(apply(reading('s-d1')).values.size).toBe(0);
    expect([...apply(reading('s-x')).values]).toEqual(['d1']);
    // the same providers, and one more sensor named by its type
    apply(modified(wireDesk('d1', 'f1', { data_providers: ['s-x'], data_provider_refs: { occupancy: 's-d1' } })));
    expect([...apply(reading('s-d1')).values]).toEqual(['d1']);
    expectAsRebuilt(store);
  });

  it('joins and leaves its floor\'s privacy zones as its subtype changes', () => {
    const { store, apply } = loadedStore([zone(null)], [], () => T0);
    expect(store.privacyZonesByFloor.get('f1')).toBeUndefined();
    apply(modified(zone('privacy')));
    expect([...store.privacyZonesByFloor.get('f1')!]).toEqual(['z1']);
    apply(modified({ ...zone('privacy'), name: 'Quiet' }));
    expect([...store.privacyZonesByFloor.get('f1')!]).toEqual(['z1']);
    apply(modified(zone(null)));
    expect(store.privacyZonesByFloor.get('f1')).toBeUndefined();
    expectAsRebuilt(store);
  });

  it('stands for the user its config names now', () => {
    const employee = (user: string) => ({ id: 'e1', type: 'employee', name: 'E', parent_id: 'f1', x: 1, y: 1, data_providers: [], config: { user_id: user } });
    const { store, apply } = loadedStore([employee('u1')], [], () => T0);
    apply(modified(employee('u2')));
    expect(store.assetsByUser.get('u1')).toBeUndefined();
    expect([...store.assetsByUser.get('u2')!]).toEqual(['e1']);
    expectAsRebuilt(store);
  });

  it('counts other sensors, another order of them or another user as a change of the index keys', () => {
    const { store } = loadedStore([wireDesk('d1', 'f1', { data_providers: ['a', 'b'] })], [], () => T0);
    const desk = store.assets.get('d1')!;
    expect(keepsIndexes(store, desk, { ...desk, overriding_color: [1, 2, 3] })).toBe(true);
    expect(keepsIndexes(store, desk, { ...desk, data_providers: ['b', 'a'] })).toBe(false);
    expect(keepsIndexes(store, desk, { ...desk, data_providers: ['a'] })).toBe(false);
    expect(keepsIndexes(store, desk, { ...desk, data_provider_refs: { occupancy: 'a' } })).toBe(false);
    expect(keepsIndexes(store, { ...desk, data_provider_refs: { occupancy: 'a' } }, desk)).toBe(false);
    expect(keepsIndexes(store, desk, { ...desk, parent_id: 'f2' })).toBe(false);
    expect(keepsIndexes(store, desk, { ...desk, config: { user_id: 'u9' } })).toBe(false);
    expect(keepsIndexes(store, desk, { ...desk, type: 'zone', subtype: 'privacy' })).toBe(false);
  });
});
