// The generated measurement history of a location (docs/server.md "History"):
// weeks of readings for up to 10,000 desks are too many rows to keep as
// objects (millions), so each sensor's day is regenerated on demand from the
// seed and the day's rows of one type are kept, sorted, in typed arrays in a
// small LRU. A page is then a binary search and a slice.

import { calendarDay, calendarDayAt, addDaysToKey, type CalendarDay } from '../../src/shared/reports/calendar.js';
import type { WireAsset, WireSensor } from '../../src/shared/rest.js';
import type { Id, ReservationEvent } from '../../src/shared/types.js';
import { rectContains, type Rect } from './floorLayout.js';
import {
  MAX_VALIDITY_MS, deskIntervals, equipmentRows, numericRows, occupancyRows, positionRows, reservationRows, roomAirRows, roomDay,
  type Row, type RoomDay, type Spot,
} from './historyModel.js';
import { createPrng, type Prng } from './prng.js';

/** Rows of all cached days together; about 16 MB of typed arrays per million rows. */
const CACHE_MAX_ROWS = 6_000_000;
/** Rows per day and type must fit the sort key (see buildDay). */
const ROW_INDEX_BITS = 2 ** 22;

export type SensorProfile =
  | { kind: 'desk'; usage: number }
  | { kind: 'room'; roomId: Id }
  | { kind: 'room-air'; roomId: Id }
  | { kind: 'numeric' }
  | { kind: 'person'; home: Spot; lunch: Spot; usage: number }
  | { kind: 'equipment'; spot: Spot };

export interface RoomProfile {
  busy: number;
  capacity: number;
}

export interface HistoryInput {
  locationId: Id;
  timezone: string;
  seed: number;
  /** first and last-plus-one instant of the generated history */
  from: number;
  until: number;
  /** bookings and reservation values stop at this instant (the seed keeps the live ones) */
  reservationsUntil: number;
  sensors: ReadonlyArray<{ sensor: WireSensor; profile: SensorProfile }>;
  rooms: ReadonlyMap<Id, RoomProfile>;
  bookers: readonly Id[];
  /** room id → the live (seeded, cancellable) bookings: from reservationsUntil on, rooms are used as they say */
  liveBookings?: ReadonlyMap<Id, readonly ReservationEvent[]>;
}

interface DayRows {
  n: number;
  times: Float64Array;
  sensor: Int32Array;
  values: Float64Array;
  validFor: Float64Array;
  extras: Array<unknown[] | undefined> | null;
}

interface TypeIndex {
  sensors: WireSensor[];
  profiles: SensorProfile[];
  index: Map<Id, number>;
  battery: Float64Array;
}

export interface LocationHistory {
  readonly locationId: Id;
  readonly from: number;
  readonly until: number;
  /**
   * Wire rows of `type` with start ≤ time < end, in (time, sensor id) order:
   * at least `limit + 1` rows unless the range ends first, never a timestamp cut in two.
   */
  collect(type: string, start: number, end: number, wanted: ReadonlySet<Id> | null, limit: number): unknown[][];
  /** per sensor, the last row before `start` (within the longest validity); unordered */
  previous(type: string, start: number, wanted: ReadonlySet<Id> | null): unknown[][];
  /** the newest row of a sensor before `until`, for the seeded current value */
  latest(sensorId: Id): Row | null;
}

/** FNV-1a over the parts: a stable seed per (sensor or room, day). */
function hashSeed(...parts: Array<string | number>): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const text = String(part);
    for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ 0x2c, 0x01000193);
  }
  return h >>> 0;
}

export function createLocationHistory(input: HistoryInput): LocationHistory {
  const { timezone, seed, from, until } = input;
  const byType = new Map<string, TypeIndex>();
  const typeOf = new Map<Id, string>();
  for (const { sensor, profile } of [...input.sensors].sort((a, b) => Number(a.sensor.id) - Number(b.sensor.id))) {
    let t = byType.get(sensor.type);
    if (!t) { t = { sensors: [], profiles: [], index: new Map(), battery: new Float64Array(0) }; byType.set(sensor.type, t); }
    t.index.set(sensor.id, t.sensors.length);
    t.sensors.push(sensor);
    t.profiles.push(profile);
    typeOf.set(sensor.id, sensor.type);
  }
  for (const t of byType.values()) t.battery = Float64Array.from(t.sensors, (s) => s.last_status.battery_level ?? 80);

  const roomDays = new Map<string, RoomDay>();
  function roomOn(roomId: Id, day: CalendarDay): RoomDay {
    const key = `${roomId}|${day.key}`;
    let r = roomDays.get(key);
    if (!r) {
      const profile = input.rooms.get(roomId) ?? { busy: 0.4, capacity: 6 };
      const live = day.end > input.reservationsUntil ? input.liveBookings?.get(roomId) : undefined;
      r = live ? liveRoomDay(day, live) : roomDay(createPrng(hashSeed(seed, 'room', roomId, day.key)), day, profile.busy, input.bookers, `hist-${roomId}`);
      if (roomDays.size > 20_000) roomDays.clear();
      roomDays.set(key, r);
    }
    return r;
  }

  function sensorDay(sensor: WireSensor, profile: SensorProfile, day: CalendarDay): Row[] {
    const rng: Prng = createPrng(hashSeed(seed, sensor.id, day.key));
    switch (profile.kind) {
      case 'desk': return occupancyRows(rng, day, deskIntervals(rng, day, profile.usage));
      case 'room': {
        const room = roomOn(profile.roomId, day);
        if (sensor.type !== 'reservation') return occupancyRows(rng, day, room.occupied);
        return day.end <= input.reservationsUntil ? reservationRows(day, room) : [];
      }
      case 'room-air': {
        const room = roomOn(profile.roomId, day);
        return roomAirRows(rng, day, sensor.type, room.occupied, input.rooms.get(profile.roomId)?.capacity ?? 6);
      }
      case 'person': return positionRows(rng, day, profile.home, profile.lunch, profile.usage);
      case 'equipment': return equipmentRows(rng, day, profile.spot);
      case 'numeric': return numericRows(rng, day, sensor.type);
    }
  }

  // ---------------------------------------------------------------- day cache (LRU by rows)

  const cache = new Map<string, DayRows>();
  let cachedRows = 0;

  function buildDay(type: TypeIndex, day: CalendarDay): DayRows {
    const rows: Row[] = [];
    const owner: number[] = [];
    const lo = Math.max(from, day.start);
    const hi = Math.min(until, day.end);
    type.sensors.forEach((sensor, i) => {
      if (hi <= lo) return;
      for (const row of sensorDay(sensor, type.profiles[i]!, day)) {
        if (row.time < lo || row.time >= hi) continue;
        rows.push(row);
        owner.push(i);
      }
    });
    if (rows.length >= ROW_INDEX_BITS) throw new RangeError(`Too many rows on ${day.key}`);
    // rows were made sensor by sensor in id order, so (time, row index) sorts as (time, sensor id)
    const keys = new Float64Array(rows.length);
    for (let i = 0; i < rows.length; i += 1) keys[i] = (rows[i]!.time - day.start) * ROW_INDEX_BITS + i;
    keys.sort();
    const n = rows.length;
    const out: DayRows = {
      n, times: new Float64Array(n), sensor: new Int32Array(n), values: new Float64Array(n), validFor: new Float64Array(n),
      extras: rows.some((r) => r.extra) ? new Array(n) : null,
    };
    for (let k = 0; k < n; k += 1) {
      const i = keys[k]! % ROW_INDEX_BITS;
      const row = rows[i]!;
      out.times[k] = row.time;
      out.sensor[k] = owner[i]!;
      out.values[k] = row.value ?? NaN;
      out.validFor[k] = row.validFor;
      if (out.extras) out.extras[k] = row.extra;
    }
    return out;
  }

  function dayRows(typeName: string, day: CalendarDay): DayRows | null {
    const type = byType.get(typeName);
    if (!type) return null;
    const key = `${typeName}|${day.key}`;
    const hit = cache.get(key);
    if (hit) {
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    const built = buildDay(type, day);
    cache.set(key, built);
    cachedRows += built.n;
    for (const [k, v] of cache) {
      if (cachedRows <= CACHE_MAX_ROWS || k === key) break;
      cache.delete(k);
      cachedRows -= v.n;
    }
    return built;
  }

  const wire = (type: TypeIndex, d: DayRows, k: number): unknown[] => {
    const v = d.values[k]!;
    const row: unknown[] = [d.times[k], type.sensors[d.sensor[k]!]!.id, d.validFor[k], Number.isNaN(v) ? null : v, type.battery[d.sensor[k]!]];
    const extra = d.extras?.[k];
    if (extra) row.push(...extra);
    return row;
  };

  function lowerBound(times: Float64Array, n: number, t: number): number {
    let lo = 0; let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (times[mid]! < t) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  const wantedIndex = (type: TypeIndex, wanted: ReadonlySet<Id> | null): Uint8Array | null => {
    if (!wanted) return null;
    const mask = new Uint8Array(type.sensors.length);
    for (const id of wanted) {
      const i = type.index.get(id);
      if (i !== undefined) mask[i] = 1;
    }
    return mask;
  };

  return {
    locationId: input.locationId,
    from,
    until,

    collect(typeName, start, end, wanted, limit) {
      const type = byType.get(typeName);
      const out: unknown[][] = [];
      const lo = Math.max(start, from);
      const hi = Math.min(end, until);
      if (!type || hi <= lo) return out;
      const mask = wantedIndex(type, wanted);
      let lastTime = NaN;
      for (let day = calendarDayAt(lo, timezone); day.start < hi; day = calendarDay(addDaysToKey(day.key, 1), timezone)) {
        const d = dayRows(typeName, day)!;
        for (let k = lowerBound(d.times, d.n, lo); k < d.n; k += 1) {
          const t = d.times[k]!;
          if (t >= hi) return out;
          if (mask && !mask[d.sensor[k]!]) continue;
          if (out.length > limit && t !== lastTime) return out;
          out.push(wire(type, d, k));
          lastTime = t;
        }
      }
      return out;
    },

    previous(typeName, start, wanted) {
      const type = byType.get(typeName);
      if (!type || start <= from) return [];
      const mask = wantedIndex(type, wanted);
      const need = mask ? mask.reduce((a, b) => a + b, 0) : type.sensors.length;
      const found = new Set<number>();
      const out: unknown[][] = [];
      const floor = Math.max(from, start - MAX_VALIDITY_MS);
      for (let day = calendarDayAt(Math.min(start, until) - 1, timezone); day.end > floor && found.size < need;
        day = calendarDay(addDaysToKey(day.key, -1), timezone)) {
        const d = dayRows(typeName, day)!;
        for (let k = lowerBound(d.times, d.n, start) - 1; k >= 0 && d.times[k]! >= floor && found.size < need; k -= 1) {
          const s = d.sensor[k]!;
          if ((mask && !mask[s]) || found.has(s)) continue;
          found.add(s);
          out.push(wire(type, d, k));
        }
      }
      return out;
    },

    latest(sensorId) {
      const typeName = typeOf.get(sensorId);
      const type = typeName ? byType.get(typeName) : undefined;
      if (!type) return null;
      const i = type.index.get(sensorId)!;
      for (let day = calendarDayAt(until - 1, timezone); day.end > from; day = calendarDay(addDaysToKey(day.key, -1), timezone)) {
        const rows = sensorDay(type.sensors[i]!, type.profiles[i]!, day).filter((r) => r.time >= from && r.time < until);
        if (rows.length) return rows[rows.length - 1]!;
        if (day.start < until - 3 * 86_400_000) return null;
      }
      return null;
    },
  };
}

/** Today and later: the room is in use during its live bookings, so live status and history agree. */
function liveRoomDay(day: CalendarDay, events: readonly ReservationEvent[]): RoomDay {
  const occupied = events
    .filter((e) => e.end > day.start && e.start < day.end)
    .map((e): [number, number] => [Math.max(day.start, e.start + 2 * 60_000), Math.min(day.end, e.end - 2 * 60_000)])
    .filter(([a, b]) => b > a)
    .sort((a, b) => a[0] - b[0]);
  return { bookings: [], occupied };
}

/** The room whose outline box contains an asset standing on the same floor. */
export function roomContaining(asset: Pick<WireAsset, 'parent_id' | 'x' | 'y'>, rooms: readonly WireAsset[]): WireAsset | null {
  for (const room of rooms) {
    if (room.parent_id !== asset.parent_id || !room.outline || room.outline.length < 3) continue;
    const xs = room.outline.map((p) => p[0]);
    const ys = room.outline.map((p) => p[1]);
    const rect: Rect = { x: Math.min(...xs), y: Math.min(...ys), w: Math.max(...xs) - Math.min(...xs), d: Math.max(...ys) - Math.min(...ys) };
    if (rectContains(rect, asset.x, asset.y)) return room;
  }
  return null;
}
