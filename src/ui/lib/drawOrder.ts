// Draw order of a floor view's keys, kept up to date from the mirror's change
// sets: the viewer re-renders its lists only when a key appears, goes, or
// moves between groups, never for a plain colour or value change.

import type { DrawState } from '../../shared/api.js';
import type { AssetKind } from '../../shared/kinds.js';
import type { ViewMirror } from '../engine/viewMirror.js';

/** Paint rank by kind: outlines, zones, rooms, things, sensors, people, bubbles. */
const RANK: Record<AssetKind, number> = {
  floor_outline: 0, floor_hole: 1, zone: 3, shape: 4, room: 5,
  desk: 10, locker: 10, portal: 10, container: 10, other: 10,
  sensor: 20, employee: 30, auto_tag: 30, ticket: 40, voice: 40,
};

export function drawRank(entry: Pick<DrawState, 'kind'>): number {
  return RANK[entry.kind] ?? 10;
}

export interface DrawOrder {
  /** every key, in paint order */
  main: readonly string[];
  /** keys with a heat weight, painted under everything else */
  heat: readonly string[];
}

export interface DrawOrderStore {
  getSnapshot(): DrawOrder;
  subscribe(listener: () => void): () => void;
  dispose(): void;
}

export function createDrawOrderStore(mirror: ViewMirror<DrawState, unknown>): DrawOrderStore {
  const rank = new Map<string, number>();
  const heat = new Set<string>();
  const listeners = new Set<() => void>();
  let snapshot: DrawOrder = { main: [], heat: [] };
  let syncedKeys: readonly string[] | null = null;
  let detach: (() => void) | null = null;

  function rebuild(): void {
    const keys = [...rank.keys()];
    // stable: ties keep insertion order, so an unchanged floor paints the same way
    keys.sort((a, b) => rank.get(a)! - rank.get(b)!);
    snapshot = { main: keys, heat: [...heat] };
  }

  function track(key: string): boolean {
    const entry = mirror.getSnapshot(key);
    const before = rank.get(key);
    const hadHeat = heat.has(key);
    if (!entry) {
      rank.delete(key);
      heat.delete(key);
      return before !== undefined;
    }
    const r = drawRank(entry);
    rank.set(key, r);
    const hasHeat = typeof entry.heat === 'number';
    if (hasHeat) heat.add(key);
    else heat.delete(key);
    return before !== r || hadHeat !== hasHeat;
  }

  // a full pass, for when no change listener was attached (first use, or a
  // React StrictMode unmount/remount in between)
  function resync(): void {
    const keys = mirror.getKeys();
    if (keys === syncedKeys) return;
    syncedKeys = keys;
    const present = new Set(keys);
    for (const key of [...rank.keys()]) if (!present.has(key)) track(key);
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
