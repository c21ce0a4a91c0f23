import { RESERVATION_REFRESH_CAP_MS } from '../../../src/shared/constants.js';
import { describe, expect, it } from 'vitest';
import {
  activeEvent, formatSlot, isEventActive, nextEvent, reservationStatus, upcomingEvents,
} from '../../../src/shared/rules/reservations.js';
import { MSG } from '../../../src/shared/messages.js';
import type { ReservationEvent } from '../../../src/shared/types.js';
import { DAY_MS, HOUR_MS } from '../helpers.js';

const ev = (start: number, end: number, subject = 'Meeting', ref = `${start}`): ReservationEvent => ({
  start, end, subject, user_id: null, booking_ref: ref,
});
const HEL = 'Europe/Helsinki';
const NY = 'America/New_York';
const utc = (iso: string) => Date.parse(iso);

describe('reservations', () => {
  describe('isEventActive', () => {
    it('is active strictly between start and end', () => {
      const e = ev(100, 200);
      expect(isEventActive(e, 100)).toBe(false);
      expect(isEventActive(e, 101)).toBe(true);
      expect(isEventActive(e, 199)).toBe(true);
      expect(isEventActive(e, 200)).toBe(false);
    });
  });

  describe('upcomingEvents', () => {
    it('lists the events not over yet, soonest first, the running one first, leaving out ended and broken ones', () => {
      const events = [ev(500, 600, 'Late'), ev(100, 200, 'Ended'), ev(250, 350, 'Running'), ev(400, 450, 'Soon'), ev(700, 700, 'Broken')];
      expect(upcomingEvents(events, 300).map((e) => e.subject)).toEqual(['Running', 'Soon', 'Late']);
      // one ending exactly now is over
      expect(upcomingEvents(events, 350).map((e) => e.subject)).toEqual(['Soon', 'Late']);
      expect(events.map((e) => e.subject)).toEqual(['Late', 'Ended', 'Running', 'Soon', 'Broken']);
    });
  });

  describe('activeEvent and nextEvent', () => {
    it('finds the active event and the next one', () => {
      const events = [ev(300, 400), ev(100, 200), ev(500, 600)];
      expect(activeEvent(events, 150)!.start).toBe(100);
      expect(nextEvent(events, 150)!.start).toBe(300);
      expect(activeEvent(events, 250)).toBeNull();
      expect(nextEvent(events, 700)).toBeNull();
    });

    it('counts an event starting exactly now as next, not active', () => {
      expect(activeEvent([ev(100, 200)], 100)).toBeNull();
      expect(nextEvent([ev(100, 200)], 100)!.start).toBe(100);
    });
  });

  describe('formatSlot', () => {
    it('writes the slot in the local time of the location', () => {
      const e = ev(utc('2024-01-15T07:00:00Z'), utc('2024-01-15T08:30:00Z'), 'Standup');
      expect(formatSlot(e, HEL)).toBe('09:00–10:30 Standup');
      expect(formatSlot(e, NY)).toBe('02:00–03:30 Standup');
    });
  });

  describe('reservationStatus', () => {
    it("says 'No reservations' with nothing ahead and re-checks at the end of the local day (spec §4)", () => {
      const now = utc('2024-01-15T10:00:00Z'); // 12:00 in Helsinki
      const s = reservationStatus([ev(now - 2 * HOUR_MS, now - HOUR_MS)], now, HEL);
      expect(s.text).toBe('No reservations');
      expect(s.text).toBe(MSG.NO_RESERVATIONS);
      expect(s.refreshAt).toBe(utc('2024-01-15T22:00:00Z'));
    });

    it('never waits longer than the 7-day cap', () => {
      expect(RESERVATION_REFRESH_CAP_MS).toBe(6048e5);
      // a zone whose day cannot end sooner is not possible; the cap bounds an event far ahead
      const now = utc('2024-01-15T10:00:00Z');
      const far = ev(now + 30 * DAY_MS, now + 31 * DAY_MS);
      const s = reservationStatus([far], now, HEL);
      expect(s.refreshAt - now).toBeLessThanOrEqual(RESERVATION_REFRESH_CAP_MS);
      expect(s.refreshAt).toBe(utc('2024-01-15T22:00:00Z'));
    });

    it("shows the current slot, then 'Next:' and the next event of the same local day", () => {
      const now = utc('2024-01-15T08:00:00Z'); // 10:00 in Helsinki
      const events = [
        ev(utc('2024-01-15T07:30:00Z'), utc('2024-01-15T08:30:00Z'), 'Planning'),
        ev(utc('2024-01-15T12:00:00Z'), utc('2024-01-15T13:00:00Z'), 'Review'),
      ];
      const s = reservationStatus(events, now, HEL);
      expect(s.lines).toEqual(['09:30–10:30 Planning', 'Next: 14:00–15:00 Review']);
      expect(s.text).toBe('09:30–10:30 Planning\nNext: 14:00–15:00 Review');
      expect(s.text.split('\n')[1]!.startsWith(MSG.NEXT_PREFIX)).toBe(true);
      expect(s.active!.subject).toBe('Planning');
      expect(s.refreshAt).toBe(utc('2024-01-15T08:30:00Z'));
    });

    it("hides a next event that starts after local midnight in Helsinki, though it is the same UTC day", () => {
      const now = utc('2024-01-15T21:30:00Z'); // 23:30 on the 15th in Helsinki (UTC+2)
      const tomorrow = ev(utc('2024-01-15T22:30:00Z'), utc('2024-01-15T23:30:00Z'), 'Early'); // 00:30 on the 16th
      const s = reservationStatus([tomorrow], now, HEL);
      expect(s.text).toBe('No reservations');
      expect(s.next).toBe(tomorrow);
      expect(s.nextIsToday).toBe(false);
      // at local midnight the event becomes "today": refresh then, before its start
      expect(s.refreshAt).toBe(utc('2024-01-15T22:00:00Z'));
      const after = reservationStatus([tomorrow], s.refreshAt, HEL);
      expect(after.text).toBe('Next: 00:30–01:30 Early');
      expect(after.refreshAt).toBe(tomorrow.start);
    });

    it('shows a next event later the same local day, though it is the next UTC day', () => {
      const now = utc('2024-01-15T22:30:00Z'); // 00:30 on the 16th in Helsinki
      const later = ev(utc('2024-01-16T20:00:00Z'), utc('2024-01-16T21:00:00Z'), 'Late'); // 22:00 on the 16th
      expect(reservationStatus([later], now, HEL).text).toBe('Next: 22:00–23:00 Late');
      expect(reservationStatus([later], now, 'UTC').text).toBe('No reservations');
    });

    it('uses the New York day across its midnight', () => {
      const now = utc('2024-01-16T04:30:00Z'); // 23:30 on the 15th in New York (UTC-5)
      const e = ev(utc('2024-01-16T05:30:00Z'), utc('2024-01-16T06:00:00Z'), 'Night'); // 00:30 on the 16th
      const s = reservationStatus([e], now, NY);
      expect(s.text).toBe('No reservations');
      expect(s.refreshAt).toBe(utc('2024-01-16T05:00:00Z'));
    });

    it('keeps the current slot and says no reservations when nothing follows today', () => {
      const now = utc('2024-01-15T08:00:00Z');
      const s = reservationStatus([ev(now - HOUR_MS, now + HOUR_MS, 'All hands')], now, 'UTC');
      expect(s.lines).toEqual(['07:00–09:00 All hands', 'No reservations']);
      expect(s.refreshAt).toBe(now + HOUR_MS);
    });

    it('refreshes 1 ms after an event that starts exactly now, when it becomes active', () => {
      const now = utc('2024-01-15T08:00:00Z');
      const s = reservationStatus([ev(now, now + HOUR_MS)], now, 'UTC');
      expect(s.active).toBeNull();
      expect(s.refreshAt).toBe(now + 1);
      expect(reservationStatus([ev(now, now + HOUR_MS)], now + 1, 'UTC').active).not.toBeNull();
    });

    it('falls back to UTC for an unknown zone, refreshing at its midnight while an event waits weeks ahead', () => {
      const now = utc('2024-01-15T08:00:00Z');
      const s = reservationStatus([ev(now + 30 * DAY_MS, now + 31 * DAY_MS)], now, 'Not/AZone');
      expect(s.refreshAt).toBe(utc('2024-01-16T00:00:00Z'));
      expect(s.refreshAt).toBeLessThanOrEqual(now + 6048e5);
    });
  });
});
