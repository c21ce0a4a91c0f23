// The floor viewer's camera: the one place that moves the map. A step (keys,
// buttons, fit, "bring into view") writes the world group's transform directly
// (no React render per frame, DESIGN §7). A gesture (drag, pinch, wheel) moves
// the whole <svg> by a CSS transform on its own compositor layer instead: the
// floor is not painted again per frame, only moved, and the world group gets
// the gesture's viewport once the move settles, re-rastered sharp. Software
// raster paints an SVG group transform at ~15-19 fps on a 5,000-desk floor and
// moves the layer at ~50-58 fps (docs/bench.md, "Pan on the compositor").

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
  /** the viewport the world group's transform holds (during a gesture the svg's CSS transform makes up the rest) */
  drawn(): Viewport;
  set(next: Viewport): void;
  /** `gesture`: moved on the compositor until it settles (pointer drags, pinches, the wheel) */
  panBy(dx: number, dy: number, gesture?: boolean): void;
  zoomAt(factor: number, px: number, py: number, gesture?: boolean): void;
  /** puts the SVG point (sx, sy) at the screen point `at` (viewport.ts `freeMiddle`), at zoom k (default: the current one) */
  centerOn(sx: number, sy: number, at: { x: number; y: number }, k?: number): void;
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
  /** what the world group's transform attribute shows */
  let drawn: Viewport = current;
  /** the svg's CSS transform while a gesture moves it: screen = r · drawn + (tx, ty) */
  let lift: { tx: number; ty: number; r: number } | null = null;
  let moving = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let rect: DOMRect | null = null;

  const draw = (world: SVGGElement) => {
    drawn = current;
    world.setAttribute('transform', transformOf(current));
  };

  const land = () => {
    const svg = options.svg();
    if (!lift || !svg) return;
    lift = null;
    svg.style.removeProperty('transform');
    svg.style.removeProperty('will-change');
  };

  const set = (next: Viewport, gesture = false) => {
    current = { ...next, k: clampZoom(next.k) };
    const world = options.world();
    const svg = options.svg();
    if (world) {
      if (gesture && svg) {
        const r = current.k / drawn.k;
        lift = { tx: current.x - r * drawn.x, ty: current.y - r * drawn.y, r };
        if (svg.style.willChange !== 'transform') svg.style.willChange = 'transform';
        svg.style.transform = `translate(${lift.tx}px, ${lift.ty}px) scale(${r})`;
      } else {
        land();
        draw(world);
        if (!moving) world.style.willChange = 'transform';
      }
      const detail = String(current.k >= STATUS_MARK_MIN_ZOOM);
      // written only when it flips: the flip restyles every status mark once
      if (world.getAttribute('data-detail') !== detail) world.setAttribute('data-detail', detail);
    }
    moving = true;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      moving = false;
      rect = null;
      const settled = options.world();
      // one task: the next frame shows the floor at the same place, painted at its new scale
      if (settled && lift) draw(settled);
      land();
      settled?.style.removeProperty('will-change');
      options.onSettle(current);
    }, CAMERA_SETTLE_MS);
  };

  return {
    viewport: () => current,
    drawn: () => drawn,
    set: (next) => set(next),
    panBy: (dx, dy, gesture = false) => set(panViewport(current, dx, dy), gesture),
    zoomAt: (factor, px, py, gesture = false) => set(zoomViewport(current, factor, px, py), gesture),
    centerOn: (sx, sy, at, k) => set(centerViewport(current, sx, sy, at, k)),
    svgRect() {
      if (!moving || !rect) {
        const box = options.svg()?.getBoundingClientRect() ?? new DOMRect();
        // while lifted the svg's box is moved and scaled: undo that, the map's place has not changed
        rect = lift ? new DOMRect(box.x - lift.tx, box.y - lift.ty, box.width / lift.r, box.height / lift.r) : box;
      }
      return rect;
    },
    moving: () => moving,
    dispose() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
