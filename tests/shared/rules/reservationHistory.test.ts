import { describe, expect, it } from 'vitest';
import {
  RESERVATION_HISTORY_CLASSES, RESERVATION_HISTORY_LABELS, classifyReservation, reservationHistory,
} from '../../../src/shared/rules/reservationHistory.js';
import type { ReservationEvent } from '../../../src/shared/types.js';

const ev = (ref: string, start: number, end: number): ReservationEvent => ({ start, end, subject: ref, user_id: null, booking_ref: ref });

describe('reservationHistory', () => {
  it('has the six classes of spec §4', () => {
    expect(RESERVATION_HISTORY_CLASSES).toEqual(['completed_as_planned', 'ended_early', 'extended', 'removed', 'upcoming', 'unknown']);
    expect(Object.values(RESERVATION_HISTORY_LABELS)).toEqual(['Completed as planned', 'Ended early', 'Extended', 'Removed', 'Upcoming', 'Unknown']);
  });

  describe('classifyReservation', () => {
    const planned = ev('a', 100, 200);
    it('is upcoming before it starts', () => expect(classifyReservation(planned, planned, null, 100)).toBe('upcoming'));
    it('is unknown while it runs', () => expect(classifyReservation(planned, planned, null, 150)).toBe('unknown'));
    it('is completed as planned when it ended at the planned end', () => expect(classifyReservation(planned, planned, null, 200)).toBe('completed_as_planned'));
    it('ended early when it ended before the planned end', () => expect(classifyReservation(planned, ev('a', 100, 180), null, 300)).toBe('ended_early'));
    it('was extended when it ended after the planned end', () => expect(classifyReservation(planned, ev('a', 100, 230), null, 300)).toBe('extended'));
    it('was removed when it vanished before its start', () => expect(classifyReservation(planned, planned, 90, 300)).toBe('removed'));
    it('is unknown with broken times', () => expect(classifyReservation(ev('a', 200, 100), ev('a', 200, 100), null, 300)).toBe('unknown'));
  });

  describe('reservationHistory', () => {
    it('decides each reservation from its first and last versions across the sensor values', () => {
      const snapshots = [
        { time: 0, events: [ev('plan', 100, 200), ev('short', 300, 400), ev('long', 500, 600), ev('gone', 700, 800), ev('later', 2000, 2100)] },
        { time: 50, events: [ev('plan', 100, 200), ev('short', 300, 400), ev('long', 500, 600), ev('later', 2000, 2100)] },
        { time: 350, events: [ev('short', 300, 350), ev('long', 500, 600), ev('later', 2000, 2100)] },
        { time: 550, events: [ev('long', 500, 650), ev('later', 2000, 2100)] },
      ];
      const byRef = Object.fromEntries(reservationHistory(snapshots, 1000).map((i) => [i.booking_ref, i]));
      expect(byRef.plan!.class).toBe('completed_as_planned');
      expect(byRef.short!.class).toBe('ended_early');
      expect(byRef.long!.class).toBe('extended');
      expect(byRef.long!.actual.end).toBe(650);
      expect(byRef.gone!.class).toBe('removed');
      expect(byRef.gone!.vanishedAt).toBe(50);
      expect(byRef.later!.class).toBe('upcoming');
    });

    it('reads a reservation that vanished while running as ended early at that moment (a released room)', () => {
      const items = reservationHistory([
        { time: 0, events: [ev('r', 100, 200)] },
        { time: 140, events: [] },
      ], 500);
      expect(items[0]).toMatchObject({ class: 'ended_early', vanishedAt: 140 });
      expect(items[0]!.actual.end).toBe(140);
    });

    it('does not count an event that ages out of the list after its end as removed', () => {
      const items = reservationHistory([
        { time: 0, events: [ev('r', 100, 200)] },
        { time: 250, events: [] },
      ], 500);
      expect(items[0]!.class).toBe('completed_as_planned');
    });

    it('orders snapshots by time and skips values without events', () => {
      const items = reservationHistory([
        { time: 60, events: [ev('r', 100, 220)] },
        { time: 10, events: [ev('r', 100, 200)] },
        { time: 30, events: null },
      ], 500);
      expect(items[0]).toMatchObject({ class: 'extended', planned: { end: 200 }, actual: { end: 220 } });
    });
  });
});
