// Late readings of closed days (docs/reports.md "Late readings and the kept
// days"): a reading that comes live dated before today, in the location's
// zone, belongs to a day whose pages reports and replays may keep in the
// page cache, read before it reached the server. Each such day (per sensor
// type) has its kept pages dropped, so the next opening reads it again, and
// is noted, so a run reading it meanwhile does not keep what it read and a
// report run kept in memory that covers it is run again when reopened.

import { addDaysToKey, calendarDay, dateKeyOf } from '../../shared/reports/calendar.js';
import { isRecord, toId, toNumOrNull, toTime } from '../../shared/normalize/primitives.js';
import type { SinkChange } from '../ports.js';
import type { Store } from '../store/store.js';
import { dayPagesPrefixes, type LateDays, type PageCache } from './runReport.js';

/** A reading valid for longer than this is not followed past it: the days of its time and the few after. */
const DAYS_FOLLOWED = 7;
/** A reading dated further back than this is a broken clock, not a late reading: it drops nothing. */
const LATE_AT_MOST_MS = 366 * 86_400_000;

export interface LateReadings extends LateDays {
  /** live changes of the loaded location, as applied: readings dated before today are noted and their days' kept pages dropped */
  take(changes: readonly SinkChange[]): void;
}

export interface LateReadingsOptions {
  store: Store;
  now(): number;
  cache: PageCache | null;
}

export function createLateReadings(o: LateReadingsOptions): LateReadings {
  /** per `${location}|${type}|${day}`, the counter when a late reading of it was last seen */
  const seen = new Map<string, number>();
  /** drops under way: more late readings of the same day meanwhile (a gateway sending what it kept) ask none again */
  const dropping = new Set<string>();
  let counter = 0;
  let today = { key: '', start: Infinity, end: -Infinity, zone: '' };
  const zone = () => (o.store.locationId && o.store.locations.get(o.store.locationId)?.timezone) || 'UTC';

  /** Today in the location's zone, looked up again only when the clock passed midnight or the zone changed. */
  function todayOf(now: number) {
    const tz = zone();
    if (now < today.start || now >= today.end || tz !== today.zone) {
      const day = calendarDay(dateKeyOf(now, tz), tz);
      today = { key: day.key, start: day.start, end: day.end, zone: tz };
    }
    return today;
  }

  function note(type: string, dayKey: string): void {
    const key = `${o.store.locationId}|${type}|${dayKey}`;
    counter += 1;
    seen.set(key, counter);
    if (!o.cache?.drop || dropping.has(key)) return;
    dropping.add(key);
    const drops = dayPagesPrefixes(o.store.locationId, type, dayKey).map((prefix) => o.cache!.drop!(prefix));
    // a failed drop leaves the day as kept: its provisional time still reads it again (LATE_READINGS_MS)
    void Promise.allSettled(drops).then(() => { dropping.delete(key); });
  }

  return {
    take(changes) {
      let day: ReturnType<typeof todayOf> | null = null;
      for (const change of changes) {
        if (change.collection !== 'measurements' || (change.kind !== 'created' && change.kind !== 'modified') || !isRecord(change.data)) continue;
        const raw = change.data.value;
        const time = isRecord(raw) ? toTime(raw.time) : null;
        if (time === null) continue;
        day ??= todayOf(o.now());
        // today's readings (nearly all of them): nothing kept is older than they are; nor a time no day has
        if (time >= day.start || !(time >= day.start - LATE_AT_MOST_MS)) continue;
        const id = toId(change.data.sensor_id);
        const type = (id !== null ? o.store.sensors.get(id)?.type : undefined) ?? (typeof change.data.type === 'string' ? change.data.type : null);
        if (!type || !isRecord(raw)) continue;
        const validFor = toNumOrNull(raw.valid_for);
        const validTo = toTime(raw.valid_to) ?? (validFor !== null ? time + validFor : time);
        // the day of its time, and the days after it it is still valid at the start of (their first page holds it)
        let key = dateKeyOf(time, day.zone);
        for (let k = 0; k < DAYS_FOLLOWED && key < day.key; k += 1) {
          note(type, key);
          if (calendarDay(key, day.zone).end >= validTo) break;
          key = addDaysToKey(key, 1);
        }
      }
    },
    seq: () => counter,
    since: (type, dayKey, seq) => (seen.get(`${o.store.locationId}|${type}|${dayKey}`) ?? 0) > seq,
  };
}
