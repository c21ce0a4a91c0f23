// The `roomDisplay` view: one room as its wall display shows it (docs/ui.md
// "Room display"): the §4 colour status and text, the day's agenda and the
// booking lengths that fit. Re-derived when the room or its sensors change
// and at the §4 refresh times (the facts cache schedules those).

import { SELF_KEY, type RoomDisplayEntry } from '../../shared/api.js';
import { RESERVATION_SENSOR_TYPE } from '../../shared/kinds.js';
import { agendaOfDay, bookableMinutes, displayChangesAt } from '../../shared/rules/roomDisplay.js';
import type { Id, ReservationEvent } from '../../shared/types.js';
import { sensorsOf } from '../store/store.js';
import type { ViewSource } from './viewHub.js';
import type { ViewState } from './sources.js';

export interface RoomDisplayHooks {
  timeZone(): string;
  /** re-derive the room at this instant (the engine's one scheduler) */
  wakeAt(roomId: Id, at: number): void;
}

export function roomDisplaySource(state: ViewState, roomId: Id, hooks: RoomDisplayHooks): ViewSource {
  const { store } = state;
  function read(): RoomDisplayEntry | undefined {
    const facts = state.facts.get(roomId);
    if (!facts || facts.kind !== 'room' || !facts.room || !facts.reachable) return undefined;
    const { asset, room, config } = facts;
    const zone = hooks.timeZone();
    const now = state.now();
    const sensor = sensorsOf(store, asset).find((s) => s.type === RESERVATION_SENSOR_TYPE) ?? null;
    const events = (sensor?.last_measurement?.events ?? []) as ReservationEvent[];
    const floor = facts.floorId ? store.floors.get(facts.floorId) : undefined;
    const reservation = room.reservation;
    const canBook = !!sensor && config.assetBookingFeature;
    if (canBook) hooks.wakeAt(roomId, displayChangesAt(events, now, zone));
    return {
      id: asset.id,
      name: asset.name,
      floorName: floor?.name ?? null,
      buildingName: floor ? store.buildings.get(floor.parent_id)?.name ?? null : null,
      color: room.color,
      statusKind: room.statusKind,
      status: room.word,
      text: reservation?.text ?? null,
      current: reservation?.active ?? null,
      next: reservation?.nextIsToday ? reservation.next : null,
      agenda: agendaOfDay(events, now, zone),
      bookMinutes: canBook ? bookableMinutes(events, now, zone) : [],
      bookable: sensor !== null,
      timeZone: zone,
    };
  }
  return {
    keys: () => [SELF_KEY],
    entry: (key) => (key === SELF_KEY ? read() : undefined),
    meta: () => null,
    affected(d) {
      if (d.has('structure') || d.has('session') || d.get('assets') === 'all') return [SELF_KEY];
      const assets = d.get('assets');
      const values = d.get('values');
      return (assets && assets !== 'all' && assets.has(roomId)) || (values && values !== 'all' && values.has(roomId)) ? [SELF_KEY] : null;
    },
    metaAffected: () => false,
  };
}
