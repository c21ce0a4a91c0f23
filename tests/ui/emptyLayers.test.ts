import { describe, expect, it } from 'vitest';
import type { DrawState } from '../../src/shared/api.js';
import { emptyLayers } from '../../src/ui/hooks/useEmptyLayers.js';
import { draw } from './fakeEngine.js';

describe('emptyLayers', () => {
  const entries = new Map<string, DrawState>([
    ['d0', draw('d0', { layers: ['desk_usage'] })],
    ['s0', draw('s0', { kind: 'sensor', layers: ['co2'] })],
    ...Array.from({ length: 100 }, (_, i) => [`d${i + 1}`, draw(`d${i + 1}`)] as const),
  ]);
  const keys = [...entries.keys(), 'gone'];

  it('lists the active asset layers no entry is on, never the floor plan or the report layer', () => {
    expect(emptyLayers(keys, (k) => entries.get(k), ['floorplan', 'desk_usage', 'lockers', 'co2', 'report'])).toEqual(['lockers']);
    expect(emptyLayers(keys, (k) => entries.get(k), [])).toEqual([]);
  });

  it('stops reading once every active layer is seen', () => {
    let reads = 0;
    const empty = emptyLayers(keys, (k) => { reads += 1; return entries.get(k); }, ['desk_usage', 'co2']);
    expect(empty).toEqual([]);
    expect(reads).toBe(2);
  });
});
