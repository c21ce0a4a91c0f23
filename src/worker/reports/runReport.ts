// Runs one report (DESIGN §9): for each sensor type and local day, the day's
// measurement pages by the §7 paging rules (first page with the validity
// before the day, then start past the last time), at most `concurrency`
// days in flight, each page checked and handed to the aggregator as it
// arrives. Pages of closed days come from and go to the page cache, merged
// into one page per day.

import pLimit from 'p-limit';
import type { MeasurementsQuery, MeasurementsResponse } from '../../shared/rest.js';
import type { Aggregator } from '../../shared/reports/aggregator.js';
import type { CalendarDay } from '../../shared/reports/calendar.js';
import { mergePages, readPage, type ColumnarPage, type PageCheck } from '../../shared/reports/readings.js';
import { emptySkipped, type ReportProgress } from '../../shared/reports/types.js';
import { MEASUREMENT_PAGE_LIMIT } from '../../shared/constants.js';

/** Days fetched at once: enough to hide a round trip, few enough not to crowd the server (2 cores here). */
export const REPORT_FETCH_CONCURRENCY = 4;
/** Up to this many sensors are named in the query (sensor_id repeated); more read the whole type. */
export const SENSOR_FILTER_MAX = 100;

/** The key prefix of a replay's pages: the page cache gives them a bounded life (docs/reports.md "Replays kept on this device"). */
export const REPLAY_PAGES_PREFIX = 'playback|';
/** Bumped when what a replay keeps of a page changes, so pages kept in IndexedDB by an older build are not read. */
export const REPLAY_PAGE_FORMAT = 2;

/**
 * Readings reach the server late (a gateway that buffered them, a clock that lagged): the pages of a day
 * saved within this long after its end (local midnight) are provisional, and the first reading of the day
 * after that reads it from the server once more and keeps that (docs/reports.md "Late readings and the
 * kept days"). Three days: a gateway offline over a weekend sends Friday's readings on Monday morning.
 */
export const LATE_READINGS_MS = 72 * 3_600_000;
/**
 * And once more after a week: the pages of a day saved within a week after its end are read from the server
 * again at the first reading of the day after that week, and then kept as final. A reading up to a week late
 * that reached the server while the app was closed (a site's gateway offline over a holiday week) is seen
 * then; one later than a week is seen only when it comes live (lateReadings.ts). One more reading of a day,
 * whatever the number of openings (docs/reports.md "Late readings and the kept days").
 */
export const LATE_READINGS_FINAL_MS = 7 * 86_400_000;

/**
 * The time a closed day's kept pages must have been saved at or after to be read (the page cache's
 * `savedSince`): the last of the day's provisional times passed by `now`, or undefined while none has passed.
 */
export function keptSince(day: CalendarDay, now: number): number | undefined {
  for (const after of [LATE_READINGS_FINAL_MS, LATE_READINGS_MS]) if (now >= day.end + after) return day.end + after;
  return undefined;
}

/** The cache key of a report's pages of a closed day (per location, type, day and sensor filter). */
export const reportPagesKey = (locationId: string | null, type: string, dayKey: string, filter: string) => `${locationId}|${type}|${dayKey}|${filter}`;
/** The cache key of a replay's pages of a closed day: its own, since a replay keeps battery levels and values as sent. */
export const replayPagesKey = (locationId: string | null, type: string, dayKey: string, filter: string) =>
  `${REPLAY_PAGES_PREFIX}${REPLAY_PAGE_FORMAT}|${reportPagesKey(locationId, type, dayKey, filter)}`;
/** The key prefixes of every page kept of a type's day at a location, reports' and replays', whatever their sensor filter. */
export const dayPagesPrefixes = (locationId: string | null, type: string, dayKey: string) =>
  [reportPagesKey(locationId, type, dayKey, ''), replayPagesKey(locationId, type, dayKey, '')];

export interface PageCache {
  /** the pages of a complete day, or null; with `savedSince`, null too when they were saved before it */
  get(key: string, savedSince?: number): Promise<ColumnarPage[] | null>;
  put(key: string, pages: ColumnarPage[]): Promise<void>;
  /** forgets every day whose key starts with the prefix (a late reading came for it) */
  drop?(prefix: string): Promise<void>;
}

/** Late readings seen live (lateReadings.ts): a run does not keep pages of a day one came for while it read it. */
export interface LateDays {
  /** a counter that moves at each late day seen */
  seq(): number;
  /** a late reading of the type's day came after the counter was at `seq` */
  since(type: string, dayKey: string, seq: number): boolean;
}

export interface RunReportOptions {
  aggregator: Aggregator;
  days: readonly CalendarDay[];
  fetchPage(type: string, query: MeasurementsQuery): Promise<MeasurementsResponse>;
  /** the cache key of a closed day's pages, or null to neither read nor write the cache */
  cacheKey(type: string, day: CalendarDay, filter: string): string | null;
  cache: PageCache | null;
  now(): number;
  /** set `cancelled` to stop: no new page is asked for */
  signal: { cancelled: boolean };
  onProgress(progress: ReportProgress): void;
  onWarning(message: string): void;
  concurrency?: number;
  /** keep each row's battery level (a replay shows it; reports never read it) */
  battery?: boolean;
  /** keep values that are not finite numbers as sent (a replay shows a word or a flag as live does; reports count numbers) */
  raw?: boolean;
  /** every sensor of a type in the location (a whole-type page also carries sensors outside the report's scope) */
  locationSensors?(type: string): ReadonlySet<string>;
  /** late readings seen live: a day one came for while it was read is not kept */
  late?: LateDays;
}

export class ReportCancelled extends Error {
  constructor() { super('Report cancelled'); this.name = 'ReportCancelled'; }
}

export async function runReport(o: RunReportOptions): Promise<ReportProgress> {
  const started = o.now();
  const progress: ReportProgress = {
    state: 'loading', pagesLoaded: 0, pagesEstimated: 0, pagesFromCache: 0, rows: 0, elapsedMs: 0, skipped: emptySkipped(), message: null,
  };
  const tasks = o.aggregator.types.flatMap((type) => o.days.map((day) => ({ type, day })));
  let tasksDone = 0;
  let pagesOfDoneTasks = 0;
  const inFlight = new Map<number, number>();
  const report = () => {
    progress.elapsedMs = o.now() - started;
    const perTask = tasksDone ? pagesOfDoneTasks / tasksDone : 1;
    let running = 0;
    for (const pages of inFlight.values()) running += Math.max(pages + 1, perTask);
    const waiting = tasks.length - tasksDone - inFlight.size;
    progress.pagesEstimated = Math.max(progress.pagesLoaded, Math.round(pagesOfDoneTasks + running + waiting * perTask));
    o.onProgress({ ...progress, skipped: { ...progress.skipped } });
  };
  report();

  const filters = new Map<string, string[] | null>();
  for (const type of o.aggregator.types) {
    const known = [...o.aggregator.known(type)].sort();
    filters.set(type, known.length <= SENSOR_FILTER_MAX ? known : null);
  }

  async function runTask(index: number, type: string, day: CalendarDay): Promise<void> {
    if (o.signal.cancelled) return;
    const sensorIds = filters.get(type) ?? null;
    const key = o.cacheKey(type, day, sensorIds ? sensorIds.join(',') : '*');
    const sink = o.aggregator.openDay(type, day);
    inFlight.set(index, 0);
    const lateSeq = o.late?.seq() ?? 0;
    // past one of its provisional times (three days, a week), a day's pages saved before it are read from the server once more
    const savedSince = keptSince(day, o.now());
    const cached = key && o.cache ? await o.cache.get(key, savedSince).catch(() => null) : null;
    if (cached) {
      // a kept day is one merged page: it counts as the pages it was sent as
      let sent = 0;
      for (const page of cached) {
        sink.push(page);
        progress.rows += page.n;
        sent += page.pagesAsSent ?? 1;
      }
      progress.pagesLoaded += sent;
      progress.pagesFromCache += sent;
      pagesOfDoneTasks += sent;
    } else {
      const check: PageCheck = {
        known: o.aggregator.known(type), inLocation: o.locationSensors?.(type), numeric: o.aggregator.numeric(type), lastTime: -Infinity, skipped: progress.skipped,
        battery: o.battery, raw: o.raw,
      };
      const keep: ColumnarPage[] = [];
      let start = day.start;
      let first = true;
      for (;;) {
        if (o.signal.cancelled) throw new ReportCancelled();
        const response = await o.fetchPage(type, {
          start, end: day.end, limit: MEASUREMENT_PAGE_LIMIT,
          sensor_id: sensorIds ?? undefined, ignore_previous_validity: first ? undefined : true,
        });
        if (o.signal.cancelled) throw new ReportCancelled();
        const rows = Array.isArray(response?.rows) ? response.rows : [];
        const page = readPage(Array.isArray(response?.columns) ? response.columns : [], rows, check);
        sink.push(page);
        if (key) keep.push(page);
        progress.pagesLoaded += 1;
        progress.rows += page.n;
        inFlight.set(index, (inFlight.get(index) ?? 0) + 1);
        report();
        first = false;
        // a page whose last time does not advance would loop forever
        if (!response?.has_more_results || page.lastTime === null || page.lastTime + 1 <= start) break;
        start = page.lastTime + 1;
      }
      pagesOfDoneTasks += inFlight.get(index) ?? 0;
      // a late reading of the day came while it was read: the pages may lack it, the next opening reads it again
      const late = o.late?.since(type, day.key, lateSeq) ?? false;
      if (key && o.cache && !late) await o.cache.put(key, [mergePages(keep)]).catch((error: unknown) => o.onWarning(`Could not keep report pages for offline use: ${(error as Error)?.message ?? error}`));
    }
    sink.finish();
    inFlight.delete(index);
    tasksDone += 1;
    report();
  }

  const limit = pLimit(o.concurrency ?? REPORT_FETCH_CONCURRENCY);
  try {
    await Promise.all(tasks.map((t, i) => limit(() => runTask(i, t.type, t.day))));
    if (o.signal.cancelled) throw new ReportCancelled();
    progress.state = 'done';
  } catch (error) {
    limit.clearQueue();
    progress.state = error instanceof ReportCancelled ? 'cancelled' : 'error';
    progress.message = error instanceof ReportCancelled ? null : describe(error);
  }
  const skipped = Object.values(progress.skipped).reduce((a, b) => a + b, 0);
  if (skipped > 0) {
    const parts = Object.entries(progress.skipped).filter(([, n]) => n > 0).map(([reason, n]) => `${n} ${REASON_WORDS[reason as keyof typeof REASON_WORDS]}`);
    o.onWarning(`Skipped ${skipped} bad measurement rows: ${parts.join(', ')}.`);
  }
  progress.elapsedMs = o.now() - started;
  progress.pagesEstimated = progress.pagesLoaded;
  o.onProgress({ ...progress, skipped: { ...progress.skipped } });
  return progress;
}

const REASON_WORDS = {
  unknownSensor: 'of unknown sensors', columnCount: 'with a wrong column count', nonNumeric: 'with a non-numeric value', outOfOrder: 'out of time order',
} as const;

/** Failed fetches reject with a TypeError (browsers and Node alike): no answer came. */
export const REPORT_UNREACHABLE = 'The server could not be reached (offline?).';

function describe(error: unknown): string {
  if (error && typeof error === 'object' && 'status' in error) return `The server answered ${(error as { status: unknown }).status}.`;
  if (error instanceof TypeError) return REPORT_UNREACHABLE;
  return (error as Error)?.message ?? String(error);
}
