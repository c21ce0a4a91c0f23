import { describe, expect, it } from 'vitest';
import {
  localOutlineToWgs84, localToWgs84, pointInPolygon, shapeGeometry, wgs84Distance, wgs84OutlineToLocal, wgs84ToLocal,
} from '../../src/shared/geo.js';
import { EARTH_RADIUS_M } from '../../src/shared/constants.js';
import type { Vec2 } from '../../src/shared/types.js';

const helsinki = { latitude: 60.1699, longitude: 24.9384 };

describe('geo', () => {
  it('uses an earth radius of 6,371,000 m', () => {
    expect(EARTH_RADIUS_M).toBe(6371000);
  });

  describe('wgs84ToLocal', () => {
    it('puts 0.001° of latitude north of the origin at about 111.19 m along y', () => {
      const [x, y, z] = wgs84ToLocal([helsinki.longitude, helsinki.latitude + 0.001, 0], helsinki);
      expect(x).toBeCloseTo(0, 9);
      expect(y).toBeCloseTo(111.19, 2);
      expect(z).toBe(0);
    });

    it('shrinks a degree of longitude by the cosine of the latitude', () => {
      const [x] = wgs84ToLocal([helsinki.longitude + 0.001, helsinki.latitude], helsinki);
      expect(x).toBeCloseTo(111.195 * Math.cos((helsinki.latitude * Math.PI) / 180), 2);
    });

    it('agrees with the great-circle distance for a point 100 m away', () => {
      const p = [helsinki.longitude + 0.0012, helsinki.latitude + 0.0004];
      const [x, y] = wgs84ToLocal(p, helsinki);
      const great = wgs84Distance([helsinki.longitude, helsinki.latitude], p);
      expect(Math.hypot(x, y)).toBeCloseTo(great, 1);
    });

    it('keeps the altitude as z', () => {
      expect(wgs84ToLocal([helsinki.longitude, helsinki.latitude, 12.5], helsinki)[2]).toBe(12.5);
    });
  });

  describe('localToWgs84', () => {
    it('round-trips a coordinate through local metres and back', () => {
      const p = [24.9412, 60.1687, 3];
      const back = localToWgs84(wgs84ToLocal(p, helsinki), helsinki);
      expect(back[0]).toBeCloseTo(p[0]!, 10);
      expect(back[1]).toBeCloseTo(p[1]!, 10);
      expect(back[2]).toBe(3);
    });

    it('puts 111.19 m north at 0.001° of latitude', () => {
      const [, lat] = localToWgs84([0, 111.19494, 0], helsinki);
      expect(lat - helsinki.latitude).toBeCloseTo(0.001, 7);
    });
  });

  describe('outlines', () => {
    it('round-trips an outline', () => {
      const outline: Vec2[] = [[0, 0], [10, 0], [10, 5], [0, 5]];
      const back = wgs84OutlineToLocal(localOutlineToWgs84(outline, helsinki), helsinki);
      back.forEach((p, i) => {
        expect(p[0]).toBeCloseTo(outline[i]![0], 6);
        expect(p[1]).toBeCloseTo(outline[i]![1], 6);
      });
    });
  });

  describe('shapeGeometry', () => {
    it('derives centre, width, depth, area and size of a rectangle', () => {
      expect(shapeGeometry([[2, 1], [6, 1], [6, 4], [2, 4]])).toEqual({
        center: [4, 2.5], width: 4, depth: 3, area: 12, size: Math.sqrt(12),
      });
    });

    it('takes the area centroid of an L shape, not the box centre', () => {
      const g = shapeGeometry([[0, 0], [4, 0], [4, 1], [1, 1], [1, 4], [0, 4]])!;
      expect(g.area).toBeCloseTo(7, 10);
      expect(g.center[0]).toBeCloseTo(((4 * 2) + (3 * 0.5)) / 7, 10);
      expect(g.center[1]).toBeCloseTo(((4 * 0.5) + (3 * 2.5)) / 7, 10);
      expect(g.width).toBe(4);
      expect(g.depth).toBe(4);
    });

    it('gives the same area for clockwise outlines', () => {
      expect(shapeGeometry([[0, 0], [0, 2], [3, 2], [3, 0]])!.area).toBe(6);
    });

    it('has no geometry for fewer than three points', () => {
      expect(shapeGeometry([[0, 0], [1, 1]])).toBeNull();
    });
  });

  describe('pointInPolygon', () => {
    const square: Vec2[] = [[0, 0], [10, 0], [10, 10], [0, 10]];
    it('finds a point inside', () => expect(pointInPolygon([5, 5], square)).toBe(true));
    it('rejects a point outside', () => expect(pointInPolygon([15, 5], square)).toBe(false));
    it('rejects the notch of a concave outline', () => {
      expect(pointInPolygon([3, 3], [[0, 0], [4, 0], [4, 1], [1, 1], [1, 4], [0, 4]])).toBe(false);
    });
  });
});
