// Floor playback (issue 13 §2): a chosen local day replayed on a floor. The
// day's readings of every sensor of the floor's assets and of every location
// tag are paged like a report (runReport: bounded concurrency, the page
// cache) and kept per sensor; at a chosen instant a shadow store
// (playbackShadow.ts: every sensor cloned and set to what was known then) is
// derived by the same rules as the live floor (computeFacts, toDrawState)
// with "now" set to that instant. The live store is never touched. A replay
// is kept for a reopen only while the live records it was built from are the
// live ones; a day still running is read on from where it was read up to.
// This file keeps the replays and reads their days; a replay's state and its
// step are in playbackSession.ts, the views it is seen through in
// playbackSources.ts.

import { calendarDay, isDateKey } from '../../shared/reports/calendar.js';
import { allReportsAllowed, historyReaders, historyRefusal, historyReportsOf } from '../../shared/reports/historyAccess.js';
import type { MeasurementsQuery, MeasurementsResponse } from '../../shared/rest.js';
import type { Id, MeasurementValue, Role } from '../../shared/types.js';
import { createConfigResolver } from '../derive/configResolver.js';
import { normalizeMeasurementValue } from '../../shared/normalize/sensor.js';
import { isRecord, toId, toTime } from '../../shared/normalize/primitives.js';
import type { Logger, SinkChange } from '../ports.js';
import type { Store } from '../store/store.js';
import type { ViewSource } from '../views/viewHub.js';
import { basisOf, unchanged } from './playbackBasis.js';
import { collector, mergeBeforeDay, mergeReading, sensorsToPage } from './playbackReadings.js';
import { createShadow } from './playbackShadow.js';
import { applyInstant, clampTo, loading, prepareStep, timedOn, type Session, type StepEnv } from './playbackSession.js';
import { deriveContext, replaySource, type PlaybackAssetSpec, type PlaybackSpec } from './playbackSources.js';
import { replayPagesKey, runReport, type LateDays, type PageCache } from './runReport.js';
import type { LateReadings } from './lateReadings.js';

export interface PlaybackOptions {
  live: Store;
  roles(): readonly Role[];
  viewerUserId(): Id | null;
  fetchPage(type: string, query: MeasurementsQuery): Promise<MeasurementsResponse>;
  cache: PageCache | null;
  now(): number;
  markDirty(key: string): void;
  /** runs `fn` in a task of its own, after the live work waiting (the engine's clock, 0 ms) */
  defer(fn: () => void): void;
  /** the longest slice of a step's derivation (STEP_SLICE_MS unless a test says) */
  sliceMs?: number;
  /** late readings of closed days seen live: they drop those days' kept pages (takeLive hands them the live changes) */
  late?: LateReadings & LateDays;
}

export interface PlaybackService {
  source(spec: PlaybackSpec | PlaybackAssetSpec): ViewSource;
  setTime(floorId: Id, day: string, time: number): void;
  /**
   * Live changes as they are applied: a reading of a sensor a kept replay paged, dated before the end of
   * its day, goes into it, a late one too (the live store keeps only newer ones), so a replay of today
   * shows what the server's history holds for its instant. A reading dated in a closed day drops the pages
   * kept of that day (`late`), so it is read again when next opened.
   */
  takeLive(changes: readonly SinkChange[]): void;
  /** The location was loaded again after a gap of the live stream: replays of a day still running read it again. */
  liveReloaded(): void;
  reset(): void;
}

/** Live readings were checked (and warned about) by the live path already. */
const SILENT: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** A step's derivation runs in slices this long at most: the worker's live work goes between them. */
const STEP_SLICE_MS = 12;

/** Replays kept for a reopen (a floor and day each): the one shown and the one before. */
const REPLAYS_KEPT = 2;
/** A replay of the day still running reads on at most this often while its slider moves past what it read. */
const READ_ON_EVERY_MS = 60_000;

export function createPlaybackService(o: PlaybackOptions): PlaybackService {
  const sessions = new Map<string, Session>();
  const keyOf = (floorId: Id, day: string) => `${o.live.locationId}|${floorId}|${day}`;
  const timeZone = () => (o.live.locationId && o.live.locations.get(o.live.locationId)?.timezone) || 'UTC';
  const env = { roles: o.roles, viewerUserId: o.viewerUserId, timeZone };
  const stepEnv: StepEnv = { now: o.now, defer: o.defer, sliceMs: o.sliceMs ?? STEP_SLICE_MS, markDirty: o.markDirty, ctx: (s) => deriveContext(s, env) };
  /** A replay no longer kept: no page asked for it, no slice of a step derived for it. */
  const drop = (s: Session) => {
    s.signal.cancelled = true;
    if (!s.preparing) return;
    // a view still on it (until it follows another) is not left waiting: it derives what it reads itself
    s.preparing.cancelled = true;
    s.preparing = null;
    const held = s.held;
    s.held = null;
    s.drawnAt = s.time;
    if (held) for (const view of s.floorViews.keys()) view(held);
  };
  /** Sets the replay to its instant; its floor views are told once what the step marked is derived. */
  const step = (s: Session) => {
    applyInstant(s);
    prepareStep(s, stepEnv);
  };

  /**
   * Which sensors' history the user may replay: what a report reads only while they may view one of the
   * reports reading it (the server refuses the rest, docs/security.md "Report roles"). Every sensor while
   * the roles are not known yet: the server decides then.
   */
  function historyGate(): (id: Id) => boolean {
    const roles = o.roles();
    const gates = createConfigResolver(o.live).location().reportViewingRolesAtLeast;
    if (roles.length === 0 || allReportsAllowed(roles, gates)) return () => true;
    const readers = historyReaders(o.live.assets.values(), (id) => o.live.sensors.get(id)?.type);
    return (id) => {
      const sensor = o.live.sensors.get(id);
      return !sensor || !historyRefusal(historyReportsOf(id, sensor, readers), roles, gates);
    };
  }

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
    const known = sensorsToPage(o.live, floorId, historyGate());
    const shadow = createShadow(live, floorId);
    const started = o.now();
    const session: Session = {
      key, floorId, day, time: time ?? Math.min(started, day.start + 9 * 3_600_000), shadow, config: createConfigResolver(shadow.store),
      replay: { readings: new Map(), touched: new Set() }, known, basis: basisOf(live), readUntil: Math.min(started, day.end), readingOn: false,
      paged: new Set([...known.values()].flatMap((ids) => [...ids])), late: false, gap: false,
      signal: { cancelled: false }, progress: loading(), appliedAt: null, facts: new Map(), stale: new Set(), timed: timedOn(shadow, floorId), floorViews: new Map(), sensorLayers: null, coldFor: null, drawnAt: null, held: null, preparing: null,
      settingFrom: null, setAnew: { changed: [], repeated: [] },
    };
    sessions.set(key, session);
    while (sessions.size > REPLAYS_KEPT) {
      const first = sessions.values().next().value!;
      drop(first);
      sessions.delete(first.key);
    }
    void runReport({
      aggregator: collector(known, session.replay),
      days: [day],
      fetchPage: o.fetchPage,
      // a replay keeps battery levels and values that are not numbers, which a report's pages do not: its own cache entries
      cacheKey: (type, d, filter) => (d.end <= o.now() ? replayPagesKey(live.locationId, type, d.key, filter) : null),
      late: o.late ?? undefined,
      battery: true,
      raw: true,
      cache: o.cache,
      now: o.now,
      signal: session.signal,
      onWarning: () => undefined,
      onProgress(p) { session.progress = p; o.markDirty(key); },
    }).then((p) => {
      session.progress = p;
      step(session);
      o.markDirty(key);
      // the live stream had a gap while the day was read: read it again
      if (session.gap) readOn(session);
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
      drop(kept);
      sessions.delete(kept.key);
      return open(floorId, dayKey, at ?? kept.time);
    }
    const s = open(floorId, dayKey, at);
    // a kept replay opened at another instant (a floor switched to during a replay) moves to it
    if (at !== null && s.time !== at) { s.time = at; if (s.progress.state === 'done') step(s); }
    if (s.progress.state === 'done') readOn(s);
    return s;
  }

  /**
   * Reads the readings of a day still running from where they were read up to, then shows them; after a
   * gap of the live stream, the whole day again (a late reading sent meanwhile may be dated anywhere in it).
   */
  function readOn(s: Session): void {
    if (s.readingOn || s.readUntil >= s.day.end || s.progress.state !== 'done') return;
    const whole = s.gap;
    s.gap = false;
    const from = whole ? s.day.start : s.readUntil;
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
      if (p.state !== 'done') {
        if (whole) s.gap = true;
        return;
      }
      s.readUntil = Math.max(s.readUntil, Math.min(until, s.day.end));
      // a day read again whole counts its rows once
      const rows = whole ? p.rows : s.progress.rows + p.rows;
      s.progress = { ...s.progress, rows, pagesLoaded: s.progress.pagesLoaded + p.pagesLoaded, pagesEstimated: s.progress.pagesEstimated + p.pagesLoaded };
      step(s);
      o.markDirty(s.key);
      // another gap while it read
      if (s.gap) readOn(s);
    });
  }

  /** The replay as its views read it: late live readings that reached its instant shown first. */
  function settle(s: Session): Session {
    if (s.late && s.progress.state === 'done') step(s);
    return s;
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
      return replaySource(spec, key, () => settle(sessions.get(key) ?? first), env);
    },
    setTime(floorId, day, time) {
      const s = sessions.get(keyOf(floorId, day));
      if (!s || !Number.isFinite(time)) return;
      s.time = clampTo(s.day, time);
      if (s.progress.state === 'done') {
        step(s);
        // the slider passed what a running day was read up to: read on (not on every tick of a play)
        if (s.time > s.readUntil && o.now() - s.readUntil >= READ_ON_EVERY_MS) readOn(s);
      }
      o.markDirty(s.key);
    },
    takeLive(changes) {
      o.late?.take(changes);
      if (sessions.size === 0) return;
      for (const change of changes) {
        if (change.collection !== 'measurements' || (change.kind !== 'created' && change.kind !== 'modified') || !isRecord(change.data)) continue;
        const id = toId(change.data.sensor_id);
        const raw = change.data.value;
        const time = isRecord(raw) ? toTime(raw.time) : null;
        if (id === null || time === null) continue;
        let reading: MeasurementValue | null | undefined;
        for (const s of sessions.values()) {
          // only a sensor it paged, and a reading of its day or before (the one valid at its start)
          const sensor = s.paged.has(id) && time < s.day.end ? s.shadow.store.sensors.get(id) : undefined;
          if (!sensor) continue;
          if (reading === undefined) {
            reading = normalizeMeasurementValue(raw, { sensorId: id, type: sensor.type }, { logger: SILENT });
            // as the pages keep it: a reservation's events are its value
            if (reading && reading.value === null && reading.events) reading.value = reading.events;
          }
          if (!reading) break;
          if (time < s.day.start) mergeBeforeDay(s.replay, id, reading, s.day.start);
          else mergeReading(s.replay, id, reading);
          if (time <= s.time && !s.late) { s.late = true; o.markDirty(s.key); }
        }
      }
    },
    liveReloaded() {
      for (const s of sessions.values()) {
        if (s.readUntil >= s.day.end) continue;
        s.gap = true;
        readOn(s);
      }
    },
    reset() {
      for (const s of sessions.values()) drop(s);
      sessions.clear();
    },
  };
}
