import { describe, expect, it } from 'vitest';
import { agendaOfDay, bookableMinutes, displayChangesAt, DISPLAY_BOOKING_MINUTES } from '../../../src/shared/rules/roomDisplay.js';
import type { ReservationEvent } from '../../../src/shared/types.js';

const TZ = 'Europe/Helsinki';
// 2025-03-12 10:00 in Helsinki (UTC+2)
const NOW = Date.UTC(2025, 2, 12, 8, 0, 0);
const MIN = 60_000;
const ev = (startMin: number, endMin: number, subject = 'M'): ReservationEvent =>
  ({ start: NOW + startMin * MIN, end: NOW + endMin * MIN, subject, user_id: 'u', booking_ref: `b${startMin}` });

describe('agendaOfDay', () => {
  it("lists the local day's events by start, ended ones included, and nothing of other days", () => {
    const yesterday = ev(-24 * 60, -23 * 60, 'yesterday');
    const tomorrow = ev(15 * 60, 16 * 60, 'tomorrow'); // 01:00 next day local
    const events = [ev(120, 180, 'later'), tomorrow, ev(-120, -60, 'morning'), yesterday, ev(-10, 20, 'now')];
    expect(agendaOfDay(events, NOW, TZ).map((e) => e.subject)).toEqual(['morning', 'now', 'later']);
  });
});

describe('bookableMinutes', () => {
  it('offers 15, 30 and 60 minutes with the day free', () => {
    expect(DISPLAY_BOOKING_MINUTES).toEqual([15, 30, 60]);
    expect(bookableMinutes([], NOW, TZ)).toEqual([15, 30, 60]);
  });

  it('offers only what ends by the next meeting: exactly at its start fits', () => {
    expect(bookableMinutes([ev(30, 60)], NOW, TZ)).toEqual([15, 30]);
    expect(bookableMinutes([ev(29, 60)], NOW, TZ)).toEqual([15]);
    expect(bookableMinutes([ev(10, 60)], NOW, TZ)).toEqual([]);
  });

  it('offers nothing while a meeting runs', () => {
    expect(bookableMinutes([ev(-5, 5)], NOW, TZ)).toEqual([]);
  });

  it('counts from the current minute, as the booking will start then', () => {
    // 40 s into the minute: a 30 minute booking from the minute's start still ends at the next meeting
    expect(bookableMinutes([ev(30, 60)], NOW + 40_000, TZ)).toEqual([15, 30]);
  });

  it('stops at the end of the local day', () => {
    const lateEvening = Date.UTC(2025, 2, 12, 21, 20, 0); // 23:20 local
    expect(bookableMinutes([], lateEvening, TZ)).toEqual([15, 30]);
  });
});

describe('displayChangesAt', () => {
  it('is when the longest fitting length stops fitting before the next meeting', () => {
    const events = [ev(90, 120)];
    expect(bookableMinutes(events, NOW, TZ)).toEqual([15, 30, 60]);
    const at = displayChangesAt(events, NOW, TZ);
    expect(at).toBe(NOW + 31 * MIN);
    expect(bookableMinutes(events, at - 1, TZ)).toEqual([15, 30, 60]);
    expect(bookableMinutes(events, at, TZ)).toEqual([15, 30]);
  });

  it('is the end of the local day when nothing stops fitting before it', () => {
    expect(displayChangesAt([ev(-5, 5)], NOW, TZ)).toBe(Date.UTC(2025, 2, 12, 22, 0, 0));
  });
});
