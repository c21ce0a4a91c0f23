// Draws a large arrival of assets over several frames (issue 14: no
// main-thread task over 50 ms). Between the draw order (lib/drawOrder.ts) and
// the SVG: when many tiles arrive at once (a floor's first data, the saved
// floor on reopen), they are handed to React a few tiles per step, in paint
// order (outline, rooms, then desks), one step per frame, each sized so that
// React's render and commit of it take about REVEAL_STEP_MS; the browser then
// styles, lays out and paints only those. A tile once shown stays shown, and a
// small change (a live batch) is shown at once, as is the saved floor on reopen
// (`whole`): there the floor complete soonest comes first (issue 14's 300 ms). The viewer says how far the
// drawing is (`pending`), so a floor being drawn never passes for a whole one.

import type { DrawBlock, DrawOrder, DrawOrderStore, DrawTile } from './drawOrder.js';

/** What React's render and commit of one step aim to cost, ms: the frame that paints it comes on top. */
export const REVEAL_STEP_MS = 10;
/** Up to this many new tiles (of 16 keys) are shown at once, without steps. */
export const REVEAL_AT_ONCE_TILES = 8;
/** Tiles of the first step, before any measurement. */
export const REVEAL_FIRST_TILES = 1;

/** What the SVG draws: the shown blocks, in paint order, and the heat keys. */
export type ShownOrder = Pick<DrawOrder, 'blocks' | 'heat'>;

export interface RevealStore {
  /** the shown part of the draw order: whole tiles, in paint order; the same object while it is the same */
  getSnapshot(): ShownOrder;
  /** assets not shown yet (0 once everything is drawn) */
  pending(): number;
  subscribe(listener: () => void): () => void;
}

export interface RevealOptions {
  /** runs the next step once the browser has drawn a frame */
  schedule(task: () => void): void;
  /** a monotonic clock, ms (performance.now) */
  now(): number;
  /**
   * Whether what is there now is shown whole, at once: the saved floor a reopening user
   * waits for is drawn in the shell's first render (docs/ui.md), its long task the price
   */
  whole?(): boolean;
}

function tilesOf(order: DrawOrder): number {
  let n = 0;
  for (const block of order.blocks) n += block.tiles.length;
  return n;
}

export function createRevealStore(order: DrawOrderStore, { schedule, now, whole = () => false }: RevealOptions): RevealStore {
  const listeners = new Set<() => void>();
  let shown = new Set<string>();
  let snapshot: ShownOrder | null = null;
  let pending = 0;
  // the cut blocks of the last snapshot, by key, to keep those that did not change
  let lastBlocks = new Map<string, DrawBlock>();
  let perStep = REVEAL_FIRST_TILES;
  let scheduled = false;
  let detach: (() => void) | null = null;
  let full: DrawOrder | null = null;

  /** Shows the shown tiles of `from` and up to `budget` more; returns how many tiles are left out. */
  function cut(from: DrawOrder, budget: number): number {
    const nextShown = new Set<string>();
    const blocks: DrawBlock[] = [];
    const kept = new Map<string, DrawBlock>();
    let left = 0;
    pending = 0;
    for (const block of from.blocks) {
      const tiles: DrawTile[] = [];
      for (const tile of block.tiles) {
        if (shown.has(tile.key) || budget > 0) {
          if (!shown.has(tile.key)) budget -= 1;
          nextShown.add(tile.key);
          tiles.push(tile);
        } else {
          left += 1;
          pending += tile.ids.length;
        }
      }
      if (tiles.length === 0) continue;
      const before = lastBlocks.get(block.key);
      const same = (b: DrawBlock) => b.tiles.length === tiles.length && b.tiles.every((t, i) => t === tiles[i]);
      const next = same(block) ? block : before && same(before) ? before : { key: block.key, tiles };
      blocks.push(next);
      kept.set(block.key, next);
    }
    shown = nextShown;
    lastBlocks = kept;
    const was = snapshot;
    if (!was || was.heat !== from.heat || was.blocks.length !== blocks.length || was.blocks.some((b, i) => b !== blocks[i])) {
      snapshot = { blocks, heat: from.heat };
    }
    return left;
  }

  function emit(): void {
    for (const l of [...listeners]) l();
  }

  function later(): void {
    if (scheduled) return;
    scheduled = true;
    schedule(step);
  }

  function step(): void {
    scheduled = false;
    if (!full || !detach) return;
    const t0 = now();
    const left = cut(full, whole() ? Infinity : perStep);
    emit();
    // measured after React's render of this step (its microtask was queued by emit, before this one)
    queueMicrotask(() => {
      const spent = Math.max(0.5, now() - t0);
      perStep = Math.max(1, Math.min(perStep * 2, Math.round(perStep * (REVEAL_STEP_MS / spent))));
    });
    if (left > 0) later();
  }

  /** A new draw order: small news at once, else the shown part kept current and the rest in steps. */
  function take(next: DrawOrder, firstStepNow: boolean): void {
    full = next;
    let fresh = 0;
    for (const block of next.blocks) for (const tile of block.tiles) if (!shown.has(tile.key)) fresh += 1;
    if (fresh <= REVEAL_AT_ONCE_TILES || whole()) {
      cut(next, Infinity);
    } else if (firstStepNow && !scheduled) {
      step();
      return;
    } else {
      cut(next, 0);
      later();
    }
    emit();
  }

  return {
    getSnapshot() {
      // read before subscribing (the first render): the first step's worth, or all of a small floor
      if (!snapshot) {
        const first = order.getSnapshot();
        cut(first, tilesOf(first) <= REVEAL_AT_ONCE_TILES || whole() ? Infinity : perStep);
      }
      return snapshot!;
    },
    pending: () => pending,
    subscribe(listener) {
      listeners.add(listener);
      if (!detach) {
        detach = order.subscribe(() => take(order.getSnapshot(), true));
        take(order.getSnapshot(), false);
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && detach) {
          detach();
          detach = null;
        }
      };
    },
  };
}

/**
 * Runs `task` in a task of its own right after the browser's next frame (so
 * that frame paints what the last step drew), or after 100 ms when no frame
 * comes (a hidden tab draws no frames, and must still finish drawing).
 */
export function afterNextFrame(task: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    task();
  };
  const timer = setTimeout(run, 100);
  if (typeof requestAnimationFrame !== 'function' || typeof MessageChannel !== 'function') return;
  requestAnimationFrame(() => {
    // a rAF callback runs before the frame's style, layout and paint: the task after them
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      run();
    };
    channel.port2.postMessage(null);
  });
}
