import { describe, expect, it } from 'vitest';
import { fitBox, visibleBox, zoomAt, MAX_ZOOM, MIN_ZOOM, toSvg } from '../../src/ui/lib/viewport.js';
import { statusKind, accessibleName } from '../../src/ui/lib/describe.js';
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
  describe('statusKind', () => {
    it('sorts status words into kinds that each get their own mark, so colour is never alone', () => {
      expect(statusKind('free')).toBe('none');
      expect(statusKind(null)).toBe('none');
      expect(statusKind('occupied')).toBe('busy');
      expect(statusKind('occupied and reserved')).toBe('busy');
      expect(statusKind('reserved')).toBe('booked');
      expect(statusKind('unknown')).toBe('unknown');
    });
  });
  describe('accessibleName', () => {
    it('names type, name, status, value and decoration', () => {
      expect(accessibleName(draw('d1', { status: 'occupied', value: 21.5, unit: '°C' }))).toBe('Desk Desk d1, occupied, 21.5 °C');
      expect(accessibleName(draw('e1', { type: 'employee', symbol: 'employee', name: 'Ada', status: null, decoration: 'santa_hat' }))).toBe(
        'Co-worker Ada, wearing santa hat',
      );
    });
  });
});
