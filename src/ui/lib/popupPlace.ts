// Where an asset's popup goes in the viewer: beside the asset, never over it
// where there is room elsewhere, so the person still sees the desk or room
// they tapped and its colour while they read about it (docs/ui.md "Where a
// popup opens"). Right of the asset first (the reading order), then left,
// then below or above it (a phone's narrow map, where 300 px beside a desk
// do not fit), then the larger of those two with the popup made shorter; the
// popup covers the asset only when none of these leaves its details room.

/** px between the asset's drawn box and the popup */
export const POPUP_GAP_PX = 12;
/** px the popup keeps from the viewer's edges */
export const POPUP_EDGE_PX = 4;
/**
 * The most of an asset's half-size, each way, that the popup keeps clear of: a desk, a locker or a person is
 * cleared whole; a room or a zone larger than this is covered from this far out of its middle (its middle,
 * where its name and status are written, stays in sight).
 */
export const POPUP_CLEAR_MAX_PX = 60;

export interface PopupAnchor {
  /** the asset's centre in the viewer, px */
  x: number;
  y: number;
  /** half its drawn width and height, px (0 when it is not drawn: a deep link's popup) */
  halfW: number;
  halfH: number;
}

export interface PopupPlacement {
  x: number;
  y: number;
  height: number;
  /** which side of the asset it went to; 'over' when no side had room */
  side: 'right' | 'left' | 'below' | 'above' | 'over';
}

/**
 * The popup's place for a popup of `width` × `height` (at least `minHeight` when it must be made shorter) at
 * `anchor`, inside a viewer of `bounds`.
 */
export function placePopup(
  anchor: PopupAnchor, size: { width: number; height: number; minHeight: number }, bounds: { w: number; h: number },
): PopupPlacement {
  const { width } = size;
  const height = Math.min(size.height, Math.max(0, bounds.h - 2 * POPUP_EDGE_PX));
  const hw = Math.min(Math.max(0, anchor.halfW), POPUP_CLEAR_MAX_PX);
  const hh = Math.min(Math.max(0, anchor.halfH), POPUP_CLEAR_MAX_PX);
  const clampX = (x: number) => Math.max(POPUP_EDGE_PX, Math.min(x, bounds.w - width - POPUP_EDGE_PX));
  const clampY = (y: number, h: number) => Math.max(POPUP_EDGE_PX, Math.min(y, bounds.h - h - POPUP_EDGE_PX));

  const right = anchor.x + hw + POPUP_GAP_PX;
  if (right + width <= bounds.w - POPUP_EDGE_PX) return { x: right, y: clampY(anchor.y - height / 2, height), height, side: 'right' };
  const left = anchor.x - hw - POPUP_GAP_PX - width;
  if (left >= POPUP_EDGE_PX) return { x: left, y: clampY(anchor.y - height / 2, height), height, side: 'left' };

  const x = clampX(anchor.x - width / 2);
  const belowTop = anchor.y + hh + POPUP_GAP_PX;
  const below = bounds.h - POPUP_EDGE_PX - belowTop;
  const aboveBottom = anchor.y - hh - POPUP_GAP_PX;
  const above = aboveBottom - POPUP_EDGE_PX;
  if (below >= height) return { x, y: belowTop, height, side: 'below' };
  if (above >= height) return { x, y: aboveBottom - height, height, side: 'above' };
  // neither holds it whole: the roomier of the two, the popup shorter (its body scrolls), while its details keep room
  const room = Math.max(below, above);
  if (room >= size.minHeight) {
    return below >= above ? { x, y: belowTop, height: below, side: 'below' } : { x, y: aboveBottom - above, height: above, side: 'above' };
  }
  return { x: clampX(anchor.x + POPUP_GAP_PX), y: clampY(anchor.y - height / 2, height), height, side: 'over' };
}
