import { describe, expect, it } from 'vitest';
import {
  normalizeBuilding, normalizeFloor, normalizeLocation, normalizeOrganization,
} from '../../../src/shared/normalize/structure.js';
import { WARN } from '../../../src/shared/normalize/warnings.js';
import { recordingContext } from '../helpers.js';

describe('normalizeOrganization', () => {
  it('reads id, uuid, locations and locations_map', () => {
    const { ctx } = recordingContext();
    const org = normalizeOrganization({
      id: 1, uuid: 'u-1', name: 'Acme', locations: [7, { id: 8, name: 'Tampere' }],
      locations_map: { 7: { id: 7, name: 'Helsinki' } },
    }, ctx)!;
    expect(org).toEqual({
      id: '1', uuid: 'u-1', name: 'Acme', locations: ['7', '8'],
      locations_map: { 7: { id: '7', name: 'Helsinki' }, 8: { id: '8', name: 'Tampere' } },
      config: {},
    });
  });

  it('drops an organization without id with a warning', () => {
    const { ctx, messages } = recordingContext();
    expect(normalizeOrganization({ name: 'x' }, ctx)).toBeNull();
    expect(messages()).toEqual([WARN.missingId('organization')]);
  });
});

describe('normalizeLocation', () => {
  it('reads timezone, latitude, longitude and the ordered building ids', () => {
    const { ctx } = recordingContext();
    expect(normalizeLocation({
      id: 7, organization_id: 1, name: 'HQ', timezone: 'Europe/Helsinki', latitude: '60.1', longitude: 24.9,
      buildings: [3, 2], config: { hourStart: 8 },
    }, ctx)).toEqual({
      id: '7', organization_id: '1', name: 'HQ', timezone: 'Europe/Helsinki', latitude: 60.1, longitude: 24.9,
      buildings: ['3', '2'], config: { hourStart: 8 },
    });
  });

  it('falls back to UTC without a timezone', () => {
    const { ctx } = recordingContext();
    expect(normalizeLocation({ id: 1 }, ctx)!.timezone).toBe('UTC');
  });
});

describe('normalizeBuilding', () => {
  it('defaults default_floor and north_vector to 0 and offsets the building 80 per index along x', () => {
    const { ctx } = recordingContext({ buildingIndex: 2 });
    const b = normalizeBuilding({ id: 'b', floors: [11, '12'] }, ctx)!;
    expect(b.default_floor).toBe(0);
    expect(b.north_vector).toBe(0);
    expect(b.location_offset).toEqual([160, 0]);
    expect(b.floors).toEqual(['11', '12']);
    expect(b.latitude).toBeNull();
  });

  it('puts the first building at the origin', () => {
    const { ctx } = recordingContext();
    expect(normalizeBuilding({ id: 'b' }, ctx)!.location_offset).toEqual([0, 0]);
  });

  it('keeps a given offset, as a pair or as {x, y}', () => {
    const { ctx } = recordingContext({ buildingIndex: 3 });
    expect(normalizeBuilding({ id: 'b', location_offset: [5, 6] }, ctx)!.location_offset).toEqual([5, 6]);
    expect(normalizeBuilding({ id: 'b', location_offset: { x: 1, y: 2 } }, ctx)!.location_offset).toEqual([1, 2]);
    expect(normalizeBuilding({ id: 'b', default_floor: 2, north_vector: 30 }, ctx)!).toMatchObject({ default_floor: 2, north_vector: 30 });
  });
});

describe('normalizeFloor', () => {
  it('defaults the height to 2.8 and hidden to false', () => {
    const { ctx } = recordingContext({ floorIndex: 2 });
    const f = normalizeFloor({ id: 'f', parent_id: 'b' }, ctx)!;
    expect(f.height).toBe(2.8);
    expect(f.hidden).toBe(false);
    expect(f.parent_id).toBe('b');
    expect(f.building_relative_index).toBe(2);
    expect(f.building_relative_z).toBeCloseTo(5.6, 10);
    expect(f.outline).toEqual([]);
  });

  it('keeps given values', () => {
    const { ctx } = recordingContext();
    const f = normalizeFloor({
      id: 'f', parent_id: 'b', height: 3.5, hidden: true, building_relative_index: 1, building_relative_z: 4,
      outline: [[0, 0], [1, 0], [1, 1]], floor_plan_img_path: 'p.svg', floor_plan_img_offset_x: 2,
    }, ctx)!;
    expect(f).toMatchObject({
      height: 3.5, hidden: true, building_relative_index: 1, building_relative_z: 4,
      outline: [[0, 0], [1, 0], [1, 1]], floor_plan_img_path: 'p.svg', floor_plan_img_offset_x: 2, floor_plan_img_offset_y: 0,
    });
  });
});
