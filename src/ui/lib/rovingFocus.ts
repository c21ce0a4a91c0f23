// Which asset of the map is its tab stop (roving tabindex, docs/ui.md) and
// whether keyboard focus is on it. Each asset asks only "am I the one?", so
// moving the focus re-renders two assets, not the floor.

export interface RovingStore {
  current(): string | null;
  setCurrent(id: string | null): void;
  /** the asset with keyboard focus (drawn with a ring), or null */
  focused(): string | null;
  /** where its ring goes, in the floor group's SVG space */
  focusBox(): Box | null;
  setFocused(id: string | null, box?: Box | null): void;
  subscribe(listener: () => void): () => void;
}

import type { Box } from './viewport.js';

export function createRovingStore(): RovingStore {
  let current: string | null = null;
  let focused: string | null = null;
  let box: Box | null = null;
  const listeners = new Set<() => void>();
  const emit = () => {
    for (const l of [...listeners]) l();
  };
  return {
    current: () => current,
    setCurrent(id) {
      if (id === current) return;
      current = id;
      emit();
    },
    focused: () => focused,
    focusBox: () => box,
    setFocused(id, nextBox = null) {
      if (id === focused && nextBox === box) return;
      focused = id;
      box = id ? nextBox : null;
      emit();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
