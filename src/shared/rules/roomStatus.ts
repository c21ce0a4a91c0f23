// Room colour status (spec §4): an index into the configured status colours
// (free, reserved, occupied, occupied and reserved), or the missing or
// not-applicable colour. Pure: `now` is an argument.

import { MEETING_RECENT_READING_MS } from '../constants.js';
import type { StatusKind } from '../kinds.js';
import type { ReservationEvent } from '../types.js';
import { activeEvent } from './reservations.js';

export interface OccupancyReading {
  value: unknown;
  time: number;
  valid_to: number;
}

export interface RoomStatusInput {
  /** the room's subtype; 'meeting' rooms count any recent reading as occupied */
  subtype: string | null;
  /** null when the room has no occupancy sensor; `reading` null when it has not reported */
  occupancy: { reading: OccupancyReading | null } | null;
  /** null when the room has no reservation sensor */
  reservation: { events: readonly ReservationEvent[] } | null;
}

export type RoomStatus =
  | { kind: 'index'; index: number; occupied: boolean; reserved: boolean }
  | { kind: 'missing' }
  | { kind: 'not_applicable' };

export interface RoomStatusColors {
  room: readonly string[];
  missing: string;
  notApplicable: string;
}

/** Occupied readings: true, a positive number, or the words 'occupied'/'true'. */
export function isOccupiedValue(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value > 0;
  if (typeof value === 'string') return value === 'occupied' || value === 'true' || Number(value) > 0;
  return false;
}

/** A meeting room's reading counts as presence while under 80,000 ms old. */
export function isRecentMeetingReading(reading: Pick<OccupancyReading, 'time'>, now: number): boolean {
  return now - reading.time < MEETING_RECENT_READING_MS;
}

/**
 * With an occupancy sensor: a recent meeting reading or an occupied value
 * gives 2, an active reservation adds 1, capped at the last colour; a reading
 * past its valid_to (or none at all) gives the missing colour. A recent
 * meeting reading counts before expiry, since the 80 s window is its own
 * notion of fresh. With only a reservation sensor: active gives the third
 * colour (index 2), else the first. With neither: not applicable.
 */
export function roomStatusIndex(input: RoomStatusInput, now: number, colorCount: number): RoomStatus {
  const last = Math.max(0, colorCount - 1);
  const reserved = input.reservation ? activeEvent(input.reservation.events, now) !== null : false;
  if (input.occupancy) {
    const reading = input.occupancy.reading;
    if (!reading) return { kind: 'missing' };
    const meetingPresence = input.subtype === 'meeting' && isRecentMeetingReading(reading, now);
    if (!meetingPresence && now > reading.valid_to) return { kind: 'missing' };
    const occupied = meetingPresence || isOccupiedValue(reading.value);
    return { kind: 'index', index: Math.min(last, (occupied ? 2 : 0) + (reserved ? 1 : 0)), occupied, reserved };
  }
  if (input.reservation) return { kind: 'index', index: Math.min(last, reserved ? 2 : 0), occupied: false, reserved };
  return { kind: 'not_applicable' };
}

export function roomStatusColor(status: RoomStatus, colors: RoomStatusColors): string {
  switch (status.kind) {
    case 'index':
      return colors.room[status.index] ?? colors.missing;
    case 'missing':
      return colors.missing;
    case 'not_applicable':
      return colors.notApplicable;
  }
}

/**
 * Status words ('free' | 'reserved' | 'occupied' | 'occupied and reserved' |
 * 'no data' | 'not applicable'), so no information is carried by colour alone.
 */
export function roomStatusWord(status: RoomStatus): string {
  if (status.kind === 'missing') return 'no data';
  if (status.kind === 'not_applicable') return 'not applicable';
  if (status.occupied) return status.reserved ? 'occupied and reserved' : 'occupied';
  return status.reserved ? 'reserved' : 'free';
}

/** The typed meaning of a room status: in use (with or without a reservation) is busy. */
export function roomStatusKind(status: RoomStatus): StatusKind {
  if (status.kind === 'missing') return 'unknown';
  if (status.kind === 'not_applicable') return 'none';
  if (status.occupied) return 'busy';
  return status.reserved ? 'booked' : 'free';
}
