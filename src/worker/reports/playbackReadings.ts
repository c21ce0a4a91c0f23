// What a replay reads (docs/reports.md "## Playback"): the sensors a floor's
// replay pages, and the pages turned into each sensor's readings of the day,
// in time order, kept as sent (a word or a flag as well as a number) with
// their battery levels and positions, each reading once.

import type { Aggregator } from '../../shared/reports/aggregator.js';
import { LOCATION_SENSOR_TYPE } from '../../shared/kinds.js';
import type { ColumnarPage } from '../../shared/reports/readings.js';
import type { Id, MeasurementValue, ReservationEvent } from '../../shared/types.js';
import { sensorIdsOf, type Store } from '../store/store.js';

/** The sensors a replay of the floor pages: every sensor its assets read, and every location tag. */
export function sensorsToPage(live: Store, floorId: Id): Map<string, Set<string>> {
  const known = new Map<string, Set<string>>();
  const want = (type: string, id: Id) => { if (!known.has(type)) known.set(type, new Set()); known.get(type)!.add(id); };
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
          let list = replay.readings.get(id);
          if (!list) { list = []; replay.readings.set(id, list); }
          // a day read on repeats the reading still valid where it starts: each reading once, in time order
          const last = list.at(-1);
          if (!last || last.time < time) list.push(reading);
        }
      },
      finish() { /* readings stay until the playback closes */ },
    }),
    result: () => ({ rows: [], summary: null as never, measure: null }),
  };
}
