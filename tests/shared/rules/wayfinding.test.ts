import { describe, expect, it } from 'vitest';
import { floorLinkCost, floorPlace } from '../../../src/shared/rules/wayfinding.js';

describe('wayfinding', () => {
  describe('floorLinkCost', () => {
    it('costs the floor distance within a building', () => {
      expect(floorLinkCost({ buildingId: 'b', index: 1 }, { buildingId: 'b', index: 4 })).toBe(3);
      expect(floorLinkCost({ buildingId: 'b', index: 4 }, { buildingId: 'b', index: 1 })).toBe(3);
      expect(floorLinkCost({ buildingId: 'b', index: 2 }, { buildingId: 'b', index: 2 })).toBe(0);
    });

    it('costs 1000 across buildings', () => {
      expect(floorLinkCost({ buildingId: 'a', index: 0 }, { buildingId: 'b', index: 0 })).toBe(1000);
    });

    it('costs 1000 across buildings whatever the floors, never 1000 plus the distance', () => {
      expect(floorLinkCost({ buildingId: 'a', index: 0 }, { buildingId: 'b', index: 30 })).toBe(1000);
      expect(floorLinkCost({ buildingId: 'a', index: 5 }, { buildingId: 'b', index: 5 })).toBe(1000);
    });

    it('counts floors below ground like any other (basements have negative relative indexes)', () => {
      expect(floorLinkCost({ buildingId: 'b', index: -2 }, { buildingId: 'b', index: 1 })).toBe(3);
    });
  });

  describe('floorPlace', () => {
    it("uses the floor's position in its building's list, else its building_relative_index", () => {
      const floor = { id: 'f2', parent_id: 'b', building_relative_index: 7 };
      expect(floorPlace(floor, { floors: ['f1', 'f2'] })).toEqual({ buildingId: 'b', index: 1 });
      expect(floorPlace(floor, { floors: ['f1'] })).toEqual({ buildingId: 'b', index: 7 });
      expect(floorPlace(floor)).toEqual({ buildingId: 'b', index: 7 });
    });
  });
});
