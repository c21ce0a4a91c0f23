// Picking a point of the floor without a pointer (docs/ui.md "Picking a place
// by keyboard"): while a pick is under way the map takes the focus and shows a
// marker; the arrow keys move it (10 px on screen, Shift 50 px, whatever the
// zoom), the map pans to keep it in the free part, Enter or Space places it
// there, and Escape (the shell's) cancels. Where the marker is — the room and
// zone, or the nearest named place — is said in a live region once it rests.

import { useCallback, useEffect, useEffectEvent, useState, type KeyboardEvent, type RefObject } from 'react';
import type { DrawState } from '../../shared/api.js';
import type { ViewMirror } from '../engine/viewMirror.js';
import type { Camera } from '../lib/camera.js';
import { placeWords } from '../lib/placeWords.js';
import { directionOfKey } from '../lib/spatialNav.js';
import { svgY, type Insets, type Viewport } from '../lib/viewport.js';

/** One arrow press moves the marker this far on screen, px; with Shift, the larger step. */
export const PICK_STEP_PX = 10;
export const PICK_SHIFT_STEP_PX = 50;
/** The marker stays this far inside the free part of the map, px. */
const PICK_MARGIN_PX = 24;
/** Where the marker is is said once it rested this long (holding an arrow key says it once). */
export const PICK_WORDS_DELAY_MS = 300;

export interface KeyboardPickOptions {
  /** the pick under way, or null */
  onPickPoint: ((point: { x: number; y: number }) => void) | null;
  /** where the marker starts (a place picked before), when it is in sight; else the middle of the free map */
  from: { x: number; y: number } | null;
  svgRef: RefObject<SVGSVGElement | null>;
  camera: Camera;
  mirror: ViewMirror<DrawState, unknown>;
  offset: readonly [number, number];
  size(): { w: number; h: number };
  insets(): Insets;
}

export interface KeyboardPick {
  /** the marker, in floor coordinates, while picking */
  marker: { x: number; y: number } | null;
  /** the zoom the marker is drawn for (it keeps its size on screen) */
  zoom: number;
  /** where the marker is, in words, once it rests */
  words: string | null;
  /** handles the key when it belongs to the pick; true when it did */
  onKeyDown(event: KeyboardEvent<SVGSVGElement>): boolean;
  /** the map settled at a new view */
  onSettle(v: Viewport): void;
}

export function useKeyboardPick({ onPickPoint, from, svgRef, camera, mirror, offset, size, insets }: KeyboardPickOptions): KeyboardPick {
  const [marker, setMarker] = useState<{ x: number; y: number } | null>(null);
  const [zoom, setZoom] = useState(() => camera.viewport().k);
  const [words, setWords] = useState<string | null>(null);
  const [ox, oy] = [offset[0], svgY(offset[1])];
  const picking = onPickPoint !== null;

  const toScreen = useCallback((p: { x: number; y: number }, v: Viewport) => ({ sx: (p.x + ox) * v.k + v.x, sy: (svgY(p.y) + oy) * v.k + v.y }), [ox, oy]);
  const toFloor = useCallback((sx: number, sy: number, v: Viewport) => ({ x: (sx - v.x) / v.k - ox, y: svgY((sy - v.y) / v.k - oy) }), [ox, oy]);
  const freeBox = useCallback(() => {
    const { w, h } = size();
    const i = insets();
    return { minX: i.left + PICK_MARGIN_PX, minY: i.top + PICK_MARGIN_PX, maxX: w - i.right - PICK_MARGIN_PX, maxY: h - i.bottom - PICK_MARGIN_PX };
  }, [size, insets]);

  // a pick starts: the marker at the place picked before when it is in sight, else in the middle of the
  // free map, and the map takes the focus so the arrow keys reach it; a pick that ends takes the marker away
  const begin = useEffectEvent(() => {
    const v = camera.viewport();
    const box = freeBox();
    const start = from;
    const s = start ? toScreen(start, v) : null;
    const inSight = s && s.sx >= box.minX && s.sx <= box.maxX && s.sy >= box.minY && s.sy <= box.maxY;
    setMarker(inSight ? start : toFloor((box.minX + box.maxX) / 2, (box.minY + box.maxY) / 2, v));
    setZoom(v.k);
    svgRef.current?.focus({ preventScroll: true });
  });
  useEffect(() => {
    if (picking) {
      begin();
      return;
    }
    setMarker(null);
    setWords(null);
  }, [picking]);

  // the words once the marker rests
  useEffect(() => {
    if (!marker) return;
    const timer = setTimeout(() => {
      const entries = mirror.getKeys().map((k) => mirror.getSnapshot(k)).filter((e): e is DrawState => !!e);
      setWords(placeWords(marker, entries));
    }, PICK_WORDS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [marker, mirror]);

  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>): boolean => {
    if (!onPickPoint || !marker || event.altKey || event.ctrlKey || event.metaKey) return false;
    const direction = directionOfKey(event.key);
    if (direction) {
      event.preventDefault();
      const step = event.shiftKey ? PICK_SHIFT_STEP_PX : PICK_STEP_PX;
      const [dx, dy] = { left: [-step, 0], right: [step, 0], up: [0, -step], down: [0, step] }[direction] as [number, number];
      const v = camera.viewport();
      const s = toScreen(marker, v);
      const next = { sx: s.sx + dx, sy: s.sy + dy };
      setMarker(toFloor(next.sx, next.sy, v));
      // the map follows a marker that leaves the free part of it (or was left off screen by a pan)
      const box = freeBox();
      const px = next.sx < box.minX ? box.minX - next.sx : next.sx > box.maxX ? box.maxX - next.sx : 0;
      const py = next.sy < box.minY ? box.minY - next.sy : next.sy > box.maxY ? box.maxY - next.sy : 0;
      if (px || py) camera.panBy(px, py);
      return true;
    }
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onPickPoint(marker);
      return true;
    }
    return false;
  };

  const onSettle = useCallback((v: Viewport) => {
    if (picking) setZoom(v.k);
  }, [picking]);

  return { marker, zoom, words, onKeyDown, onSettle };
}
