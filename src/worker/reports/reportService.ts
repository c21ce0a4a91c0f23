// Reports as views (DESIGN §4, §9): a `report` subscription starts (or
// joins) the run of its request on the loaded location; the view's entries
// are the table rows, its meta the progress, summary and layer measure.
// Runs are kept for a few requests, so reopening one answers at once;
// cancelling stops paging, and so does closing its last view (a period being
// typed day by day leaves no run behind); closed days' pages live in the
// page cache, so a run started again skips what it had read. A view opened
// before the location's live load (a shared link opened at sign-in) waits,
// saying so, and starts when the assets are there: a report of an empty store
// would be a report of nothing. While the server cannot be reached (a reopen
// offline) the wait says that it needs the connection, not that it loads.

import type { ViewSpec } from '../../shared/api.js';
import { reportAccess } from '../../shared/reports/access.js';
import { calendarDays, dateKeyOf } from '../../shared/reports/calendar.js';
import { emptySkipped, REPORT_WAITING, REPORT_WAITING_OFFLINE, type ReportMeta, type ReportRequest, type ReportRow } from '../../shared/reports/types.js';
import type { MeasurementsQuery, MeasurementsResponse } from '../../shared/rest.js';
import type { Role } from '../../shared/types.js';
import type { ResolvedConfig } from '../../shared/config.js';
import { REALTIME_TIMELINE_INTERVAL_MS } from '../../shared/constants.js';
import type { Id } from '../../shared/types.js';
import type { Store } from '../store/store.js';
import type { Dirty, ViewSource } from '../views/viewHub.js';
import { createScopedAggregator } from './reportScope.js';
import { addMarks } from './reportMarks.js';
import { reportPagesKey, runReport, type LateDays, type PageCache } from './runReport.js';
import { normalizeRequest } from './reportRequest.js';
import { approxBytes } from './approxBytes.js';
import type { RoomBookingsChange } from './liveBookings.js';

/**
 * Runs kept for a reopen once no view is open on them: at most this many, and about this many bytes of rows
 * and charts, least recently opened going first (docs/reports.md "Kept in memory"). A run a view is open on
 * is never dropped, whatever it takes; a dropped one is read again when reopened (closed days from the page cache).
 */
export const KEPT_RUNS = 8;
export const KEPT_RUNS_BYTES = 32 * 2 ** 20;

/**
 * A kept run whose period reaches today is read again when a view opens on it (none open meanwhile) this long
 * after it began reading: today's readings still come in (a booking ended, a room used). The live views
 * re-derive what changes with time as often (the realtime timeline); closed days come from the page cache,
 * so a re-read asks for today's pages only (docs/reports.md "Kept runs and today").
 */
export const TODAY_REREAD_AFTER_MS = REALTIME_TIMELINE_INTERVAL_MS;

/**
 * A run counts as holding a live change only when it began reading this long after the change's time: the
 * change is dated by the server's clock, the run by ours corrected by the time sync, which is off by up to
 * half that sync's round trip (hundreds of ms on a loaded machine). One that began closer is read again.
 */
export const READ_AFTER_MARGIN_MS = 5_000;

/** The scheduler's key of a run's next booking end (`wakeAt`), followed by the run's key. */
export const BOOKING_END_KEY = 'report:booking-end:';

/**
 * When a room report's answer goes out of date by the clock alone: the first end, after it began reading at
 * `readAt`, of a booking it read as running ("unknown": its outcome open) or to come (left out of "Earlier"), or
 * cancelled for later (listed once its planned end is over). Infinity when none is ahead.
 */
export function nextBookingEnd(rows: Iterable<ReportRow>, readAt: number): number {
  let next = Infinity;
  for (const row of rows) {
    if (row.kind !== 'room') continue;
    for (const b of row.items) {
      const end = b.class === 'removed' ? b.plannedEnd : b.class === 'unknown' || b.class === 'upcoming' ? b.actualEnd : Infinity;
      if (end > readAt && end < next) next = end;
    }
  }
  return next;
}

export interface ReportServiceOptions {
  store: Store;
  config(): ResolvedConfig;
  roles(): readonly Role[];
  /** the settings' permission list, or undefined when the settings carried none */
  permissions(): unknown;
  now(): number;
  fetchPage(type: string, query: MeasurementsQuery): Promise<MeasurementsResponse>;
  cache: PageCache | null;
  /** a run's view changed; null: every report view */
  markDirty(key: string | null): void;
  /** the location's assets are in the store (its live load arrived): a report of an empty store would be empty */
  ready(): boolean;
  /** the signed-in user's settings are there (also from the saved session): the role gate can answer */
  rolesKnown(): boolean;
  /** the server cannot be reached now (offline, or retrying after a failed attempt): a waiting view says so */
  offline(): boolean;
  warn(message: string): void;
  /** the bounds of the runs kept (KEPT_RUNS, KEPT_RUNS_BYTES unless a test says) */
  kept?: { runs?: number; bytes?: number };
  /** late readings of closed days seen live: a kept run covering one is run again when reopened */
  late?: LateDays;
  /**
   * calls `task` at `at` (the engine's one scheduler, on the corrected clock), replacing what was set under `key`:
   * a room report of today a view is open on is read again when a booking it read as not over ends
   */
  wakeAt?(key: string, at: number, task: () => void): void;
}

interface Run {
  key: string;
  request: ReportRequest;
  rows: Map<string, ReportRow>;
  meta: ReportMeta;
  signal: { cancelled: boolean };
  /** about what its rows and charts take in memory, once done */
  bytes: number;
  /** what it read, for late readings: the sensor types, the days, and the late-days counter when it began */
  types: readonly string[];
  days: readonly string[];
  lateSeq: number;
}

export interface ReportService {
  source(spec: Extract<ViewSpec, { view: 'report' }>): ViewSource;
  cancel(request: ReportRequest): void;
  /** runs a cancelled or failed report again, in place: its open views follow the new run */
  retry(request: ReportRequest): void;
  /**
   * the location's assets are in the store now (a first live load, or a reload after a reconnect): open views
   * waiting for them start (or join) their runs, and a run that failed (the network dropped while it paged)
   * starts again for the views still open on it
   */
  locationReady(): void;
  /** sign-out, location change: stop and forget every run; open views wait for the next location */
  reset(): void;
  /**
   * the signed-in user booked or cancelled a booking of this room (the server said yes): room reports that
   * read today and cover the room are read again, at once for the views open on them, at their next opening
   * for the others
   */
  bookingsChanged(roomId: Id): void;
  /**
   * whether a room report of today has a view open on it: only then do live reservation readings need
   * looking at (`bookingsChangedLive`), so the ingest path pays nothing while no popup or panel shows one
   */
  followsBookings(): boolean;
  /**
   * the live stream changed these rooms' past bookings (another person ended, extended or removed one;
   * liveBookings.ts), each as of its reading's time `at`: room reports of today that cover a room and a view
   * is open on are read again at once, unless they began reading after `at`; kept ones at their next opening
   */
  bookingsChangedLive(changes: readonly RoomBookingsChange[]): void;
}

/** An open report view: its request, and the run it follows once the location is there. */
interface OpenView {
  request: ReportRequest;
  bound: { key: string; run: Run } | null;
}

export function createReportService(o: ReportServiceOptions): ReportService {
  const runs = new Map<string, Run>();
  /** open views per run key: a run still paging when its last view closes is cancelled */
  const watchers = new Map<string, number>();
  const views = new Set<OpenView>();
  const keyOf = (request: ReportRequest) => `${o.store.locationId}|${JSON.stringify(request)}`;
  /** when each run began reading (its today is as of then) */
  const readAt = new WeakMap<Run, number>();
  const maxRuns = o.kept?.runs ?? KEPT_RUNS;
  const maxBytes = o.kept?.bytes ?? KEPT_RUNS_BYTES;

  /** A run opened: the most recently used of the kept ones. */
  function touch(run: Run): void {
    runs.delete(run.key);
    runs.set(run.key, run);
  }

  /** Drops the least recently opened runs no view is open on while more are kept than the bounds allow. */
  function trim(): void {
    let count = runs.size;
    let bytes = 0;
    for (const run of runs.values()) bytes += run.bytes;
    // oldest first (touch moves a run to the end); deleting the entry iterated is safe in a Map
    for (const [key, run] of runs) {
      if (count <= maxRuns && bytes <= maxBytes) break;
      if ((watchers.get(key) ?? 0) > 0) continue;
      runs.delete(key);
      count -= 1;
      bytes -= run.bytes;
    }
  }

  function unwatch(key: string): void {
    const left = (watchers.get(key) ?? 1) - 1;
    if (left > 0) { watchers.set(key, left); return; }
    watchers.delete(key);
    // nobody looks at it any more: stop paging (closed days already read stay in the page cache)
    const run = runs.get(key);
    if (run?.meta.progress.state === 'loading') run.signal.cancelled = true;
    // kept for a reopen now only while the bounds allow
    trim();
  }

  /** A late reading came live for a closed day the run had read, after it began reading. */
  function readLate(run: Run): boolean {
    const late = o.late;
    if (!late || late.seq() === run.lateSeq) return false;
    for (const type of run.types) for (const day of run.days) if (late.since(type, day, run.lateSeq)) return true;
    return false;
  }

  /** Whether a run's period reaches today (whose readings still come in), in the location's zone. */
  function readsToday(run: Run): boolean {
    return run.request.period.to >= dateKeyOf(o.now(), run.meta.timeZone);
  }

  /** A done run of today's readings no view is open on, read long enough ago: dropped, so the opening view starts it anew. */
  function dropIfStale(request: ReportRequest): void {
    if (!o.ready() || !o.store.locationId) return;
    const key = keyOf(request);
    const run = runs.get(key);
    if (!run || (watchers.get(key) ?? 0) > 0 || run.meta.progress.state !== 'done' || !readsToday(run)) return;
    const at = readAt.get(run);
    // a minute on, or a booking it read as not over has ended since (its "Earlier" would lack it)
    if (at !== undefined && (o.now() - at >= TODAY_REREAD_AFTER_MS || nextBookingEnd(run.rows.values(), at) <= o.now())) runs.delete(key);
  }

  /**
   * A done room report of today a view is open on: read again when the first booking it read as not over ends,
   * so an open popup lists it under "Earlier" with how it went, as it leaves "Coming up" (the live sensor).
   */
  function followEnds(run: Run): void {
    const at = readAt.get(run);
    if (!o.wakeAt || at === undefined || run.request.kind !== 'room' || run.meta.progress.state !== 'done' || !readsToday(run)) return;
    const end = nextBookingEnd(run.rows.values(), at);
    if (end === Infinity) return;
    o.wakeAt(`${BOOKING_END_KEY}${run.key}`, end, () => {
      // closed meanwhile (read at its next opening, dropIfStale), or replaced by a newer run: nothing to do
      if (runs.get(run.key) === run && (watchers.get(run.key) ?? 0) > 0) restart(run.request, run.key);
    });
  }

  /** The role gate of spec §6 for a request: the user's permissions against the configured minimum role of its kind. */
  const accessTo = (request: ReportRequest, config: ResolvedConfig) =>
    reportAccess({ permissions: o.permissions() }, config.reportViewingRolesAtLeast?.[request.kind]);

  /** Binds a view to its run on the loaded location, starting the run unless one is going or done. */
  function bind(view: OpenView): void {
    if (!o.ready() || !o.store.locationId) return;
    const key = keyOf(view.request);
    if (view.bound?.key === key) return;
    if (view.bound) unwatch(view.bound.key);
    let run = runs.get(key);
    if (run && run.meta.progress.state === 'done' && readLate(run)) {
      // a late reading came for a day it had read: read again (its open views follow the new run)
      runs.delete(key);
      run = start(view.request, key);
      o.markDirty(key);
    } else if (!run || run.meta.progress.state === 'cancelled' || run.meta.progress.state === 'error') run = start(view.request, key);
    else touch(run);
    watchers.set(key, (watchers.get(key) ?? 0) + 1);
    view.bound = { key, run };
    followEnds(run);
    trim();
  }

  /** A view waiting for the location: refused at once when the role gate refuses it, else why it waits. */
  function waiting(request: ReportRequest): ReportMeta {
    const config = o.config();
    const location = o.store.locationId ? o.store.locations.get(o.store.locationId) : undefined;
    // before sign-in (a shared link) nobody's roles are known yet: it waits
    const access = o.rolesKnown() ? accessTo(request, config) : { ok: true as const };
    return {
      request, timeZone: location?.timezone || 'UTC', hourStart: config.hourStart, hourEnd: config.hourEnd, summary: null, measure: null,
      progress: {
        state: access.ok ? 'loading' : 'denied', pagesLoaded: 0, pagesEstimated: 0, pagesFromCache: 0, rows: 0, elapsedMs: 0, skipped: emptySkipped(),
        message: !access.ok ? access.message : o.offline() ? REPORT_WAITING_OFFLINE : REPORT_WAITING,
      },
    };
  }

  /** a failed or cancelled run again under its key: its open views follow the new run */
  function restart(request: ReportRequest, key: string): void {
    runs.delete(key);
    start(request, key);
    trim();
    o.markDirty(key);
  }

  function start(request: ReportRequest, key: string): Run {
    const config = o.config();
    const location = o.store.locationId ? o.store.locations.get(o.store.locationId) : undefined;
    const timeZone = location?.timezone || 'UTC';
    const meta: ReportMeta = {
      request, timeZone, hourStart: config.hourStart, hourEnd: config.hourEnd, summary: null, measure: null,
      progress: { state: 'loading', pagesLoaded: 0, pagesEstimated: 0, pagesFromCache: 0, rows: 0, elapsedMs: 0, skipped: emptySkipped(), message: null },
    };
    const days = calendarDays(request.period.from, request.period.to, timeZone);
    const run: Run = { key, request, rows: new Map(), meta, signal: { cancelled: false }, bytes: 0, types: [], days: days.map((d) => d.key), lateSeq: o.late?.seq() ?? 0 };
    runs.set(key, run);
    const access = accessTo(request, config);
    if (!access.ok) {
      meta.progress = { ...meta.progress, state: 'denied', message: access.message };
      return run;
    }
    readAt.set(run, o.now());
    const ctx = { timeZone, hourStart: config.hourStart, hourEnd: config.hourEnd, cleanDeskPolicy: config.cleanDeskPolicy, now: o.now(), period: request.period };
    const aggregator = createScopedAggregator(o.store, request.kind, request.scope, ctx, o.roles());
    run.types = aggregator.types;
    const locationId = o.store.locationId;
    const today = dateKeyOf(o.now(), timeZone);
    void runReport({
      aggregator,
      days,
      fetchPage: o.fetchPage,
      // only days that ended before today are closed: today's readings still come in
      cacheKey: (type, day, filter) => (day.key < today ? reportPagesKey(locationId, type, day.key, filter) : null),
      late: o.late,
      cache: o.cache,
      now: o.now,
      locationSensors: (type) => new Set([...o.store.sensors.values()].filter((s) => s.type === type).map((s) => s.id)),
      signal: run.signal,
      onWarning: o.warn,
      onProgress(progress) {
        meta.progress = progress;
        o.markDirty(key);
      },
    }).then((progress) => {
      if (progress.state === 'done') {
        const result = aggregator.result();
        addMarks(result.rows, result.measure);
        for (const row of result.rows) run.rows.set(row.id, row);
        meta.summary = result.summary;
        meta.measure = result.measure;
        run.bytes = approxBytes(result.rows) + approxBytes(result.summary);
      }
      meta.progress = progress;
      // a run dropped meanwhile (reset) counts for nothing; a kept one may now pass the bounds
      if (runs.get(key) === run) {
        if ((watchers.get(key) ?? 0) > 0) followEnds(run);
        trim();
      }
      o.markDirty(key);
    });
    return run;
  }

  /**
   * The room's bookings changed as of `at`: room reports reading today whose scope holds the room are read
   * again (their views follow the new run; one no view is open on is dropped, read at its next opening). A run
   * that began reading after `at` already holds the change.
   */
  function reread(roomId: Id, at: number): void {
    const floorId = o.store.floorOf.get(roomId) ?? null;
    const buildingId = floorId ? o.store.floors.get(floorId)?.parent_id ?? null : null;
    for (const [key, run] of [...runs]) {
      const { kind, scope } = run.request;
      if (kind !== 'room' || run.meta.progress.state === 'denied' || !readsToday(run)) continue;
      if (scope.kind === 'floor' ? scope.id !== floorId : scope.kind === 'building' ? scope.id !== buildingId : false) continue;
      const began = readAt.get(run);
      if (began !== undefined && began > at + READ_AFTER_MARGIN_MS) continue;
      // what it read of today predates the change: a run still paging stops, and its views follow the new one
      run.signal.cancelled = true;
      if ((watchers.get(key) ?? 0) > 0) restart(run.request, key);
      else runs.delete(key);
    }
  }

  return {
    source(spec) {
      const location = o.store.locationId ? o.store.locations.get(o.store.locationId) : undefined;
      const today = dateKeyOf(o.now(), location?.timezone || 'UTC');
      const request = normalizeRequest(spec.report, today);
      if (!request) throw new TypeError('Malformed report request');
      const view: OpenView = { request, bound: null };
      views.add(view);
      // opened again after a while: what it kept of today is read again, not shown as it was (a room popup's "Earlier")
      dropIfStale(request);
      bind(view);
      // a retry replaces the run under the same key; a run pushed out of the kept ones stays this view's
      const current = () => (view.bound ? runs.get(view.bound.key) ?? view.bound.run : null);
      const mine = (d: Dirty) => {
        const dirty = d.get('reports') as Set<string> | 'all' | undefined;
        return dirty === 'all' || (!!view.bound && !!dirty?.has(view.bound.key));
      };
      return {
        keys: () => current()?.rows.keys() ?? [],
        entry: (k) => current()?.rows.get(k),
        meta: () => { const run = current(); return run ? { ...run.meta } : waiting(request); },
        affected: (d) => (mine(d) ? 'all' : null),
        metaAffected: mine,
        close() {
          if (!views.delete(view)) return;
          if (view.bound) unwatch(view.bound.key);
          view.bound = null;
        },
      };
    },
    cancel(request) {
      for (const run of runs.values()) {
        if (JSON.stringify(run.request) === JSON.stringify(request) && run.meta.progress.state === 'loading') run.signal.cancelled = true;
      }
    },
    retry(raw) {
      const location = o.store.locationId ? o.store.locations.get(o.store.locationId) : undefined;
      const request = normalizeRequest(raw, dateKeyOf(o.now(), location?.timezone || 'UTC'));
      if (!request) return;
      const key = keyOf(request);
      const run = runs.get(key);
      if (!run || (run.meta.progress.state !== 'cancelled' && run.meta.progress.state !== 'error')) return;
      restart(request, key);
    },
    locationReady() {
      for (const view of views) {
        bind(view);
        // live data is back: what failed for want of it is read again, once per run (a cancelled run stays so)
        const key = view.bound?.key;
        if (key !== undefined && runs.get(key)?.meta.progress.state === 'error') restart(view.request, key);
      }
      o.markDirty(null);
    },
    reset() {
      for (const run of runs.values()) run.signal.cancelled = true;
      runs.clear();
      watchers.clear();
      for (const view of views) view.bound = null;
    },
    bookingsChanged(roomId) { reread(roomId, Infinity); },
    followsBookings() {
      for (const [key, run] of runs) {
        if (run.request.kind === 'room' && (watchers.get(key) ?? 0) > 0 && readsToday(run)) return true;
      }
      return false;
    },
    bookingsChangedLive(changes) {
      for (const { roomId, at } of changes) reread(roomId, at);
    },
  };
}

