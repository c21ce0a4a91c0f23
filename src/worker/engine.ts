// createEngine: the composition root of the worker's engine behind the
// Comlink API of src/shared/api.ts (DESIGN §2, §4, §5). It wires the session
// machine (sign-in, connection, organization and location) to the store side
// (enter organization or location, end the session), the batch applier to
// views and persistence, and exposes intents. All side effects come in
// through `deps`; every fact has one owner, listed in docs/engine.md. The
// parts are modules of engine/ sharing one state object (engine/state.ts).

import type { EngineApi } from '../shared/api.js';
import { REALTIME_TIMELINE_INTERVAL_MS } from '../shared/constants.js';
import type { Id } from '../shared/types.js';
import { createConfigResolver } from './derive/configResolver.js';
import { createFactsCache, type FactsCache } from './derive/factsCache.js';
import { createAccount } from './engine/account.js';
import { createActions } from './engine/actions.js';
import { createAnalytics } from './engine/analytics.js';
import { createCacheFlow } from './engine/cacheFlow.js';
import { createFeed } from './engine/feed.js';
import { createNavigation } from './engine/navigation.js';
import { createReopen } from './engine/reopen.js';
import { createSessionHost } from './engine/sessionHost.js';
import { createEngineState, viewerUserIdOf } from './engine/state.js';
import { timelineMinute } from './engine/timeline.js';
import { createEngineViews, type EngineViews } from './engine/viewState.js';
import { createViewSaver } from './engine/viewSaver.js';
import { createWritePath } from './engine/writePath.js';
import { createEngineModules, type EngineModules, type ModuleLoaders } from './engineModules.js';
import type { ChangeSink, Clock, FetchFn, Logger, TransportFactory } from './ports.js';
import { createScheduler, type Scheduler } from './scheduler.js';
import type { Session, SessionTimeouts } from './session/types.js';
import { createPersister, type Persister, type StoragePort } from './storage/index.js';
import type { UserPageCache } from './storage/idbPageCache.js';
import { linkedUserId, withPersonSiblings } from './store/people.js';
import { createStore, type Store } from './store/store.js';
import { createCorrectedClock, type CorrectedClock } from './sync/timeSync.js';
import type { TabChannel } from './tabChannel.js';
import { createOptimisticOverlay } from './views/optimistic.js';
import { createViewHub, type ViewHub } from './views/viewHub.js';

export { REST_OTHER_FLOORS_MS } from './engine/reopen.js';

export interface EngineDeps {
  clock: Clock;
  fetch: FetchFn;
  transportFactory: TransportFactory;
  storage: StoragePort;
  logger: Logger;
  /** tests: view batching interval (default VIEW_FLUSH_INTERVAL_MS) */
  flushIntervalMs?: number;
  /** tests: persistence throttle (default PERSIST_THROTTLE_MS) */
  persistThrottleMs?: number;
  /** tests: step timeouts (default DEFAULT_SESSION_TIMEOUTS) */
  timeouts?: Partial<SessionTimeouts>;
  /** tests: back-off step and cap */
  reconnectStepMs?: number;
  reconnectMaxDelayMs?: number;
  /** report pages of closed days (IndexedDB in the worker); none: reports always fetch */
  pageCache?: (userId: () => Id | null) => UserPageCache;
  /** tests: how the code loaded on first use arrives (default: its own chunk) */
  modules?: Partial<ModuleLoaders>;
  /** the other tabs of this app (a sign-out in one signs the same user out in all); none: this tab alone */
  tabs?: TabChannel;
}

export interface EngineInternals {
  store: Store;
  scheduler: Scheduler;
  hub: ViewHub;
  persister: Persister;
  corrected: CorrectedClock;
  session(): Session | null;
  /** the sink the session feeds (tests may feed it directly) */
  sink: ChangeSink;
  /** derived facts per asset (benches, diagnostics) */
  facts: FactsCache;
  modules: EngineModules;
}

export interface Engine extends EngineApi {
  readonly internals: EngineInternals;
  dispose(): Promise<void>;
}

const TIMELINE_KEY = 'engine:timeline';

export function createEngine(deps: EngineDeps): Engine {
  const { clock, storage } = deps;
  const corrected = createCorrectedClock(clock);
  const scheduler = createScheduler(clock, () => corrected.now());
  const store = createStore();
  const config = createConfigResolver(store);
  const navigation = createNavigation(store);
  // the session's mutable state, one object the parts below share (engine/state.ts)
  const state = createEngineState();
  const viewerUserId = () => viewerUserIdOf(state);

  const hub: ViewHub = createViewHub({
    clock,
    logger: deps.logger,
    flushIntervalMs: deps.flushIntervalMs,
    createSource: (spec) => optimistic.wrap(spec, views.sources(spec)),
  });
  const optimistic = createOptimisticOverlay({
    markDirty: (channel, keys) => hub.markDirty(channel, keys),
    after: (ms, key, fn) => scheduler.scheduleIn(key, ms, fn),
  });
  const feed = createFeed(() => corrected.now(), () => hub.markDirty('feed'));

  // code loaded on first use: a settled load wakes the views over it
  const modules = createEngineModules(deps.modules, { onSettled: () => hub.markDirty('loaded'), logger: deps.logger });
  const storeLogger = feed.logger(deps.logger, 'validation');
  const syncLogger = feed.logger(deps.logger, 'stream');

  const facts = createFactsCache({
    store,
    scheduler,
    context: () => ({ now: corrected.now(), viewerUserId: viewerUserId(), roles: state.roles, config, timeZone: timeZone() }),
    onExpired: (id) => {
      // time alone moved on: a thing's standing facts hold (the cache re-derives only its readings), so only the
      // views that show readings wake; a person's other assets may take over (or give back) their position
      const asset = store.assets.get(id);
      if (asset && !linkedUserId(store, asset)) { hub.markDirty('values', [id]); return; }
      const ids = withPersonSiblings(store, [id]);
      facts.invalidate([...ids].filter((other) => other !== id));
      hub.markDirty('assets', ids);
    },
  });

  const persister = createPersister({
    storage,
    clock,
    logger: deps.logger,
    throttleMs: deps.persistThrottleMs,
    onWriteError: (message) => feed.post('warning', 'storage', message),
  });

  const cache = createCacheFlow({
    store, storage, persister, feed,
    logger: deps.logger,
    now: () => corrected.now(),
    position: (scope) => state.session?.position(scope) ?? null,
    floorId: () => navigation.floor(state.roles)?.id ?? null,
    ready: () => !state.reopen.restoring,
  });

  const viewSaver = createViewSaver({
    hub, scheduler, storage,
    logger: deps.logger,
    key: () => {
      const userId = viewerUserId();
      return userId && store.locationId ? { userId, locationId: store.locationId } : null;
    },
    floorId: () => navigation.floor(state.roles)?.id ?? null,
    now: () => corrected.now(),
  });

  function timeZone(): string {
    return (store.locationId && store.locations.get(store.locationId)?.timezone) || 'UTC';
  }

  const analytics = createAnalytics({
    state, store, config, clock, scheduler, hub, feed, modules,
    now: () => corrected.now(),
    pageCache: deps.pageCache,
    connection: () => views.viewState.connection(),
  });
  const { reports, playback } = analytics;

  const writes = createWritePath({
    state, store, config, facts, hub, feed, persister, corrected, reports, playback, viewSaver, storeLogger,
    liveArrived: () => reopen.liveArrived(),
    saveSession: () => sessionHost.saveSession(),
  });
  const reopen = createReopen({ state, store, cache, navigation, facts, hub, viewSaver, clock, logger: deps.logger, writes });
  const views: EngineViews = createEngineViews({
    state, store, facts, config, clock, corrected, scheduler, hub, feed, navigation, modules, reopen, analytics, timeZone,
  });

  /**
   * Every REALTIME_TIMELINE_INTERVAL_MS: re-derive what changes continuously (engine/timeline.ts), nothing else;
   * patches carry only real changes.
   */
  function scheduleTimeline() {
    scheduler.scheduleIn(TIMELINE_KEY, REALTIME_TIMELINE_INTERVAL_MS, () => {
      timelineMinute(facts, hub);
      scheduleTimeline();
    });
  }
  scheduleTimeline();

  // ---------------------------------------------------------------- the session, its store side and the intents

  const sessionHost = createSessionHost({
    state, store, navigation, reopen, reports, playback, persister, cache, storage, feed, hub, storeLogger,
    sink: writes.sink,
    pageCache: analytics.pageCache,
    logger: deps.logger,
    everythingChanged: writes.everythingChanged,
    rederiveUsers: writes.rederiveUsers,
  });
  const account = createAccount({
    state, store, clock, corrected, scheduler, storage, cache, navigation, reopen, hub, feed, syncLogger,
    fetch: deps.fetch,
    transportFactory: deps.transportFactory,
    logger: deps.logger,
    timeouts: deps.timeouts,
    reconnectStepMs: deps.reconnectStepMs,
    reconnectMaxDelayMs: deps.reconnectMaxDelayMs,
    tabs: deps.tabs,
    port: sessionHost.port,
    setRoles: sessionHost.setRoles,
    connectionMoved: analytics.connectionMoved,
  });

  const actions = createActions({
    store,
    config: () => config.location(),
    now: () => corrected.now(),
    timeZone,
    rest: () => (state.session?.token() ? state.session.rest : null),
    reachable: () => {
      // as the UI's useServerReach decides it: connected (loading or live) and online
      const s = state.session?.state();
      return !!s && state.browserOnline && s.ctx.online && (s.phase.name === 'loading' || s.phase.name === 'live');
    },
    permissions: () => state.permissions,
    roles: () => state.roles,
    userId: viewerUserId,
    apply: writes.apply,
    unauthorized: () => state.session?.unauthorized(),
    optimistic,
    facts,
  });

  const api: Engine = {
    ...account.api,

    async subscribe(spec, listener) {
      const id = hub.subscribe(spec, listener);
      reopen.viewOpened(spec);
      return id;
    },
    async unsubscribe(id) { hub.unsubscribe(id); },

    async selectBuilding(buildingId) {
      if (navigation.selectBuilding(buildingId, state.roles)) { hub.markDirty('session'); await sessionHost.saveSession(); }
    },
    async selectFloor(floorId) {
      if (navigation.selectFloor(floorId)) { hub.markDirty('session'); await sessionHost.saveSession(); }
    },

    // the room's reports of today are read again once the server took the change (docs/reports.md "Kept runs and today")
    async bookRoom(request) {
      const result = await actions.bookRoom(request);
      if (result.ok) reports.bookingsChanged(request.roomId);
      return result;
    },
    async cancelBooking(roomId, bookingRef) {
      const result = await actions.cancelBooking(roomId, bookingRef);
      if (result.ok) reports.bookingsChanged(roomId);
      return result;
    },
    createTicket: actions.createTicket,
    closeTicket: actions.closeTicket,
    vote: actions.vote,
    updateAsset: actions.updateAsset,
    setManualLocation: actions.setManualLocation,
    markNotificationRead: actions.markNotificationRead,
    async cancelReport(request) { reports.cancel(request); },
    async rerunReport(request) { reports.retry(request); },
    async setPlaybackTime(floorId, day, time) { playback.setTime(floorId, day, time); },

    // the page is hidden or closed (docs/engine.md "Saved when the page goes"): what waits for the throttle is written now
    async saveNow() {
      if (state.disposed) return;
      // patches not sent yet go first, so the saved floor view is the floor on screen
      hub.flush();
      await Promise.all([
        persister.flush().catch((error: unknown) => deps.logger.debug('Could not save before the page went', error)),
        viewSaver.flush(),
      ]);
    },

    internals: { store, scheduler, hub, persister, corrected, session: () => state.session, sink: writes.sink, facts, modules },

    async dispose() {
      state.disposed = true;
      account.close();
      await persister.flush().catch(() => undefined);
      persister.dispose();
      hub.dispose();
      scheduler.clear();
      state.session?.dispose();
      await storage.close().catch(() => undefined);
    },
  };
  return api;
}
