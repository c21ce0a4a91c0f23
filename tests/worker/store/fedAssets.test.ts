// The sensor index as the assets' slots, held in the sensor's one entry
// (store.sensors.entry, issue 14): a live reading reaches the records its
// sensor feeds without looking each up, so whatever moves, replaces or deletes
// an asset must leave a reading acting on exactly the asset records the id
// index names, as they are now; and whatever replaces or deletes a sensor must
// leave its entry holding the record, history and assets the store has now.
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

const assetChange = (kind: 'created' | 'modified' | 'deleted', data: { id: string } & Record<string, unknown>): ChangeBatch => ({
  scope: locationScope, changes: [{ collection: 'assets', kind, id: data.id, data }],
});
let clock = T0;
/** a newer occupied reading of the sensor */
const reading = (sensorId: string) => measurement(sensorId, 'occupancy', { time: (clock += 1000), value: 1 });

/** The slots hold, in the id index's order, the records the store has under those ids now. */
function expectIndexesAgree(store: Store) {
  expect([...store.sensors.linkedIds()].sort()).toEqual([...store.assetsBySensor.keys()].sort());
  for (const [sensorId, ids] of store.assetsBySensor) {
    const slots = store.sensors.entry(sensorId)!.fed;
    expect(slots.map((s) => s.id)).toEqual([...ids]);
    // the one asset of a sensor feeding exactly one, reached without the list
    expect(store.sensors.entry(sensorId)!.only).toBe(slots.length === 1 ? slots[0] : null);
    for (const slot of slots) expect(slot.record).toBe(store.assets.get(slot.id));
  }
  // every loaded sensor's entry holds the record the store has
  for (const [id, sensor] of store.sensors) expect(store.sensors.entry(id)!.record).toBe(sensor);
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

  it('reaches both assets of a sensor feeding two, then the one left, then two again', () => {
    const shared = { data_providers: ['s1'] };
    const { store, apply } = loaded([wireDesk('d1', 'f1', shared), wireDesk('d2', 'f1', shared)], [wireOccupancySensor('s1', T0, 0)]);
    expect([...apply(reading('s1')).values].sort()).toEqual(['d1', 'd2']);
    expectIndexesAgree(store);
    apply(assetChange('modified', wireDesk('d1', 'f1', { data_providers: [] })));
    expect([...apply(reading('s1')).values]).toEqual(['d2']);
    expectIndexesAgree(store);
    apply(assetChange('deleted', { id: 'd2' }));
    expect(apply(reading('s1')).values.size).toBe(0);
    expectIndexesAgree(store);
    apply(assetChange('created', wireDesk('d2', 'f1', shared)));
    apply(assetChange('modified', wireDesk('d1', 'f1', shared)));
    expect([...apply(reading('s1')).values].sort()).toEqual(['d1', 'd2']);
    expectIndexesAgree(store);
    // a heartbeat reaches the same two
    const beat = apply({ scope: locationScope, changes: [{ collection: 'heartbeats', kind: 'created', id: 's1', data: { sensor_id: 's1', time: (clock += 1000) } }] });
    expect([...beat.beats].sort()).toEqual(['d1', 'd2']);
  });

  it('keeps a sensor\'s status object while the battery level repeats, and a new one when it changes', () => {
    const { store, apply } = loaded([wireDesk('d1', 'f1')], [wireOccupancySensor('s-d1', T0, 0)]);
    const level = (battery: number) => measurement('s-d1', 'occupancy', { time: (clock += 1000), value: 1, battery_level: battery });
    apply(level(80));
    const status = store.sensors.get('s-d1')!.last_status;
    expect(status).toEqual({ battery_level: 80 });
    apply(level(80));
    expect(store.sensors.get('s-d1')!.last_status).toBe(status);
    apply(level(79));
    expect(store.sensors.get('s-d1')!.last_status).toEqual({ battery_level: 79 });
    // the object a view may hold is not changed under it
    expect(status).toEqual({ battery_level: 80 });
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
    expect(store.sensors.entry('s-d1')!.fed).toEqual([]);
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

const sensorChange = (kind: 'created' | 'modified' | 'deleted', data: { id: string } & Record<string, unknown>): ChangeBatch => ({
  scope: locationScope, changes: [{ collection: 'sensors', kind, id: data.id, data }],
});
const recentTimes = (store: Store, sensorId: string) => store.sensors.entry(sensorId)?.recent.map((v) => v.time) ?? [];

describe('a sensor\'s one entry: its record, its recent values and the assets it feeds', () => {
  it('keeps the recent values through a record update, and drops them with the sensor', () => {
    const { store, apply } = loaded([wireDesk('d1', 'f1')], [wireOccupancySensor('s-d1', T0, 0)]);
    apply(reading('s-d1'));
    const t1 = clock;
    apply(reading('s-d1'));
    expect(recentTimes(store, 's-d1')).toEqual([clock, t1]);
    // the server's record of the sensor changes (a rename): what live data taught stays
    apply(sensorChange('modified', { ...wireOccupancySensor('s-d1', T0, 0), name: 'Renamed' }));
    expect(recentTimes(store, 's-d1')).toEqual([clock, t1]);
    expect(store.sensors.entry('s-d1')!.record).toBe(store.sensors.get('s-d1'));
    expect([...apply(reading('s-d1')).values]).toEqual(['d1']);
    expectIndexesAgree(store);
    // deleted: a reading of it is dropped, and the desk it fed is still linked for when it comes back
    apply(sensorChange('deleted', { id: 's-d1' }));
    const dropped = apply(reading('s-d1'));
    expect(dropped.values.size + dropped.assets.size).toBe(0);
    expect(dropped.persist.size).toBe(0);
    expect(recentTimes(store, 's-d1')).toEqual([]);
    apply(sensorChange('created', wireOccupancySensor('s-d1', T0, 0)));
    // created again: its history starts afresh, and its readings reach the desk again
    expect(recentTimes(store, 's-d1')).toEqual([]);
    expect([...apply(reading('s-d1')).values]).toEqual(['d1']);
    expect(recentTimes(store, 's-d1')).toEqual([clock]);
    expectIndexesAgree(store);
  });

  it("compares a reading with the last reading the record holds now, not the one the entry kept when a change replaced it", () => {
    const { store, apply } = loaded([wireDesk('d1', 'f1')], [wireOccupancySensor('s-d1', T0, 0)]);
    // a live free reading: the entry keeps its fields (time, value, validity) and its battery level
    apply(measurement('s-d1', 'occupancy', { time: T0 + 1_000, valid_for: 3_600_000, value: 0, battery_level: 90 }));
    expect(store.sensors.get('s-d1')!.last_status).toEqual({ battery_level: 90 });
    // the server's record of the sensor replaces it, with a later, occupied reading and another battery level
    apply(sensorChange('modified', {
      ...wireOccupancySensor('s-d1', T0 + 5_000, 1), last_status: { battery_level: 50 },
    }));
    const status = store.sensors.get('s-d1')!.last_status;
    expect(status).toEqual({ battery_level: 50 });
    // a reading older than the record's is ignored (the entry's kept time, T0 + 1 s, would have taken it)
    const older = apply(measurement('s-d1', 'occupancy', { time: T0 + 3_000, valid_for: 3_600_000, value: 1, battery_level: 50 }));
    expect(older.values.size + older.assets.size).toBe(0);
    expect(store.sensors.get('s-d1')!.last_measurement).toMatchObject({ time: T0 + 5_000, value: 1 });
    // a newer free reading: the desk was left at its time, as the record's occupied reading says (the entry's
    // kept value, free, would have said it was never taken); the record's status object stays for the same level
    apply(measurement('s-d1', 'occupancy', { time: T0 + 6_000, valid_for: 3_600_000, value: 0, battery_level: 50 }));
    const sensor = store.sensors.get('s-d1')!;
    expect(sensor.left_at).toBe(T0 + 6_000);
    expect(sensor.previous_measurement).toMatchObject({ time: T0 + 5_000, value: 1 });
    expect(sensor.last_status).toBe(status);
    // and from there the kept fields are the new reading's: a repeat of it is newer and leaves the time left
    apply(measurement('s-d1', 'occupancy', { time: T0 + 7_000, valid_for: 3_600_000, value: 0, battery_level: 49 }));
    expect(store.sensors.get('s-d1')!.left_at).toBe(T0 + 6_000);
    expect(store.sensors.get('s-d1')!.last_status).toEqual({ battery_level: 49 });
    expect(recentTimes(store, 's-d1')).toEqual([T0 + 7_000, T0 + 6_000, T0 + 1_000]);
  });

  it('reaches a desk that named the sensor before the sensor was loaded', () => {
    const { store, apply } = loaded([wireDesk('d1', 'f1', { data_providers: ['s-late'] })], []);
    // the desk names a provider nobody loaded: a reading of it is an unknown sensor's
    expect(store.sensors.has('s-late')).toBe(false);
    expect(apply(reading('s-late')).values.size).toBe(0);
    apply(sensorChange('created', wireOccupancySensor('s-late', T0, 0)));
    expect([...apply(reading('s-late')).values]).toEqual(['d1']);
    expectIndexesAgree(store);
  });

  it('takes a heartbeat to every asset the sensor feeds, and none once they stopped naming it', () => {
    const { store, apply } = loaded(
      [wireDesk('d1', 'f1', { data_providers: ['s1'] }), wireDesk('d2', 'f2', { data_providers: ['s1'] })],
      [wireOccupancySensor('s1', T0, 0)],
    );
    const beat = (): ChangeBatch => ({
      scope: locationScope, changes: [{ collection: 'heartbeats', kind: 'created', id: 's1', data: { sensor_id: 's1', time: (clock += 1000), battery_level: 40 } }],
    });
    expect([...apply(beat()).beats].sort()).toEqual(['d1', 'd2']);
    expect(store.sensors.get('s1')!.last_status).toEqual({ battery_level: 40 });
    apply(assetChange('modified', wireDesk('d1', 'f1', { data_providers: [] })));
    expect([...apply(beat()).beats]).toEqual(['d2']);
    apply(assetChange('modified', wireDesk('d2', 'f2', { data_providers: [] })));
    expect(apply(beat()).beats.size).toBe(0);
    expectIndexesAgree(store);
  });

  it('forgets an id nobody loaded once no asset names it any more', () => {
    const { store, apply } = loaded([wireDesk('d1', 'f1', { data_providers: ['s-ghost'] })], []);
    expect(store.sensors.entry('s-ghost')?.fed.map((s) => s.id)).toEqual(['d1']);
    apply(assetChange('modified', wireDesk('d1', 'f1', { data_providers: [] })));
    expect(store.sensors.entry('s-ghost')).toBeUndefined();
    expectIndexesAgree(store);
  });
});

describe('what a reading asks of the record, kept with the slot', () => {
  it('fires an activity watch once, and again only after a record that watches again', () => {
    const { store, apply } = loaded([wireDesk('d1', 'f1', { alert_on_activity: ['occupancy'] })], [wireOccupancySensor('s-d1', T0, 0)]);
    const first = apply(reading('s-d1'));
    expect(first.activity).toEqual([{ assetId: 'd1', sensorType: 'occupancy' }]);
    expect([...first.assets]).toEqual(['d1']);
    // cleared: the next reading is a reading only
    const second = apply(reading('s-d1'));
    expect(second.activity).toEqual([]);
    expect([...second.values]).toEqual(['d1']);
    expect(second.assets.size).toBe(0);
    apply(assetChange('modified', wireDesk('d1', 'f1', { alert_on_activity: ['occupancy'] })));
    expect(apply(reading('s-d1')).activity).toEqual([{ assetId: 'd1', sensorType: 'occupancy' }]);
    // a watch of another sensor type stays and fires nothing
    apply(assetChange('modified', wireDesk('d1', 'f1', { alert_on_activity: ['temperature'] })));
    const other = apply(reading('s-d1'));
    expect(other.activity).toEqual([]);
    expect(store.assets.get('d1')!.alert_on_activity).toEqual(['temperature']);
  });

  it("takes a reading as the asset's own change once the record stands for a person, and as a reading again after", () => {
    const { apply } = loaded([wireDesk('d1', 'f1')], [wireOccupancySensor('s-d1', T0, 0)]);
    expect([...apply(reading('s-d1')).values]).toEqual(['d1']);
    apply(assetChange('modified', { ...wireDesk('d1', 'f1'), type: 'employee', subtype: null }));
    const asPerson = apply(reading('s-d1'));
    expect([...asPerson.assets]).toEqual(['d1']);
    expect(asPerson.values.size).toBe(0);
    apply(assetChange('modified', wireDesk('d1', 'f1')));
    expect([...apply(reading('s-d1')).values]).toEqual(['d1']);
  });
});
