// Floor playback (issue 13 §2): a chosen local day replayed on a floor. The
// day's readings of every sensor of the floor's assets and of every location
// tag are paged like a report (runReport: bounded concurrency, the page
// cache) and kept per sensor; at a chosen instant a shadow store
// (playbackShadow.ts: every sensor cloned and set to what was known then) is
// derived by the same rules as the live floor (computeFacts, toDrawState)
// with "now" set to that instant. The live store is never touched.

import { SELF_KEY, type AssetActions, type AssetDetail, type DrawState, type PlaybackMeta, type ViewSpec } from '../../shared/api.js';
import type { MapLayer } from '../../shared/constants.js';
import type { Aggregator } from '../../shared/reports/aggregator.js';
import { calendarDay, isDateKey, type CalendarDay } from '../../shared/reports/calendar.js';
import { COMFORT_BANDS } from '../../shared/reports/environmentReport.js';
import { isOccupancySensorType, LOCATION_SENSOR_TYPE } from '../../shared/kinds.js';
import type { ColumnarPage } from '../../shared/reports/readings.js';
import { emptySkipped, type ReportProgress } from '../../shared/reports/types.js';
import type { MeasurementsQuery, MeasurementsResponse } from '../../shared/rest.js';
import { floorVisibleToRoles } from '../../shared/roles.js';
import type { Id, MeasurementValue, ReservationEvent, Role } from '../../shared/types.js';
import { createConfigResolver } from '../derive/configResolver.js';
import { computeFacts } from '../derive/assetFacts.js';
import { legendsFor, toDrawState } from '../derive/drawState.js';
import { sensorIdsOf, sensorsOf, type Store } from '../store/store.js';
import { assetDetail } from '../views/assetDetail.js';
import type { ViewSource } from '../views/viewHub.js';
import { assetAt, createShadow, ownValueAfter, shadowAt, type Shadow } from './playbackShadow.js';
import { runReport, type PageCache } from './runReport.js';

export type PlaybackSpec = Extract<ViewSpec, { view: 'playback' }>;
/** a popup opened in a replay */
export type PlaybackAssetSpec = Extract<ViewSpec, { view: 'asset' }>;

/** A replay is read-only: nothing is booked, voted, renamed or closed in the past. */
const NO_ACTIONS: AssetActions = { book: false, cancellable: [], vote: false, rename: false, closeTicket: false, publish: false };

interface Replay {
  /** sensor id → its readings of the day, ascending time (the one valid at the day's start first) */
  readings: Map<Id, MeasurementValue[]>;
}

function collector(known: Map<string, Set<string>>, replay: Replay): Aggregator {
  return {
    types: [...known.keys()],
    known: (type) => known.get(type) ?? new Set(),
    // occupancy and air are numbers (a bad row is skipped, as reports do); other types may carry anything
    numeric: (type) => isOccupancySensorType(type) || !!COMFORT_BANDS[type],
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
  source(spec: PlaybackSpec | PlaybackAssetSpec): ViewSource;
  setTime(floorId: Id, day: string, time: number): void;
  reset(): void;
}

interface Session {
  key: string;
  floorId: Id;
  day: CalendarDay;
  time: number;
  progress: ReportProgress;
  shadow: Shadow;
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
        // every sensor the floor's assets read: what is not paged could only be shown as unknown
        if (s && !s.local) want(s.type, sid);
      }
    }
    // people come and go: every located tag may stand on this floor that day
    for (const s of live.sensors.values()) if (s.type === LOCATION_SENSOR_TYPE && !s.local) want(LOCATION_SENSOR_TYPE, s.id);

    const shadow = createShadow(live, floorId);
    const session: Session = {
      key, floorId, day, time: Math.min(o.now(), day.start + 9 * 3_600_000), shadow,
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
      // a replay keeps battery levels, which a report's pages do not: its own cache entries
      cacheKey: (type, d, filter) => (d.end <= o.now() ? `playback|${live.locationId}|${type}|${d.key}|${filter}` : null),
      battery: true,
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

  /** Sets every sensor and placed person to the instant. */
  function apply(s: Session): void {
    shadowAt(s.shadow, s.replay.readings, s.time);
  }

  return {
    source(spec) {
      const at = spec.view === 'asset' ? spec.playback : spec;
      if (!at || typeof at.floorId !== 'string' || !isDateKey(at.day)) throw new TypeError('Malformed playback day');
      const s = open(at.floorId, at.day);
      const store = s.shadow.store;
      const config = createConfigResolver(store);
      const reachable = () => {
        const floor = store.floors.get(s.floorId);
        return !!floor && floorVisibleToRoles(floor, o.roles());
      };
      const ctx = () => ({ store, now: s.time, viewerUserId: o.viewerUserId(), roles: o.roles(), config, timeZone: timeZone() });
      /** on the floor at the instant, and posted by then */
      const shown = (id: Id) => {
        if (s.progress.state !== 'done' || store.floorOf.get(id) !== s.floorId) return undefined;
        const asset = store.assets.get(id);
        return asset && !ownValueAfter(asset, s.time) ? asset : undefined;
      };
      const dirty = (d: Parameters<ViewSource['metaAffected']>[0]) => d.get('playback') === 'all' || !!(d.get('playback') as Set<string> | undefined)?.has(s.key);
      if (spec.view === 'asset') {
        const id = String(spec.assetId);
        return {
          keys: () => [SELF_KEY],
          entry(key): AssetDetail | undefined {
            const asset = key === SELF_KEY && reachable() ? shown(id) : undefined;
            if (!asset) return undefined;
            const detail = assetDetail(computeFacts(assetAt(asset, s.time), ctx()), { store, roles: o.roles(), viewerUserId: o.viewerUserId(), now: s.time });
            if (!detail) return undefined;
            // none of its sensors had sent anything by then: the popup's own "No recent data" says so
            const sensors = sensorsOf(store, asset);
            const nothingKnown = sensors.length > 0 && sensors.every((x) => x.last_measurement === null);
            return { ...detail, noRecentData: detail.noRecentData || nothingKnown, votes: null, actions: NO_ACTIONS, replayAt: s.time };
          },
          meta: () => null,
          affected: (d) => (dirty(d) ? [SELF_KEY] : null),
          metaAffected: () => false,
        };
      }
      const layers = new Set<MapLayer>(Array.isArray(spec.layers) ? spec.layers : []);
      return {
        keys: () => (reachable() && s.progress.state === 'done' ? store.assetsByFloor.get(s.floorId) ?? [] : []),
        entry(key): DrawState | undefined {
          const asset = shown(key);
          const facts = asset ? computeFacts(asset, ctx()) : null;
          return facts ? toDrawState(facts, layers) : undefined;
        },
        meta(): PlaybackMeta {
          const floor = reachable() ? store.floors.get(s.floorId) ?? null : null;
          return {
            floor, building: floor ? store.buildings.get(floor.parent_id) ?? null : null,
            legends: legendsFor(layers, config.location()), fromCache: false, loading: s.progress.state === 'loading',
            day: s.day.key, time: s.time, start: s.day.start, end: s.day.end, progress: s.progress,
          };
        },
        affected: (d) => (d.get('playback') === 'all' || (d.get('playback') as Set<string> | undefined)?.has(s.key) ? 'all' : null),
        metaAffected: dirty,
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
