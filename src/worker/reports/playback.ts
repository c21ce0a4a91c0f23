// Floor playback (issue 13 §2): a chosen local day replayed on a floor. The
// day's readings of every sensor of the floor's assets and of every location
// tag are paged like a report (runReport: bounded concurrency, the page
// cache) and kept per sensor; at a chosen instant a shadow store
// (playbackShadow.ts: every sensor cloned and set to what was known then) is
// derived by the same rules as the live floor (computeFacts, toDrawState)
// with "now" set to that instant. The live store is never touched. A replay
// is kept for a reopen only while the live records it was built from are the
// live ones; a day still running is read on from where it was read up to.

import { SELF_KEY, type AssetActions, type AssetDetail, type DrawState, type PlaybackMeta, type ViewSpec } from '../../shared/api.js';
import type { MapLayer } from '../../shared/constants.js';
import { calendarDay, isDateKey, type CalendarDay } from '../../shared/reports/calendar.js';
import { emptySkipped, type ReportProgress } from '../../shared/reports/types.js';
import type { MeasurementsQuery, MeasurementsResponse } from '../../shared/rest.js';
import { floorVisibleToRoles } from '../../shared/roles.js';
import type { Asset, Id, Role } from '../../shared/types.js';
import { createConfigResolver } from '../derive/configResolver.js';
import { computeFacts, type AssetFacts, type DeriveContext } from '../derive/assetFacts.js';
import { PERSON_TYPES } from '../store/assetMap.js';
import { legendsFor, toDrawState } from '../derive/drawState.js';
import { sensorsOf, type Store } from '../store/store.js';
import { assetDetail } from '../views/assetDetail.js';
import type { ViewSource } from '../views/viewHub.js';
import { basisOf, unchanged, type Basis } from './playbackBasis.js';
import { replayPeopleSource, replayRoomsSource, type PanelReplay } from './playbackPanels.js';
import { collector, sensorsToPage, type Replay } from './playbackReadings.js';
import { assetAt, createShadow, ownValueAfter, shadowAt, type Shadow } from './playbackShadow.js';
import { runReport, type PageCache } from './runReport.js';

export type PlaybackSpec = Extract<ViewSpec, { view: 'playback' }>;
/** a popup opened in a replay, or the People and Rooms panels beside it */
export type PlaybackAssetSpec = Extract<ViewSpec, { view: 'asset' | 'people' | 'rooms' }>;

/** A replay is read-only: nothing is booked, voted, renamed or closed in the past. */
const NO_ACTIONS: AssetActions = { book: false, cancellable: [], vote: false, rename: false, closeTicket: false, publish: false };

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

/** Replays kept for a reopen (a floor and day each): the one shown and the one before. */
const REPLAYS_KEPT = 2;
/** A replay of the day still running reads on at most this often while its slider moves past what it read. */
const READ_ON_EVERY_MS = 60_000;
/** Bumped when what a replay keeps of a page changes, so pages kept in IndexedDB by an older build are not read. */
const PAGE_FORMAT = 2;

interface Session {
  key: string;
  floorId: Id;
  day: CalendarDay;
  time: number;
  progress: ReportProgress;
  shadow: Shadow;
  config: ReturnType<typeof createConfigResolver>;
  replay: Replay;
  /** the sensors paged, per type */
  known: Map<string, Set<string>>;
  basis: Basis;
  /** the readings are complete up to this time: the day's end once it had ended when read */
  readUntil: number;
  readingOn: boolean;
  signal: { cancelled: boolean };
  /** the instant the shadow was last set to (null: not yet) */
  appliedAt: number | null;
  /** the facts of the floor's assets as last derived, kept while nothing they read or their own times changed */
  facts: Map<Id, AssetFacts | null>;
  /** the floor's assets whose showing follows the instant besides their facts: people (placed then) and tickets and voices (posted by then) */
  timed: Id[];
  /** the floor views of this replay, told which of the floor's assets may have changed at each instant */
  floorViews: Set<(changed: ReadonlySet<Id> | 'all') => void>;
}

/** The floor's assets whose showing follows the instant besides their facts: people, and tickets and voices with a posting time. */
function timedOn(shadow: Shadow, floorId: Id): Id[] {
  const out: Id[] = [];
  for (const id of shadow.store.assetsByFloor.get(floorId) ?? []) {
    const asset = shadow.store.assets.get(id);
    if (asset && (PERSON_TYPES.has(asset.type) || ownValueAfter(asset, -Infinity))) out.push(id);
  }
  return out;
}

/** The instant within the day. */
const clampTo = (day: CalendarDay, time: number) => Math.max(day.start, Math.min(day.end - 1, time));

const loading = (): ReportProgress => ({ state: 'loading', pagesLoaded: 0, pagesEstimated: 0, pagesFromCache: 0, rows: 0, elapsedMs: 0, skipped: emptySkipped(), message: null });

export function createPlaybackService(o: PlaybackOptions): PlaybackService {
  const sessions = new Map<string, Session>();
  const keyOf = (floorId: Id, day: string) => `${o.live.locationId}|${floorId}|${day}`;
  const timeZone = () => (o.live.locationId && o.live.locations.get(o.live.locationId)?.timezone) || 'UTC';

  /** The kept replay of the floor and day, made most recent; or a new one, reading the day. */
  function open(floorId: Id, dayKey: string, time: number | null): Session {
    const key = keyOf(floorId, dayKey);
    const kept = sessions.get(key);
    if (kept) {
      sessions.delete(key);
      sessions.set(key, kept);
      return kept;
    }
    const live = o.live;
    const day = calendarDay(dayKey, timeZone());
    const known = sensorsToPage(o.live, floorId);
    const shadow = createShadow(live, floorId);
    const started = o.now();
    const session: Session = {
      key, floorId, day, time: time ?? Math.min(started, day.start + 9 * 3_600_000), shadow, config: createConfigResolver(shadow.store),
      replay: { readings: new Map() }, known, basis: basisOf(live), readUntil: Math.min(started, day.end), readingOn: false,
      signal: { cancelled: false }, progress: loading(), appliedAt: null, facts: new Map(), timed: timedOn(shadow, floorId), floorViews: new Set(),
    };
    sessions.set(key, session);
    while (sessions.size > REPLAYS_KEPT) {
      const first = sessions.values().next().value!;
      first.signal.cancelled = true;
      sessions.delete(first.key);
    }
    void runReport({
      aggregator: collector(known, session.replay),
      days: [day],
      fetchPage: o.fetchPage,
      // a replay keeps battery levels and values that are not numbers, which a report's pages do not: its own cache entries
      cacheKey: (type, d, filter) => (d.end <= o.now() ? `playback|${PAGE_FORMAT}|${live.locationId}|${type}|${d.key}|${filter}` : null),
      battery: true,
      raw: true,
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

  /**
   * A replay opened again (Back to live, then Play back a day): the kept one while nothing it was built
   * from has changed (an asset added, moved or renamed, a sensor, floor or user changed make it read the
   * floor again, at the instant it was left at); a day still running reads on from where it was read up to.
   */
  function reopen(floorId: Id, dayKey: string, at: number | null): Session {
    const kept = sessions.get(keyOf(floorId, dayKey));
    // a day that could not be read (offline, an error) is read again too
    if (kept && kept.progress.state !== 'loading' && (kept.progress.state !== 'done' || !unchanged(kept.basis, o.live))) {
      kept.signal.cancelled = true;
      sessions.delete(kept.key);
      return open(floorId, dayKey, at ?? kept.time);
    }
    const s = open(floorId, dayKey, at);
    // a kept replay opened at another instant (a floor switched to during a replay) moves to it
    if (at !== null && s.time !== at) { s.time = at; if (s.progress.state === 'done') apply(s); }
    if (s.progress.state === 'done') readOn(s);
    return s;
  }

  /** Reads the readings of a day still running from where they were read up to, then shows them. */
  function readOn(s: Session): void {
    if (s.readingOn || s.readUntil >= s.day.end || s.progress.state !== 'done') return;
    const from = s.readUntil;
    const until = o.now();
    s.readingOn = true;
    void runReport({
      aggregator: collector(s.known, s.replay),
      days: [{ ...s.day, start: from }],
      fetchPage: o.fetchPage,
      cacheKey: () => null,
      battery: true,
      raw: true,
      cache: null,
      now: o.now,
      signal: s.signal,
      onWarning: () => undefined,
      onProgress: () => undefined,
    }).then((p) => {
      s.readingOn = false;
      if (p.state !== 'done') return;
      s.readUntil = Math.max(s.readUntil, Math.min(until, s.day.end));
      s.progress = { ...s.progress, rows: s.progress.rows + p.rows, pagesLoaded: s.progress.pagesLoaded + p.pagesLoaded, pagesEstimated: s.progress.pagesEstimated + p.pagesLoaded };
      apply(s);
      o.markDirty(s.key);
    });
  }

  /**
   * Sets every sensor and placed person to the instant, and tells the floor views which assets may look
   * different: those fed by a sensor set anew, the people and the posted ones, and those whose facts said
   * they change by then (`nextChangeAt`, or `continuous`: a fade, a clean-desk phase); every asset when
   * the instant went back. The others keep their facts: a step costs what changed, as a live flush does.
   */
  function apply(s: Session): void {
    const changed = shadowAt(s.shadow, s.replay.readings, s.time);
    const back = s.appliedAt === null || s.time < s.appliedAt;
    s.appliedAt = s.time;
    let keys: Set<Id> | 'all' = 'all';
    if (back) s.facts.clear();
    else {
      keys = new Set(s.timed);
      const { store } = s.shadow;
      for (const sid of changed) for (const id of store.assetsBySensor.get(sid) ?? []) keys.add(id);
      for (const a of s.shadow.placed) keys.add(a.id);
      for (const [id, f] of s.facts) if (f && (f.continuous || (f.nextChangeAt !== null && f.nextChangeAt <= s.time))) keys.add(id);
      for (const id of keys) s.facts.delete(id);
    }
    for (const view of s.floorViews) view(keys);
  }

  /** The asset's facts at the session's instant: kept ones while they hold (apply drops those that may not). */
  function factsOf(s: Session, asset: Asset, ctx: DeriveContext): AssetFacts | null {
    let f = s.facts.get(asset.id);
    if (f === undefined) s.facts.set(asset.id, (f = computeFacts(asset, ctx)));
    return f;
  }

  return {
    source(spec) {
      const at = spec.view === 'playback' ? spec : spec.playback;
      if (!at || typeof at.floorId !== 'string' || !isDateKey(at.day)) throw new TypeError('Malformed playback day');
      // the floor view decides whether a kept replay still holds; a popup or panel shows the replay the floor shows
      const first = spec.view === 'playback'
        ? reopen(at.floorId, at.day, typeof spec.at === 'number' && Number.isFinite(spec.at) ? clampTo(calendarDay(at.day, timeZone()), spec.at) : null)
        : open(at.floorId, at.day, null);
      const key = first.key;
      /** the replay of this floor and day now (a reopen may have read it again) */
      const cur = () => sessions.get(key) ?? first;
      const reachable = (s: Session) => {
        const floor = s.shadow.store.floors.get(s.floorId);
        return !!floor && floorVisibleToRoles(floor, o.roles());
      };
      const ctx = (s: Session) => ({ store: s.shadow.store, now: s.time, viewerUserId: o.viewerUserId(), roles: o.roles(), config: s.config, timeZone: timeZone() });
      /** on the floor at the instant, and posted by then */
      const shown = (s: Session, id: Id) => {
        if (s.progress.state !== 'done' || s.shadow.store.floorOf.get(id) !== s.floorId) return undefined;
        const asset = s.shadow.store.assets.get(id);
        return asset && !ownValueAfter(asset, s.time) ? asset : undefined;
      };
      const dirty = (d: Parameters<ViewSource['metaAffected']>[0]) => d.get('playback') === 'all' || !!(d.get('playback') as Set<string> | undefined)?.has(key);
      if (spec.view === 'people' || spec.view === 'rooms') {
        const panel = (): PanelReplay => {
          const s = cur();
          const store = s.shadow.store;
          return {
            store, floorId: s.floorId, time: s.time, ready: s.progress.state === 'done',
            facts(id) {
              const asset = store.assets.get(id);
              return asset && store.floorOf.has(id) ? computeFacts(asset, ctx(s)) : null;
            },
          };
        };
        return spec.view === 'people' ? replayPeopleSource(panel, o.viewerUserId, dirty) : replayRoomsSource(panel, dirty);
      }
      if (spec.view === 'asset') {
        const id = String(spec.assetId);
        return {
          keys: () => [SELF_KEY],
          entry(k): AssetDetail | undefined {
            const s = cur();
            const store = s.shadow.store;
            const asset = k === SELF_KEY && reachable(s) ? shown(s, id) : undefined;
            if (!asset) return undefined;
            const detail = assetDetail(computeFacts(assetAt(asset, s.time), ctx(s)), { store, roles: o.roles(), viewerUserId: o.viewerUserId(), now: s.time });
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
      // the assets that may have changed since the hub last asked, for this view
      let pending: Set<Id> | 'all' = 'all';
      const note = (keys: ReadonlySet<Id> | 'all') => {
        if (pending === 'all') return;
        if (keys === 'all') pending = 'all';
        else for (const k of keys) pending.add(k);
      };
      let bound = first;
      bound.floorViews.add(note);
      /** a reopen that read the floor again made a new replay: follow it, everything anew */
      const follow = () => {
        const s = cur();
        if (s === bound) return;
        bound.floorViews.delete(note);
        s.floorViews.add(note);
        bound = s;
        pending = 'all';
      };
      return {
        close: () => { bound.floorViews.delete(note); },
        keys: () => {
          const s = cur();
          return reachable(s) && s.progress.state === 'done' ? s.shadow.store.assetsByFloor.get(s.floorId) ?? [] : [];
        },
        entry(k): DrawState | undefined {
          const s = cur();
          const asset = shown(s, k);
          const facts = asset ? factsOf(s, asset, ctx(s)) : null;
          return facts ? toDrawState(facts, layers) : undefined;
        },
        meta(): PlaybackMeta {
          const s = cur();
          const store = s.shadow.store;
          const floor = reachable(s) ? store.floors.get(s.floorId) ?? null : null;
          return {
            floor, building: floor ? store.buildings.get(floor.parent_id) ?? null : null,
            legends: legendsFor(layers, s.config.location()), fromCache: false, loading: s.progress.state === 'loading',
            day: s.day.key, time: s.time, start: s.day.start, end: s.day.end, progress: s.progress,
          };
        },
        affected(d) {
          if (!dirty(d)) return null;
          follow();
          const out = pending;
          pending = new Set();
          return out === 'all' ? 'all' : out.size ? out : null;
        },
        metaAffected: dirty,
      };
    },
    setTime(floorId, day, time) {
      const s = sessions.get(keyOf(floorId, day));
      if (!s || !Number.isFinite(time)) return;
      s.time = clampTo(s.day, time);
      if (s.progress.state === 'done') {
        apply(s);
        // the slider passed what a running day was read up to: read on (not on every tick of a play)
        if (s.time > s.readUntil && o.now() - s.readUntil >= READ_ON_EVERY_MS) readOn(s);
      }
      o.markDirty(s.key);
    },
    reset() {
      for (const s of sessions.values()) s.signal.cancelled = true;
      sessions.clear();
    },
  };
}
