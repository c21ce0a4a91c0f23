import { describe, expect, it } from 'vitest';
import type { Asset, Sensor } from '../../../src/shared/types.js';
import { latestLocationOf } from '../../../src/worker/store/located.js';
import { sensorIdsOf, sensorsOf, type Store } from '../../../src/worker/store/store.js';

const asset = (data_providers: string[], data_provider_refs: Record<string, string>) => ({ data_providers, data_provider_refs }) as unknown as Asset;

describe('store', () => {
  describe('sensorIdsOf', () => {
    it('lists providers first, then referenced sensors that are not providers, each once', () => {
      expect(sensorIdsOf(asset(['s1', 's2', 's1'], { occupancy: 's2', temperature: 's3', co2: 's3' }))).toEqual(['s1', 's2', 's3']);
    });

    it('returns a fresh array the caller may change without touching the asset', () => {
      const a = asset(['s1'], {});
      sensorIdsOf(a).push('x');
      expect(a.data_providers).toEqual(['s1']);
    });

    it('dedupes long provider lists the same way', () => {
      const many = Array.from({ length: 12 }, (_, i) => `s${i % 10}`);
      expect(sensorIdsOf(asset(many, { extra: 's42', dup: 's3' }))).toEqual([...Array.from({ length: 10 }, (_, i) => `s${i}`), 's42']);
    });
  });
});

describe('latestLocationOf', () => {
  const sensor = (id: string, type: string, value: Record<string, unknown> | null) => ({ id, type, last_measurement: value }) as unknown as Sensor;
  const storeOf = (sensors: Sensor[]) => ({ sensors: new Map(sensors.map((s) => [s.id, s])) }) as unknown as Store;

  it("gives the newest position among the asset's location sensors, providers and referenced ones, as sensorsOf lists them", () => {
    const store = storeOf([
      sensor('tag', 'location', { time: 100, x: 1, y: 2 }),
      sensor('badge', 'location', { time: 300, x: 5, y: 6 }),
      sensor('later-but-no-position', 'location', { time: 900 }),
      sensor('occ', 'occupancy', { time: 999, x: 9, y: 9, value: 1 }),
    ]);
    const a = asset(['occ', 'tag', 'later-but-no-position', 'gone'], { location: 'badge' });
    expect(latestLocationOf(store, a)).toEqual({ time: 300, x: 5, y: 6 });
    // the same answer as from the listed sensors, for every subset of them
    const listed = sensorsOf(store, a).filter((s) => s.type === 'location' && typeof s.last_measurement?.x === 'number');
    expect(latestLocationOf(store, a)).toBe(listed.sort((p, q) => q.last_measurement!.time - p.last_measurement!.time)[0]!.last_measurement);
    expect(latestLocationOf(store, asset(['occ'], {}))).toBeNull();
    expect(latestLocationOf(store, asset([], {}))).toBeNull();
  });
});
