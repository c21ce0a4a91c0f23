// The floor map's size and the part of it that the legends (bottom), the
// messages (top), the zoom toolbar (right) and a panel over its left side
// (the directions) leave free, where a fit puts the floor, and the control
// over its top-right corner ("Play back a day") that a fit keeps clear of. All of it is
// measured in one ResizeObserver callback, right after the browser laid the
// page out, and read from there: a fit never forces a layout. Fitting the
// saved floor right after its 1,690 assets were mounted used to lay them all
// out inside React's task (~190 ms of it, docs/bench.md, issue 14).

import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { Corner, Insets } from '../lib/viewport.js';

export interface MapSize {
  w: number;
  h: number;
}

export interface MapLayout {
  /** the map's size, for rendering (the popup's bounds, the zoom buttons) */
  size: MapSize;
  /** how far down the map the messages over its top reach (their foot), px */
  noticesHeight: number;
  /** the latest size, for gestures, the camera and fit between renders */
  currentSize(): MapSize;
  /** the latest free part of the map, as measured (never forces a layout) */
  insets(): Insets;
  /** what the control over the map's top-right corner takes, as measured, or null when there is none */
  corner(): Corner | null;
  /** the legends came, went or changed shape: measure them (they are observed from now on) */
  legendsChanged(): void;
}

export interface MapLayoutOptions {
  host: RefObject<HTMLElement | null>;
  legend: RefObject<HTMLElement | null>;
  notices: RefObject<HTMLElement | null>;
  /** a panel over the map's left side, while open */
  cover: HTMLElement | null;
  /** a control over the map's top-right corner ("Play back a day"), while shown */
  corner?: HTMLElement | null;
  /** the size changed, or the part the legends, the toolbar or a panel leave free */
  onChange(): void;
  /** the size changed, or the part anything over the map leaves free, the messages over its top included */
  onFreeChange?(): void;
}

const DEFAULT_SIZE: MapSize = { w: 800, h: 600 };
/** Room kept free around the zoom toolbar at the right edge, px. */
export const TOOLBAR_INSET_PX = 56;
export const LEGEND_GAP_PX = 8;

function sameInsets(a: Insets, b: Insets): boolean {
  return a.top === b.top && a.left === b.left && a.right === b.right && a.bottom === b.bottom;
}

function sameCorner(a: Corner | null, b: Corner | null): boolean {
  return a === b || (!!a && !!b && a.width === b.width && a.height === b.height);
}

export function useMapLayout({ host, legend, notices, cover, corner = null, onChange, onFreeChange }: MapLayoutOptions): MapLayout {
  const [size, setSize] = useState(DEFAULT_SIZE);
  const [noticesHeight, setNoticesHeight] = useState(0);
  const sizeRef = useRef(size);
  const insetsRef = useRef<Insets>({ top: 0, left: 0, right: TOOLBAR_INSET_PX, bottom: 0 });
  const coverRef = useRef<HTMLElement | null>(null);
  const cornerElRef = useRef<HTMLElement | null>(null);
  const cornerRef = useRef<Corner | null>(null);
  // the latest callback, called from the observer between renders
  const changedRef = useRef(onChange);
  const freeChangedRef = useRef(onFreeChange);
  useLayoutEffect(() => {
    changedRef.current = onChange;
    freeChangedRef.current = onFreeChange;
  });

  // reads the rects; in a ResizeObserver callback the layout is fresh, so this costs no layout
  const measure = useCallback(() => {
    const box = host.current?.getBoundingClientRect();
    if (!box) return;
    let moved = false;
    if (box.width > 0 && box.height > 0 && (box.width !== sizeRef.current.w || box.height !== sizeRef.current.h)) {
      sizeRef.current = { w: box.width, h: box.height };
      setSize(sizeRef.current);
      moved = true;
    }
    const strip = legend.current?.getBoundingClientRect();
    const bottom = strip && strip.height > 0 ? box.bottom - strip.top + LEGEND_GAP_PX : 0;
    // the messages' foot, not their height: on a phone they stand under "Play back a day" (3.4rem down)
    const messages = notices.current?.getBoundingClientRect();
    const top = messages && messages.height > 0 ? Math.max(0, messages.bottom - box.top) : 0;
    setNoticesHeight(top);
    // a panel that starts in the left half of the map takes the map's left side up to its right edge
    const panel = coverRef.current?.getBoundingClientRect();
    const left = panel && panel.width > 0 && panel.left < box.left + box.width / 2 ? panel.right - box.left + LEGEND_GAP_PX : 0;
    const next = { top: top > 0 ? top + LEGEND_GAP_PX : 0, left: Math.max(0, left), right: TOOLBAR_INSET_PX, bottom: Math.max(0, bottom) };
    // the control in the top-right corner: it comes with the session's roles, often after the first fit
    const control = cornerElRef.current?.getBoundingClientRect();
    const taken = control && control.width > 0 && control.height > 0
      ? { width: Math.max(0, box.right - control.left + LEGEND_GAP_PX), height: Math.max(0, control.bottom - box.top + LEGEND_GAP_PX) }
      : null;
    if (!sameCorner(taken, cornerRef.current)) {
      cornerRef.current = taken;
      moved = true;
    }
    // messages come and go (a saved-data notice, an outcome, "Drawing the floor…"): the next fit
    // keeps clear of them, but they move no floor already fitted; legends and a panel do
    const before = insetsRef.current;
    const free = !sameInsets(next, before);
    if (free) {
      insetsRef.current = next;
      if (next.left !== before.left || next.bottom !== before.bottom || next.right !== before.right) moved = true;
    }
    if (moved) changedRef.current();
    // a thing centred (a shown co-worker) stays in the middle of what is left free, also when a message comes
    if (moved || free) freeChangedRef.current?.();
  }, [host, legend, notices]);

  const observerRef = useRef<ResizeObserver | null>(null);
  const observed = useRef<Array<HTMLElement | null>>([]);
  /** Observes what is there now; without ResizeObserver (tests), or when an element went away, measures at once. */
  const sync = useCallback(() => {
    const noObserver = typeof ResizeObserver === 'undefined';
    // not yet made (a child's layout effect runs before the viewer's): the viewer's own sync comes next
    const observer = observerRef.current;
    if (!observer && !noObserver) return;
    const want = [host.current, legend.current, notices.current, coverRef.current, cornerElRef.current];
    const before = observed.current;
    if (want.every((el, i) => el === before[i])) return;
    observed.current = want;
    if (!observer) {
      measure();
      return;
    }
    for (const el of before) if (el && !want.includes(el)) observer.unobserve(el);
    // a newly observed element is reported after the next layout; one that went away is not
    for (const el of want) if (el && !before.includes(el)) observer.observe(el);
    if (before.some((el) => el && !want.includes(el))) measure();
  }, [host, legend, notices, measure]);

  useLayoutEffect(() => {
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => measure());
    observerRef.current = observer;
    return () => {
      observer.disconnect();
      observerRef.current = null;
      observed.current = [];
    };
  }, [measure]);

  useLayoutEffect(() => {
    coverRef.current = cover;
    cornerElRef.current = corner;
    sync();
  });

  return {
    size,
    noticesHeight,
    currentSize: useCallback(() => sizeRef.current, []),
    insets: useCallback(() => insetsRef.current, []),
    corner: useCallback(() => cornerRef.current, []),
    legendsChanged: sync,
  };
}
