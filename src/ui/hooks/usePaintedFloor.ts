// Keeps the painted floor (lib/paintedFloor.ts) in step with the screen: after
// the live floor is drawn whole, after the map settles, and when the page is
// hidden or closed, it stores the screen's markup for the next reopen. A
// floor other than the stored one clears the record at once.

import { useCallback, useEffect, useRef } from 'react';
import { clearPainted, finishPainted, readPainted, savePainted, takePainted } from '../lib/paintedFloor.js';
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

type Idle = (done: () => void) => void;
const whenIdle: Idle = (done) =>
  typeof requestIdleCallback === 'function' ? void requestIdleCallback(() => done(), { timeout: 2_000 }) : void setTimeout(done, 0);

/** Returns the trigger: call it when the screen may have become worth storing. */
export function usePaintedFloor({ target, ready, viewport }: PaintedFloorOptions): () => void {
  const latest = useRef({ target, ready, viewport });
  useEffect(() => {
    latest.current = { target, ready, viewport };
  });

  /** Reads the screen now; stores it now (the page is going away) or over three tasks, each well under 50 ms. */
  const store = useCallback((spread: boolean) => {
    const { target: t, ready: isReady, viewport: view } = latest.current;
    const root = document.getElementById('root');
    if (!t || !root || !isReady()) return;
    const taken = takePainted(root);
    if (!taken) return;
    const record = {
      userId: t.userId, floorId: t.floorId, path: window.location.pathname, search: window.location.search,
      w: window.innerWidth, h: window.innerHeight, view: view(),
    };
    if (!spread) {
      savePainted({ ...record, ...finishPainted(taken) });
      return;
    }
    setTimeout(() => {
      const picture = finishPainted(taken);
      setTimeout(() => savePainted({ ...record, ...picture }), 0);
    }, 0);
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
    const now = () => store(false);
    const hidden = () => {
      if (document.visibilityState === 'hidden') now();
    };
    document.addEventListener('visibilitychange', hidden);
    window.addEventListener('pagehide', now);
    return () => {
      document.removeEventListener('visibilitychange', hidden);
      window.removeEventListener('pagehide', now);
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
