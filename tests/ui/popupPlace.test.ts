import { describe, expect, it } from 'vitest';
import { placePopup, POPUP_CLEAR_MAX_PX, POPUP_EDGE_PX, POPUP_GAP_PX, type PopupPlacement } from '../../src/ui/lib/popupPlace.js';
import { POPUP_DEFAULT_HEIGHT, POPUP_DEFAULT_WIDTH } from '../../src/shared/constants.js';

const size = { width: POPUP_DEFAULT_WIDTH, height: POPUP_DEFAULT_HEIGHT, minHeight: 120 };
const desk = (x: number, y: number) => ({ x, y, halfW: 20, halfH: 10 });

/** the popup's box overlaps the anchor's box (up to POPUP_CLEAR_MAX_PX of it each way) */
function covers(p: PopupPlacement, a: { x: number; y: number; halfW: number; halfH: number }): boolean {
  const hw = Math.min(a.halfW, POPUP_CLEAR_MAX_PX);
  const hh = Math.min(a.halfH, POPUP_CLEAR_MAX_PX);
  return p.x < a.x + hw && p.x + size.width > a.x - hw && p.y < a.y + hh && p.y + p.height > a.y - hh;
}

function inside(p: PopupPlacement, bounds: { w: number; h: number }): boolean {
  return p.x >= POPUP_EDGE_PX && p.x + size.width <= bounds.w - POPUP_EDGE_PX && p.y >= POPUP_EDGE_PX && p.y + p.height <= bounds.h - POPUP_EDGE_PX;
}

describe('placePopup: an asset popup beside its asset, not over it', () => {
  const laptop = { w: 1100, h: 700 };
  const phone = { w: 412, h: 760 };

  it('goes right of a desk when there is room, clear of the desk and centred on it', () => {
    const a = desk(300, 350);
    const p = placePopup(a, size, laptop);
    expect(p.side).toBe('right');
    expect(p.x).toBe(300 + 20 + POPUP_GAP_PX);
    expect(p.y + p.height / 2).toBe(350);
    expect(covers(p, a)).toBe(false);
    expect(inside(p, laptop)).toBe(true);
  });

  it('goes left of a desk near the right edge instead of sliding over it', () => {
    const a = desk(1000, 350);
    const p = placePopup(a, size, laptop);
    expect(p.side).toBe('left');
    expect(p.x + size.width).toBe(1000 - 20 - POPUP_GAP_PX);
    expect(covers(p, a)).toBe(false);
    expect(inside(p, laptop)).toBe(true);
  });

  it('goes below a desk on a phone, where neither side holds 300 px, and above one low on the map', () => {
    const high = desk(200, 250);
    const below = placePopup(high, size, phone);
    expect(below.side).toBe('below');
    expect(below.y).toBe(250 + 10 + POPUP_GAP_PX);
    expect(below.height).toBe(POPUP_DEFAULT_HEIGHT);
    expect(covers(below, high)).toBe(false);
    expect(inside(below, phone)).toBe(true);
    const low = desk(200, 650);
    const above = placePopup(low, size, phone);
    expect(above.side).toBe('above');
    expect(above.y + above.height).toBe(650 - 10 - POPUP_GAP_PX);
    expect(covers(above, low)).toBe(false);
    expect(inside(above, phone)).toBe(true);
  });

  it('is made shorter on a short map (a phone with its sheet up) rather than laid over the desk, while its details keep room', () => {
    const short = { w: 412, h: 380 };
    const a = desk(200, 150);
    const p = placePopup(a, size, short);
    expect(p.side).toBe('below');
    expect(p.height).toBe(380 - POPUP_EDGE_PX - (150 + 10 + POPUP_GAP_PX));
    expect(p.height).toBeLessThan(POPUP_DEFAULT_HEIGHT);
    expect(p.height).toBeGreaterThanOrEqual(size.minHeight);
    expect(covers(p, a)).toBe(false);
    expect(inside(p, short)).toBe(true);
  });

  it('covers the asset only when no side leaves its details room, and then stays inside the viewer', () => {
    const tiny = { w: 360, h: 240 };
    const a = desk(180, 120);
    const p = placePopup(a, size, tiny);
    expect(p.side).toBe('over');
    expect(p.height).toBe(240 - 2 * POPUP_EDGE_PX);
    expect(p.x).toBeGreaterThanOrEqual(POPUP_EDGE_PX);
    expect(p.y).toBe(POPUP_EDGE_PX);
  });

  it('keeps a large room\'s middle (its name and status) in sight, clearing POPUP_CLEAR_MAX_PX of it', () => {
    const room = { x: 400, y: 300, halfW: 200, halfH: 150 };
    const p = placePopup(room, size, laptop);
    expect(p.side).toBe('right');
    expect(p.x).toBe(400 + POPUP_CLEAR_MAX_PX + POPUP_GAP_PX);
    expect(covers(p, room)).toBe(false);
  });

  it('a deep link\'s popup (no drawn asset) opens beside the middle of the map', () => {
    const p = placePopup({ x: 550, y: 350, halfW: 0, halfH: 0 }, size, laptop);
    expect(p).toMatchObject({ side: 'right', x: 550 + POPUP_GAP_PX });
  });
});
