// Reservation history classes (spec §4). The spec names the classes only; we
// decide them by comparing, per booking_ref, the first version of an event
// the reservation sensor ever reported (the plan) with the last one (what
// happened), across the sensor's successive values. See docs/domain.md.

import type { ReservationEvent } from '../types.js';

export const RESERVATION_HISTORY_CLASSES = [
  'completed_as_planned', 'ended_early', 'extended', 'removed', 'upcoming', 'unknown',
] as const;
export type ReservationHistoryClass = (typeof RESERVATION_HISTORY_CLASSES)[number];

export const RESERVATION_HISTORY_LABELS: Readonly<Record<ReservationHistoryClass, string>> = {
  completed_as_planned: 'Completed as planned',
  ended_early: 'Ended early',
  extended: 'Extended',
  removed: 'Removed',
  upcoming: 'Upcoming',
  unknown: 'Unknown',
};

/** One value of a reservation sensor: the events it listed at `time`. */
export interface ReservationSnapshot {
  time: number;
  events: readonly ReservationEvent[] | null;
}

export interface ReservationHistoryItem {
  booking_ref: string;
  /** the first version seen */
  planned: ReservationEvent;
  /** the last version seen, with `end` cut to when it vanished if it vanished while running */
  actual: ReservationEvent;
  /** time of the first snapshot that no longer listed it before its end, or null */
  vanishedAt: number | null;
  class: ReservationHistoryClass;
}

/**
 * The class of one reservation:
 * - removed: it vanished from the sensor's list before it started (cancelled);
 * - upcoming: it has not started yet;
 * - unknown: it is running now (its outcome is open), or its times are broken;
 * - ended early / extended: it is over and its last known end (or the moment
 *   it vanished while running, e.g. a released room) is before / after the
 *   first planned end;
 * - completed as planned: it is over and ended at the planned end.
 * A reservation that simply ages out of the list after its end is not
 * removed: sensors stop listing past events.
 */
export function classifyReservation(planned: ReservationEvent, actual: ReservationEvent, vanishedAt: number | null, now: number): ReservationHistoryClass {
  if (actual.end <= actual.start || planned.end <= planned.start) return 'unknown';
  if (vanishedAt !== null && vanishedAt <= actual.start) return 'removed';
  if (now <= actual.start) return 'upcoming';
  if (now < actual.end) return 'unknown';
  if (actual.end < planned.end) return 'ended_early';
  if (actual.end > planned.end) return 'extended';
  return 'completed_as_planned';
}

/** Every reservation seen in the snapshots, classified, ordered by planned start. */
export function reservationHistory(snapshots: readonly ReservationSnapshot[], now: number): ReservationHistoryItem[] {
  const ordered = [...snapshots].filter((s) => Array.isArray(s.events)).sort((a, b) => a.time - b.time);
  const seen = new Map<string, { planned: ReservationEvent; actual: ReservationEvent; vanishedAt: number | null }>();
  for (const snapshot of ordered) {
    const listed = new Set<string>();
    for (const event of snapshot.events!) {
      listed.add(event.booking_ref);
      const entry = seen.get(event.booking_ref);
      if (!entry) seen.set(event.booking_ref, { planned: event, actual: event, vanishedAt: null });
      else {
        entry.actual = event;
        entry.vanishedAt = null; // it came back: only the last disappearance counts
      }
    }
    for (const [ref, entry] of seen) {
      if (!listed.has(ref) && entry.vanishedAt === null && snapshot.time < entry.actual.end) entry.vanishedAt = snapshot.time;
    }
  }
  const items: ReservationHistoryItem[] = [];
  for (const [ref, entry] of seen) {
    const { planned, vanishedAt } = entry;
    let actual = entry.actual;
    if (vanishedAt !== null && vanishedAt > actual.start && vanishedAt < actual.end) actual = { ...actual, end: vanishedAt };
    items.push({ booking_ref: ref, planned, actual, vanishedAt, class: classifyReservation(planned, actual, vanishedAt, now) });
  }
  return items.sort((a, b) => a.planned.start - b.planned.start);
}
