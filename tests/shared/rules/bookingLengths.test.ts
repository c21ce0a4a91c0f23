import { describe, expect, it } from 'vitest';
import {
  BOOKING_LENGTHS_MIN, bookingChoices, bookingStart, MIN_BOOKABLE_GAP_MS, overlappingBooking,
} from '../../../src/shared/rules/bookingLengths.js';
import type { ReservationEvent } from '../../../src/shared/types.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const HEL = 'Europe/Helsinki';
const ev = (start: number, end: number, ref = `${start}`): ReservationEvent => ({ start, end, subject: 'Meeting', user_id: null, booking_ref: ref });

describe('bookingLengths', () => {
  describe('bookingChoices', () => {
    // 10:47:30 UTC is 12:47:30 in Helsinki (UTC+2 in November): its local day ends at 22:00 UTC
    const now = Date.UTC(2026, 10, 24, 10, 47, 30);
    const helsinkiMidnight = Date.UTC(2026, 10, 24, 22, 0, 0);

    it('offers the lengths that end by the next booking, and until its start when the shortest does not fit', () => {
      expect(bookingChoices(now, null, HEL)).toEqual({ minutes: [30, 60, 120], untilNext: false, restOfDay: true });
      // the next meeting in 12.5 minutes: only until its start
      expect(bookingChoices(now, now + 12.5 * MIN, HEL)).toMatchObject({ minutes: [], untilNext: true });
      // in 45 minutes: half an hour, or up to its start
      expect(bookingChoices(now, now + 45 * MIN, HEL)).toMatchObject({ minutes: [30], untilNext: true });
      // in three hours: every length
      expect(bookingChoices(now, now + 180 * MIN, HEL)).toMatchObject({ minutes: [30, 60, 120], untilNext: false });
      // under the 5 minutes worth a booking: nothing
      expect(MIN_BOOKABLE_GAP_MS).toBe(5 * MIN);
      expect(bookingChoices(now, now + 4 * MIN, HEL)).toEqual({ minutes: [], untilNext: false, restOfDay: false });
      // a next booking already begun is not a limit here (the room is not free then)
      expect(bookingChoices(now, now - MIN, HEL)).toMatchObject({ minutes: [...BOOKING_LENGTHS_MIN], untilNext: false });
    });

    it('offers the rest of the day only while no booking starts later in the location\'s local day', () => {
      // a booking at 17:00 Helsinki time: the rest of the day would run into it (the server answers 409)
      expect(bookingChoices(now, Date.UTC(2026, 10, 24, 15, 0, 0), HEL).restOfDay).toBe(false);
      // one a minute before the local midnight still does
      expect(bookingChoices(now, helsinkiMidnight - MIN, HEL).restOfDay).toBe(false);
      // one at the local midnight or later is tomorrow's: the rest of today is free
      expect(bookingChoices(now, helsinkiMidnight, HEL).restOfDay).toBe(true);
      expect(bookingChoices(now, helsinkiMidnight + 9 * HOUR, HEL).restOfDay).toBe(true);
    });

    it('decides "later today" in the location\'s zone, not in UTC', () => {
      // 23:00 UTC is already tomorrow in Helsinki; in UTC it is still today
      const late = Date.UTC(2026, 10, 24, 23, 0, 0);
      expect(bookingChoices(now, late, HEL).restOfDay).toBe(true);
      expect(bookingChoices(now, late, 'UTC').restOfDay).toBe(false);
    });

    it('offers the rest of the day up to its last minute, as the worker books it', () => {
      expect(bookingChoices(helsinkiMidnight - 30_000, null, HEL).restOfDay).toBe(true);
    });
  });

  describe('overlappingBooking', () => {
    const start = bookingStart(Date.UTC(2026, 10, 24, 10, 47, 30));

    it('starts a booking made now at the current whole minute', () => {
      expect(start).toBe(Date.UTC(2026, 10, 24, 10, 47, 0));
    });

    it('finds the earliest booking the range overlaps, as the server decides an overlap', () => {
      const later = ev(start + 2 * HOUR, start + 3 * HOUR, 'later');
      const soon = ev(start + HOUR, start + 90 * MIN, 'soon');
      expect(overlappingBooking([later, soon], start, start + 4 * HOUR)).toBe(soon);
      expect(overlappingBooking([later, soon], start, start + 61 * MIN)).toBe(soon);
      // ending where the next starts, or starting where the last ended, is no overlap
      expect(overlappingBooking([later, soon], start, start + HOUR)).toBeNull();
      expect(overlappingBooking([ev(start - HOUR, start)], start, start + 30 * MIN)).toBeNull();
      // one running now
      const running = ev(start - 10 * MIN, start + 20 * MIN, 'running');
      expect(overlappingBooking([later, running], start, start + 30 * MIN)).toBe(running);
    });

    it('passes over entries without times', () => {
      expect(overlappingBooking([{ booking_ref: 'x' } as unknown as ReservationEvent], start, start + HOUR)).toBeNull();
    });
  });
});
