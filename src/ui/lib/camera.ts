// The floor viewer's camera: the one place that moves the map. Pan and zoom
// write the world group's transform directly (no React render per frame,
// DESIGN §7); while the map moves the group gets `will-change: transform`,
// dropped when the move settles so the floor is re-rastered sharp. Gestures,
// keyboard, fit and "bring into view" all go through it.

import { STATUS_MARK_MIN_ZOOM } from './statusMark.js';
import {
  centerOn as centerViewport, clampZoom, panBy as panViewport, transformOf, zoomAt as zoomViewport, type Viewport,
} from './viewport.js';

/** How long after the last move the view counts as settled (culling, labels, centre). */
export const CAMERA_SETTLE_MS = 120;

export interface CameraOptions {
  world(): SVGGElement | null;
  svg(): SVGSVGElement | null;
  /** called once the view has not moved for CAMERA_SETTLE_MS */
  onSettle(viewport: Viewport): void;
  initial?: Viewport;
}

export interface Camera {
  viewport(): Viewport;
  set(next: Viewport): void;
  panBy(dx: number, dy: number): void;
  zoomAt(factor: number, px: number, py: number): void;
  /** centres the SVG point (sx, sy) in a screen of w×h, at zoom k (default: the current one) */
  centerOn(sx: number, sy: number, w: number, h: number, k?: number): void;
  /**
   * The svg's place on the page, read once per gesture: reading it while the
   * world group's transform is dirty forces a layout of every asset.
   */
  svgRect(): DOMRect;
  moving(): boolean;
  dispose(): void;
}

export function createCamera(options: CameraOptions): Camera {
  let current: Viewport = options.initial ?? { x: 0, y: 0, k: 20 };
  let moving = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let rect: DOMRect | null = null;

  const set = (next: Viewport) => {
    current = { ...next, k: clampZoom(next.k) };
    const world = options.world();
    if (world) {
      world.setAttribute('transform', transformOf(current));
      const detail = String(current.k >= STATUS_MARK_MIN_ZOOM);
      // written only when it flips: the flip restyles every status mark once
      if (world.getAttribute('data-detail') !== detail) world.setAttribute('data-detail', detail);
      if (!moving) world.style.willChange = 'transform';
    }
    moving = true;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      moving = false;
      rect = null;
      options.world()?.style.removeProperty('will-change');
      options.onSettle(current);
    }, CAMERA_SETTLE_MS);
  };

  return {
    viewport: () => current,
    set,
    panBy: (dx, dy) => set(panViewport(current, dx, dy)),
    zoomAt: (factor, px, py) => set(zoomViewport(current, factor, px, py)),
    centerOn: (sx, sy, w, h, k) => set(centerViewport(current, sx, sy, w, h, k)),
    svgRect() {
      if (!moving || !rect) rect = options.svg()?.getBoundingClientRect() ?? new DOMRect();
      return rect;
    },
    moving: () => moving,
    dispose() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
