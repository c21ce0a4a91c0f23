// The sensor index as the assets' slots (store.fedBy, issue 14): a live reading
// reaches the records its sensor feeds without looking each up, so whatever
// moves, replaces or deletes an asset must leave a reading acting on exactly
// the asset records the id index names, as they are now.
import { describe, expect, it } from 'vitest';
import type { ChangeBatch } from '../../../src/worker/ports.js';
import type { Store } from '../../../src/worker/store/store.js';
import {
  locationScope, measurement, wireBuilding, wireDesk, wireFloor, wireOccupancySensor, loadedStore,
} from '../engine/harness.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);

function loaded(assets: unknown[], sensors: unknown[]) {
  return loadedStore(assets, sensors, () => T0);
}

const assetChange = (kind: 'created' | 'modified' | 'deleted', data: { id: string }): ChangeBatch => ({
  scope: locationScope, changes: [{ collection: 'assets', kind, id: data.id, data }],
});
let clock = T0;
/** a newer occupied reading of the sensor */
const reading = (sensorId: string) => measurement(sensorId, 'occupancy', { time: (clock += 1000), value: 1 });

/** The slots hold, in the id index's order, the records the store has under those ids now. */
function expectIndexesAgree(store: Store) {
  expect([...store.fedBy.keys()].sort()).toEqual([...store.assetsBySensor.keys()].sort());
  for (const [sensorId, ids] of store.assetsBySensor) {
    const slots = store.fedBy.get(sensorId)!;
    expect(slots.map((s) => s.id)).toEqual([...ids]);
    for (const slot of slots) expect(slot.record).toBe(store.assets.get(slot.id));
  }
}

describe('a reading reaches the assets its sensor feeds now', () => {
  it('reaches only the new asset after the sensor moved from one desk to another', () => {
    const { store, apply } = loaded([wireDesk('d1', 'f1', { data_providers: ['s1'] }), wireDesk('d2', 'f1', { data_providers: [] })], [wireOccupancySensor('s1', T0, 0)]);
    expect([...apply(reading('s1')).values]).toEqual(['d1']);
    apply(assetChange('modified', wireDesk('d1', 'f1', { data_providers: [] })));
    apply(assetChange('modified', wireDesk('d2', 'f1', { data_providers: ['s1'] })));
    const delta = apply(reading('s1'));
    expect([...delta.values]).toEqual(['d2']);
    expect(delta.assets.size).toBe(0);
    expectIndexesAgree(store);
  });

  it('acts on the record that replaced the one it was indexed with', () => {
    const { store, apply } = loaded([wireDesk('d1', 'f1')], [wireOccupancySensor('s-d1', T0, 0)]);
    const before = store.assets.get('d1')!;
    apply(assetChange('modified', wireDesk('d1', 'f1', { name: 'Renamed', alert_on_activity: ['occupancy'] })));
    const after = store.assets.get('d1')!;
    expect(after).not.toBe(before);
    const delta = apply(reading('s-d1'));
    // the alert is cleared on the record the store holds, not on the one replaced
    expect(delta.activity).toEqual([{ assetId: 'd1', sensorType: 'occupancy' }]);
    expect(after.alert_on_activity).toEqual([]);
    expect(before.alert_on_activity).toEqual([]);
    expect(store.assets.get('d1')).toBe(after);
    expectIndexesAgree(store);
  });

  it('reaches nothing once the desk is deleted, and the desk created again under its id', () => {
    const { store, apply } = loaded([wireDesk('d1', 'f1')], [wireOccupancySensor('s-d1', T0, 0)]);
    apply(assetChange('deleted', { id: 'd1' }));
    const gone = apply(reading('s-d1'));
    expect(gone.values.size + gone.assets.size).toBe(0);
    expect(store.fedBy.has('s-d1')).toBe(false);
    apply(assetChange('created', wireDesk('d1', 'f1', { alert_on_activity: ['occupancy'] })));
    const back = apply(reading('s-d1'));
    // a cleared alert is the asset's own change
    expect([...back.assets]).toEqual(['d1']);
    expect(store.assets.get('d1')!.alert_on_activity).toEqual([]);
    expectIndexesAgree(store);
  });

  it('acts on the new record when the desk is replaced earlier in the same batch, before the indexes are rebuilt', () => {
    const room = { id: 'r1', type: 'room', parent_id: 'f1', outline: [[0, 0], [9, 0], [9, 9]], data_providers: [] };
    // a desk with a child: a new parent re-indexes everything at the end of the batch
    const { store, apply } = loaded([wireDesk('d1', 'f1'), room, wireDesk('d2', 'd1', { data_providers: [] })], [wireOccupancySensor('s-d1', T0, 0)]);
    const delta = apply({
      scope: locationScope,
      changes: [
        { collection: 'assets', kind: 'modified', id: 'd1', data: wireDesk('d1', 'r1', { alert_on_activity: ['occupancy'] }) },
        { collection: 'measurements', kind: 'created', id: 's-d1', data: { sensor_id: 's-d1', type: 'occupancy', value: { time: (clock += 1000), value: 1 } } },
      ],
    });
    expect(delta.activity).toEqual([{ assetId: 'd1', sensorType: 'occupancy' }]);
    expect(store.assets.get('d1')!.alert_on_activity).toEqual([]);
    expectIndexesAgree(store);
  });

  it('reaches the replaced record of a desk its sensor names (asset_id) without listing the sensor', () => {
    const named = { ...wireOccupancySensor('s-named', T0, 0), asset_id: 'd1' };
    const { store, apply } = loaded([wireDesk('d1', 'f1', { data_providers: [] })], [named]);
    expect([...apply(reading('s-named')).values]).toEqual(['d1']);
    apply(assetChange('modified', wireDesk('d1', 'f1', { data_providers: [], alert_on_activity: ['occupancy'] })));
    const delta = apply(reading('s-named'));
    expect(delta.activity).toEqual([{ assetId: 'd1', sensorType: 'occupancy' }]);
    expect(store.assets.get('d1')!.alert_on_activity).toEqual([]);
    expectIndexesAgree(store);
  });

  it('reaches the reloaded records after an initial load replaced every asset', () => {
    const { store, apply } = loaded([wireDesk('d1', 'f1'), wireDesk('d2', 'f1')], [wireOccupancySensor('s-d1', T0, 0), wireOccupancySensor('s-d2', T0, 0)]);
    apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'initial', items: [wireBuilding(), wireFloor('f1'), wireFloor('f2'), wireDesk('d1', 'f2', { alert_on_activity: ['occupancy'] })] }] });
    expectIndexesAgree(store);
    expect(apply(reading('s-d2')).values.size).toBe(0);
    const delta = apply(reading('s-d1'));
    expect([...delta.assets]).toEqual(['d1']);
    expect(store.assets.get('d1')!.alert_on_activity).toEqual([]);
  });
});
