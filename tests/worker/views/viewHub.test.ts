import * as Comlink from 'comlink';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DrawState, ViewMessage } from '../../../src/shared/api.js';
import type { Engine } from '../../../src/worker/engine.js';
import { systemClock } from '../../../src/worker/systemClock.js';
import { createViewHub, MESSAGE_ENTRIES, VIEW_FLUSH_INTERVAL_MS, type ViewSource } from '../../../src/worker/views/viewHub.js';
import { createViewMirror } from '../../../src/ui/engine/viewMirror.js';
import { collect, createTestEngine, createTestLogger, feedLocation, measurement, wireDesk, wireOccupancySensor } from '../engine/harness.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);

/** A view over a plain map, so the hub is tested on its own. */
function mapSource(data: Map<string, unknown>): ViewSource {
  return {
    keys: () => data.keys(),
    entry: (k) => data.get(k),
    meta: () => ({ size: data.size }),
    affected: (d) => d.get('assets') ?? null,
    metaAffected: (d) => d.get('assets') === 'all',
  };
}

describe('viewHub', () => {
  beforeEach(() => { vi.useFakeTimers({ now: T0 }); });
  afterEach(() => { vi.useRealTimers(); });

  describe('subscribe', () => {
    it('sends one snapshot, then patches carrying only changed entries, at most one batch per interval', async () => {
      const data = new Map<string, unknown>([['a', { n: 1 }], ['b', { n: 2 }]]);
      const hub = createViewHub({ clock: systemClock, logger: createTestLogger(), createSource: () => mapSource(data) });
      const messages: ViewMessage[] = [];
      hub.subscribe({ view: 'people' }, (m) => { messages.push(m); });
      expect(messages).toEqual([{ type: 'snapshot', version: 1, entries: { a: { n: 1 }, b: { n: 2 } }, meta: { size: 2 } }]);

      data.set('a', { n: 10 });
      hub.markDirty('assets', ['a']);
      data.set('c', { n: 3 });
      hub.markDirty('assets', ['c', 'b']);
      data.delete('b');
      expect(messages).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(VIEW_FLUSH_INTERVAL_MS);
      expect(messages).toHaveLength(2);
      expect(messages[1]).toEqual({ type: 'patch', version: 2, upserted: { a: { n: 10 }, c: { n: 3 } }, removed: ['b'] });

      hub.markDirty('assets', ['a']);
      await vi.advanceTimersByTimeAsync(VIEW_FLUSH_INTERVAL_MS);
      expect(messages).toHaveLength(2);
    });

    it('flushes keys added to its pending set as marked ones, within the interval; a set left empty marks nothing and holds back no flush', async () => {
      const data = new Map<string, unknown>([['a', { n: 1 }], ['b', { n: 2 }]]);
      const source = mapSource(data);
      const affected = vi.fn((d: Parameters<ViewSource['affected']>[0]) => d.get('values') ?? null);
      const hub = createViewHub({ clock: systemClock, logger: createTestLogger(), createSource: () => ({ ...source, affected }) });
      expect(hub.pending('values')).toBeNull();
      const messages: ViewMessage[] = [];
      hub.subscribe({ view: 'people' }, (m) => { messages.push(m); });
      // a batch of readings adds to the hub's own set (the live path), another marks the same channel
      const pending = hub.pending('values')!;
      data.set('a', { n: 10 });
      pending.add('a');
      hub.markDirty('values', pending);
      expect(hub.pending('values')).toBe(pending);
      data.set('b', { n: 20 });
      hub.markDirty('values', ['b']);
      await vi.advanceTimersByTimeAsync(VIEW_FLUSH_INTERVAL_MS);
      expect(messages.slice(1)).toEqual([{ type: 'patch', version: 2, upserted: { a: { n: 10 }, b: { n: 20 } }, removed: [] }]);
      // the next window has a set of its own; a change added to the old one would reach nobody
      const next = hub.pending('values')!;
      expect(next).not.toBe(pending);
      // left empty (a batch without readings): the flush asks no view, and the next change is not held back by it
      affected.mockClear();
      await vi.advanceTimersByTimeAsync(VIEW_FLUSH_INTERVAL_MS);
      expect(affected).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(10);
      data.set('a', { n: 11 });
      hub.markDirty('values', ['a']);
      await vi.advanceTimersByTimeAsync(0);
      expect(messages.at(-1)).toEqual({ type: 'patch', version: 3, upserted: { a: { n: 11 } }, removed: [] });
    });

    it('sends a large snapshot in parts and a large patch as several, which a mirror puts back together', async () => {
      const n = MESSAGE_ENTRIES * 2 + 10;
      const data = new Map<string, unknown>(Array.from({ length: n }, (_, i) => [`k${i}`, { n: i }]));
      const hub = createViewHub({ clock: systemClock, logger: createTestLogger(), createSource: () => mapSource(data) });
      const messages: ViewMessage[] = [];
      const mirror = createViewMirror();
      hub.subscribe({ view: 'people' }, (m) => { messages.push(m); mirror.apply(m); });
      expect(messages.map((m) => [m.type, m.version, Object.keys(m.type === 'patch' ? m.upserted : m.entries).length])).toEqual([
        ['snapshot', 1, MESSAGE_ENTRIES], ['snapshotPart', 1, MESSAGE_ENTRIES], ['snapshotPart', 1, 10],
      ]);
      expect(messages[0]).toMatchObject({ parts: 3, meta: { size: n } });
      expect(mirror.getKeys()).toHaveLength(n);

      for (const key of data.keys()) data.set(key, { n: -1 });
      data.delete('k0');
      hub.markDirty('assets', 'all');
      hub.flush();
      const patches = messages.slice(3);
      expect(patches.map((m) => [m.type, m.version, m.type === 'patch' ? Object.keys(m.upserted).length : 0])).toEqual([
        ['patch', 2, MESSAGE_ENTRIES], ['patch', 3, MESSAGE_ENTRIES], ['patch', 4, n - 1 - 2 * MESSAGE_ENTRIES],
      ]);
      // the meta comes with the last part, once every entry it describes is there
      expect(patches.map((m) => m.type === 'patch' && m.meta !== undefined)).toEqual([false, false, true]);
      expect(mirror.getKeys()).toHaveLength(n - 1);
      expect(mirror.getSnapshot('k7')).toEqual({ n: -1 });
    });

    it('cuts a patch only past MESSAGE_ENTRIES upserts, with the removals in its first part', () => {
      const data = new Map<string, unknown>(Array.from({ length: MESSAGE_ENTRIES + 2 }, (_, i) => [`k${i}`, { n: i }]));
      const hub = createViewHub({ clock: systemClock, logger: createTestLogger(), createSource: () => mapSource(data) });
      const messages: ViewMessage[] = [];
      const mirror = createViewMirror();
      hub.subscribe({ view: 'people' }, (m) => { messages.push(m); mirror.apply(m); });
      const shape = () => messages.splice(0).map((m) => m.type === 'patch' ? [m.version, Object.keys(m.upserted).length, m.removed] : [m.type]);
      shape();
      // exactly a message's worth of upserts, and a removal: one patch
      const changed = [...data.keys()].slice(0, MESSAGE_ENTRIES);
      for (const key of changed) data.set(key, { n: -1 });
      data.delete(`k${MESSAGE_ENTRIES + 1}`);
      hub.markDirty('assets', [...changed, `k${MESSAGE_ENTRIES + 1}`]);
      hub.flush();
      expect(shape()).toEqual([[2, MESSAGE_ENTRIES, [`k${MESSAGE_ENTRIES + 1}`]]]);
      // one upsert more than a message holds: two patches, the removal with the first
      for (const key of data.keys()) data.set(key, { n: -2 });
      data.set('new', { n: 0 });
      data.delete('k0');
      hub.markDirty('assets', [...data.keys(), 'k0']);
      hub.flush();
      expect(shape()).toEqual([[3, MESSAGE_ENTRIES, ['k0']], [4, 1, []]]);
      expect(mirror.getKeys()).toHaveLength(MESSAGE_ENTRIES + 1);
      expect(mirror.getSnapshot('k1')).toEqual({ n: -2 });
      expect(mirror.getSnapshot('k0')).toBeUndefined();
    });

    it('tells what a view was last sent', () => {
      const data = new Map<string, unknown>([['a', 1]]);
      const hub = createViewHub({ clock: systemClock, logger: createTestLogger(), createSource: () => mapSource(data) });
      hub.subscribe({ view: 'people' }, () => undefined);
      expect(hub.sent((spec) => spec.view === 'people')).toMatchObject({ version: 1, entries: new Map([['a', 1]]) });
      expect(hub.sent((spec) => spec.view === 'rooms')).toBeNull();
    });

    it('holds one flush timer for all views of the engine', async () => {
      const data = new Map<string, unknown>([['a', 1]]);
      const hub = createViewHub({ clock: systemClock, logger: createTestLogger(), createSource: () => mapSource(data) });
      for (let i = 0; i < 5; i++) hub.subscribe({ view: 'people' }, () => undefined);
      const before = vi.getTimerCount();
      for (let i = 0; i < 100; i++) hub.markDirty('assets', ['a']);
      expect(vi.getTimerCount()).toBe(before + 1);
    });

    it('sends the meta only when it changed', async () => {
      const data = new Map<string, unknown>([['a', 1]]);
      const hub = createViewHub({ clock: systemClock, logger: createTestLogger(), createSource: () => mapSource(data) });
      const messages: ViewMessage[] = [];
      hub.subscribe({ view: 'people' }, (m) => { messages.push(m); });
      data.set('b', 2);
      hub.markDirty('assets');
      hub.flush();
      expect(messages[1]).toMatchObject({ type: 'patch', upserted: { b: 2 }, meta: { size: 2 } });
      data.set('b', 3);
      hub.markDirty('assets', ['b']);
      hub.flush();
      expect(messages[2]).not.toHaveProperty('meta');
    });

    it('keeps serving other views when a listener throws', () => {
      const data = new Map<string, unknown>([['a', 1]]);
      const logger = createTestLogger();
      const hub = createViewHub({ clock: systemClock, logger, createSource: () => mapSource(data) });
      const got: ViewMessage[] = [];
      hub.subscribe({ view: 'people' }, (m) => { if (m.type === 'patch') throw new Error('boom'); });
      hub.subscribe({ view: 'people' }, (m) => { got.push(m); });
      data.set('a', 2);
      hub.markDirty('assets', ['a']);
      hub.flush();
      expect(got.at(-1)).toMatchObject({ upserted: { a: 2 } });
      expect(logger.warnings).toContain('view listener threw');
    });
  });

  describe('unsubscribe', () => {
    it('stops patches and releases a Comlink proxy listener', () => {
      const data = new Map<string, unknown>([['a', 1]]);
      const hub = createViewHub({ clock: systemClock, logger: createTestLogger(), createSource: () => mapSource(data) });
      const released = vi.fn();
      const calls: ViewMessage[] = [];
      const listener = Object.assign((m: ViewMessage) => { calls.push(m); }, { [Comlink.releaseProxy]: released });
      const id = hub.subscribe({ view: 'people' }, listener);
      hub.unsubscribe(id);
      expect(released).toHaveBeenCalledTimes(1);
      data.set('a', 2);
      hub.markDirty('assets', ['a']);
      hub.flush();
      expect(calls).toHaveLength(1);
    });
  });
});

describe('floor view patches', () => {
  let engine: Engine | undefined;
  beforeEach(() => { vi.useFakeTimers({ now: T0 }); });
  afterEach(async () => { await engine?.dispose(); engine = undefined; vi.useRealTimers(); });

  async function patchForOneDesk(deskCount: number) {
    ({ engine } = createTestEngine());
    const desks = Array.from({ length: deskCount }, (_, i) => wireDesk(`d${i}`, 'f1', { x: i % 100, y: Math.floor(i / 100) }));
    const sensors = Array.from({ length: deskCount }, (_, i) => wireOccupancySensor(`s-d${i}`, T0, 0));
    feedLocation(engine, desks, sensors);
    const view = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['desks', 'desk_usage'] });
    expect(view.entries.size).toBe(deskCount);
    engine.internals.sink.apply(measurement('s-d7', 'occupancy', { time: T0 + 1000, valid_for: 3_600_000, value: 1 }));
    await vi.advanceTimersByTimeAsync(VIEW_FLUSH_INTERVAL_MS);
    const patch = view.messages.at(-1)!;
    expect(patch.type).toBe('patch');
    await engine.dispose();
    engine = undefined;
    return patch;
  }

  it('carries the same patch for one changed desk on a 1,000-desk and a 10,000-desk floor', async () => {
    const small = await patchForOneDesk(1_000);
    const large = await patchForOneDesk(10_000);
    expect(Object.keys((small as { upserted: object }).upserted)).toEqual(['d7']);
    expect(Object.keys((large as { upserted: object }).upserted)).toEqual(['d7']);
    expect(JSON.stringify(large).length).toBe(JSON.stringify(small).length);
    expect((large as { upserted: Record<string, DrawState> }).upserted.d7).toMatchObject({ status: 'occupied' });
  });
});
