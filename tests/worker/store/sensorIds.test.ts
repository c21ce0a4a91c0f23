import { describe, expect, it } from 'vitest';
import type { Asset } from '../../../src/shared/types.js';
import { sensorIdsOf } from '../../../src/worker/store/store.js';

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
