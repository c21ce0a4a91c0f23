import { describe, expect, it } from 'vitest';
import {
  applyLocationMove, clearAlertOnActivity, isPrivacyFiltered, isPrivacyZone, locationMove, moveBetweenFloorLists,
  privacyZoneAt, type ZoneLike,
} from '../../../src/shared/rules/location.js';
import type { Vec2 } from '../../../src/shared/types.js';

const square = (x: number, y: number, s: number): Vec2[] => [[x, y], [x + s, y], [x + s, y + s], [x, y + s]];

describe('location', () => {
  describe('locationMove', () => {
    it('moves the asset on its floor', () => {
      expect(locationMove({ parent_id: 'f1' }, { x: 3, y: 4, floor_id: 'f1' })).toEqual({
        x: 3, y: 4, floorId: 'f1', previousFloorId: 'f1', floorChanged: false, zones: [],
      });
    });

    it('notices a floor change', () => {
      expect(locationMove({ parent_id: 'f1' }, { x: 3, y: 4, floor_id: 'f2', zones: ['z'] })).toMatchObject({
        floorId: 'f2', previousFloorId: 'f1', floorChanged: true, zones: ['z'],
      });
    });

    it('resolves a floor index when no floor_id came', () => {
      const move = locationMove({ parent_id: 'f1' }, { x: 0, y: 0, floor: 2 }, {
        floorIdByIndex: (index, current) => (current === 'f1' && index === 2 ? 'f3' : null),
      });
      expect(move!.floorId).toBe('f3');
    });

    it('stays on the current floor when the value names none', () => {
      expect(locationMove({ parent_id: 'f1' }, { x: 1, y: 1 })!.floorId).toBe('f1');
    });

    it('ignores a value missing building-relative coordinates', () => {
      expect(locationMove({ parent_id: 'f1' }, { y: 1, floor_id: 'f2' })).toBeNull();
      expect(locationMove({ parent_id: 'f1' }, { x: NaN, y: 1 })).toBeNull();
    });
  });

  describe('applyLocationMove', () => {
    it('returns a moved copy and leaves the original alone', () => {
      const asset = { x: 0, y: 0, z: 1, coords: [0, 0, 1] as [number, number, number], parent_id: 'f1', name: 'a' };
      const moved = applyLocationMove(asset, locationMove(asset, { x: 5, y: 6, floor_id: 'f2' })!);
      expect(moved).toEqual({ x: 5, y: 6, z: 1, coords: [5, 6, 1], parent_id: 'f2', name: 'a' });
      expect(asset.parent_id).toBe('f1');
    });
  });

  describe('moveBetweenFloorLists', () => {
    it('moves the id between per-floor sets, dropping emptied ones', () => {
      const lists = new Map([['f1', new Set(['a'])]]);
      moveBetweenFloorLists(lists, 'a', 'f1', 'f2');
      expect([...lists.keys()]).toEqual(['f2']);
      expect([...lists.get('f2')!]).toEqual(['a']);
      moveBetweenFloorLists(lists, 'b', null, 'f2');
      expect([...lists.get('f2')!]).toEqual(['a', 'b']);
    });
  });

  describe('privacy zones', () => {
    const zones: ZoneLike[] = [
      { id: 'open', type: 'zone', subtype: 'collaboration', outline: square(0, 0, 10) },
      { id: 'quiet', type: 'zone', subtype: 'privacy', outline: square(20, 0, 10) },
      { id: 'tagged', type: 'zone_auto', subtype: 'privacy', outline: null },
    ];

    it('knows privacy zones by type and subtype', () => {
      expect(zones.map(isPrivacyZone)).toEqual([false, true, true]);
      expect(isPrivacyZone({ id: 'r', type: 'room', subtype: 'privacy', outline: null })).toBe(false);
    });

    it('finds the privacy zone containing a point by its outline', () => {
      expect(privacyZoneAt([25, 5], zones)!.id).toBe('quiet');
      expect(privacyZoneAt([5, 5], zones)).toBeNull();
    });

    it('also trusts zone ids the location value reported', () => {
      expect(privacyZoneAt([5, 5], zones, ['tagged'])!.id).toBe('tagged');
    });

    it('filters employees inside a privacy zone, and only employees', () => {
      expect(isPrivacyFiltered({ type: 'employee' }, [25, 5], zones)).toBe(true);
      expect(isPrivacyFiltered({ type: 'employee' }, [35, 5], zones)).toBe(false);
      expect(isPrivacyFiltered({ type: 'auto_tag' }, [25, 5], zones)).toBe(false);
    });
  });

  describe('clearAlertOnActivity', () => {
    it('clears a watched type once a newer value arrives', () => {
      expect(clearAlertOnActivity(['occupancy', 'co2'], 'occupancy', { time: 20 }, { time: 10 })).toEqual({ watched: ['co2'], triggered: true });
    });

    it('keeps watching on an old or equal value, or an unwatched type', () => {
      expect(clearAlertOnActivity(['occupancy'], 'occupancy', { time: 10 }, { time: 10 })).toEqual({ watched: ['occupancy'], triggered: false });
      expect(clearAlertOnActivity(['occupancy'], 'co2', { time: 20 }, { time: 10 })).toEqual({ watched: ['occupancy'], triggered: false });
    });

    it('counts a first value as newer', () => {
      expect(clearAlertOnActivity(['location'], 'location', { time: 1 }, null).triggered).toBe(true);
    });
  });
});
