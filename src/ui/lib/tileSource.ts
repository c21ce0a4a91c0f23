// What one tile of the floor's assets draws (lib/drawOrder.ts): its entries,
// which of them lie inside the culled view and which one is the map's tab stop,
// as one external store per tile. The tile subscribes once and passes each
// asset what it needs, so mounting a floor costs one subscription per 16
// assets, not three per asset (issue 14: the saved floor's mount was a third
// passive effects), and a live change re-reads only the keys it names, once
// per slice the mirror applies.

import type { DrawState } from '../../shared/api.js';
import type { ViewMirror } from '../engine/viewMirror.js';
import type { CullStore } from './cullStore.js';
import type { RovingStore } from './rovingFocus.js';
import type { Box } from './viewport.js';

export interface TileData {
  /** the tile's entries, index for index with its ids; each the mirror's object */
  readonly entries: ReadonlyArray<DrawState | undefined>;
  /** bit i set: ids[i] lies inside the culled view */
  readonly inside: number;
  /** the map's tab stop when it is one of this tile's ids, else null */
  readonly tabStop: string | null;
}

export interface TileSource {
  subscribe(listener: () => void): () => void;
  /** the same object until something the tile draws changed */
  getSnapshot(): TileData;
}

export interface TileStores {
  mirror: ViewMirror<DrawState, unknown>;
  cull: CullStore;
  roving: RovingStore;
}

/** Up to this many ids per tile fit the `inside` bit mask. */
export const MAX_TILE_IDS = 30;

/**
 * A source over `ids` (at most MAX_TILE_IDS). While subscribed it re-reads
 * only the keys the mirror said changed; while not (between a render and its
 * subscription), every key on each read, so nothing changed in between is missed.
 */
export function createTileSource({ mirror, cull, roving }: TileStores, ids: readonly string[], boxOf: (entry: DrawState) => Box | null): TileSource {
  if (ids.length > MAX_TILE_IDS) throw new Error(`a tile holds at most ${MAX_TILE_IDS} ids`);
  const entries: Array<DrawState | undefined> = ids.map((id) => mirror.getSnapshot(id));
  const dirty = new Set<number>();
  let listeners = 0;
  let data: TileData = { entries: entries.slice(), inside: insideOf(), tabStop: tabStopOf() };

  function insideOf(): number {
    let mask = 0;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      if (entry && cull.contains(boxOf(entry))) mask |= 1 << i;
    }
    return mask;
  }

  function tabStopOf(): string | null {
    const current = roving.current();
    return current !== null && ids.includes(current) ? current : null;
  }

  function read(i: number): boolean {
    const next = mirror.getSnapshot(ids[i]!);
    if (next === entries[i]) return false;
    entries[i] = next;
    return true;
  }

  return {
    subscribe(listener) {
      // what changed since the last read, before this subscription, is not in `dirty`
      if (listeners === 0) for (let i = 0; i < ids.length; i++) dirty.add(i);
      listeners += 1;
      // a message changing several of the tile's keys tells it once, after all of them (the mirror calls its
      // whole-view listeners after its key listeners): React reads one snapshot per tile per slice, not one per key
      let pending = false;
      const offs = ids.map((id, i) =>
        mirror.subscribe(id, () => {
          dirty.add(i);
          pending = true;
        }),
      );
      offs.push(
        mirror.subscribeAll(() => {
          if (!pending) return;
          pending = false;
          listener();
        }),
        cull.subscribe(listener),
        roving.subscribe(listener),
      );
      return () => {
        listeners -= 1;
        for (const off of offs) off();
      };
    },
    getSnapshot() {
      let changed = false;
      if (listeners === 0) {
        for (let i = 0; i < ids.length; i++) if (read(i)) changed = true;
      } else if (dirty.size > 0) {
        for (const i of dirty) if (read(i)) changed = true;
      }
      dirty.clear();
      const inside = insideOf();
      const tabStop = tabStopOf();
      if (!changed && inside === data.inside && tabStop === data.tabStop) return data;
      data = { entries: changed ? entries.slice() : data.entries, inside, tabStop };
      return data;
    },
  };
}
