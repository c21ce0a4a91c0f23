import { describe, expect, it, vi } from 'vitest';
import { createViewMirror, sameData } from '../../src/ui/engine/viewMirror.js';

type Entry = { id: string; color: string };

function mirrorWith(entries: Record<string, Entry>) {
  const m = createViewMirror<Entry, { loading: boolean }>();
  m.apply({ type: 'snapshot', version: 1, entries, meta: { loading: false } });
  return m;
}

describe('viewMirror', () => {
  describe('apply', () => {
    it('stores the entries and meta of a snapshot', () => {
      const m = mirrorWith({ a: { id: 'a', color: 'red' } });
      expect(m.ready).toBe(true);
      expect(m.getSnapshot('a')).toEqual({ id: 'a', color: 'red' });
      expect(m.getMeta()).toEqual({ loading: false });
      expect(m.getKeys()).toEqual(['a']);
    });

    it('notifies only the subscribers of the keys a patch changes', () => {
      const m = mirrorWith({ a: { id: 'a', color: 'red' }, b: { id: 'b', color: 'red' } });
      const onA = vi.fn();
      const onB = vi.fn();
      m.subscribe('a', onA);
      m.subscribe('b', onB);
      m.apply({ type: 'patch', version: 2, upserted: { a: { id: 'a', color: 'green' } }, removed: [] });
      expect(onA).toHaveBeenCalledTimes(1);
      expect(onB).not.toHaveBeenCalled();
      expect(m.getSnapshot('a')?.color).toBe('green');
    });

    it('keeps the same object for an entry a new snapshot repeats unchanged', () => {
      const m = mirrorWith({ a: { id: 'a', color: 'red' } });
      const before = m.getSnapshot('a');
      const onA = vi.fn();
      m.subscribe('a', onA);
      m.reset();
      m.apply({ type: 'snapshot', version: 1, entries: { a: { id: 'a', color: 'red' } }, meta: { loading: false } });
      expect(m.getSnapshot('a')).toBe(before);
      expect(onA).not.toHaveBeenCalled();
    });

    it('removes entries missing from a new snapshot and tells their subscribers', () => {
      const m = mirrorWith({ a: { id: 'a', color: 'red' }, b: { id: 'b', color: 'red' } });
      const onB = vi.fn();
      m.subscribe('b', onB);
      m.apply({ type: 'snapshot', version: 5, entries: { a: { id: 'a', color: 'red' } }, meta: { loading: false } });
      expect(m.getSnapshot('b')).toBeUndefined();
      expect(onB).toHaveBeenCalledTimes(1);
      expect(m.getKeys()).toEqual(['a']);
    });

    it('ignores patches older than the last applied version and patches before a snapshot', () => {
      const fresh = createViewMirror<Entry, null>();
      expect(fresh.apply({ type: 'patch', version: 1, upserted: { a: { id: 'a', color: 'x' } }, removed: [] })).toBe(false);
      expect(fresh.getSnapshot('a')).toBeUndefined();
      const m = mirrorWith({ a: { id: 'a', color: 'red' } });
      m.apply({ type: 'patch', version: 3, upserted: { a: { id: 'a', color: 'blue' } }, removed: [] });
      expect(m.apply({ type: 'patch', version: 2, upserted: { a: { id: 'a', color: 'old' } }, removed: [] })).toBe(false);
      expect(m.getSnapshot('a')?.color).toBe('blue');
    });

    it('replaces the meta only when a patch carries one', () => {
      const m = mirrorWith({});
      const onMeta = vi.fn();
      m.subscribeMeta(onMeta);
      m.apply({ type: 'patch', version: 2, upserted: { a: { id: 'a', color: 'red' } }, removed: [] });
      expect(onMeta).not.toHaveBeenCalled();
      m.apply({ type: 'patch', version: 3, upserted: {}, removed: [], meta: { loading: true } });
      expect(onMeta).toHaveBeenCalledTimes(1);
      expect(m.getMeta()).toEqual({ loading: true });
    });
  });

  describe('getKeys', () => {
    it('returns the same array until a key is added or removed', () => {
      const m = mirrorWith({ a: { id: 'a', color: 'red' } });
      const keys = m.getKeys();
      const onKeys = vi.fn();
      m.subscribeKeys(onKeys);
      m.apply({ type: 'patch', version: 2, upserted: { a: { id: 'a', color: 'blue' } }, removed: [] });
      expect(m.getKeys()).toBe(keys);
      expect(onKeys).not.toHaveBeenCalled();
      m.apply({ type: 'patch', version: 3, upserted: {}, removed: ['a'] });
      expect(m.getKeys()).toEqual([]);
      expect(onKeys).toHaveBeenCalledTimes(1);
    });
  });

  describe('getEntries', () => {
    it('gives a new record after a change and the same record otherwise', () => {
      const m = mirrorWith({ a: { id: 'a', color: 'red' } });
      const first = m.getEntries();
      expect(m.getEntries()).toBe(first);
      m.apply({ type: 'patch', version: 2, upserted: { b: { id: 'b', color: 'red' } }, removed: [] });
      expect(m.getEntries()).not.toBe(first);
      expect(Object.keys(m.getEntries())).toEqual(['a', 'b']);
    });
  });

  describe('subscribeChanges', () => {
    it('reports the changed keys once per message', () => {
      const m = mirrorWith({ a: { id: 'a', color: 'red' } });
      const onChange = vi.fn();
      const stop = m.subscribeChanges(onChange);
      m.apply({ type: 'patch', version: 2, upserted: { b: { id: 'b', color: 'red' } }, removed: ['a'] });
      expect(onChange).toHaveBeenCalledTimes(1);
      expect([...onChange.mock.calls[0]![0]].sort()).toEqual(['a', 'b']);
      stop();
      m.apply({ type: 'patch', version: 3, upserted: { c: { id: 'c', color: 'red' } }, removed: [] });
      expect(onChange).toHaveBeenCalledTimes(1);
    });
  });

  describe('sameData', () => {
    it('compares plain data structurally', () => {
      expect(sameData({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
      expect(sameData({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] })).toBe(false);
      expect(sameData([1], { 0: 1 })).toBe(false);
      expect(sameData(null, {})).toBe(false);
    });
  });
});
