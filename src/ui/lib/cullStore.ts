// Culling of what lies outside the view (DESIGN §7): the viewer publishes the
// visible box (grown by a margin) when a pan or zoom settles, and each asset
// asks only "am I inside?", so it re-renders only when that answer flips.

import { intersects, type Box } from './viewport.js';

/** Below this many assets, culling costs more than it saves. */
export const CULL_MIN_ASSETS = 400;

export interface CullStore {
  /** null: draw everything */
  getBox(): Box | null;
  setBox(box: Box | null): void;
  contains(box: Box | null): boolean;
  subscribe(listener: () => void): () => void;
}

export function createCullStore(): CullStore {
  let current: Box | null = null;
  const listeners = new Set<() => void>();
  return {
    getBox: () => current,
    setBox(box) {
      current = box;
      for (const l of [...listeners]) l();
    },
    contains(box) {
      return current === null || box === null || intersects(current, box);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
