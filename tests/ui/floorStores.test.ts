// The floor's per-tile store (lib/tileSource.ts) and the frame-by-frame
// reveal of a large arrival (lib/revealOrder.ts), driven by a real view
// mirror and draw order, with the frame scheduler and the clock in the test's hands.

import { describe, expect, it, vi } from 'vitest';
import type { DrawState } from '../../src/shared/api.js';
import { boxOfEntry } from '../../src/ui/components/AssetNode.js';
import { createViewMirror, type ViewMirror } from '../../src/ui/engine/viewMirror.js';
import { createCullStore } from '../../src/ui/lib/cullStore.js';
import { createDrawOrderStore, TILE_SIZE } from '../../src/ui/lib/drawOrder.js';
import { createRevealStore, REVEAL_AT_ONCE_TILES, REVEAL_FIRST_TILES, REVEAL_STEP_MS } from '../../src/ui/lib/revealOrder.js';
import { createRovingStore } from '../../src/ui/lib/rovingFocus.js';
import { createTileSource } from '../../src/ui/lib/tileSource.js';
import { draw, room } from './fakeEngine.js';

function mirrorOf(entries: Record<string, DrawState>): ViewMirror<DrawState, null> {
  const mirror = createViewMirror<DrawState, null>();
  mirror.apply({ type: 'snapshot', version: 1, entries, meta: null });
  return mirror;
}

function desks(n: number, from = 0): Record<string, DrawState> {
  const out: Record<string, DrawState> = {};
  for (let i = from; i < from + n; i++) out[`d${i}`] = draw(`d${i}`, { x: i % 50, y: Math.floor(i / 50) });
  return out;
}

describe('tileSource', () => {
  function source(entries: Record<string, DrawState>, ids: string[]) {
    const mirror = mirrorOf(entries);
    const cull = createCullStore();
    const roving = createRovingStore();
    const reads = new Map<string, number>();
    const get = mirror.getSnapshot;
    mirror.getSnapshot = (key) => {
      reads.set(key, (reads.get(key) ?? 0) + 1);
      return get(key);
    };
    return { mirror, cull, roving, reads, tile: createTileSource({ mirror, cull, roving }, ids, boxOfEntry) };
  }

  it('gives the entries of its ids, the same object until one of them changes, and re-reads only the changed key', () => {
    const { mirror, reads, tile } = source(desks(3), ['d0', 'd1', 'd2']);
    const listener = vi.fn();
    tile.subscribe(listener);
    const first = tile.getSnapshot();
    expect(first.entries.map((e) => e?.id)).toEqual(['d0', 'd1', 'd2']);
    expect(tile.getSnapshot()).toBe(first);
    reads.clear();
    mirror.apply({ type: 'patch', version: 2, upserted: { d1: draw('d1', { status: 'occupied', color: '#e53935' }) }, removed: [] });
    expect(listener).toHaveBeenCalledTimes(1);
    const next = tile.getSnapshot();
    expect(next).not.toBe(first);
    expect(next.entries[1]?.status).toBe('occupied');
    expect(next.entries[0]).toBe(first.entries[0]);
    expect([...reads.keys()]).toEqual(['d1']);
  });

  it('sees a change made between its first read and its subscription', () => {
    const { mirror, tile } = source(desks(2), ['d0', 'd1']);
    const first = tile.getSnapshot();
    mirror.apply({ type: 'patch', version: 2, upserted: {}, removed: ['d0'] });
    tile.subscribe(() => undefined);
    const next = tile.getSnapshot();
    expect(next).not.toBe(first);
    expect(next.entries[0]).toBeUndefined();
  });

  it('says which of its assets lie inside the culled view, and which is the tab stop', () => {
    const near = draw('near', { x: 1, y: 1 });
    const far = draw('far', { x: 500, y: 500 });
    const { cull, roving, tile } = source({ near, far }, ['near', 'far']);
    const listener = vi.fn();
    tile.subscribe(listener);
    expect(tile.getSnapshot().inside).toBe(0b11);
    cull.setBox({ minX: -10, minY: -10, maxX: 10, maxY: 10 });
    expect(tile.getSnapshot().inside).toBe(0b01);
    expect(tile.getSnapshot().tabStop).toBeNull();
    roving.setCurrent('far');
    expect(tile.getSnapshot().tabStop).toBe('far');
    roving.setCurrent('elsewhere');
    expect(tile.getSnapshot().tabStop).toBeNull();
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('tells its listener once for a message that changes several of its assets, and that read sees them all', () => {
    const { mirror, tile } = source(desks(4), ['d0', 'd1', 'd2', 'd3']);
    const seen: string[][] = [];
    // as React does: the listener reads the snapshot at once
    tile.subscribe(() => seen.push(tile.getSnapshot().entries.map((e) => e?.status ?? '-')));
    tile.getSnapshot();
    mirror.apply({
      type: 'patch', version: 2, removed: ['d3'],
      upserted: { d0: draw('d0', { status: 'occupied' }), d2: draw('d2', { status: 'booked' }), other: draw('other') },
    });
    expect(seen).toEqual([['occupied', 'free', 'booked', '-']]);
    // a message naming none of its assets tells it nothing
    mirror.apply({ type: 'patch', version: 3, upserted: { other: draw('other', { status: 'occupied' }) }, removed: [] });
    expect(seen).toHaveLength(1);
  });

  it('stops listening once unsubscribed', () => {
    const { mirror, tile } = source(desks(1), ['d0']);
    const listener = vi.fn();
    const off = tile.subscribe(listener);
    off();
    mirror.apply({ type: 'patch', version: 2, upserted: { d0: draw('d0', { status: 'occupied' }) }, removed: [] });
    expect(listener).not.toHaveBeenCalled();
  });
});

describe('revealOrder', () => {
  /** A reveal over a real mirror and draw order; `frame()` runs the step the store asked for. */
  function reveal(entries: Record<string, DrawState>, msPerTile = 1, whole = () => false) {
    const mirror = createViewMirror<DrawState, null>();
    const order = createDrawOrderStore(mirror);
    let clock = 0;
    const steps: Array<() => void> = [];
    const store = createRevealStore(order, { schedule: (task) => steps.push(task), now: () => clock, whole });
    // each step "renders" its tiles: the clock moves by msPerTile per newly shown tile
    let shownTiles = 0;
    const listener = vi.fn(() => {
      const tiles = store.getSnapshot().blocks.reduce((n, b) => n + b.tiles.length, 0);
      clock += (tiles - shownTiles) * msPerTile;
      shownTiles = tiles;
    });
    const shownIds = () => store.getSnapshot().blocks.flatMap((b) => b.tiles.flatMap((t) => t.ids));
    store.subscribe(listener);
    mirror.apply({ type: 'snapshot', version: 1, entries, meta: null });
    const frame = async () => {
      await Promise.resolve();
      steps.shift()?.();
    };
    return { mirror, store, steps, shownIds, frame, listener };
  }

  it('shows a small floor at once', () => {
    const { store, steps, shownIds } = reveal(desks(REVEAL_AT_ONCE_TILES * TILE_SIZE));
    expect(shownIds()).toHaveLength(REVEAL_AT_ONCE_TILES * TILE_SIZE);
    expect(store.pending()).toBe(0);
    expect(steps).toHaveLength(0);
  });

  it('draws a large floor over several frames, in paint order, each step sized to the time budget, until all is shown', async () => {
    const outline = room('outline', { kind: 'floor_outline' });
    const { store, steps, shownIds, frame } = reveal({ ...desks(1_000), outline }, 2);
    // the first step at once: the floor's outline first (it paints under everything)
    expect(shownIds()[0]).toBe('outline');
    expect(shownIds()).toHaveLength(1 + (REVEAL_FIRST_TILES - 1) * TILE_SIZE);
    expect(store.pending()).toBe(1_001 - shownIds().length);
    expect(steps).toHaveLength(1);
    const sizes: number[] = [];
    let before = shownIds().length;
    while (store.pending() > 0) {
      await frame();
      sizes.push(shownIds().length - before);
      before = shownIds().length;
    }
    await Promise.resolve();
    expect(shownIds()).toHaveLength(1_001);
    expect(new Set(shownIds()).size).toBe(1_001);
    // 2 ms a tile against a budget of REVEAL_STEP_MS: steps settle at that many tiles
    expect(sizes.at(-2)).toBe(Math.round(REVEAL_STEP_MS / 2) * TILE_SIZE);
    expect(steps).toHaveLength(0);
  });

  it('keeps the tiles shown while more arrive, and shows a live change to a shown tile at once', async () => {
    const { mirror, store, shownIds, frame } = reveal(desks(400));
    const shown = shownIds();
    mirror.apply({ type: 'patch', version: 2, upserted: { d0: draw('d0', { status: 'occupied' }) }, removed: ['d1'] });
    expect(shownIds()).toEqual(shown.filter((id) => id !== 'd1'));
    while (store.pending() > 0) await frame();
    expect(shownIds()).toHaveLength(399);
  });

  it('shows the saved floor whole at once', () => {
    const { store, steps, shownIds } = reveal(desks(1_000), 2, () => true);
    expect(shownIds()).toHaveLength(1_000);
    expect(store.pending()).toBe(0);
    expect(steps).toHaveLength(0);
  });

  it('shows a few new assets at once once the floor is drawn', async () => {
    const { mirror, store, steps, shownIds, frame } = reveal(desks(400));
    while (store.pending() > 0) await frame();
    mirror.apply({ type: 'patch', version: 2, upserted: desks(20, 1_000), removed: [] });
    expect(shownIds()).toHaveLength(420);
    expect(store.pending()).toBe(0);
    expect(steps).toHaveLength(0);
  });
});
