// Keyboard and focus of the floor map. The map is one tab stop (roving
// tabindex): Tab lands on one asset, arrow keys move to the nearest asset on
// screen in that direction (and pan when there is none), Shift+arrows pan,
// + and - zoom, 0 or f fits, Enter or Space opens the popup. An asset that
// gets focus while off screen is brought into view.

import { useCallback, type FocusEvent, type KeyboardEvent, type RefObject } from 'react';
import type { DrawState } from '../../shared/api.js';
import type { ViewMirror } from '../engine/viewMirror.js';
import type { Camera } from '../lib/camera.js';
import type { RovingStore } from '../lib/rovingFocus.js';
import { directionOfKey, nearestInDirection, nearestTo, type NavPoint } from '../lib/spatialNav.js';
import { contains, freeMiddle, screenBox, svgY, type Box, type Insets } from '../lib/viewport.js';
import { focusBoxOf } from '../components/AssetNode.js';
import { assetElement } from '../components/PopupLayer.js';

const KEY_PAN_PX = 60;
export const KEY_ZOOM = 1.25;

export interface MapKeyboardOptions {
  svgRef: RefObject<SVGSVGElement | null>;
  camera: Camera;
  mirror: ViewMirror<DrawState, unknown>;
  roving: RovingStore;
  offset: readonly [number, number];
  size(): { w: number; h: number };
  /** screen pixels covered by legends and toolbar */
  insets(): Insets;
  fit(): void;
  open(id: string, anchor: Element): void;
  close(): void;
}

export interface MapKeyboard {
  onKeyDown(event: KeyboardEvent<SVGSVGElement>): void;
  onFocus(event: FocusEvent<SVGSVGElement>): void;
  onBlur(event: FocusEvent<SVGSVGElement>): void;
  /** keeps the tab stop on an asset that is drawn, or on the map itself when none is */
  syncTabStop(): void;
}

/** A screen box back in SVG space. */
function screenToSvg(v: { x: number; y: number; k: number }, b: Box): Box {
  return { minX: (b.minX - v.x) / v.k, minY: (b.minY - v.y) / v.k, maxX: (b.maxX - v.x) / v.k, maxY: (b.maxY - v.y) / v.k };
}

function assetOf(target: EventTarget | null): SVGGElement | null {
  return target instanceof Element ? target.closest<SVGGElement>('[data-asset-id][role="button"]') : null;
}

function focusVisible(el: Element): boolean {
  try {
    return el.matches(':focus-visible');
  } catch {
    return true;
  }
}

export function useMapKeyboard(options: MapKeyboardOptions): MapKeyboard {
  const { svgRef, camera, mirror, roving, offset, size, insets, fit, open, close } = options;
  const [ox, oy] = [offset[0], svgY(offset[1])];

  const boxOnScreen = useCallback(
    (entry: DrawState): Box => {
      const b = focusBoxOf(entry);
      return screenBox(camera.viewport(), { minX: b.minX + ox, maxX: b.maxX + ox, minY: b.minY + oy, maxY: b.maxY + oy });
    },
    [camera, ox, oy],
  );

  /** The focusable assets drawn now, at their screen centres, those on screen only. */
  const onScreen = useCallback((): Array<NavPoint & { el: SVGGElement }> => {
    const svg = svgRef.current;
    if (!svg) return [];
    const { w, h } = size();
    const out: Array<NavPoint & { el: SVGGElement }> = [];
    for (const el of svg.querySelectorAll<SVGGElement>('[data-asset-id][role="button"]')) {
      const entry = mirror.getSnapshot(el.getAttribute('data-asset-id')!);
      if (!entry) continue;
      const b = boxOnScreen(entry);
      const x = (b.minX + b.maxX) / 2;
      const y = (b.minY + b.maxY) / 2;
      if (x >= 0 && x <= w && y >= 0 && y <= h) out.push({ id: entry.id, x, y, el });
    }
    return out;
  }, [svgRef, mirror, size, boxOnScreen]);

  const syncTabStop = useCallback(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const current = roving.current();
    const drawn = current !== null && assetElement(svg, current) !== null;
    if (!drawn) {
      const { w, h } = size();
      roving.setCurrent(nearestTo(w / 2, h / 2, onScreen())?.id ?? null);
    }
    svg.tabIndex = roving.current() !== null ? -1 : 0;
  }, [svgRef, roving, size, onScreen]);

  /** The drawn body of an asset element, in map screen px (relative to the svg). */
  const drawnBox = useCallback(
    (el: Element): Box => {
      const r = el.getBoundingClientRect();
      // the map's own place: during a gesture the svg's box is moved on the compositor
      const s = camera.svgRect();
      return { minX: r.left - s.left, minY: r.top - s.top, maxX: r.right - s.left, maxY: r.bottom - s.top };
    },
    [camera],
  );

  /** Centres an asset that is not wholly in the free part of the map; returns where it is drawn then. */
  const bringIntoView = useCallback(
    (el: Element): Box => {
      const { w, h } = size();
      const inset = insets();
      const b = drawnBox(el);
      if (contains({ minX: inset.left, minY: inset.top, maxX: w - inset.right, maxY: h - inset.bottom }, b)) return b;
      const v = camera.viewport();
      // centre of the box in SVG space, back from screen space
      const sx = ((b.minX + b.maxX) / 2 - v.x) / v.k;
      const sy = ((b.minY + b.maxY) / 2 - v.y) / v.k;
      camera.centerOn(sx, sy, freeMiddle(w, h, inset));
      const after = camera.viewport();
      return screenBox(after, screenToSvg(v, b));
    },
    [size, insets, drawnBox, camera],
  );

  const onKeyDown = useCallback(
    (event: KeyboardEvent<SVGSVGElement>) => {
      const { w, h } = size();
      const asset = assetOf(event.target);
      const direction = directionOfKey(event.key);
      if (direction) {
        event.preventDefault();
        if (asset && !event.shiftKey) {
          const id = asset.getAttribute('data-asset-id')!;
          const here = onScreen();
          const from = here.find((p) => p.id === id) ?? (() => {
            const entry = mirror.getSnapshot(id);
            const b = entry ? boxOnScreen(entry) : null;
            return b ? { id, x: (b.minX + b.maxX) / 2, y: (b.minY + b.maxY) / 2 } : null;
          })();
          const next = from ? nearestInDirection(from, here, direction) : null;
          if (next) {
            const el = here.find((p) => p.id === next.id)!.el;
            roving.setCurrent(next.id);
            el.focus({ preventScroll: true });
            return;
          }
        }
        const pan = { left: [KEY_PAN_PX, 0], right: [-KEY_PAN_PX, 0], up: [0, KEY_PAN_PX], down: [0, -KEY_PAN_PX] }[direction];
        camera.panBy(pan[0]!, pan[1]!);
        return;
      }
      switch (event.key) {
        case '+':
        case '=':
          event.preventDefault();
          camera.zoomAt(KEY_ZOOM, w / 2, h / 2);
          break;
        case '-':
          event.preventDefault();
          camera.zoomAt(1 / KEY_ZOOM, w / 2, h / 2);
          break;
        case '0':
        case 'f':
          event.preventDefault();
          fit();
          break;
        case 'Enter':
        case ' ':
          if (asset) {
            event.preventDefault();
            open(asset.getAttribute('data-asset-id')!, asset);
          }
          break;
        case 'Escape':
          close();
          break;
      }
    },
    [size, onScreen, mirror, boxOnScreen, roving, camera, fit, open, close],
  );

  const onFocus = useCallback(
    (event: FocusEvent<SVGSVGElement>) => {
      const asset = assetOf(event.target);
      // focus may scroll the overflow-hidden viewer; the camera moves the map instead
      const host = svgRef.current?.parentElement;
      if (host && (host.scrollTop || host.scrollLeft)) host.scrollTo(0, 0);
      if (!asset) return;
      const id = asset.getAttribute('data-asset-id')!;
      roving.setCurrent(id);
      // Only a focus from the keyboard brings the asset into view. A press of the mouse or a finger
      // focuses what is under it, which is in sight: moving the map then would move the asset away
      // from under the pointer before the release, and the click would open nothing (an asset partly
      // under a notice, the legends or the toolbar).
      const keyboard = focusVisible(asset);
      const shown = keyboard ? bringIntoView(asset) : drawnBox(asset);
      // the ring goes around what is drawn, in the floor group's space
      const v = camera.viewport();
      const b = screenToSvg(v, shown);
      const ring = { minX: b.minX - ox, maxX: b.maxX - ox, minY: b.minY - oy, maxY: b.maxY - oy };
      roving.setFocused(keyboard ? id : null, ring);
    },
    [svgRef, roving, bringIntoView, drawnBox, camera, ox, oy],
  );

  const onBlur = useCallback(() => roving.setFocused(null), [roving]);

  return { onKeyDown, onFocus, onBlur, syncTabStop };
}
