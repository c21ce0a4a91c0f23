// Draw order of a floor view's keys, kept up to date from the mirror's change
// sets: the viewer re-renders its lists only when a key appears, goes, or
// moves between groups, never for a plain colour or value change.
//
// The keys come in tiles of at most TILE_SIZE, and the tiles in blocks of at
// most BLOCK_TILES; a tile's key array and a block's tile list keep their
// identity until something joins or leaves them. The viewer draws one
// memoized component per block and per tile, so on a live update React walks
// the blocks, then the tiles of the changed blocks, then the assets of the
// changed tiles: about 700 fibres for 25 changed desks of 5,000, where one
// flat list made it walk all 5,000 (docs/bench.md, "UI").

import type { DrawState } from '../../shared/api.js';
import type { AssetKind } from '../../shared/kinds.js';
import type { ViewMirror } from '../engine/viewMirror.js';

/** Paint rank by kind: outlines, zones, rooms, things, sensors, people, bubbles. */
const RANK: Record<AssetKind, number> = {
  floor_outline: 0, floor_hole: 1, zone: 3, shape: 4, room: 5,
  desk: 10, locker: 10, portal: 10, container: 10, other: 10,
  sensor: 20, employee: 30, auto_tag: 30, ticket: 40, voice: 40,
};

/** Keys per tile. */
export const TILE_SIZE = 16;
/** Tiles per block. */
export const BLOCK_TILES = 16;

export function drawRank(entry: Pick<DrawState, 'kind'>): number {
  return RANK[entry.kind] ?? 10;
}

export interface DrawTile {
  /** stable for the tile's life: React's key */
  key: string;
  /** its keys in paint order; a new array only when a key joins or leaves */
  ids: readonly string[];
}

export interface DrawBlock {
  /** stable for the block's life: React's key */
  key: string;
  /** its tiles in paint order; a new array only when one of them changes */
  tiles: readonly DrawTile[];
}

export interface DrawOrder {
  /** every key, in paint order */
  main: readonly string[];
  /** the same keys in blocks of tiles, in paint order */
  blocks: readonly DrawBlock[];
  /** keys with a heat weight, painted under everything else */
  heat: readonly string[];
}

export interface DrawOrderStore {
  getSnapshot(): DrawOrder;
  subscribe(listener: () => void): () => void;
  dispose(): void;
}

interface Tile {
  key: string;
  rank: number;
  ids: readonly string[];
  /** what the snapshot holds: replaced when `ids` is */
  view: DrawTile;
}

export function createDrawOrderStore(mirror: ViewMirror<DrawState, unknown>): DrawOrderStore {
  // tiles of each rank, oldest first: a new key joins the last tile of its rank
  const groups = new Map<number, Tile[]>();
  const tileOf = new Map<string, Tile>();
  const heat = new Set<string>();
  const listeners = new Set<() => void>();
  let snapshot: DrawOrder = { main: [], blocks: [], heat: [] };
  // the blocks of the last snapshot, by key, to keep the unchanged ones
  let lastBlocks = new Map<string, DrawBlock>();
  let syncedKeys: readonly string[] | null = null;
  let detach: (() => void) | null = null;
  let nextTile = 0;

  function rebuild(): void {
    const blocks: DrawBlock[] = [];
    const kept = new Map<string, DrawBlock>();
    const main: string[] = [];
    for (const rank of [...groups.keys()].sort((a, b) => a - b)) {
      const group = groups.get(rank)!;
      for (let i = 0; i < group.length; i += BLOCK_TILES) {
        // a block is named after its first tile, which stays first until it empties
        const tiles = group.slice(i, i + BLOCK_TILES).map((t) => t.view);
        const key = tiles[0]!.key;
        const before = lastBlocks.get(key);
        const block = before && before.tiles.length === tiles.length && before.tiles.every((t, j) => t === tiles[j]) ? before : { key, tiles };
        blocks.push(block);
        kept.set(key, block);
        for (const tile of tiles) for (const id of tile.ids) main.push(id);
      }
    }
    lastBlocks = kept;
    snapshot = { main, blocks, heat: [...heat] };
  }

  function leave(key: string, tile: Tile): void {
    tile.ids = tile.ids.filter((id) => id !== key);
    tile.view = { key: tile.key, ids: tile.ids };
    tileOf.delete(key);
    if (tile.ids.length > 0) return;
    const group = groups.get(tile.rank)!;
    group.splice(group.indexOf(tile), 1);
    if (group.length === 0) groups.delete(tile.rank);
  }

  function join(key: string, rank: number): void {
    let group = groups.get(rank);
    if (!group) groups.set(rank, (group = []));
    let tile = group[group.length - 1];
    if (!tile || tile.ids.length >= TILE_SIZE) {
      const k = `t${nextTile++}`;
      group.push((tile = { key: k, rank, ids: [], view: { key: k, ids: [] } }));
    }
    tile.ids = [...tile.ids, key];
    tile.view = { key: tile.key, ids: tile.ids };
    tileOf.set(key, tile);
  }

  function track(key: string): boolean {
    const entry = mirror.getSnapshot(key);
    const tile = tileOf.get(key);
    const hadHeat = heat.has(key);
    if (!entry) {
      heat.delete(key);
      if (tile) leave(key, tile);
      return tile !== undefined || hadHeat;
    }
    const r = drawRank(entry);
    const hasHeat = typeof entry.heat === 'number';
    if (hasHeat) heat.add(key);
    else heat.delete(key);
    if (tile?.rank === r) return hadHeat !== hasHeat;
    if (tile) leave(key, tile);
    join(key, r);
    return true;
  }

  /** The first pass over a whole floor: keys sorted into their ranks, then cut into tiles, each tile made once. */
  function build(keys: readonly string[]): void {
    const byRank = new Map<number, string[]>();
    for (const key of keys) {
      const entry = mirror.getSnapshot(key);
      if (!entry) continue;
      if (typeof entry.heat === 'number') heat.add(key);
      const r = drawRank(entry);
      let list = byRank.get(r);
      if (!list) byRank.set(r, (list = []));
      list.push(key);
    }
    for (const [rank, list] of byRank) {
      const group: Tile[] = [];
      groups.set(rank, group);
      for (let i = 0; i < list.length; i += TILE_SIZE) {
        const k = `t${nextTile++}`;
        const ids = list.slice(i, i + TILE_SIZE);
        const tile: Tile = { key: k, rank, ids, view: { key: k, ids } };
        group.push(tile);
        for (const id of ids) tileOf.set(id, tile);
      }
    }
  }

  // a full pass, for when no change listener was attached (first use, or a
  // React StrictMode unmount/remount in between)
  function resync(): void {
    const keys = mirror.getKeys();
    if (keys === syncedKeys) return;
    syncedKeys = keys;
    // the first use (the floor's first render): one pass that makes each tile once (issue 14: this
    // runs inside the viewer's render, which React cannot split)
    if (tileOf.size === 0 && heat.size === 0) {
      build(keys);
      rebuild();
      return;
    }
    const present = new Set(keys);
    for (const key of [...tileOf.keys()]) if (!present.has(key)) track(key);
    for (const key of keys) track(key);
    rebuild();
  }

  function attach(): void {
    resync();
    detach = mirror.subscribeChanges((changed) => {
      syncedKeys = mirror.getKeys();
      let dirty = false;
      for (const key of changed) if (track(key)) dirty = true;
      if (!dirty) return;
      rebuild();
      for (const l of [...listeners]) l();
    });
  }

  return {
    getSnapshot() {
      if (!detach) resync();
      return snapshot;
    },
    subscribe(listener) {
      if (!detach) attach();
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && detach) {
          detach();
          detach = null;
        }
      };
    },
    dispose() {
      listeners.clear();
      detach?.();
      detach = null;
    },
  };
}

const stores = new WeakMap<ViewMirror<DrawState, unknown>, DrawOrderStore>();

/**
 * The draw order of a floor's mirror, one per mirror: the start-up works it out in a task of its
 * own before the viewer's first render needs it (the first pass over 1,690 assets was 97 ms of a
 * 173 ms render task at load 14, issue 14), and a viewer mounted again (playback, StrictMode)
 * takes it up where it was.
 */
export function drawOrderOf(mirror: ViewMirror<DrawState, unknown>): DrawOrderStore {
  let store = stores.get(mirror);
  if (!store) stores.set(mirror, (store = createDrawOrderStore(mirror)));
  return store;
}
