import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createIdbStorage } from '../../../src/worker/storage/idbStorage.js';
import type { CacheWrite } from '../../../src/worker/storage/storagePort.js';

// Issue 11 §6: two tabs of one user run two workers on one IndexedDB
// database and both write the same (user, location). Concurrent writers,
// no leader (docs/reliability.md "More than one tab"): each write is one
// readwrite transaction, so records are neither lost nor interleaved.

const key = { userId: 'u1', locationId: 'l1' };
const meta = (savedAt: number): CacheWrite['meta'] => ({ ...key, organizationId: 'o1', savedAt, streams: {} });
const desk = (id: string, name: string) => ({ id, type: 'shape', name });

describe('two tabs on one IndexedDB database', () => {
  it('loses no record of either writer when both write at once', async () => {
    const name = `storey-two-tabs-${Math.random().toString(36).slice(2)}`;
    const [a, b] = [createIdbStorage({ name }), createIdbStorage({ name })];
    await Promise.all([a.open(), b.open()]);
    const writes: Array<Promise<unknown>> = [];
    for (let i = 0; i < 40; i++) {
      writes.push(a.write(key, { meta: meta(i), full: false, changes: [{ collection: 'assets', id: `a${i}`, value: desk(`a${i}`, 'tab A') }, { collection: 'assets', id: 'shared', value: desk('shared', `A${i}`) }] }));
      writes.push(b.write(key, { meta: meta(i), full: false, changes: [{ collection: 'assets', id: `b${i}`, value: desk(`b${i}`, 'tab B') }, { collection: 'assets', id: 'shared', value: desk('shared', `B${i}`) }] }));
    }
    await Promise.all(writes);
    const warnings: string[] = [];
    const cached = await a.loadLocation(key, (w) => warnings.push(w));
    expect(warnings).toEqual([]);
    const ids = cached!.entities.assets.map((e) => (e as { id: string }).id).sort();
    expect(ids).toEqual([...Array.from({ length: 40 }, (_, i) => `a${i}`), ...Array.from({ length: 40 }, (_, i) => `b${i}`), 'shared'].sort());
    // the shared entity holds one writer's whole value, the last one written
    expect(cached!.entities.assets.find((e) => (e as { id: string }).id === 'shared')).toEqual(desk('shared', 'B39'));
    await Promise.all([a.close(), b.close()]);
  });

  it('stays readable when one tab rewrites everything while the other writes deltas', async () => {
    const name = `storey-two-tabs-${Math.random().toString(36).slice(2)}`;
    const [a, b] = [createIdbStorage({ name }), createIdbStorage({ name })];
    await Promise.all([a.open(), b.open()]);
    const full = Array.from({ length: 3_000 }, (_, i) => ({ collection: 'assets' as const, id: `f${i}`, value: desk(`f${i}`, 'full') }));
    await Promise.all([
      a.write(key, { meta: meta(1), full: true, changes: full }),
      b.write(key, { meta: meta(2), full: false, changes: [{ collection: 'assets', id: 'late', value: desk('late', 'B') }] }),
      a.write(key, { meta: meta(3), full: false, changes: [{ collection: 'assets', id: 'f0', value: null }] }),
    ]);
    const warnings: string[] = [];
    const cached = await b.loadLocation(key, (w) => warnings.push(w));
    expect(warnings).toEqual([]);
    const ids = new Set(cached!.entities.assets.map((e) => (e as { id: string }).id));
    expect(ids.has('late')).toBe(true);
    expect(ids.has('f0')).toBe(false);
    expect(ids.size).toBe(3_000);
    await Promise.all([a.close(), b.close()]);
  });
});
