// The week's bookings a room popup lists as "Earlier" (docs/reports.md, the
// room popup's "Recent bookings"): those over, or cancelled, newest first.
// What is still to come is listed above them from the live reservation sensor
// (AssetDetail.reservation.upcoming, soonest first), not from the report: a
// report is read once, so a booking made or cancelled after it would be
// missing or still shown, and its classes of bookings that had not ended when
// it was read ("upcoming", running) tell nothing of how they went. Pure: `now`
// is an argument.

import type { BookingItem } from './types.js';

/**
 * The report's bookings whose time is over at `now`, newest first: ended when it was read (a running one
 * is "unknown" until it ends), or cancelled (`removed`) once its planned end has passed — a booking
 * cancelled for later today is neither history nor coming up. One that was still to come when the report
 * was read is left out: its outcome is not known to it.
 */
export function earlierBookings(items: readonly BookingItem[], now: number): BookingItem[] {
  return items
    .filter((item) => (item.class === 'removed' ? item.plannedEnd <= now : item.class !== 'upcoming' && item.actualEnd <= now))
    .sort((a, b) => b.plannedStart - a.plannedStart);
}
