import { describe, expect, it } from 'vitest';
import type { ColumnarPage } from '../../../src/shared/reports/readings.js';
import { createLateReadings } from '../../../src/worker/reports/lateReadings.js';
import { replayPagesKey, reportPagesKey } from '../../../src/worker/reports/runReport.js';
import { createMemoryPageCache } from '../../../src/worker/storage/idbPageCache.js';
import { LOCATION_ID, loadedStore, wireDesk, wireOccupancySensor } from '../engine/harness.js';

// A reading that comes live dated in a closed day drops that day's kept pages, reports' and replays', so
// the next opening reads it from the server with the late reading (docs/reports.md "Late readings and the kept days").

const H = 3_600_000;
const NOW = Date.UTC(2025, 2, 12, 9);
const YESTERDAY = '2025-03-11';
const BEFORE = '2025-03-10';
const PAGE = { n: 0, time: new Float64Array(0), validTo: new Float64Array(0), value: new Float64Array(0), sensor: new Int32Array(0), sensors: [], lastTime: null } as unknown as ColumnarPage;

async function setup() {
  const { store } = loadedStore(
    [wireDesk('d1', 'f1'), { id: 'air', type: 'sensor', name: 'Air', parent_id: 'f1', x: 1, y: 1, data_providers: ['s-co2'] }],
    [wireOccupancySensor('s-d1', NOW - H, 1), { id: 's-co2', type: 'co2' }], () => NOW,
  );
  const cache = createMemoryPageCache(() => NOW);
  const keys = [
    reportPagesKey(LOCATION_ID, 'occupancy', YESTERDAY, 's-d1'), reportPagesKey(LOCATION_ID, 'occupancy', YESTERDAY, '*'),
    replayPagesKey(LOCATION_ID, 'occupancy', YESTERDAY, 's-d1'), reportPagesKey(LOCATION_ID, 'co2', YESTERDAY, '*'),
    reportPagesKey(LOCATION_ID, 'occupancy', BEFORE, '*'), replayPagesKey(LOCATION_ID, 'occupancy', BEFORE, 's-d1'),
  ];
  for (const key of keys) await cache.put(key, [PAGE]);
  const late = createLateReadings({ store, now: () => NOW, cache });
  const kept = async () => {
    const out: string[] = [];
    for (const key of keys) if (await cache.get(key)) out.push(key);
    return out;
  };
  const reading = (time: number, validFor = H) => ({ collection: 'measurements' as const, kind: 'created' as const, id: 's-d1', data: { sensor_id: 's-d1', type: 'occupancy', value: { time, valid_for: validFor, value: 1 } } });
  return { late, kept, keys, reading };
}

const settle = () => new Promise((resolve) => { setTimeout(resolve, 0); });

describe('late readings seen live', () => {
  it("drop the kept pages of the reading's day and type, reports' and replays', and nothing else", async () => {
    const { late, kept, keys, reading } = await setup();
    const seq = late.seq();
    late.take([reading(Date.UTC(2025, 2, 11, 10))]);
    await settle();
    expect(await kept()).toEqual([keys[3], keys[4], keys[5]]);
    expect(late.since('occupancy', YESTERDAY, seq)).toBe(true);
    expect(late.since('co2', YESTERDAY, seq)).toBe(false);
    expect(late.since('occupancy', BEFORE, seq)).toBe(false);
  });

  it("leave every kept day alone for a reading of today", async () => {
    const { late, kept, keys, reading } = await setup();
    late.take([reading(NOW - 60_000), reading(Date.UTC(2025, 2, 12, 0, 0, 1))]);
    await settle();
    expect(await kept()).toEqual(keys);
    expect(late.seq()).toBe(0);
  });

  it('drop the days after a late reading too while it was still valid at their start', async () => {
    const { late, kept, keys, reading } = await setup();
    // 23:50 the day before yesterday, valid 35 min: yesterday's first page holds it as well
    late.take([reading(Date.UTC(2025, 2, 10, 23, 50), 35 * 60_000)]);
    await settle();
    expect(await kept()).toEqual([keys[3]]);
  });

  it('take readings of any shape without throwing, and drop nothing for times no day has', async () => {
    const { late, kept, keys } = await setup();
    const times: unknown[] = [-1e20, -8.64e15 - 1, -8.64e15, -62e12, -1e14, 0, -1, '1999-01-01', '-000100-01-01', Number.MIN_SAFE_INTEGER, NaN, Infinity, -Infinity, {}, null];
    const validities: unknown[] = [1, 1e20, -1e20, Infinity, 'x', null, NaN];
    for (const time of times) {
      for (const validFor of validities) {
        const change = { collection: 'measurements' as const, kind: 'created' as const, id: 's-d1', data: { sensor_id: 's-d1', value: { time, valid_for: validFor, valid_to: validFor, value: 1 } } };
        expect(() => late.take([change]), `${String(time)} valid ${String(validFor)}`).not.toThrow();
      }
    }
    await settle();
    expect(await kept()).toEqual(keys);
    // a time of yesterday with a validity of any shape
    for (const validFor of validities) {
      const change = { collection: 'measurements' as const, kind: 'created' as const, id: 's-d1', data: { sensor_id: 's-d1', value: { time: Date.UTC(2025, 2, 11, 10), valid_for: validFor, valid_to: validFor, value: 1 } } };
      expect(() => late.take([change]), `valid ${String(validFor)}`).not.toThrow();
    }
  });
});
