import { describe, expect, it } from 'vitest';
import { normalizeAsset, normalizeAssets } from '../../../src/shared/normalize/asset.js';
import { WARN } from '../../../src/shared/normalize/warnings.js';
import { wgs84ToLocal } from '../../../src/shared/geo.js';
import { recordingContext } from '../helpers.js';

const location = { latitude: 60.1699, longitude: 24.9384 };

describe('normalizeAsset', () => {
  it('applies the defaults of spec §3 to a bare asset', () => {
    const { ctx, warn } = recordingContext();
    const a = normalizeAsset({ id: 7, type: 'desk' }, ctx)!;
    expect(a.id).toBe('7');
    expect([a.width, a.height, a.depth]).toEqual([1.5, 1.5, 1.5]);
    expect([a.popup_width, a.popup_height]).toEqual([300, 250]);
    expect(a.coords).toEqual([0, 0, 0]);
    expect(a.angles).toEqual([0, 0, 0]);
    expect(a.shade).toBeNull();
    expect(a.overriding_color).toBeNull();
    expect(a.unpublished).toBe(false);
    expect(a.local).toBe(false);
    expect(a.privacy_filtered).toBe(false);
    expect(a.data_providers).toEqual([]);
    expect(a.categories).toEqual({});
    expect(a.timeout_action).toBeNull();
    expect(a.shape).toBeNull();
    expect(warn).not.toHaveBeenCalled();
  });

  it('keeps given sizes and popup sizes, and reads ids and numbers from strings', () => {
    const { ctx } = recordingContext();
    const a = normalizeAsset({
      id: 'a', width: '2', height: 0.9, depth: 3, popup_width: 400, popup_height: 100,
      data_providers: [1, '2', null], parent_id: 10, coords: ['1.5', 2, 3],
    }, ctx)!;
    expect([a.width, a.height, a.depth]).toEqual([2, 0.9, 3]);
    expect([a.popup_width, a.popup_height]).toEqual([400, 100]);
    expect(a.data_providers).toEqual(['1', '2']);
    expect(a.parent_id).toBe('10');
    expect([a.x, a.y, a.z]).toEqual([1.5, 2, 3]);
  });

  it('turns malformed coordinates into 0 with a warning', () => {
    const { ctx, messages } = recordingContext();
    const a = normalizeAsset({ id: 'a', coords: [1, 'north', 2] }, ctx)!;
    expect(a.coords).toEqual([0, 0, 0]);
    expect([a.x, a.y, a.z]).toEqual([0, 0, 0]);
    expect(messages()).toEqual([WARN.malformedCoordinates('asset', 'a', 'coords')]);
  });

  it('turns a malformed x into 0 with a warning when coordinates come as x/y/z', () => {
    const { ctx, messages } = recordingContext();
    const a = normalizeAsset({ id: 'a', x: {}, y: 4 }, ctx)!;
    expect(a.coords).toEqual([0, 4, 0]);
    expect(messages()).toEqual([WARN.malformedCoordinates('asset', 'a', 'x')]);
  });

  it('turns malformed angles into 0 with a warning, and reads a single angle as rotation around z', () => {
    const { ctx, messages } = recordingContext();
    expect(normalizeAsset({ id: 'a', angles: 'sideways' }, ctx)!.angles).toEqual([0, 0, 0]);
    expect(messages()).toEqual([WARN.malformedAngles('asset', 'a')]);
    expect(normalizeAsset({ id: 'b', angles: 90 }, ctx)!.angles).toEqual([0, 0, 90]);
    expect(normalizeAsset({ id: 'c', angles: [0, 0, 45] }, ctx)!.angles).toEqual([0, 0, 45]);
  });

  it('makes a shade or overriding_color that is not an array null with a warning', () => {
    const { ctx, messages } = recordingContext();
    const a = normalizeAsset({ id: 'a', shade: '#ff0000', overriding_color: { r: 1 } }, ctx)!;
    expect(a.shade).toBeNull();
    expect(a.overriding_color).toBeNull();
    expect(messages()).toEqual([
      WARN.malformedColor('asset', 'a', 'shade'),
      WARN.malformedColor('asset', 'a', 'overriding_color'),
    ]);
    const ok = normalizeAsset({ id: 'b', shade: [1, 0.5, 0], overriding_color: null }, ctx)!;
    expect(ok.shade).toEqual([1, 0.5, 0]);
    expect(ok.overriding_color).toBeNull();
    expect(messages()).toHaveLength(2);
  });

  it('converts wgs84_coords around the location when no local coordinates came', () => {
    const { ctx } = recordingContext({ location });
    const a = normalizeAsset({ id: 'a', wgs84_coords: [location.longitude, location.latitude + 0.001, 2] }, ctx)!;
    expect(a.x).toBeCloseTo(0, 9);
    expect(a.y).toBeCloseTo(111.19, 2);
    expect(a.z).toBe(2);
    expect(a.wgs84_coords).toEqual([location.longitude, location.latitude + 0.001, 2]);
  });

  it('takes wgs84 coordinates off the earth (1e308) as malformed: a warning and finite local coordinates', () => {
    const { ctx, messages } = recordingContext({ location });
    const a = normalizeAsset({ id: 'a', wgs84_coords: [1e308, 1e308], wgs84_outline: [[1e308, 0], [0, 1e308], [1, 1]] }, ctx)!;
    expect(a.coords).toEqual([0, 0, 0]);
    expect(a.wgs84_coords).toBeNull();
    expect(a.outline).toBeNull();
    expect(messages()).toEqual([WARN.malformedCoordinates('asset', 'a', 'wgs84_coords'), WARN.malformedOutline('asset', 'a', 'wgs84_outline')]);
    const kept = normalizeAsset({ id: 'b', x: 3, y: 4, wgs84_coords: [-1e308, 0] }, ctx)!;
    expect([kept.x, kept.y]).toEqual([3, 4]);
  });

  it('prefers local coordinates over wgs84 ones', () => {
    const { ctx } = recordingContext({ location });
    const a = normalizeAsset({ id: 'a', coords: [1, 2, 0], wgs84_coords: [25, 61, 0] }, ctx)!;
    expect(a.coords).toEqual([1, 2, 0]);
  });

  it('warns when wgs84 coordinates cannot be converted without a location', () => {
    const { ctx, messages } = recordingContext();
    const a = normalizeAsset({ id: 'a', wgs84_coords: [25, 61] }, ctx)!;
    expect(a.coords).toEqual([0, 0, 0]);
    expect(messages()).toEqual([WARN.wgs84WithoutLocation('asset', 'a')]);
  });

  it('derives the geometry of a shape asset from its outline and centres it there', () => {
    const { ctx } = recordingContext();
    const room = normalizeAsset({
      id: 'r', type: 'room', outline: [[0, 0], [4, 0], [4, 2], [0, 2]], floor_shade: [0.1, 0.2, 0.3],
      floor_texture: 'carpet.png', floor_texture_repeat: 2, openings: [{ at: 1 }], wall_shade: [1, 1, 1],
    }, ctx)!;
    expect(room.shape).toEqual({ center: [2, 1], width: 4, depth: 2, area: 8, size: Math.sqrt(8) });
    expect([room.x, room.y]).toEqual([2, 1]);
    expect(room.floor_shade).toEqual([0.1, 0.2, 0.3]);
    expect(room.floor_texture).toBe('carpet.png');
    expect(room.floor_texture_repeat).toBe(2);
    expect(room.openings).toEqual([{ at: 1 }]);
    expect(room.wall_shade).toEqual([1, 1, 1]);
    expect(room.edge_shade).toBeNull();
  });

  it('accepts a wgs84_outline and converts it to a local outline', () => {
    const { ctx } = recordingContext({ location });
    const wgs = [[24.9384, 60.1699], [24.9385, 60.1699], [24.9385, 60.17], [24.9384, 60.17]];
    const zone = normalizeAsset({ id: 'z', type: 'zone', wgs84_outline: wgs }, ctx)!;
    expect(zone.wgs84_outline).toEqual(wgs);
    const [x1, y1] = wgs84ToLocal(wgs[2]!, location);
    expect(zone.outline![2]![0]).toBeCloseTo(x1, 9);
    expect(zone.outline![2]![1]).toBeCloseTo(y1, 9);
    expect(zone.shape!.depth).toBeCloseTo(11.119, 2);
  });

  it('drops a malformed outline with a warning', () => {
    const { ctx, messages } = recordingContext();
    const zone = normalizeAsset({ id: 'z', type: 'zone', outline: [[0, 0], 'x', [1, 1]] }, ctx)!;
    expect(zone.outline).toBeNull();
    expect(zone.shape).toBeNull();
    expect(messages()).toEqual([WARN.malformedOutline('asset', 'z', 'outline')]);
  });

  it('reads timeout_action, categories, alert_on_activity and the history with timestamps', () => {
    const { ctx } = recordingContext();
    const a = normalizeAsset({
      id: 'a', timeout_action: 'grey_out', categories: { affects_parent: true, shape: 'round' },
      alert_on_activity: ['occupancy'], history: [{ timestamp: '2024-01-01T00:00:01Z', value: 2 }, { timestamp: 5, value: 1 }, { value: 3 }],
    }, ctx)!;
    expect(a.timeout_action).toBe('grey_out');
    expect(a.categories).toEqual({ affects_parent: true, shape: 'round' });
    expect(a.alert_on_activity).toEqual(['occupancy']);
    expect(a.history.map((h) => h.timestamp)).toEqual([5, Date.UTC(2024, 0, 1, 0, 0, 1)]);
    expect(normalizeAsset({ id: 'b', timeout_action: 'explode' }, ctx)!.timeout_action).toBeNull();
  });

  it('never throws on garbage, dropping what has no id with a warning', () => {
    const { ctx, messages } = recordingContext();
    expect(normalizeAsset(null, ctx)).toBeNull();
    expect(normalizeAsset('asset', ctx)).toBeNull();
    expect(normalizeAsset({ name: 'x' }, ctx)).toBeNull();
    expect(messages()).toEqual([WARN.notAnObject('asset'), WARN.notAnObject('asset'), WARN.missingId('asset')]);
    expect(() => normalizeAsset({ id: 'x', coords: NaN, angles: {}, outline: 5, history: 'h', width: -1 }, ctx)).not.toThrow();
  });
});

describe('normalizeAssets', () => {
  it('warns on duplicate ids and keeps the later copy', () => {
    const { ctx, messages } = recordingContext();
    const list = normalizeAssets([{ id: 1, name: 'old' }, { id: 2 }, { id: '1', name: 'new' }], ctx);
    expect(list.map((a) => [a.id, a.name])).toEqual([['1', 'new'], ['2', '']]);
    expect(messages()).toEqual([WARN.duplicateId('asset', '1')]);
  });

  it('warns when the listing is not a list', () => {
    const { ctx, messages } = recordingContext();
    expect(normalizeAssets({ id: 1 }, ctx)).toEqual([]);
    expect(messages()).toEqual([WARN.notAList('asset')]);
  });
});
