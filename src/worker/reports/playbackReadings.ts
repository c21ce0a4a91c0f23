// What a replay reads (docs/reports.md "## Playback"): the sensors a floor's
// replay pages, and the pages turned into each sensor's readings of the day,
// in time order, kept as sent (a word or a flag as well as a number) with
// their battery levels and positions, each reading once; late readings that
// came live go in where their time says.

import type { Aggregator } from '../../shared/reports/aggregator.js';
import { LOCATION_SENSOR_TYPE } from '../../shared/kinds.js';
import type { ColumnarPage } from '../../shared/reports/readings.js';
import type { Id, MeasurementValue, ReservationEvent } from '../../shared/types.js';
import { sensorIdsOf, type Store } from '../store/store.js';
import { readingsEdited } from './playbackShadow.js';

/**
 * The sensors a replay of the floor pages: every sensor its assets read, and every location tag; of those
 * some report reads, only the ones whose history `mayRead` (the reports' role gates, which the server
 * enforces on the pages: docs/security.md "Report roles").
 */
export function sensorsToPage(live: Store, floorId: Id, mayRead: (id: Id) => boolean = () => true): Map<string, Set<string>> {
  const known = new Map<string, Set<string>>();
  const want = (type: string, id: Id) => {
    if (!mayRead(id)) return;
    if (!known.has(type)) known.set(type, new Set());
    known.get(type)!.add(id);
  };
  for (const id of live.assetsByFloor.get(floorId) ?? []) {
    const asset = live.assets.get(id);
    if (!asset) continue;
    for (const sid of sensorIdsOf(asset)) {
      const s = live.sensors.get(sid);
      // every sensor the floor's assets read: what is not paged could only be shown as unknown
      if (s && !s.local) want(s.type, sid);
    }
  }
  // people come and go: every located tag may stand on this floor that day
  for (const s of live.sensors.values()) if (s.type === LOCATION_SENSOR_TYPE && !s.local) want(LOCATION_SENSOR_TYPE, s.id);
  return known;
}

export interface Replay {
  /** sensor id → its readings of the day, ascending time (the one valid at the day's start first) */
  readings: Map<Id, MeasurementValue[]>;
  /** the sensors whose lists changed since a step last looked (readingsAdded takes them) */
  touched: Set<Id>;
}

/** The same reading: what a replay shows of it is equal. */
function sameReading(a: MeasurementValue, b: MeasurementValue): boolean {
  return a.time === b.time && a.valid_to === b.valid_to && a.value === b.value && a.battery_level === b.battery_level
    && a.x === b.x && a.y === b.y && a.floor_id === b.floor_id;
}

/**
 * Puts a reading of a sensor in its place in the replay, in time order: a reading read again (a day read
 * on repeats the one valid where it starts) changes nothing; another of the same time takes the place of
 * the one there, as the last the server took is what it answers with; a late one goes where its time says.
 */
/**
 * A late reading dated before the day: the day's first page holds one such reading, the newest before the day
 * when it is still valid at its start (the server's "previous validity"). A newer one takes its place, and
 * when it is no longer valid at the start, the day has none from before.
 */
export function mergeBeforeDay(replay: Replay, id: Id, reading: MeasurementValue, dayStart: number): void {
  const list = replay.readings.get(id);
  const first = list?.[0];
  const before = first && first.time < dayStart ? first : null;
  if (before && before.time > reading.time) return;
  if (before && list) {
    list.shift();
    readingsEdited(list, 0);
    replay.touched.add(id);
  }
  if (reading.valid_to > dayStart) mergeReading(replay, id, reading);
}

export function mergeReading(replay: Replay, id: Id, reading: MeasurementValue): void {
  let list = replay.readings.get(id);
  if (!list) { list = []; replay.readings.set(id, list); }
  const last = list.at(-1);
  if (!last || last.time < reading.time) list.push(reading);
  else {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.time < reading.time) lo = mid + 1; else hi = mid;
    }
    const there = list[lo];
    if (there && there.time === reading.time) {
      if (sameReading(there, reading)) return;
      list[lo] = reading;
    } else list.splice(lo, 0, reading);
    readingsEdited(list, lo);
  }
  replay.touched.add(id);
}

export function collector(known: Map<string, Set<string>>, replay: Replay): Aggregator {
  return {
    types: [...known.keys()],
    known: (type) => known.get(type) ?? new Set(),
    // a replay shows every value as live shows it (a word, a flag, a number sent as text): none is a bad row
    numeric: () => false,
    openDay: () => ({
      push(page: ColumnarPage) {
        for (let k = 0; k < page.n; k += 1) {
          const id = page.sensors[page.sensor[k]!]!;
          const extra = page.extras?.[k] ?? {};
          const value = page.value[k]!;
          const time = page.time[k]!;
          const level = page.battery?.[k];
          const reading: MeasurementValue = {
            time, valid_for: page.validTo[k]! - time, valid_to: page.validTo[k]!,
            battery_level: level === undefined || Number.isNaN(level) ? null : level,
            events: Array.isArray(extra.events) ? (extra.events as ReservationEvent[]) : null,
            value: Number.isNaN(value) ? (page.raw?.[k] ?? (Array.isArray(extra.events) ? extra.events : null)) : value,
          };
          if (typeof extra.x === 'number' && typeof extra.y === 'number') {
            reading.x = extra.x; reading.y = extra.y;
            if (extra.floor_id !== null && extra.floor_id !== undefined) reading.floor_id = String(extra.floor_id);
            if (Array.isArray(extra.zones)) reading.zones = extra.zones.map(String);
          }
          mergeReading(replay, id, reading);
        }
      },
      finish() { /* readings stay until the playback closes */ },
    }),
    result: () => ({ rows: [], summary: null as never, measure: null }),
  };
}
