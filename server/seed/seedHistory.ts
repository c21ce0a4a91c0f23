// Gives every sensor of a seeded location a past: a profile (what kind of
// desk, room, air sensor or person it reports on), the generated history of
// the last `days` local days (history.ts), and the newest generated reading
// as its current value, so live state and history tell the same story.

import { addDaysToKey, calendarDay, dateKeyOf } from '../../src/shared/reports/calendar.js';
import type { WireAsset, WireSensor } from '../../src/shared/rest.js';
import type { Id, ReservationEvent } from '../../src/shared/types.js';
import type { Store } from '../store/store.js';
import { rectContains } from './floorLayout.js';
import { createLocationHistory, roomContaining, type LocationHistory, type RoomProfile, type SensorProfile } from './history.js';
import type { Spot } from './historyModel.js';
import type { SeededLocation } from './location.js';
import { createPrng } from './prng.js';

export const DEFAULT_HISTORY_DAYS = 14;
/** how long before start-up the generated past ends */
export const HISTORY_LEAD_MS = 5 * 60_000;

/** Desk users: a fifth barely come, some are part-time, half are there most days. */
function deskUsage(roll: number): number {
  if (roll < 0.2) return 0.06;
  if (roll < 0.5) return 0.35;
  return 0.88;
}

export interface AttachHistoryOptions {
  seed: number;
  days: number;
  now: number;
  bookers: readonly Id[];
}

export function attachHistory(store: Store, loc: SeededLocation, options: AttachHistoryOptions): LocationHistory {
  const location = store.locations.get(loc.locationId)!;
  const rng = createPrng(options.seed * 31 + Number(loc.locationId));
  const floors = loc.floors.filter((f) => !f.floor.hidden);
  const rooms: WireAsset[] = loc.rooms;
  const roomProfiles = new Map<Id, RoomProfile>();
  for (const room of rooms) {
    const capacity = Number(room.config.capacity);
    roomProfiles.set(room.id, { busy: rng.range(0.25, 0.6), capacity: Number.isFinite(capacity) ? capacity : 6 });
  }
  const spotIn = (floorIndex: number, kind: string | null): Spot | null => {
    const f = floors[floorIndex % floors.length];
    if (!f) return null;
    const candidates = f.zones.filter((z) => (kind ? z.asset.subtype === kind : z.asset.subtype !== 'privacy'));
    const zone = candidates.length ? rng.pick(candidates) : null;
    const r = zone?.rect ?? { x: 1, y: 1, w: f.plan.width - 2, d: f.plan.depth - 2 };
    const x = Math.round(rng.range(r.x + 0.5, r.x + r.w - 0.5) * 10) / 10;
    const y = Math.round(rng.range(r.y + 0.5, r.y + r.d - 0.5) * 10) / 10;
    return { floorId: f.floor.id, floor: f.floor.building_relative_index ?? 0, x, y, zones: f.zones.filter((z) => rectContains(z.rect, x, y)).map((z) => z.asset.id) };
  };
  const spotOf = (asset: WireAsset): Spot => {
    const f = loc.floors.find((x) => x.floor.id === asset.parent_id);
    return {
      floorId: asset.parent_id ?? '', floor: f?.floor.building_relative_index ?? 0, x: asset.x, y: asset.y,
      zones: (f?.zones ?? []).filter((z) => rectContains(z.rect, asset.x, asset.y)).map((z) => z.asset.id),
    };
  };

  const sensors: Array<{ sensor: WireSensor; profile: SensorProfile }> = [];
  for (const sensor of store.sensors.values()) {
    if (sensor.location_id !== loc.locationId) continue;
    sensor.last_status.battery_level ??= rng.int(20, 100);
    const asset = sensor.asset_id ? store.assets.get(sensor.asset_id) : undefined;
    let profile: SensorProfile;
    if (sensor.type === 'reservation' || (sensor.type === 'occupancy' && asset?.type === 'room')) {
      profile = { kind: 'room', roomId: asset?.id ?? sensor.id };
    } else if (sensor.type === 'occupancy') {
      profile = { kind: 'desk', usage: asset?.type === 'container' ? 0.3 : deskUsage(rng.next()) };
    } else if (sensor.type === 'location') {
      const home = asset?.type === 'employee' ? spotIn(rng.int(0, 99), null) : null;
      const lunch = home ? spotIn(floors.findIndex((f) => f.floor.id === home.floorId), 'chilling') ?? home : null;
      profile = home && lunch ? { kind: 'person', home, lunch, usage: rng.range(0.6, 0.95) } : { kind: 'equipment', spot: asset ? spotOf(asset) : spotIn(0, null)! };
    } else {
      const room = asset ? roomContaining(asset, rooms) : null;
      profile = room ? { kind: 'room-air', roomId: room.id } : { kind: 'numeric' };
    }
    sensors.push({ sensor, profile });
  }

  const today = dateKeyOf(options.now, location.timezone);
  const history = createLocationHistory({
    locationId: loc.locationId,
    timezone: location.timezone,
    seed: options.seed,
    from: calendarDay(addDaysToKey(today, -options.days), location.timezone).start,
    // the past ends a little before start-up, so a seeded current value is never a just-now reading
    // (a meeting room's reading under 80 s old counts as occupied, spec §4)
    until: options.now - HISTORY_LEAD_MS,
    reservationsUntil: calendarDay(today, location.timezone).start,
    sensors,
    rooms: roomProfiles,
    bookers: options.bookers,
    liveBookings: new Map(rooms.map((room) => [room.id, (store.sensors.get(room.data_provider_refs.reservation ?? '')?.last_measurement?.events ?? []) as ReservationEvent[]])),
  });
  store.histories.set(loc.locationId, history);

  // reservation and location sensors get their current values from the demo seed (bookings, people)
  const latest: Array<{ sensorId: Id; value: { time: number; valid_for: number; value: number | null; battery_level: number } }> = [];
  for (const { sensor } of sensors) {
    if (sensor.type === 'reservation' || sensor.type === 'location') continue;
    const row = history.latest(sensor.id);
    const time = row?.time ?? options.now - rng.int(0, 300_000);
    latest.push({ sensorId: sensor.id, value: { time, valid_for: row?.validFor ?? 1_800_000, value: row?.value ?? 0, battery_level: sensor.last_status.battery_level ?? 80 } });
  }
  store.addMeasurements(latest);
  return history;
}
