import { describe, expect, it } from 'vitest';
import { centerOn, fitBox, freeMiddle, freeMiddlePoint, visibleBox, zoomAt, MAX_ZOOM, MIN_ZOOM, toSvg } from '../../src/ui/lib/viewport.js';
import { accessibleName } from '../../src/ui/lib/describe.js';
import { draw } from './fakeEngine.js';

describe('viewport', () => {
  describe('fitBox', () => {
    it('centres the box and fills the smaller screen dimension', () => {
      const v = fitBox({ minX: 0, minY: -20, maxX: 40, maxY: 0 }, 800, 600);
      expect(v.k).toBeCloseTo((800 / 40) * 0.92);
      const box = visibleBox(v, 800, 600);
      expect((box.minX + box.maxX) / 2).toBeCloseTo(20);
      expect((box.minY + box.maxY) / 2).toBeCloseTo(-10);
    });

    /** The box's corners on screen at `v`. */
    const onScreen = (b: { minX: number; minY: number; maxX: number; maxY: number }, v: { x: number; y: number; k: number }) => ({
      left: v.x + b.minX * v.k, right: v.x + b.maxX * v.k, top: v.y + b.minY * v.k, bottom: v.y + b.maxY * v.k,
    });
    // "Play back a day": 150 px wide, reaching 40 px down from the top, at the right of an 850×700 map
    const corner = { width: 160, height: 46 };
    const insets = { top: 0, left: 0, right: 56, bottom: 0 };

    it('keeps a floor fitted to the height out from under the corner control, beside it when that shows it larger', () => {
      const square = { minX: 0, minY: 0, maxX: 50, maxY: 50 };
      // without the corner: fitted to the height, its top-right under the control
      const plain = onScreen(square, fitBox(square, 850, 700, insets));
      expect(plain.right > 850 - corner.width && plain.top < corner.height).toBe(true);
      const v = fitBox(square, 850, 700, insets, corner);
      const fitted = onScreen(square, v);
      expect(fitted.right <= 850 - corner.width || fitted.top >= corner.height).toBe(true);
      // beside it: larger than below it, nearly as large as under it
      const below = fitBox(square, 850, 700, { ...insets, top: corner.height });
      expect(v.k).toBeGreaterThan(below.k);
      expect(fitted.right).toBeCloseTo(850 - corner.width - (690 * 0.04));
    });

    it('fits a wide floor below the corner control when that shows it larger, and leaves one clear of it as it was', () => {
      const wide = { minX: 0, minY: 0, maxX: 100, maxY: 78 };
      const v = fitBox(wide, 850, 700, insets, corner);
      const fitted = onScreen(wide, v);
      expect(fitted.top).toBeGreaterThanOrEqual(corner.height - 1e-9);
      expect(v.k).toBeGreaterThan(fitBox(wide, 850, 700, { ...insets, right: corner.width }).k);
      // a floor the fit keeps clear anyway is fitted as without the control
      const flat = { minX: 0, minY: 0, maxX: 100, maxY: 40 };
      expect(fitBox(flat, 850, 700, insets, corner)).toEqual(fitBox(flat, 850, 700, insets));
    });
  });
  describe('zoomAt', () => {
    it('keeps the point under the cursor fixed', () => {
      const v = { x: 10, y: 20, k: 2 };
      const z = zoomAt(v, 2, 100, 50);
      expect((100 - z.x) / z.k).toBeCloseTo((100 - v.x) / v.k);
      expect((50 - z.y) / z.k).toBeCloseTo((50 - v.y) / v.k);
    });
    it('clamps the zoom', () => {
      expect(zoomAt({ x: 0, y: 0, k: 1 }, 1e9, 0, 0).k).toBe(MAX_ZOOM);
      expect(zoomAt({ x: 0, y: 0, k: 1 }, 1e-9, 0, 0).k).toBe(MIN_ZOOM);
    });
  });
  describe('freeMiddle', () => {
    it('is the middle between the messages over the map, the legends under them and a panel at its left, not counting the toolbar', () => {
      // a phone's map: 412×407, the message's foot 102 px down (+8), the legends' button 33 px from the foot (+8)
      expect(freeMiddle(412, 407, { top: 110, bottom: 41, left: 0, right: 56 })).toEqual({ x: 206, y: 110 + (407 - 110 - 41) / 2 });
      expect(freeMiddle(800, 600, { top: 0, bottom: 0, left: 300, right: 56 })).toEqual({ x: 550, y: 300 });
    });
    it('is where the view\'s centre for the forms lies: the SVG point shown there, not at the map\'s own middle', () => {
      const insets = { top: 110, bottom: 41, left: 0, right: 56 };
      const v = { x: -40, y: 30, k: 20 };
      const p = freeMiddlePoint(v, 412, 407, insets);
      const at = freeMiddle(412, 407, insets);
      expect([p.x * v.k + v.x, p.y * v.k + v.y]).toEqual([at.x, at.y]);
      // the map's own middle is 34.5 px higher on screen: under the message's foot side of what is seen
      expect(p.y - (407 / 2 - v.y) / v.k).toBeCloseTo(34.5 / 20);
    });
    it('puts the point centred on there', () => {
      const at = freeMiddle(412, 407, { top: 110, bottom: 41, left: 0, right: 56 });
      const v = centerOn({ x: 0, y: 0, k: 1 }, 10, 20, at, 25);
      expect([10 * v.k + v.x, 20 * v.k + v.y]).toEqual([at.x, at.y]);
    });
  });
  describe('toSvg', () => {
    it('draws local y in floor-plan image space, growing downwards', () => {
      expect(toSvg(3, 4)).toEqual([3, 4]);
    });
  });
});

describe('describe', () => {
  describe('accessibleName', () => {
    it('names kind, name, status, the text drawn and decoration', () => {
      expect(accessibleName(draw('d1', { status: 'occupied', text: '21.5 °C' }))).toBe('Desk d1, occupied, 21.5 °C');
      expect(accessibleName(draw('d2', { status: 'free', unpublished: true }))).toBe('Desk d2, unpublished, free');
      expect(accessibleName(draw('e1', { kind: 'employee', name: 'Ada', status: null, decoration: 'santa_hat' }))).toBe(
        'Co-worker Ada, wearing santa hat',
      );
    });

    it('says the kind once when the name already begins with it, and before any other name', () => {
      expect(accessibleName(draw('d3', { name: 'Desk 0.1007', status: 'free' }))).toBe('Desk 0.1007, free');
      expect(accessibleName(draw('d4', { name: 'desk-12', status: 'free' }))).toBe('desk-12, free');
      expect(accessibleName(draw('d5', { name: 'Window seat', status: 'free' }))).toBe('Desk Window seat, free');
      // a word that only begins like the kind is a name of its own
      expect(accessibleName(draw('d6', { name: 'Deskside 3', status: 'free' }))).toBe('Desk Deskside 3, free');
      expect(accessibleName(draw('r1', { kind: 'room', name: 'Room 101', status: 'free' }))).toBe('Room 101, free');
      expect(accessibleName(draw('r2', { kind: 'room', name: 'F0-R1', status: 'free' }))).toBe('Room F0-R1, free');
    });
  });
});
