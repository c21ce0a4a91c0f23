// What a room display shows besides the §4 status and text (docs/ui.md "Room
// display"): today's agenda in the location's day, and which "Book now"
// lengths fit before the next meeting. Pure: now and the zone are arguments.

import { localDayAt } from '../time.js';
import type { ReservationEvent } from '../types.js';
import { activeEvent, nextEvent } from './reservations.js';

/** The lengths a display offers to book from now, in minutes. */
export const DISPLAY_BOOKING_MINUTES = [15, 30, 60] as const;

const MINUTE_MS = 60_000;

/** Events overlapping the local day of `now`, by start (ended ones included: the day's whole agenda). */
export function agendaOfDay(events: readonly ReservationEvent[], now: number, timeZone: string): ReservationEvent[] {
  const day = localDayAt(now, timeZone);
  return events.filter((e) => e.end > day.start && e.start < day.end && e.end > e.start).sort((a, b) => a.start - b.start || a.end - b.end);
}

/**
 * The booking lengths that fit now: none while a meeting runs; otherwise
 * those that end by the next meeting's start (or the end of the local day).
 * A booking starts at the current minute, as the engine's bookRoom makes it.
 */
export function bookableMinutes(events: readonly ReservationEvent[], now: number, timeZone: string, options: readonly number[] = DISPLAY_BOOKING_MINUTES): number[] {
  if (activeEvent(events, now)) return [];
  const start = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const limit = bookingLimit(events, now, timeZone);
  return options.filter((m) => start + m * MINUTE_MS <= limit);
}

/** A booking made now must end by the next meeting's start, or the end of the local day. */
function bookingLimit(events: readonly ReservationEvent[], now: number, timeZone: string): number {
  const next = nextEvent(events, now);
  const dayEnd = localDayAt(now, timeZone).end;
  return next && next.start < dayEnd ? next.start : dayEnd;
}

/**
 * When the display changes by time alone, besides the §4 refresh times: a
 * booking length stops fitting before the next meeting, or the day (and its
 * agenda) turns. Always after now.
 */
export function displayChangesAt(events: readonly ReservationEvent[], now: number, timeZone: string, options: readonly number[] = DISPLAY_BOOKING_MINUTES): number {
  const dayEnd = localDayAt(now, timeZone).end;
  const limit = bookingLimit(events, now, timeZone);
  let at = dayEnd;
  for (const m of bookableMinutes(events, now, timeZone, options)) {
    // fits while the current minute plus m ends by the limit
    const stops = (Math.floor((limit - m * MINUTE_MS) / MINUTE_MS) + 1) * MINUTE_MS;
    if (stops > now && stops < at) at = stops;
  }
  return Math.max(at, now + 1);
}
