// Floor playback (issue 13 §2): a chosen local day replayed on a floor. The
// day's readings (occupancy, positions, air, reservations) are paged like a
// report (runReport: bounded concurrency, the page cache) and kept per
// sensor; at a chosen instant a shadow store — the live store's structure
// and assets, with clones of the replayed sensors and of the people they
// place — is derived by the same rules as the live floor (computeFacts,
// toDrawState) with "now" set to that instant. The live store is never touched.

import type { DrawState, PlaybackMeta, ViewSpec } from '../../shared/api.js';
import type { MapLayer } from '../../shared/constants.js';
import type { Aggregator } from '../../shared/reports/aggregator.js';
import { calendarDay, isDateKey, type CalendarDay } from '../../shared/reports/calendar.js';
import { COMFORT_BANDS } from '../../shared/reports/environmentReport.js';
import type { ColumnarPage } from '../../shared/reports/readings.js';
import { emptySkipped, type ReportProgress } from '../../shared/reports/types.js';
import type { MeasurementsQuery, MeasurementsResponse } from '../../shared/rest.js';
import { floorVisibleToRoles } from '../../shared/roles.js';
import type { Asset, Id, MeasurementValue, ReservationEvent, Role, Sensor } from '../../shared/types.js';
import { createConfigResolver } from '../derive/configResolver.js';
import { computeFacts } from '../derive/assetFacts.js';
import { legendsFor, toDrawState } from '../derive/drawState.js';
import { placeAsset } from '../store/located.js';
import { createStore, reindexAll, sensorIdsOf, type Store } from '../store/store.js';
import type { ViewSource } from '../views/viewHub.js';
import { runReport, type PageCache } from './runReport.js';

export type PlaybackSpec = Extract<ViewSpec, { view: 'playback' }>;

interface Replay {
  /** sensor id → its readings of the day, ascending time (the one valid at the day's start first) */
  readings: Map<Id, MeasurementValue[]>;
}

function collector(known: Map<string, Set<string>>, replay: Replay): Aggregator {
  return {
    types: [...known.keys()],
    known: (type) => known.get(type) ?? new Set(),
    numeric: (type) => type !== 'location' && type !== 'reservation',
    openDay: () => ({
      push(page: ColumnarPage) {
        for (let k = 0; k < page.n; k += 1) {
          const id = page.sensors[page.sensor[k]!]!;
          const extra = page.extras?.[k] ?? {};
          const value = page.value[k]!;
          const time = page.time[k]!;
          const reading: MeasurementValue = {
            time, valid_for: page.validTo[k]! - time, valid_to: page.validTo[k]!, battery_level: null,
            events: Array.isArray(extra.events) ? (extra.events as ReservationEvent[]) : null,
            value: Number.isNaN(value) ? (Array.isArray(extra.events) ? extra.events : null) : value,
          };
          if (typeof extra.x === 'number' && typeof extra.y === 'number') {
            reading.x = extra.x; reading.y = extra.y;
            if (extra.floor_id !== null && extra.floor_id !== undefined) reading.floor_id = String(extra.floor_id);
            if (Array.isArray(extra.zones)) reading.zones = extra.zones.map(String);
          }
          let list = replay.readings.get(id);
          if (!list) { list = []; replay.readings.set(id, list); }
          list.push(reading);
        }
      },
      finish() { /* readings stay until the playback closes */ },
    }),
    result: () => ({ rows: [], summary: null as never, measure: null }),
  };
}

/** The newest reading at or before t. */
function readingAt(list: readonly MeasurementValue[] | undefined, t: number): MeasurementValue | null {
  if (!list || list.length === 0) return null;
  let lo = 0; let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.time <= t) lo = mid + 1; else hi = mid;
  }
  return lo > 0 ? list[lo - 1]! : null;
}

/** A ticket or voice carries the time it was posted in its own value: at an earlier instant it was not there yet. */
function postedAfter(asset: Asset, time: number): boolean {
  const own = asset.value as { time?: unknown } | null;
  return !!own && typeof own === 'object' && typeof own.time === 'number' && own.time > time;
}

export interface PlaybackOptions {
  live: Store;
  roles(): readonly Role[];
  viewerUserId(): Id | null;
  fetchPage(type: string, query: MeasurementsQuery): Promise<MeasurementsResponse>;
  cache: PageCache | null;
  now(): number;
  markDirty(key: string): void;
}

export interface PlaybackService {
  source(spec: PlaybackSpec): ViewSource;
  setTime(floorId: Id, day: string, time: number): void;
  reset(): void;
}

interface Session {
  key: string;
  floorId: Id;
  day: CalendarDay;
  time: number;
  progress: ReportProgress;
  shadow: Store;
  replayed: Map<Id, Sensor>;
  placed: Asset[];
  replay: Replay;
  signal: { cancelled: boolean };
}

export function createPlaybackService(o: PlaybackOptions): PlaybackService {
  const sessions = new Map<string, Session>();
  const keyOf = (floorId: Id, day: string) => `${o.live.locationId}|${floorId}|${day}`;
  const timeZone = () => (o.live.locationId && o.live.locations.get(o.live.locationId)?.timezone) || 'UTC';

  function open(floorId: Id, dayKey: string): Session {
    const key = keyOf(floorId, dayKey);
    const existing = sessions.get(key);
    if (existing) return existing;
    const live = o.live;
    const day = calendarDay(dayKey, timeZone());
    const known = new Map<string, Set<string>>();
    const want = (type: string, id: Id) => { if (!known.has(type)) known.set(type, new Set()); known.get(type)!.add(id); };
    for (const id of live.assetsByFloor.get(floorId) ?? []) {
      const asset = live.assets.get(id);
      if (!asset) continue;
      for (const sid of sensorIdsOf(asset)) {
        const s = live.sensors.get(sid);
        if (s && !s.local && (s.type === 'occupancy' || s.type === 'reservation' || COMFORT_BANDS[s.type])) want(s.type, sid);
      }
    }
    // people come and go: every located tag may stand on this floor that day
    for (const s of live.sensors.values()) if (s.type === 'location' && !s.local) want('location', s.id);

    const shadow = createStore();
    for (const name of ['organizations', 'locations', 'buildings', 'floors', 'users', 'externalObjects', 'notifications'] as const) {
      for (const [k, v] of live[name] as Map<Id, unknown>) (shadow[name] as Map<Id, unknown>).set(k, v);
    }
    shadow.locationId = live.locationId;
    shadow.organizationId = live.organizationId;
    for (const [k, v] of live.userByTag) shadow.userByTag.set(k, v);
    for (const [k, v] of live.tagOfUser) shadow.tagOfUser.set(k, v);
    const replayed = new Map<Id, Sensor>();
    for (const [id, s] of live.sensors) {
      const replayedType = known.get(s.type)?.has(id);
      const clone = replayedType ? { ...s, last_measurement: null, previous_measurement: null, value: null } : s;
      shadow.sensors.set(id, clone);
      if (replayedType) replayed.set(id, clone);
    }
    const placed: Asset[] = [];
    for (const [id, a] of live.assets) {
      const byLocation = sensorIdsOf(a).some((sid) => live.sensors.get(sid)?.type === 'location' && known.get('location')?.has(sid));
      const asset = byLocation ? { ...a } : a;
      shadow.assets.set(id, asset);
      if (byLocation) placed.push(asset);
    }
    reindexAll(shadow);
    const session: Session = {
      key, floorId, day, time: Math.min(o.now(), day.start + 9 * 3_600_000), shadow, replayed, placed,
      replay: { readings: new Map() }, signal: { cancelled: false },
      progress: { state: 'loading', pagesLoaded: 0, pagesEstimated: 0, pagesFromCache: 0, rows: 0, elapsedMs: 0, skipped: emptySkipped(), message: null },
    };
    sessions.set(key, session);
    while (sessions.size > 2) {
      const first = sessions.values().next().value!;
      first.signal.cancelled = true;
      sessions.delete(first.key);
    }
    void runReport({
      aggregator: collector(known, session.replay),
      days: [day],
      fetchPage: o.fetchPage,
      cacheKey: (type, d, filter) => (d.end <= o.now() ? `${live.locationId}|${type}|${d.key}|${filter}` : null),
      cache: o.cache,
      now: o.now,
      signal: session.signal,
      onWarning: () => undefined,
      onProgress(p) { session.progress = p; o.markDirty(key); },
    }).then((p) => {
      session.progress = p;
      apply(session);
      o.markDirty(key);
    });
    return session;
  }

  /** Sets every replayed sensor and placed person to the instant. */
  function apply(s: Session): void {
    for (const [id, sensor] of s.replayed) {
      const list = s.replay.readings.get(id);
      const at = readingAt(list, s.time);
      sensor.last_measurement = at;
      sensor.value = at ? at.value : null;
      sensor.last_communication_time = at ? at.time : null;
    }
    for (const asset of s.placed) {
      let best: MeasurementValue | null = null;
      for (const sid of sensorIdsOf(asset)) {
        const v = s.replayed.get(sid)?.last_measurement;
        if (v && typeof v.x === 'number' && (!best || v.time > best.time)) best = v;
      }
      if (best && best.valid_to > s.time) placeAsset(s.shadow, asset, best);
      else if (s.shadow.floorOf.get(asset.id) === s.floorId) {
        // nobody placed it at this instant: it is not on the floor
        s.shadow.assetsByFloor.get(s.floorId)?.delete(asset.id);
        s.shadow.floorOf.delete(asset.id);
      }
    }
  }

  return {
    source(spec) {
      if (!isDateKey(spec.day)) throw new TypeError('Malformed playback day');
      const layers = new Set<MapLayer>(Array.isArray(spec.layers) ? spec.layers : []);
      const s = open(spec.floorId, spec.day);
      const config = createConfigResolver(s.shadow);
      const reachable = () => {
        const floor = s.shadow.floors.get(s.floorId);
        return !!floor && floorVisibleToRoles(floor, o.roles());
      };
      const ctx = () => ({ store: s.shadow, now: s.time, viewerUserId: o.viewerUserId(), roles: o.roles(), config, timeZone: timeZone() });
      return {
        keys: () => (reachable() && s.progress.state === 'done' ? s.shadow.assetsByFloor.get(s.floorId) ?? [] : []),
        entry(key): DrawState | undefined {
          if (s.progress.state !== 'done' || s.shadow.floorOf.get(key) !== s.floorId) return undefined;
          const asset = s.shadow.assets.get(key);
          if (asset && postedAfter(asset, s.time)) return undefined;
          const facts = asset ? computeFacts(asset, ctx()) : null;
          return facts ? toDrawState(facts, layers) : undefined;
        },
        meta(): PlaybackMeta {
          const floor = reachable() ? s.shadow.floors.get(s.floorId) ?? null : null;
          return {
            floor, building: floor ? s.shadow.buildings.get(floor.parent_id) ?? null : null,
            legends: legendsFor(layers, config.location()), fromCache: false, loading: s.progress.state === 'loading',
            day: s.day.key, time: s.time, start: s.day.start, end: s.day.end, progress: s.progress,
          };
        },
        affected: (d) => (d.get('playback') === 'all' || (d.get('playback') as Set<string> | undefined)?.has(s.key) ? 'all' : null),
        metaAffected: (d) => d.get('playback') === 'all' || !!(d.get('playback') as Set<string> | undefined)?.has(s.key),
      };
    },
    setTime(floorId, day, time) {
      const s = sessions.get(keyOf(floorId, day));
      if (!s || !Number.isFinite(time)) return;
      s.time = Math.max(s.day.start, Math.min(s.day.end - 1, time));
      if (s.progress.state === 'done') apply(s);
      o.markDirty(s.key);
    },
    reset() {
      for (const s of sessions.values()) s.signal.cancelled = true;
      sessions.clear();
    },
  };
}
