// Bookings changed by others, seen live (docs/reports.md "Kept runs and today"):
// a room report of today is read once, so a booking another person ended early,
// extended or removed after it had begun would stay as it was read while a room
// popup stays open. The live stream tells the worker each reservation change of
// a room; the changes that alter the room's past (what "Earlier" lists) name
// their rooms, so the report service reads today again for them. Changes of
// what is still to come need nothing: "Coming up" is the live sensor itself.

import { RESERVATION_SENSOR_TYPE } from '../../shared/kinds.js';
import { isRecord, toId } from '../../shared/normalize/primitives.js';
import type { Id, ReservationEvent } from '../../shared/types.js';
import type { SinkChange } from '../ports.js';
import type { Store } from '../store/store.js';

/** The reservation sensors a batch of live changes gives readings to, with their events before it is applied. */
export type BookingsBefore = Map<Id, readonly ReservationEvent[]>;

const eventsOf = (store: Store, sensorId: Id): readonly ReservationEvent[] =>
  (store.sensors.get(sensorId)?.last_measurement?.events ?? []) as readonly ReservationEvent[];

/** Before a batch is applied: the reservation sensors it reads, and their events as the store holds them now. */
export function bookingsBefore(store: Store, changes: readonly SinkChange[]): BookingsBefore | null {
  let before: BookingsBefore | null = null;
  for (const change of changes) {
    if (change.collection !== 'measurements' || (change.kind !== 'created' && change.kind !== 'modified') || !isRecord(change.data)) continue;
    const id = toId(change.data.sensor_id);
    if (id === null || before?.has(id) || store.sensors.get(id)?.type !== RESERVATION_SENSOR_TYPE) continue;
    (before ??= new Map()).set(id, eventsOf(store, id));
  }
  return before;
}

const sameEvent = (a: ReservationEvent, b: ReservationEvent) =>
  a.start === b.start && a.end === b.end && a.subject === b.subject && a.user_id === b.user_id;

/**
 * Whether the bookings that had begun by `now` differ between two lists of a room's events: one of them ended
 * early, extended, moved or removed, or one added that began already. Bookings still to come do not count.
 */
export function pastChanged(before: readonly ReservationEvent[], after: readonly ReservationEvent[], now: number): boolean {
  const byRef = new Map<string, ReservationEvent>();
  for (const e of after) byRef.set(e.booking_ref, e);
  let begunAfter = 0;
  for (const e of after) if (e.start <= now) begunAfter += 1;
  let begunBoth = 0;
  for (const e of before) {
    const next = byRef.get(e.booking_ref);
    if (e.start > now && (!next || next.start > now)) continue;
    if (!next || !sameEvent(e, next)) return true;
    begunBoth += 1;
  }
  // a booking that had begun is in the new list only: added late, or moved to begin before now
  return begunAfter !== begunBoth;
}

/** A room whose past bookings a live reading changed, and the reading's time. */
export interface RoomBookingsChange {
  roomId: Id;
  at: number;
}

/** After the batch is applied: the rooms whose past bookings it changed. */
export function roomsWithPastChanged(store: Store, before: BookingsBefore, now: number): RoomBookingsChange[] {
  const changed: RoomBookingsChange[] = [];
  for (const [sensorId, events] of before) {
    const sensor = store.sensors.get(sensorId);
    if (!pastChanged(events, eventsOf(store, sensorId), now)) continue;
    const at = sensor?.last_measurement?.time ?? now;
    for (const slot of store.sensors.entry(sensorId)?.fed ?? []) changed.push({ roomId: slot.id, at });
  }
  return changed;
}
