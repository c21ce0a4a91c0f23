// Reports (their code loaded on first use) and floor playback over the
// measurements API of the loaded location (DESIGN §9), sharing the page cache
// of closed days and the late readings that drop its stale days.

import type { ConnectionView } from '../../shared/api.js';
import type { MeasurementsQuery, MeasurementsResponse } from '../../shared/rest.js';
import type { Id } from '../../shared/types.js';
import type { ConfigResolver } from '../derive/configResolver.js';
import type { EngineModules } from '../engineModules.js';
import type { Clock } from '../ports.js';
import { createLateReadings } from '../reports/lateReadings.js';
import { createLazyReports } from '../reports/lazyReports.js';
import { createPlaybackService, type PlaybackService } from '../reports/playback.js';
import type { ReportService } from '../reports/reportService.js';
import type { Scheduler } from '../scheduler.js';
import type { UserPageCache } from '../storage/idbPageCache.js';
import type { Store } from '../store/store.js';
import type { ViewHub } from '../views/viewHub.js';
import type { Feed } from './feed.js';
import { viewerUserIdOf, type EngineState } from './state.js';

export interface AnalyticsOptions {
  state: EngineState;
  store: Store;
  config: ConfigResolver;
  clock: Clock;
  /** corrected-clock now */
  now(): number;
  scheduler: Scheduler;
  hub: ViewHub;
  feed: Feed;
  modules: EngineModules;
  /** report pages of closed days for the signed-in user; none: reports always fetch */
  pageCache?: (userId: () => Id | null) => UserPageCache;
  /** the connection as its view shows it (a report waiting for live data says whether the server can be reached) */
  connection(): ConnectionView;
}

export interface Analytics {
  reports: ReportService;
  playback: PlaybackService;
  pageCache: UserPageCache | null;
  /** the connection moved: report views still waiting for live data follow it */
  connectionMoved(): void;
}

export function createAnalytics(options: AnalyticsOptions): Analytics {
  const { state, store, config, clock, now, scheduler, hub, feed } = options;
  const viewerUserId = () => viewerUserIdOf(state);

  /** a page of the loaded location's measurements, while a session with a token has one loaded */
  const fetchPage = (type: string, query: MeasurementsQuery): Promise<MeasurementsResponse> => {
    const rest = state.session?.token() ? state.session.rest : null;
    if (!rest || !store.organizationId || !store.locationId) return Promise.reject(new Error('No location loaded'));
    return rest.measurements(store.organizationId, store.locationId, type, query);
  };

  const pageCache = options.pageCache?.(viewerUserId) ?? null;
  // late readings of closed days drop those days' kept pages (the playback service hands it the live changes)
  const lateReadings = createLateReadings({ store, now, cache: pageCache });
  const reports = createLazyReports({
    store,
    config: () => config.location(),
    roles: () => state.roles,
    permissions: () => (Array.isArray(state.permissions) ? state.permissions.filter((p): p is string => typeof p === 'string') : undefined),
    now,
    fetchPage,
    cache: pageCache,
    markDirty: (key) => hub.markDirty('reports', key === null ? 'all' : [key]),
    ready: () => state.locationLive,
    rolesKnown: () => state.settings !== null || state.permissions !== undefined,
    offline: () => {
      const c = options.connection();
      return !c.online || c.state === 'error' || c.state === 'unavailable';
    },
    warn: (message) => feed.post('warning', 'validation', message),
    late: lateReadings,
    // a booking an open room popup read as not over ends: its report of today is read again then
    wakeAt: (key, at, task) => scheduler.scheduleAt(key, at, task),
  }, options.modules.reports);

  const playback = createPlaybackService({
    live: store,
    roles: () => state.roles,
    viewerUserId,
    fetchPage,
    cache: pageCache,
    now,
    markDirty: (key) => hub.markDirty('playback', [key]),
    // a long step's derivation goes on in tasks of its own, after the live packets that came meanwhile
    defer: (fn) => { clock.setTimeout(fn, 0); },
    late: lateReadings,
  });

  return {
    reports, playback, pageCache,
    connectionMoved() {
      if (!state.locationLive) hub.markDirty('reports', 'all');
    },
  };
}
