import { describe, expect, it } from 'vitest';
import { fitBox, visibleBox, zoomAt, MAX_ZOOM, MIN_ZOOM, toSvg } from '../../src/ui/lib/viewport.js';
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
