import { describe, expect, it } from 'vitest';
import { collidingLabels, labelBoxOf, labelPoint, type LabelBox } from '../../src/ui/lib/labels.js';
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
  });
});
