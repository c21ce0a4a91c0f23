// Draw order of a floor view's keys, kept up to date from the mirror's change
// sets: the viewer re-renders its lists only when a key appears, goes, or
// moves between groups, never for a plain colour or value change.

import type { DrawState } from '../../shared/api.js';
import type { ViewMirror } from '../engine/viewMirror.js';

const SHAPE_RANK: Record<string, number> = {
  floor_outline: 0, floor_hole: 1, zone_auto: 2, zone: 3, shape: 4, room: 5,
};
const BUBBLE_TYPES = new Set(['ticket', 'voice']);
const PEOPLE_TYPES = new Set(['employee', 'auto_tag']);

/** Paint rank: outlines, zones, rooms, things, sensors, people, bubbles. */
export function drawRank(entry: Pick<DrawState, 'type' | 'symbol'>): number {
  if (entry.symbol === 'desk' || entry.symbol === 'locker') return 10;
  if (entry.type in SHAPE_RANK) return SHAPE_RANK[entry.type]!;
  if (BUBBLE_TYPES.has(entry.type)) return 40;
  if (PEOPLE_TYPES.has(entry.type)) return 30;
  if (entry.type === 'sensor' || entry.symbol === 'sensor') return 20;
  return 10;
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
