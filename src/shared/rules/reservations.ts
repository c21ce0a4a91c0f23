// The reservation sensor (spec §4): which event is active (strictly between
// start and end), the room text in the location's local time, and when that
// text changes next. Pure: `now` and the time zone are arguments.

import { RESERVATION_REFRESH_CAP_MS } from '../constants.js';
import { MSG } from '../messages.js';
import { endOfLocalDay, formatLocalTime, isSameLocalDay, safeTimeZone } from '../time.js';
import type { ReservationEvent } from '../types.js';

export interface ReservationStatus {
  active: ReservationEvent | null;
  /** the first event that starts at or after now and is not active, whatever its day */
  next: ReservationEvent | null;
  /** whether `next` starts on the same local day as now (and so is shown) */
  nextIsToday: boolean;
  /** the text lines: the current slot (if any), then 'Next: …' or 'No reservations' */
  lines: string[];
  text: string;
  /** when the status may change without new data; always after now, at most 7 days ahead */
  refreshAt: number;
}

/** Active when now is strictly between start and end. */
export function isEventActive(event: Pick<ReservationEvent, 'start' | 'end'>, now: number): boolean {
  return event.start < now && now < event.end;
}

/** The active event that started first, or null. */
export function activeEvent(events: readonly ReservationEvent[], now: number): ReservationEvent | null {
  let best: ReservationEvent | null = null;
  for (const e of events) if (isEventActive(e, now) && (!best || e.start < best.start)) best = e;
  return best;
}

/** The earliest event starting at or after now that is not active. */
export function nextEvent(events: readonly ReservationEvent[], now: number): ReservationEvent | null {
  let best: ReservationEvent | null = null;
  for (const e of events) {
    if (e.start < now || e.end <= e.start) continue;
    if (!best || e.start < best.start || (e.start === best.start && e.end < best.end)) best = e;
  }
  return best;
}

/** The events not over at now (running or to come), soonest first: what a room's "Coming up" lists. */
export function upcomingEvents(events: readonly ReservationEvent[], now: number): ReservationEvent[] {
  return events
    .filter((e) => e.end > now && e.end > e.start)
    .sort((a, b) => a.start - b.start || a.end - b.end);
}

/** 'HH:MM–HH:MM Subject' in local time. */
export function formatSlot(event: ReservationEvent, timeZone: string): string {
  const slot = `${formatLocalTime(event.start, timeZone)}–${formatLocalTime(event.end, timeZone)}`;
  return event.subject ? `${slot} ${event.subject}` : slot;
}

/**
 * Status of a reservation sensor. The text is the current slot, then
 * 'Next: <slot>' when the next event starts on the same local day, else
 * 'No reservations'. It changes when the current event ends, when the next
 * starts, and at local midnight while a later-day event waits to become
 * "today"; with nothing ahead it is re-checked after the 7-day cap.
 */
export function reservationStatus(events: readonly ReservationEvent[], now: number, timeZone: string): ReservationStatus {
  const zone = safeTimeZone(timeZone);
  const active = activeEvent(events, now);
  const next = nextEvent(events, now);
  const nextIsToday = next !== null && isSameLocalDay(next.start, now, zone);
  const lines: string[] = [];
  if (active) lines.push(formatSlot(active, zone));
  lines.push(next && nextIsToday ? `${MSG.NEXT_PREFIX} ${formatSlot(next, zone)}` : MSG.NO_RESERVATIONS);

  // spec §4: the end of the current event, the start of the next, or the end of the local day, capped at 7 days
  const candidates: number[] = [now + RESERVATION_REFRESH_CAP_MS, endOfLocalDay(now, zone)];
  if (active) candidates.push(active.end);
  if (next) candidates.push(next.start);
  // an event starting exactly now becomes active 1 ms later (strictly between)
  const refreshAt = Math.max(now + 1, Math.min(...candidates));
  return { active, next, nextIsToday, lines, text: lines.join('\n'), refreshAt };
}
