// Reports behind code loaded on first use (lazyModule.ts): the report
// service, its aggregators and paging are a chunk of their own, asked for by
// the first report view. Until it has come the view says its report is
// loading; if it cannot come, the report is in error with words saying so,
// and "Retry" asks for the code again. Once loaded, the real service answers.

import type { ReportMeta } from '../../shared/reports/types.js';
import { dateKeyOf } from '../../shared/reports/calendar.js';
import { emptySkipped, type ReportRequest } from '../../shared/reports/types.js';
import type { LazyModule } from '../lazyModule.js';
import type { ViewSource } from '../views/viewHub.js';
import { normalizeRequest } from './reportRequest.js';
import type { ReportService, ReportServiceOptions } from './reportService.js';

export type ReportsModule = typeof import('./reportService.js');
export const loadReports = (): Promise<ReportsModule> => import('./reportService.js');

export function createLazyReports(o: ReportServiceOptions, code: LazyModule<ReportsModule>): ReportService {
  let service: ReportService | null = null;
  /** the service, made once its code is there */
  function current(): ReportService | null {
    const module = code.get();
    if (!service && module) service = module.createReportService(o);
    return service;
  }

  function timeZone(): string {
    const location = o.store.locationId ? o.store.locations.get(o.store.locationId) : undefined;
    return location?.timezone || 'UTC';
  }

  /** What a view shows while the code is on its way, or after it failed to come. */
  function placeholder(request: ReportRequest): ReportMeta {
    const config = o.config();
    return {
      request, timeZone: timeZone(), hourStart: config.hourStart, hourEnd: config.hourEnd, summary: null, measure: null,
      progress: {
        state: code.error ? 'error' : 'loading', pagesLoaded: 0, pagesEstimated: 0, pagesFromCache: 0, rows: 0, elapsedMs: 0,
        skipped: emptySkipped(), message: code.error,
      },
    };
  }

  return {
    source(spec) {
      const request = normalizeRequest(spec.report, dateKeyOf(o.now(), timeZone()));
      if (!request) throw new TypeError('Malformed report request');
      code.load();
      let inner: ViewSource | null = null;
      let closed = false;
      const bind = () => {
        const ready = !inner && !closed ? current() : null;
        if (ready) inner = ready.source(spec);
        return inner;
      };
      bind();
      return {
        keys: () => inner?.keys() ?? [],
        entry: (key) => inner?.entry(key),
        meta: () => (inner ? inner.meta() : placeholder(request)),
        affected(d) {
          if (inner) return inner.affected(d);
          // the code came: the service's own view takes over (its rows, its meta)
          return d.has('loaded') && bind() ? 'all' : null;
        },
        metaAffected: (d) => d.has('loaded') || (inner?.metaAffected(d) ?? false),
        close() {
          closed = true;
          inner?.close?.();
        },
      };
    },
    cancel(request) { current()?.cancel(request); },
    retry(request) {
      const ready = current();
      // a report whose code did not come: "Retry" asks for the code again, and its views bind once it is there
      if (ready) ready.retry(request); else code.load();
    },
    locationReady() { current()?.locationReady(); },
    reset() { current()?.reset(); },
    bookingsChanged(roomId) { current()?.bookingsChanged(roomId); },
    followsBookings: () => current()?.followsBookings() ?? false,
    bookingsChangedLive(changes) { current()?.bookingsChangedLive(changes); },
  };
}
