// The non-colour status cue of a desk-like asset: one small opaque stroked
// path per kind of status (✕ busy, ╱ booked, ! attention, ― unknown; free has none). Pattern fills said
// the same but cost more to raster than the desks under them in Chromium's
// software rasteriser (docs/bench.md §5). Straight opaque strokes (no round
// caps, arcs or alpha: round caps and alpha blending measured slower) are
// shown only once a desk is big enough on screen to read them.

import type { StatusKind } from '../../shared/kinds.js';

/**
 * Zoom (screen px per metre) from which marks are shown: a 0.8 m desk is then
 * 10 px deep and its mark 5-6 px wide. Below it they are hidden by CSS
 * (`.world[data-detail='false'] .status-mark`), never re-rendered.
 */
export const STATUS_MARK_MIN_ZOOM = 10;

/** Opaque: a translucent stroke costs a blend per pixel. */
export const STATUS_MARK_COLOR = '#263238';

export interface StatusMarkShape {
  d: string;
  strokeWidth: number;
}

const r = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Path of the mark for a kind of status on an asset of `width`×`depth` metres
 * centred at (cx, cy) — absolute, so unrotated desks need no transform of
 * their own (docs/ui.md); null for none.
 */
export function statusMarkShape(kind: StatusKind, width: number, depth: number, cx = 0, cy = 0): StatusMarkShape | null {
  if (kind === 'none' || kind === 'free') return null;
  const h = r(0.35 * Math.max(0.2, Math.min(width || 1.5, depth || 1.5)));
  const strokeWidth = r(h * 0.4);
  const [x0, x1, y0, y1, y] = [r(cx - h), r(cx + h), r(cy - h), r(cy + h), r(cy)];
  switch (kind) {
    case 'busy':
      return { d: `M${x0},${y0}L${x1},${y1}M${x1},${y0}L${x0},${y1}`, strokeWidth };
    case 'booked':
      return { d: `M${x0},${y1}L${x1},${y0}`, strokeWidth };
    case 'attention':
      return { d: `M${r(cx)},${y0}L${r(cx)},${r(cy + h * 0.3)}M${r(cx)},${r(cy + h * 0.6)}L${r(cx)},${y1}`, strokeWidth };
    case 'unknown':
      return { d: `M${x0},${y}L${x1},${y}`, strokeWidth };
  }
}
