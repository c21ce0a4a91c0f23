// How long a booking made now may last (docs/ui.md, room popups): the server
// refuses a booking that overlaps another one (409), so the popup offers only
// lengths that end by the room's next booking, and the worker checks the one
// it is asked for against the bookings it knows before sending it. Pure: now
// and the location's time zone are arguments.

import { endOfLocalDayAt, safeTimeZone } from '../time.js';
import type { ReservationEvent } from '../types.js';

const MINUTE_MS = 60_000;
/** The lengths the popup offers, in minutes. */
export const BOOKING_LENGTHS_MIN: readonly number[] = [30, 60, 120];
/** A room free for less than this before its next booking is not offered (nothing useful fits). */
export const MIN_BOOKABLE_GAP_MS = 5 * MINUTE_MS;

/** A booking made now starts at the current whole minute. */
export function bookingStart(now: number): number {
  return Math.floor(now / MINUTE_MS) * MINUTE_MS;
}

export interface BookingChoices {
  /** the lengths that end by the next booking's start */
  minutes: number[];
  /** "until" the next booking's start: when the shortest length does not fit, or to fill the gap */
  untilNext: boolean;
  /**
   * "Rest of the day" (with `allDayBookingButton`): only while no booking starts later in the location's
   * local day (it would overlap it; "until" covers booking up to it), and at least a minute of the day is left
   */
  restOfDay: boolean;
}

/**
 * What a booking made now may last before the room's next booking starts (null: none ahead). A next
 * booking already begun is no limit here: the room is not free then, and nothing is offered for it.
 */
export function bookingChoices(now: number, nextStart: number | null, timeZone: string | null | undefined): BookingChoices {
  const dayEnd = endOfLocalDayAt(now, safeTimeZone(timeZone));
  const dayLeft = dayEnd - bookingStart(now) >= MINUTE_MS;
  if (nextStart === null || nextStart <= now) return { minutes: [...BOOKING_LENGTHS_MIN], untilNext: false, restOfDay: dayLeft };
  const minutes = BOOKING_LENGTHS_MIN.filter((m) => now + m * MINUTE_MS <= nextStart);
  return {
    minutes,
    untilNext: minutes.length < BOOKING_LENGTHS_MIN.length && nextStart - now >= MIN_BOOKABLE_GAP_MS,
    restOfDay: dayLeft && nextStart >= dayEnd,
  };
}

/** The earliest known booking that [start, end) overlaps, as the server decides an overlap; null when none. */
export function overlappingBooking(events: readonly ReservationEvent[], start: number, end: number): ReservationEvent | null {
  let first: ReservationEvent | null = null;
  for (const e of events) {
    if (typeof e?.start !== 'number' || typeof e.end !== 'number') continue;
    if (e.start < end && start < e.end && (!first || e.start < first.start)) first = e;
  }
  return first;
}
