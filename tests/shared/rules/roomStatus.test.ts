import { describe, expect, it } from 'vitest';
import {
  isOccupiedValue, isRecentMeetingReading, roomStatusColor, roomStatusIndex, roomStatusWord, type RoomStatusInput,
} from '../../../src/shared/rules/roomStatus.js';
import { BASE_CONFIG } from '../../../src/shared/config.js';
import type { ReservationEvent } from '../../../src/shared/types.js';

const NOW = 1_000_000_000;
const reading = (value: unknown, age: number, validFor = 600_000) => ({ value, time: NOW - age, valid_to: NOW - age + validFor });
const booking: ReservationEvent = { start: NOW - 1000, end: NOW + 1000, subject: 'x', user_id: null, booking_ref: 'b' };
const room = (over: Partial<RoomStatusInput>): RoomStatusInput => ({ subtype: null, occupancy: null, reservation: null, ...over });

describe('roomStatus', () => {
  describe('roomStatusIndex', () => {
    it('gives 0 for a free room and 2 for an occupied one', () => {
      expect(roomStatusIndex(room({ occupancy: { reading: reading(0, 1000) } }), NOW, 4)).toMatchObject({ kind: 'index', index: 0 });
      expect(roomStatusIndex(room({ occupancy: { reading: reading(1, 1000) } }), NOW, 4)).toMatchObject({ kind: 'index', index: 2 });
    });

    it('adds 1 for an active reservation', () => {
      const reservation = { events: [booking] };
      expect(roomStatusIndex(room({ occupancy: { reading: reading(0, 1000) }, reservation }), NOW, 4)).toMatchObject({ index: 1 });
      expect(roomStatusIndex(room({ occupancy: { reading: reading(true, 1000) }, reservation }), NOW, 4)).toMatchObject({ index: 3 });
    });

    it('caps the index at the last colour', () => {
      const input = room({ occupancy: { reading: reading(1, 1000) }, reservation: { events: [booking] } });
      expect(roomStatusIndex(input, NOW, 3)).toMatchObject({ index: 2 });
    });

    it('counts a meeting reading 79,999 ms old as occupied', () => {
      const input = room({ subtype: 'meeting', occupancy: { reading: reading(0, 79_999) } });
      expect(roomStatusIndex(input, NOW, 4)).toMatchObject({ kind: 'index', index: 2, occupied: true });
      expect(isRecentMeetingReading({ time: NOW - 79_999 }, NOW)).toBe(true);
    });

    it('no longer counts a meeting reading 80,000 ms old', () => {
      const input = room({ subtype: 'meeting', occupancy: { reading: reading(0, 80_000) } });
      expect(roomStatusIndex(input, NOW, 4)).toMatchObject({ kind: 'index', index: 0, occupied: false });
      expect(isRecentMeetingReading({ time: NOW - 80_000 }, NOW)).toBe(false);
    });

    it('counts a recent meeting reading even when the reading itself carries no validity', () => {
      const input = room({ subtype: 'meeting', occupancy: { reading: reading(0, 5_000, 0) } });
      expect(roomStatusIndex(input, NOW, 4)).toMatchObject({ index: 2 });
      expect(roomStatusIndex(room({ occupancy: { reading: reading(0, 5_000, 0) } }), NOW, 4)).toEqual({ kind: 'missing' });
    });

    it('uses the missing colour for an expired reading or none at all', () => {
      expect(roomStatusIndex(room({ occupancy: { reading: reading(1, 10_000, 9_999) } }), NOW, 4)).toEqual({ kind: 'missing' });
      expect(roomStatusIndex(room({ occupancy: { reading: reading(1, 10_000, 10_000) } }), NOW, 4)).toMatchObject({ index: 2 });
      expect(roomStatusIndex(room({ occupancy: { reading: null } }), NOW, 4)).toEqual({ kind: 'missing' });
    });

    it('with only a reservation sensor gives the third colour when active, else the first', () => {
      expect(roomStatusIndex(room({ reservation: { events: [booking] } }), NOW, 4)).toMatchObject({ index: 2, reserved: true });
      expect(roomStatusIndex(room({ reservation: { events: [] } }), NOW, 4)).toMatchObject({ index: 0 });
      expect(roomStatusIndex(room({ reservation: { events: [booking] } }), NOW, 2)).toMatchObject({ index: 1 });
    });

    it('is not applicable without occupancy or reservation sensors', () => {
      expect(roomStatusIndex(room({}), NOW, 4)).toEqual({ kind: 'not_applicable' });
    });
  });

  describe('roomStatusColor', () => {
    const colors = BASE_CONFIG.statusColors;
    it('picks the configured colours', () => {
      expect(roomStatusColor({ kind: 'index', index: 2, occupied: true, reserved: false }, colors)).toBe(colors.room[2]);
      expect(roomStatusColor({ kind: 'missing' }, colors)).toBe(colors.missing);
      expect(roomStatusColor({ kind: 'not_applicable' }, colors)).toBe(colors.notApplicable);
    });
  });

  describe('roomStatusWord', () => {
    it('names the status in words', () => {
      expect(roomStatusWord({ kind: 'index', index: 3, occupied: true, reserved: true })).toBe('occupied and reserved');
      expect(roomStatusWord({ kind: 'index', index: 2, occupied: false, reserved: true })).toBe('reserved');
      expect(roomStatusWord({ kind: 'index', index: 0, occupied: false, reserved: false })).toBe('free');
      expect(roomStatusWord({ kind: 'missing' })).toBe('no data');
      expect(roomStatusWord({ kind: 'not_applicable' })).toBe('not applicable');
    });
  });

  describe('isOccupiedValue', () => {
    it('reads true, positive numbers and the word occupied as occupied', () => {
      expect([true, 1, 3, 'occupied', '1'].map(isOccupiedValue)).toEqual([true, true, true, true, true]);
      expect([false, 0, -1, 'free', null, undefined, {}].map(isOccupiedValue)).toEqual([false, false, false, false, false, false, false]);
    });
  });
});
