import { describe, expect, it } from 'vitest';
import { collidingLabels, labelBoxOf, labelPoint, shapeFontSize, statusFontSize, type LabelBox } from '../../src/ui/lib/labels.js';
import { draw, room } from './fakeEngine.js';

describe('labels', () => {
  describe('labelPoint', () => {
    it('puts an L-shaped room\'s name inside the room, where its box centre is outside', () => {
      // an L: the box centre (5, 5) lies in the cut-out corner
      const outline: Array<[number, number]> = [[0, 0], [10, 0], [10, 3], [3, 3], [3, 10], [0, 10]];
      const [x, y] = labelPoint(outline);
      const inside = (x >= 0 && x <= 10 && y >= 0 && y <= 3) || (x >= 0 && x <= 3 && y >= 0 && y <= 10);
      expect(inside).toBe(true);
      expect(x < 3 || y < 3).toBe(true);
    });

    it('is the centre of a rectangle', () => {
      const [x, y] = labelPoint([[0, 0], [8, 0], [8, 4], [0, 4]]);
      expect(x).toBeCloseTo(4, 1);
      expect(y).toBeCloseTo(2, 1);
    });
  });

  describe('collidingLabels', () => {
    const box = (id: string, cx: number, priority: number): LabelBox => ({ id, cx, cy: 0, w: 2, h: 0.5, priority });

    it('hides the lower-priority of two labels that overlap at this zoom', () => {
      const labels = [box('sensor', 1, 10), box('room', 0, 50)];
      expect([...collidingLabels(labels, 10)]).toEqual(['sensor']);
    });

    it('shows both once zoomed in far enough that they clear each other', () => {
      const labels = [box('a', 0, 10), box('b', 2.5, 10)];
      expect(collidingLabels(labels, 10).size).toBe(0);
      // nearer, they overlap at any zoom: one gives way
      expect(collidingLabels([box('a', 0, 10), box('b', 1.5, 10)], 10).size).toBe(1);
    });

    it('keeps a little air between labels', () => {
      const labels = [box('a', 0, 10), box('b', 2.1, 20)];
      expect([...collidingLabels(labels, 10, 2)]).toEqual(['a']);
      expect(collidingLabels(labels, 10, 0).size).toBe(0);
    });
  });

  describe('labelBoxOf', () => {
    it('gives rooms and people a box and desks none', () => {
      expect(labelBoxOf(room('r1'))!.priority).toBeGreaterThan(labelBoxOf(draw('e1', { kind: 'employee', name: 'Ann' }))!.priority);
      expect(labelBoxOf(draw('d1'))).toBeNull();
    });

    it("keeps a room's status inside the room: a long status in a narrow room is drawn smaller, a short one at four fifths of the name", () => {
      const narrow = room('r2', { outline: [[0, 0], [3, 0], [3, 3], [0, 3]], width: 3, depth: 3, status: 'occupied and reserved' });
      const name = shapeFontSize(narrow);
      const size = statusFontSize(narrow, 'occupied and reserved', name);
      expect(size).toBeLessThan(name * 0.8);
      expect('occupied and reserved'.length * size * 0.56).toBeLessThanOrEqual(3 * 0.9 + 1e-9);
      expect(labelBoxOf(narrow)!.w).toBeLessThanOrEqual(3);
      const wide = room('r3', { status: 'free' });
      expect(statusFontSize(wide, 'free')).toBeCloseTo(shapeFontSize(wide) * 0.8);
    });
  });
});
