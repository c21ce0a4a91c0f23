import { describe, expect, it, vi } from 'vitest';
import { createViewMirror, sameData } from '../../src/ui/engine/viewMirror.js';
import { isSavedSnapshot } from '../../src/ui/engine/workerEngine.js';
import { createRenderHold, HOLD_MAX_MS } from '../../src/ui/engine/renderHold.js';

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

    it("merges a patch's changed fields into the entry held: a new entry, the other fields and entries as they were, no key change", () => {
      const m = mirrorWith({ a: { id: 'a', color: 'red' }, b: { id: 'b', color: 'red' } });
      const b = m.getSnapshot('b');
      const onA = vi.fn();
      const onKeys = vi.fn();
      m.subscribe('a', onA);
      m.subscribeKeys(onKeys);
      m.apply({ type: 'patch', version: 2, upserted: { c: { id: 'c', color: 'blue' } }, changed: { a: { color: 'green' } }, removed: [] });
      expect(m.getSnapshot('a')).toEqual({ id: 'a', color: 'green' });
      expect(m.getSnapshot('b')).toBe(b);
      expect(m.getSnapshot('c')).toEqual({ id: 'c', color: 'blue' });
      expect(onA).toHaveBeenCalledTimes(1);
      // c is new; a changed in place
      expect(onKeys).toHaveBeenCalledTimes(1);
      // a later whole entry equal to the merged one changes nothing
      const merged = m.getSnapshot('a');
      m.apply({ type: 'patch', version: 3, upserted: { a: { id: 'a', color: 'green' } }, removed: [] });
      expect(m.getSnapshot('a')).toBe(merged);
    });

    it('says so when changed fields name an entry it does not hold, and applies the rest of the patch', () => {
      const said = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const m = mirrorWith({ a: { id: 'a', color: 'red' } });
      m.apply({ type: 'patch', version: 2, upserted: { a: { id: 'a', color: 'green' } }, changed: { z: { color: 'blue' } }, removed: [] });
      expect(said).toHaveBeenCalledWith('View patch changes z, which the page does not hold');
      expect(m.getSnapshot('z')).toBeUndefined();
      expect(m.getSnapshot('a')?.color).toBe('green');
      said.mockRestore();
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
    it('tells whole-view listeners in the order they came, each message over those there when it began', () => {
      const m = mirrorWith({ a: { id: 'a', color: 'red' } });
      const calls: string[] = [];
      let offSecond = () => undefined as void;
      const offFirst = m.subscribeAll(() => {
        calls.push('first');
        // removing a later listener during a message still lets it hear this one, not the next
        offSecond();
      });
      offSecond = m.subscribeAll(() => calls.push('second'));
      m.apply({ type: 'patch', version: 2, upserted: { a: { id: 'a', color: 'blue' } }, removed: [] });
      expect(calls).toEqual(['first', 'second']);
      m.subscribeAll(() => calls.push('third'));
      offFirst();
      m.apply({ type: 'patch', version: 3, upserted: { a: { id: 'a', color: 'green' } }, removed: [] });
      expect(calls).toEqual(['first', 'second', 'third']);
    });

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

  describe('slices', () => {
    /** a schedule the test runs by hand: each task stands for a task of the browser, with a paint in between */
    function manual() {
      const tasks: Array<() => void> = [];
      return { schedule: (t: () => void) => { tasks.push(t); }, run: () => { tasks.shift()?.(); }, get pending() { return tasks.length; } };
    }
    const entries = (n: number, color = 'red', from = 0) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i + from}`, { id: `k${i + from}`, color }]));

    it('applies a large snapshot a slice per task, meta first, and tells per slice what changed', () => {
      const tasks = manual();
      const m = createViewMirror<Entry, { loading: boolean }>({ schedule: tasks.schedule, sliceEntries: 100 });
      const changes: number[] = [];
      m.subscribeChanges((changed) => changes.push(changed.size));
      expect(m.apply({ type: 'snapshot', version: 1, entries: entries(250), meta: { loading: false } })).toBe(true);
      expect(m.ready).toBe(true);
      expect(m.getMeta()).toEqual({ loading: false });
      expect(m.getKeys()).toHaveLength(100);
      expect(m.settled).toBe(false);
      tasks.run();
      tasks.run();
      expect(m.getKeys()).toHaveLength(250);
      expect(m.settled).toBe(true);
      expect(m.version).toBe(1);
      expect(changes).toEqual([100, 100, 50]);
      expect(tasks.pending).toBe(0);
    });

    it('applies a small message at once and queues later messages behind a large one, in order', () => {
      const tasks = manual();
      const m = createViewMirror<Entry, null>({ schedule: tasks.schedule, sliceEntries: 100 });
      m.apply({ type: 'snapshot', version: 1, entries: { a: { id: 'a', color: 'red' } }, meta: null });
      expect(m.getSnapshot('a')).toEqual({ id: 'a', color: 'red' });
      m.apply({ type: 'patch', version: 2, upserted: entries(150, 'blue'), removed: [] });
      expect(m.apply({ type: 'patch', version: 3, upserted: { k0: { id: 'k0', color: 'green' } }, removed: ['a'] })).toBe(false);
      expect(m.getSnapshot('a')).toBeDefined();
      tasks.run();
      expect(m.getSnapshot('k0')).toEqual({ id: 'k0', color: 'green' });
      expect(m.getSnapshot('a')).toBeUndefined();
      expect(m.version).toBe(3);
    });

    it('holds the meta of a large patch until all of its entries are applied', () => {
      const tasks = manual();
      const m = createViewMirror<Entry, { fromCache: boolean }>({ schedule: tasks.schedule, sliceEntries: 100 });
      m.apply({ type: 'snapshot', version: 1, entries: entries(10), meta: { fromCache: true } });
      m.apply({ type: 'patch', version: 2, upserted: entries(150, 'blue'), removed: [], meta: { fromCache: false } });
      expect(m.getMeta()).toEqual({ fromCache: true });
      tasks.run();
      expect(m.getMeta()).toEqual({ fromCache: false });
    });

    it('puts a snapshot sent in parts together and removes what it lacks only once the last part is there', () => {
      const m = createViewMirror<Entry, null>();
      m.apply({ type: 'snapshot', version: 1, entries: { old: { id: 'old', color: 'red' } }, meta: null });
      m.reset();
      m.apply({ type: 'snapshot', version: 1, entries: entries(2), meta: null, parts: 2 });
      expect(m.getSnapshot('old')).toBeDefined();
      expect(m.apply({ type: 'patch', version: 2, upserted: { k0: { id: 'k0', color: 'blue' } }, removed: [] })).toBe(false);
      m.apply({ type: 'snapshotPart', version: 1, part: 1, entries: entries(2, 'red', 2) });
      expect(m.getKeys()).toEqual(['k0', 'k1', 'k2', 'k3']);
      expect(m.getSnapshot('k0')).toEqual({ id: 'k0', color: 'blue' });
      expect(m.version).toBe(2);
    });

    it('applies a saved snapshot whole in one slice once its last part is there, and live messages after it in slices', () => {
      const tasks = manual();
      const m = createViewMirror<Entry, { fromCache: boolean }>({
        schedule: tasks.schedule, sliceEntries: 100, atOnce: (message) => isSavedSnapshot(message),
      });
      const changes: number[] = [];
      m.subscribeChanges((changed) => changes.push(changed.size));
      m.apply({ type: 'snapshot', version: 1, entries: entries(300), meta: { fromCache: true }, parts: 2 });
      // nothing drawn from half a saved floor, and no task spins while the rest is on its way
      expect(m.ready).toBe(false);
      expect(m.getKeys()).toHaveLength(0);
      expect(tasks.pending).toBe(0);
      m.apply({ type: 'snapshotPart', version: 1, part: 1, entries: entries(300, 'red', 300) });
      expect(m.getKeys()).toHaveLength(600);
      expect(m.getMeta()).toEqual({ fromCache: true });
      expect(changes).toEqual([600]);
      // the live data that replaces it is sliced as before
      m.apply({ type: 'patch', version: 2, upserted: entries(250, 'blue'), removed: [], meta: { fromCache: false } });
      expect(changes).toEqual([600, 100]);
      tasks.run();
      tasks.run();
      expect(changes).toEqual([600, 100, 100, 50]);
      expect(m.getMeta()).toEqual({ fromCache: false });
      expect(tasks.pending).toBe(0);
    });

    describe('a change presented as one (a replay step)', () => {
      /** a presenter the test runs by hand: the screen keeps its last frame from the call until the update's promise settles */
      function presenter() {
        const updates: Array<() => Promise<void>> = [];
        let shown = 0;
        return {
          present: (update: () => Promise<void>) => { updates.push(update); },
          /** the transition's update starts (after the old screen was captured); resolves when the screen shows it */
          start: () => updates.shift()!().then(() => { shown += 1; }),
          get waiting() { return updates.length; },
          get shown() { return shown; },
        };
      }
      type Meta = { time: number };
      /** a replay of 300 entries on the screen at time 1: its snapshot applied (in three slices), never presented */
      function replayShown(presentedSlice?: () => void) {
        const tasks = manual();
        const screen = presenter();
        const m = createViewMirror<Entry, Meta>({ schedule: tasks.schedule, sliceEntries: 100, present: screen.present, presentedSlice });
        m.apply({ type: 'snapshot', version: 1, entries: entries(300), meta: { time: 1 } });
        tasks.run();
        tasks.run();
        expect(m.settled).toBe(true);
        expect(screen.waiting).toBe(0);
        return { tasks, screen, m };
      }

      it('applies a step of several parts only inside the presented update, meta and entries in the one change it shows', async () => {
        const styled = vi.fn();
        const { tasks, screen, m } = replayShown(styled);
        // a step of 300 changed entries in two parts, the instant's time in the last
        m.apply({ type: 'patch', version: 2, upserted: entries(200, 'blue'), removed: [] });
        m.apply({ type: 'patch', version: 3, upserted: entries(100, 'blue', 200), removed: [], meta: { time: 2 } });
        // nothing of it applies before the screen is held (the old one captured)
        expect(screen.waiting).toBe(1);
        expect(m.getSnapshot('k0')!.color).toBe('red');
        expect(tasks.pending).toBe(0);
        const shown = screen.start();
        // in slices, a task each, while the screen shows what it showed
        expect(m.getSnapshot('k0')!.color).toBe('blue');
        expect(m.getMeta()).toEqual({ time: 1 });
        tasks.run();
        expect(m.getSnapshot('k250')!.color).toBe('red');
        expect(screen.shown).toBe(0);
        tasks.run();
        expect(m.getSnapshot('k299')!.color).toBe('blue');
        expect(m.getMeta()).toEqual({ time: 2 });
        expect(m.settled).toBe(true);
        await shown;
        expect(screen.shown).toBe(1);
        expect(m.version).toBe(3);
        // the page's style was brought up to date after each of its three slices, none after the snapshot's
        expect(styled).toHaveBeenCalledTimes(3);
      });

      it('applies a small step with its meta at once', () => {
        const { screen, m } = replayShown();
        expect(m.apply({ type: 'patch', version: 2, upserted: entries(5, 'blue'), removed: [], meta: { time: 2 } })).toBe(true);
        expect(m.getSnapshot('k0')!.color).toBe('blue');
        expect(m.getMeta()).toEqual({ time: 2 });
        expect(screen.waiting).toBe(0);
      });

      it('ends a presented change left waiting when a new subscription resets the mirror', async () => {
        const screen = presenter();
        const m = createViewMirror<Entry, Meta>({ schedule: manual().schedule, sliceEntries: 100, present: screen.present });
        m.apply({ type: 'snapshot', version: 1, entries: entries(10), meta: { time: 1 } });
        m.apply({ type: 'patch', version: 2, upserted: entries(150, 'blue'), removed: [] });
        m.reset();
        await screen.start();
        expect(screen.shown).toBe(1);
        expect(m.getSnapshot('k0')!.color).toBe('red');
      });
    });

    it('drops what is not applied yet when a new subscription resets it', () => {
      const tasks = manual();
      const m = createViewMirror<Entry, null>({ schedule: tasks.schedule, sliceEntries: 100 });
      m.apply({ type: 'snapshot', version: 1, entries: entries(300), meta: null });
      m.reset();
      m.apply({ type: 'snapshot', version: 1, entries: { a: { id: 'a', color: 'red' } }, meta: null });
      tasks.run();
      tasks.run();
      expect(m.getKeys()).toEqual(['a']);
    });

    it('sizes the next slice by how long the last one took', async () => {
      const tasks = manual();
      let t = 0;
      const m = createViewMirror<Entry, null>({ schedule: tasks.schedule, sliceEntries: 100, now: () => t });
      // every listener call costs 48 ms of the clock: four times the target
      m.subscribeChanges(() => { t += 48; });
      m.apply({ type: 'snapshot', version: 1, entries: entries(1000), meta: null });
      await Promise.resolve();
      const before = m.getKeys().length;
      tasks.run();
      expect(m.getKeys().length - before).toBe(25);
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

  describe('hold (the first render)', () => {
    it('takes messages while held and applies them in order once released', () => {
      const hold = createRenderHold();
      const tasks: Array<() => void> = [];
      const a = createViewMirror<Entry, { loading: boolean }>({ hold, schedule: (t) => tasks.push(t) });
      const b = createViewMirror<Entry, { loading: boolean }>({ hold, schedule: (t) => tasks.push(t) });
      a.apply({ type: 'snapshot', version: 1, entries: { x: { id: 'x', color: 'red' } }, meta: { loading: false } });
      const release = hold.take();
      const seen = vi.fn();
      a.subscribe('x', seen);
      a.apply({ type: 'patch', version: 2, upserted: { x: { id: 'x', color: 'green' } }, removed: [] });
      a.apply({ type: 'patch', version: 3, upserted: { x: { id: 'x', color: 'blue' } }, removed: [] });
      b.apply({ type: 'snapshot', version: 1, entries: { y: { id: 'y', color: 'red' } }, meta: { loading: false } });
      // what React renders from stays as it was
      expect(a.getSnapshot('x')?.color).toBe('red');
      expect(b.ready).toBe(false);
      expect(seen).not.toHaveBeenCalled();
      release();
      expect(a.getSnapshot('x')?.color).toBe('blue');
      expect(seen).toHaveBeenCalledTimes(1);
      expect(b.getSnapshot('y')?.color).toBe('red');
      expect(tasks).toHaveLength(0);
    });

    it('lets go by itself when nobody releases it', () => {
      vi.useFakeTimers();
      try {
        const hold = createRenderHold();
        const m = createViewMirror<Entry, { loading: boolean }>({ hold });
        hold.take();
        m.apply({ type: 'snapshot', version: 1, entries: { x: { id: 'x', color: 'red' } }, meta: { loading: false } });
        expect(m.ready).toBe(false);
        vi.advanceTimersByTime(HOLD_MAX_MS);
        expect(m.getSnapshot('x')?.color).toBe('red');
      } finally {
        vi.useRealTimers();
      }
    });
  });
});
