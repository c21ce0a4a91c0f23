// Pan and zoom math of the floor viewer: the floor (local metres) is drawn
// through one transform `translate(x y) scale(k)` on a single <g> (DESIGN §7:
// transforming a group is cheaper than rewriting the viewBox).

export interface Viewport {
  x: number;
  y: number;
  k: number;
}

export interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export const MIN_ZOOM = 0.5;
export const MAX_ZOOM = 400;
export const FIT_MARGIN = 0.92;

export function clampZoom(k: number): number {
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, k));
}

/**
 * Direction of local y on screen. Floor plans (and the reference server's
 * seeded plans and outlines) use image space, y growing downwards, so local
 * y maps to SVG y as it is; -1 would draw y north-up (docs/ui.md).
 */
export const Y_SIGN: 1 | -1 = 1;

/** SVG y of a local y (its own inverse, as Y_SIGN is ±1). */
export function svgY(y: number): number {
  return Y_SIGN * y;
}

/** SVG coordinates of a local point. */
export function toSvg(x: number, y: number): [number, number] {
  return [x, svgY(y)];
}

/** Box of SVG points, or null for none. */
export function boxOf(points: Iterable<readonly [number, number]>): Box | null {
  let box: Box | null = null;
  for (const [x, y] of points) {
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    if (!box) box = { minX: x, minY: y, maxX: x, maxY: y };
    else {
      box.minX = Math.min(box.minX, x);
      box.minY = Math.min(box.minY, y);
      box.maxX = Math.max(box.maxX, x);
      box.maxY = Math.max(box.maxY, y);
    }
  }
  return box;
}

/** The viewport that shows `box` centred in a screen of `width`×`height`. */
export function fitBox(box: Box, width: number, height: number): Viewport {
  const w = Math.max(box.maxX - box.minX, 1);
  const h = Math.max(box.maxY - box.minY, 1);
  const k = clampZoom(Math.min(width / w, height / h) * FIT_MARGIN);
  return {
    k,
    x: width / 2 - ((box.minX + box.maxX) / 2) * k,
    y: height / 2 - ((box.minY + box.maxY) / 2) * k,
  };
}

/** Zooms by `factor` keeping the screen point (px, py) fixed. */
export function zoomAt(v: Viewport, factor: number, px: number, py: number): Viewport {
  const k = clampZoom(v.k * factor);
  const f = k / v.k;
  return { k, x: px - (px - v.x) * f, y: py - (py - v.y) * f };
}

export function panBy(v: Viewport, dx: number, dy: number): Viewport {
  return { ...v, x: v.x + dx, y: v.y + dy };
}

/** Centres the SVG point (sx, sy) on screen, keeping the zoom (or using `k`). */
export function centerOn(v: Viewport, sx: number, sy: number, width: number, height: number, k = v.k): Viewport {
  return { k, x: width / 2 - sx * k, y: height / 2 - sy * k };
}

/** The SVG-space box visible on screen, grown by `margin` (a fraction of its size) on each side. */
export function visibleBox(v: Viewport, width: number, height: number, margin = 0): Box {
  const minX = -v.x / v.k;
  const minY = -v.y / v.k;
  const w = width / v.k;
  const h = height / v.k;
  return { minX: minX - w * margin, minY: minY - h * margin, maxX: minX + w * (1 + margin), maxY: minY + h * (1 + margin) };
}

export function intersects(a: Box, b: Box): boolean {
  return a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;
}

export function transformOf(v: Viewport): string {
  return `translate(${v.x} ${v.y}) scale(${v.k})`;
}
