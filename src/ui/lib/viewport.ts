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

/** Screen pixels kept free on each side, e.g. for legends and the zoom toolbar. */
export interface Insets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export const NO_INSETS: Insets = { top: 0, right: 0, bottom: 0, left: 0 };

/** A control over the screen's top-right corner ("Play back a day"): how far it reaches from the right edge and down from the top, px. */
export interface Corner {
  width: number;
  height: number;
}

/**
 * The viewport that shows `box` centred in a screen of `width`×`height`, inside
 * the part not covered by `insets` (when that part is too small to be useful,
 * the insets are ignored rather than shrinking the floor to nothing). A floor
 * that would reach under `corner` is fitted below it or left of it, whichever
 * shows it larger, so what stands in its corner can be clicked.
 */
export function fitBox(box: Box, width: number, height: number, insets: Insets = NO_INSETS, corner: Corner | null = null): Viewport {
  const fitted = fitInside(box, width, height, insets);
  if (!corner || corner.width <= 0 || corner.height <= 0 || !reachesUnder(fitted, box, width, corner)) return fitted;
  const below = fitInside(box, width, height, { ...insets, top: Math.max(insets.top, corner.height) });
  const beside = fitInside(box, width, height, { ...insets, right: Math.max(insets.right, corner.width) });
  return beside.k > below.k ? beside : below;
}

/** Whether `box` shown at `v` reaches under the corner (a floor's edge touching it does not). */
function reachesUnder(v: Viewport, box: Box, width: number, corner: Corner): boolean {
  return v.x + box.maxX * v.k > width - corner.width && v.y + box.minY * v.k < corner.height;
}

function fitInside(box: Box, width: number, height: number, insets: Insets): Viewport {
  let area = { left: insets.left, top: insets.top, w: width - insets.left - insets.right, h: height - insets.top - insets.bottom };
  if (area.w < width * 0.4 || area.h < height * 0.4) area = { left: 0, top: 0, w: width, h: height };
  const w = Math.max(box.maxX - box.minX, 1);
  const h = Math.max(box.maxY - box.minY, 1);
  const k = clampZoom(Math.min(area.w / w, area.h / h) * FIT_MARGIN);
  return {
    k,
    x: area.left + area.w / 2 - ((box.minX + box.maxX) / 2) * k,
    y: area.top + area.h / 2 - ((box.minY + box.maxY) / 2) * k,
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

/** Puts the SVG point (sx, sy) at the screen point `at` (a map's free middle), keeping the zoom (or using `k`). */
export function centerOn(v: Viewport, sx: number, sy: number, at: { x: number; y: number }, k = v.k): Viewport {
  return { k, x: at.x - sx * k, y: at.y - sy * k };
}

/**
 * The middle of the part of a width×height map that nothing covers: below the messages over its top, above the
 * legends, right of a panel over its left side (docs/ui.md "Centred where nothing covers the map"). The zoom
 * toolbar's inset (right) is left out: its buttons stand in the bottom-right corner and cover no band of the map.
 */
export function freeMiddle(width: number, height: number, insets: Insets): { x: number; y: number } {
  return { x: insets.left + (width - insets.left) / 2, y: insets.top + (height - insets.top - insets.bottom) / 2 };
}

/**
 * The SVG point shown at the free middle of a width×height map at `v`: where "Use the centre of the view" and the
 * report form's red pin place things, so they land where the person sees them, not under the messages or legends.
 */
export function freeMiddlePoint(v: Viewport, width: number, height: number, insets: Insets): { x: number; y: number } {
  const at = freeMiddle(width, height, insets);
  return { x: (at.x - v.x) / v.k, y: (at.y - v.y) / v.k };
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

/** The screen box of an SVG-space box under a viewport. */
export function screenBox(v: Viewport, box: Box): Box {
  return { minX: box.minX * v.k + v.x, minY: box.minY * v.k + v.y, maxX: box.maxX * v.k + v.x, maxY: box.maxY * v.k + v.y };
}

/** Whether `inner` lies wholly inside `outer`. */
export function contains(outer: Box, inner: Box): boolean {
  return inner.minX >= outer.minX && inner.maxX <= outer.maxX && inner.minY >= outer.minY && inner.maxY <= outer.maxY;
}

/** Pixels per wheel line and the zoom per wheel pixel (trackpad pinches arrive as ctrl+wheel with small deltas). */
export const WHEEL_LINE_PX = 20;
export const WHEEL_ZOOM_PER_PX = 0.0015;
const PINCH_WHEEL_BOOST = 10;

/**
 * The zoom factor of a wheel event, honouring `deltaMode` (pixels, lines or
 * pages: Firefox and some mice report lines, so a raw deltaY of 3 would
 * barely move), and ctrl+wheel, which is how trackpads report a pinch.
 */
export function wheelZoomFactor(event: Pick<WheelEvent, 'deltaY' | 'deltaMode' | 'ctrlKey'>, pageHeight: number): number {
  const px = event.deltaMode === 1 ? event.deltaY * WHEEL_LINE_PX : event.deltaMode === 2 ? event.deltaY * pageHeight : event.deltaY;
  return Math.exp(-px * WHEEL_ZOOM_PER_PX * (event.ctrlKey ? PINCH_WHEEL_BOOST : 1));
}
