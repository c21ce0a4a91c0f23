import { describe, expect, it } from 'vitest';
import { earlierBookings } from '../../../src/shared/reports/bookingList.js';
import type { BookingItem } from '../../../src/shared/reports/types.js';
import type { ReservationHistoryClass } from '../../../src/shared/rules/reservationHistory.js';

const H = 3_600_000;
const NOW = Date.UTC(2026, 10, 24, 12, 30, 0);
const item = (ref: string, startH: number, endH: number, cls: ReservationHistoryClass, actualEndH = endH): BookingItem => ({
  ref, subject: ref, plannedStart: NOW + startH * H, plannedEnd: NOW + endH * H, actualStart: NOW + startH * H, actualEnd: NOW + actualEndH * H,
  class: cls, used: null,
});

describe('earlierBookings', () => {
  it('lists the bookings that are over, newest first, leaving out those still to come', () => {
    const items = [
      item('yesterday', -24, -23, 'ended_early', -23.5), item('late', 4, 5, 'upcoming'), item('morning', -3, -2, 'completed_as_planned'),
      item('now', -0.5, 0.5, 'unknown'), item('soon', 1, 2, 'upcoming'), item('extended', -6, -5, 'extended', -4.5),
    ];
    expect(earlierBookings(items, NOW).map((b) => b.ref)).toEqual(['morning', 'extended', 'yesterday']);
  });

  it('lists a cancelled booking with them once its planned time is over, not while it lies ahead', () => {
    const items = [
      item('done', -2, -1, 'completed_as_planned'), item('cancelled-later', 2, 3, 'removed'), item('soon', 1, 2, 'upcoming'),
      item('cancelled-earlier', -1.5, -1.25, 'removed'), item('cancelled-running', -0.5, 0.5, 'removed'),
    ];
    expect(earlierBookings(items, NOW).map((b) => b.ref)).toEqual(['cancelled-earlier', 'done']);
  });

  it('lists one that was running when the report was read once it is over, and leaves out one that was to come', () => {
    // read at 11:00: "running" (unknown) and "upcoming" then; both over at 12:30
    const items = [item('was-running', -2, -1, 'unknown'), item('was-upcoming', -1, -0.5, 'upcoming')];
    expect(earlierBookings(items, NOW).map((b) => b.ref)).toEqual(['was-running']);
  });

  it('leaves the report\'s own list as it was', () => {
    const items = [item('a', -4, -3, 'completed_as_planned'), item('b', -2, -1, 'completed_as_planned')];
    earlierBookings(items, NOW);
    expect(items.map((b) => b.ref)).toEqual(['a', 'b']);
  });
});
