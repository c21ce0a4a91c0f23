// Keeps the painted floor (lib/paintedFloor.ts) in step with the screen: after
// the live floor is drawn whole, after the map settles, and when the page is
// hidden or closed, it stores the screen's markup for the next reopen. A
// floor other than the stored one clears the record at once. The screen is
// read in idle time, a few ms per task (issue 14: no main-thread task over
// 50 ms; reading a 1,690-asset floor at once was one of 25–30 ms of CPU).

import { useCallback, useEffect, useRef } from 'react';
import { clearPainted, finishPainted, readPainted, savePainted, startPainted } from '../lib/paintedFloor.js';
import { onPageHidden } from '../lib/onPageHidden.js';
import type { Viewport } from '../lib/viewport.js';

export interface PaintTarget {
  userId: string;
  floorId: string;
}

export interface PaintedFloorOptions {
  /** whose floor is shown; null while the screen is not the saved floor's (playback, directions) */
  target: PaintTarget | null;
  /** whether the screen now shows the whole live floor (not saved data, not drawing) */
  ready(): boolean;
  viewport(): Viewport;
}

/** After a trigger, how long the screen must stay put before it is stored (a burst of moves stores once). */
export const PAINT_DEBOUNCE_MS = 1_000;
/** The floor's assets are read this long per task (wall time), in idle time: a floor of any size in short tasks. */
export const PAINT_SLICE_MS = 6;

type Idle = (done: () => void) => void;
const whenIdle: Idle = (done) =>
  typeof requestIdleCallback === 'function' ? void requestIdleCallback(() => done(), { timeout: 2_000 }) : void setTimeout(done, 0);

const sameView = (a: Viewport, b: Viewport) => a.x === b.x && a.y === b.y && a.k === b.k;

/** Returns the trigger: call it when the screen may have become worth storing. */
export function usePaintedFloor({ target, ready, viewport }: PaintedFloorOptions): () => void {
  const latest = useRef({ target, ready, viewport });
  useEffect(() => {
    latest.current = { target, ready, viewport };
  });

  /** the read under way: a newer one (or the page going away) ends it */
  const reading = useRef(0);

  /**
   * Stores the screen: at once when the page is going away, else read over idle tasks of PAINT_SLICE_MS
   * each, then the string work and the write in tasks of their own. A read the screen does not stay
   * worth storing through (it draws, moves, shows saved data, another floor) is dropped: what ends it
   * asks for the next one.
   */
  const store = useCallback((spread: boolean) => {
    const generation = ++reading.current;
    const { target: t, ready: isReady, viewport: view } = latest.current;
    const root = document.getElementById('root');
    if (!t || !root || !isReady()) return;
    const read = startPainted(root);
    if (!read) return;
    const record = {
      userId: t.userId, floorId: t.floorId, path: window.location.pathname, search: window.location.search,
      w: window.innerWidth, h: window.innerHeight, view: view(),
    };
    if (!spread) {
      read.layer.step(() => true);
      savePainted({ ...record, ...finishPainted({ around: read.around, layer: read.layer.result() }) });
      return;
    }
    const still = () => {
      const now = latest.current;
      return reading.current === generation && now.target?.userId === t.userId && now.target.floorId === t.floorId && now.ready()
        && sameView(now.viewport(), record.view);
    };
    const slice = () => {
      if (!still()) return;
      const end = performance.now() + PAINT_SLICE_MS;
      if (!read.layer.step(() => performance.now() < end)) {
        whenIdle(slice);
        return;
      }
      setTimeout(() => {
        if (!still()) return;
        const picture = finishPainted({ around: read.around, layer: read.layer.result() });
        setTimeout(() => { if (still()) savePainted({ ...record, ...picture }); }, 0);
      }, 0);
    };
    whenIdle(slice);
  }, []);

  const userId = target?.userId ?? null;
  const floorId = target?.floorId ?? null;
  // another floor or user than the stored picture's: it is no longer the floor a reopen shows
  useEffect(() => {
    if (!userId || !floorId) return;
    const stored = readPainted();
    if (stored && (stored.floorId !== floorId || stored.userId !== userId)) clearPainted();
  }, [userId, floorId]);

  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    const stopHearing = onPageHidden(() => store(false));
    return () => {
      stopHearing();
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
    };
  }, [store]);

  return useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      whenIdle(() => store(true));
    }, PAINT_DEBOUNCE_MS);
  }, [store]);
}
