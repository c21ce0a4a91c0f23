import { describe, expect, it } from 'vitest';
import {
  SEASONAL_DECORATIONS, avatarDecoration, deriveUserAssets, isManualLocationExpired, manualLocationValue, seasonalDecoration,
  userDisplayName,
} from '../../../src/shared/rules/users.js';
import { normalizeUser } from '../../../src/shared/normalize/people.js';
import { computeFreshness } from '../../../src/shared/rules/freshness.js';
import { recordingContext } from '../helpers.js';

const { ctx } = recordingContext();
const SET_AT = Date.parse('2024-03-01T08:00:00Z');
const user = normalizeUser({
  id: 'u1', uuid: 'uu1', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@x', external_objects: [5],
  location: { location_id: 'l', floor_id: 'f1', time: SET_AT, x: 3, y: 4 },
}, ctx)!;

describe('users', () => {
  describe('deriveUserAssets', () => {
    it("derives a local employee asset at the user's manual location", () => {
      const { asset } = deriveUserAssets(user);
      expect(asset).toMatchObject({
        id: 'user-asset:u1', type: 'employee', name: 'Ada Lovelace', local: true, parent_id: 'f1', x: 3, y: 4,
        data_providers: ['manual-location:u1'], external_objects: ['5'], config: { user_id: 'u1' },
      });
      expect(asset.id).toBe(user.local_user_asset);
    });

    it('derives a manual-location sensor whose value expires after 12 h', () => {
      const { sensor } = deriveUserAssets(user);
      expect(sensor).toMatchObject({ id: 'manual-location:u1', type: 'location', subtype: 'manual', local: true, asset_id: 'user-asset:u1' });
      expect(sensor.id).toBe(user.manual_location_sensor);
      expect(sensor.last_measurement).toMatchObject({ time: SET_AT, valid_for: 432e5, valid_to: SET_AT + 432e5, x: 3, y: 4, floor_id: 'f1' });
    });

    it('makes the employee vanish once the manual location has expired', () => {
      const { asset, sensor } = deriveUserAssets(user);
      expect(computeFreshness(asset, sensor.last_measurement, SET_AT + 432e5).visible).toBe(true);
      expect(computeFreshness(asset, sensor.last_measurement, SET_AT + 432e5 + 1).visible).toBe(false);
    });

    it('has no manual value without a position', () => {
      const nowhere = normalizeUser({ id: 'u2', location: { location_id: 'l', floor_id: 'f', time: 1 } }, ctx)!;
      expect(manualLocationValue(nowhere)).toBeNull();
      expect(deriveUserAssets(nowhere).sensor.last_measurement).toBeNull();
    });
  });

  describe('isManualLocationExpired', () => {
    it('expires strictly after 432e5 ms (12 h)', () => {
      expect(isManualLocationExpired(user, SET_AT + 432e5)).toBe(false);
      expect(isManualLocationExpired(user, SET_AT + 432e5 + 1)).toBe(true);
      expect(isManualLocationExpired({ location: null }, 0)).toBe(true);
    });
  });

  describe('userDisplayName', () => {
    it('falls back to the email without a name', () => {
      expect(userDisplayName({ first_name: '', last_name: '', email: 'x@y' })).toBe('x@y');
    });
  });

  describe('seasonalDecoration', () => {
    const at = (iso: string, tz = 'UTC') => seasonalDecoration(Date.parse(iso), tz)?.name ?? null;

    it('shows hats, masks and crowns on their days', () => {
      expect(at('2024-01-06T12:00:00Z')).toBe('crown');
      expect(at('2024-04-30T12:00:00Z')).toBe('student_cap');
      expect(at('2024-05-01T12:00:00Z')).toBe('student_cap');
      expect(at('2024-10-24T12:00:00Z')).toBe('halloween_mask');
      expect(at('2024-10-31T12:00:00Z')).toBe('halloween_mask');
      expect(at('2024-12-01T12:00:00Z')).toBe('santa_hat');
      expect(at('2024-12-26T12:00:00Z')).toBe('santa_hat');
      expect(at('2024-12-31T12:00:00Z')).toBe('party_hat');
      expect(at('2025-01-01T12:00:00Z')).toBe('party_hat');
      expect(new Set(SEASONAL_DECORATIONS.map((d) => d.kind))).toEqual(new Set(['hat', 'mask', 'crown']));
    });

    it('shows nothing outside the seasons', () => {
      expect(at('2024-01-02T12:00:00Z')).toBeNull();
      expect(at('2024-11-01T12:00:00Z')).toBeNull();
      expect(at('2024-12-27T12:00:00Z')).toBeNull();
    });

    it('changes at local midnight when asked minute by minute through a season\'s last day', () => {
      const start = Date.parse('2024-12-26T21:00:00Z');
      const seen: Array<[number, string | null]> = [];
      for (let t = start; t < start + 3 * 3_600_000; t += 60_000) {
        const name = seasonalDecoration(t, 'Europe/Helsinki')?.name ?? null;
        if (seen.at(-1)?.[1] !== name) seen.push([t, name]);
      }
      // 22:00 UTC is midnight in Helsinki (UTC+2): Boxing Day's hat comes off then, not at UTC midnight
      expect(seen).toEqual([[start, 'santa_hat'], [Date.parse('2024-12-26T22:00:00Z'), null]]);
      expect(at('2024-12-26T23:30:00Z', 'UTC')).toBe('santa_hat');
    });

    it("follows the location's local date", () => {
      // 22:30 UTC on 30 November is already 1 December in Helsinki
      expect(at('2024-11-30T22:30:00Z', 'Europe/Helsinki')).toBe('santa_hat');
      expect(at('2024-11-30T22:30:00Z', 'UTC')).toBeNull();
    });
  });

  describe('avatarDecoration', () => {
    it("prefers the user's own decoration over the season's", () => {
      const xmas = Date.parse('2024-12-10T12:00:00Z');
      expect(avatarDecoration({ decoration: { name: 'crown' } }, xmas, 'UTC')).toBe('crown');
      expect(avatarDecoration({ decoration: null }, xmas, 'UTC')).toBe('santa_hat');
      expect(avatarDecoration({ decoration: null }, Date.parse('2024-08-10T12:00:00Z'), 'UTC')).toBeNull();
    });
  });
});
