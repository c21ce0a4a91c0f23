// createEngine: the composition root of the worker's engine behind the
// Comlink API of src/shared/api.ts (DESIGN §2, §4, §5). It wires the session
// machine (sign-in, connection, organization and location) to the store side
// (enter organization or location, end the session), the batch applier to
// views and persistence, and exposes intents. All side effects come in
// through `deps`; every fact has one owner, listed in docs/engine.md.

import type { ApiResult, DrawState, EngineApi, EngineInit, LoadProgress, ViewListener, ViewSpec } from '../shared/api.js';
import { REALTIME_TIMELINE_INTERVAL_MS, TIME_SYNC_INTERVAL_MS } from '../shared/constants.js';
import { MSG } from '../shared/messages.js';
import { normalizeSettings } from '../shared/normalize/people.js';
import { DEFAULT_API_VERSION } from '../shared/rest.js';
import { NoPermissionsError, rolesFromPermissions } from '../shared/roles.js';
import type { Id, Role, Settings } from '../shared/types.js';
import { createConfigResolver } from './derive/configResolver.js';
import { createFactsCache, type FactsCache } from './derive/factsCache.js';
import { confirmSignUp, setPasswordWithCode } from './engine/accountActions.js';
import { createActions } from './engine/actions.js';
import { createCacheFlow } from './engine/cacheFlow.js';
import { markEverythingChanged, routeDelta, type DeltaRouting } from './engine/deltaRouting.js';
import { createFeed } from './engine/feed.js';
import { createNavigation } from './engine/navigation.js';
import { failure, serverUnreachable, toResult } from './engine/results.js';
import { buildConnectionView, buildSessionView } from './engine/sessionView.js';
import type { ChangeBatch, ChangeSink, Clock, FetchFn, Logger, TransportFactory } from './ports.js';
import { createScheduler, type Scheduler } from './scheduler.js';
import { createSession } from './session/createSession.js';
import { initialSessionState } from './session/machine.js';
import { DEFAULT_SESSION_TIMEOUTS } from './session/timeouts.js';
import type { Session, SessionHost, SessionTimeouts } from './session/types.js';
import {
  createPersister, SHARED_PART, type Persister, type SavedView, type StoragePort, type StoredSession,
} from './storage/index.js';
import { createViewSaver } from './engine/viewSaver.js';
import { applyBatch } from './store/applyBatch.js';
import { createDelta, type StoreDelta } from './store/delta.js';
import { linkedUserId, withPersonSiblings } from './store/people.js';
import { clearLocationData, clearStore, createStore, type Store } from './store/store.js';
import { syncAllUserEntities } from './store/userEntities.js';
import { createCorrectedClock, type CorrectedClock } from './sync/timeSync.js';
import { createViewSources, personEntry, type ViewState } from './views/sources.js';
import { createSearchDocs, noteForSearch } from './search/searchDocs.js';
import type { SearchIndex } from './search/searchIndex.js';
import { createEngineModules, type EngineModules, type ModuleLoaders } from './engineModules.js';
import { searchSource } from './search/searchSource.js';
import { createViewHub, type ViewHub } from './views/viewHub.js';
import { createOptimisticOverlay } from './views/optimistic.js';
import { createLazyReports } from './reports/lazyReports.js';
import { createPlaybackService } from './reports/playback.js';
import { createLateReadings } from './reports/lateReadings.js';
import { bookingsBefore, roomsWithPastChanged } from './reports/liveBookings.js';
import { timelineMinute } from './engine/timeline.js';
import { createHiddenDescendants } from './engine/hiddenDescendants.js';
import type { UserPageCache } from './storage/idbPageCache.js';
import type { TabChannel } from './tabChannel.js';

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
/** a reopen reads the rest of the saved location once the first floor snapshot went out, or after this long without one */
const REST_RESTORE_FALLBACK_MS = 300;
/**
 * A reopen reads the floors other than the shown one this long after the shown one, unless live data
 * replaced the saved location first (then they are never read) or another floor or the finder is opened
 * (then at once): read beside the live load they were about half of the engine worker's work while the
 * page reveals the floor, and they pushed the live data back (issue 14, docs/engine.md "Reopen").
 */
export const REST_OTHER_FLOORS_MS = 3_000;
const SEARCH_BUILD_KEY = 'engine:search-build';
const ROOM_DISPLAY_KEY = 'engine:room-display:';
const PERSON_RECHECK_KEY = 'engine:person-recheck:';
const SIGNED_OUT = initialSessionState();

export function createEngine(deps: EngineDeps): Engine {
  const { clock, storage } = deps;
  const corrected = createCorrectedClock(clock);
  const scheduler = createScheduler(clock, () => corrected.now());
  const store = createStore();
  const config = createConfigResolver(store);
  const navigation = createNavigation(store);

  let session: Session | null = null;
  let host: { host: string; version: number } | null = null;
  // who is signed in (owned here; the machine owns whether and where)
  let settings: Settings | null = null;
  let permissions: unknown = undefined;
  let roles: Role[] = [];
  let organizations: Array<{ id: Id; name: string }> = [];
  let progress: LoadProgress | null = null;
  // what the store holds of the location: saved data, or live data of the current load
  let fromCache = false;
  /** whose saved data the store serves while fromCache */
  let cachedUserId: Id | null = null;
  let locationLive = false;
  /** bumps at every location switch and session end: a slower cache read of an older one is dropped */
  let epoch = 0;
  // a reopen restores the saved location in parts (docs/engine.md, "Reopen"): the shared part and the
  // shown floor (or its saved view) first, the rest after the first floor snapshot went out (the other floors
  // only if live data is late, REST_OTHER_FLOORS_MS)
  let savedView: { floorId: Id; layers: string[]; entries: Map<string, DrawState> } | null = null;
  let restoredParts = new Set<string>();
  let restRestore: (() => void) | null = null;
  /** parts of a saved location are still being read: the store cannot be written whole yet */
  let restoring = false;
  /** ends the other floors' wait of a reopen (restoreRest) */
  let openOtherFloors: (() => void) | null = null;
  /** another floor or the finder was opened during a reopen: the other floors are read without waiting */
  let otherFloorsNow = false;
  function wantOtherFloors(floorId?: Id): void {
    // the floor served first (its part, or its saved view) is not another floor; the shown floor is not asked:
    // a floor switch makes the new floor the shown one before its viewer subscribes
    if (!restoring || (floorId !== undefined && (restoredParts.has(floorId) || savedView?.floorId === floorId))) return;
    otherFloorsNow = true;
    openOtherFloors?.();
  }
  /** the browser's online state, kept while no session exists yet */
  let browserOnline = true;
  let disposed = false;

  const viewerUserId = () => session?.state().ctx.userId ?? null;

  const hub: ViewHub = createViewHub({
    clock,
    logger: deps.logger,
    flushIntervalMs: deps.flushIntervalMs,
    createSource: (spec) => optimistic.wrap(spec, sources(spec)),
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
    context: () => ({ now: corrected.now(), viewerUserId: viewerUserId(), roles, config, timeZone: timeZone() }),
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
    position: (scope) => session?.position(scope) ?? null,
    floorId: () => navigation.floor(roles)?.id ?? null,
    ready: () => !restoring,
  });

  const viewSaver = createViewSaver({
    hub, scheduler, storage,
    logger: deps.logger,
    key: () => {
      const userId = viewerUserId();
      return userId && store.locationId ? { userId, locationId: store.locationId } : null;
    },
    floorId: () => navigation.floor(roles)?.id ?? null,
    now: () => corrected.now(),
  });

  function timeZone(): string {
    return (store.locationId && store.locations.get(store.locationId)?.timezone) || 'UTC';
  }

  const sessionState = () => session?.state() ?? SIGNED_OUT;
  const sessionView = () => buildSessionView({
    store,
    state: sessionState(),
    config: config.location(),
    settings, roles,
    permissions: Array.isArray(permissions) ? permissions.filter((p): p is string => typeof p === 'string') : [],
    organizations, navigation, progress, fromCache,
    structureLoaded: store.buildings.size > 0 || locationLive,
  });

  const viewState: ViewState = {
    store, facts, config,
    roles: () => roles,
    viewerUserId,
    now: () => corrected.now(),
    fromCache: () => fromCache,
    loading: () => !!store.locationId && !locationLive,
    connection: () => {
      const view = buildConnectionView(sessionState(), session?.transport() ?? { name: null, state: null }, { fromCache, serverOffsetMs: corrected.offsetMs });
      return session ? view : { ...view, online: browserOnline };
    },
    session: sessionView,
    feed: () => feed.entries(),
    savedFloorView(floorId, layers) {
      if (!savedView || !fromCache || restoredParts.has(floorId) || savedView.floorId !== floorId) return null;
      if (savedView.layers.length !== layers.length || savedView.layers.some((l, i) => l !== layers[i])) return null;
      return savedView.entries;
    },
    report: (spec) => reports.source(spec),
    playback: (spec) => playback.source(spec),
    search: (spec) => searchSource(currentSearchIndex, modules.search, searchDocs, spec, () => navigation.floor(roles)?.id ?? null),
    routing: modules.routing,
    roomDisplay: {
      timeZone,
      wakeAt: (roomId, at) => {
        const key = `${ROOM_DISPLAY_KEY}${roomId}`;
        if (scheduler.dueAt(key) !== at) scheduler.scheduleAt(key, at, () => hub.markDirty('assets', [roomId]));
      },
    },
    // the people view and the finder read the person again (an "at <location>" note that ran out)
    recheckPersonAt: (userId, at) => {
      const key = `${PERSON_RECHECK_KEY}${userId}`;
      if (scheduler.dueAt(key) !== at) scheduler.scheduleAt(key, at, () => hub.markDirty('users', [userId]));
    },
  };
  const sources = createViewSources(viewState);
  const searchDocs = createSearchDocs({ store, facts, roles: () => roles, person: (id) => personEntry(viewState, id) });
  // the finder's index exists once its code has come (the first search asks for it)
  let searchIndex: SearchIndex | null = null;
  function currentSearchIndex(): SearchIndex | null {
    const code = modules.search.get();
    if (!searchIndex && code) {
      searchIndex = code.createSearchIndex(searchDocs, {
        now: () => clock.now(),
        defer: (fn) => scheduler.scheduleIn(SEARCH_BUILD_KEY, 0, fn),
        onProgress: () => hub.markDirty('search'),
      });
    }
    return searchIndex;
  }

  const pageCache = deps.pageCache?.(viewerUserId) ?? null;
  // late readings of closed days drop those days' kept pages (the playback service hands it the live changes)
  const lateReadings = createLateReadings({ store, now: () => corrected.now(), cache: pageCache });
  const reports = createLazyReports({
    store,
    config: () => config.location(),
    roles: () => roles,
    permissions: () => (Array.isArray(permissions) ? permissions.filter((p): p is string => typeof p === 'string') : undefined),
    now: () => corrected.now(),
    fetchPage: (type, query) => {
      const rest = session?.token() ? session.rest : null;
      if (!rest || !store.organizationId || !store.locationId) return Promise.reject(new Error('No location loaded'));
      return rest.measurements(store.organizationId, store.locationId, type, query);
    },
    cache: pageCache,
    markDirty: (key) => hub.markDirty('reports', key === null ? 'all' : [key]),
    ready: () => locationLive,
    rolesKnown: () => settings !== null || permissions !== undefined,
    offline: () => {
      const c = viewState.connection();
      return !c.online || c.state === 'error' || c.state === 'unavailable';
    },
    warn: (message) => feed.post('warning', 'validation', message),
    late: lateReadings,
    // a booking an open room popup read as not over ends: its report of today is read again then
    wakeAt: (key, at, task) => scheduler.scheduleAt(key, at, task),
  }, modules.reports);
  /** report views still waiting for live data say whether the server can be reached: their wait's words follow the connection */
  function connectionMoved(): void {
    if (!locationLive) hub.markDirty('reports', 'all');
  }
  const playback = createPlaybackService({
    live: store,
    roles: () => roles,
    viewerUserId,
    fetchPage: (type, query) => {
      const rest = session?.token() ? session.rest : null;
      if (!rest || !store.organizationId || !store.locationId) return Promise.reject(new Error('No location loaded'));
      return rest.measurements(store.organizationId, store.locationId, type, query);
    },
    cache: pageCache,
    now: () => corrected.now(),
    markDirty: (key) => hub.markDirty('playback', [key]),
    // a long step's derivation goes on in tasks of its own, after the live packets that came meanwhile
    defer: (fn) => { clock.setTimeout(fn, 0); },
    late: lateReadings,
  });

  // ---------------------------------------------------------------- the one write path

  const routing: DeltaRouting = { store, config, facts, hub, feed, persister, viewerUserId, hidden: createHiddenDescendants(store) };
  const everythingChanged = () => {
    searchIndex?.reset();
    markEverythingChanged(routing);
  };
  const afterDelta = (delta: StoreDelta) => {
    routeDelta(routing, delta);
    if (searchIndex) noteForSearch(searchIndex, delta, store);
  };
  const correctedNow = () => corrected.now();
  const applyOptions = () => ({
    logger: storeLogger,
    now: correctedNow,
    manualLocationTimeoutMs: config.location().manualLocationTimeout,
  });

  function apply(batch: ChangeBatch) {
    if (disposed) return;
    // a room report of today open on the screen follows bookings others change (its popup's "Earlier")
    const bookings = reports.followsBookings() ? bookingsBefore(store, batch.changes) : null;
    // readings mark their assets in the hub's next flush and their sensors in the persister's queue directly
    afterDelta(applyBatch(store, batch, applyOptions(), createDelta(hub.pending('values'), persister.queue())));
    if (bookings) {
      const changed = roomsWithPastChanged(store, bookings, corrected.now());
      if (changed.length) reports.bookingsChangedLive(changed);
    }
    // kept replays take live readings too, late ones the store leaves out (a replay of today shows the server's history)
        if (batch?.scope?.kind === 'location' && batch.scope.locationId === store.locationId) playback.takeLive(batch.changes);
    const locationLoad = batch?.scope?.kind === 'location' && batch.scope.locationId === store.locationId
      && batch.changes.some((c) => c.collection === 'assets' && c.kind === 'initial');
    if (locationLoad) {
      // live data replaced the saved location
      locationLive = true;
      fromCache = false;
      savedView = null;
      restRestore = null;
      // the other floors' wait ends: live data has them (restoreRest stops, nothing is read)
      openOtherFloors?.();
      viewSaver.start();
      rederiveUsers();
      reports.locationReady();
      // a reload follows a gap of the live stream: late readings sent meanwhile reached no replay
      playback.liveReloaded();
      hub.markDirty('structure');
      hub.markDirty('session');
      hub.markDirty('connection');
      void saveSession();
    }
  }
  const sink: ChangeSink = { apply };

  function rederiveUsers() {
    const delta = createDelta();
    syncAllUserEntities(store, delta, applyOptions());
    afterDelta(delta);
  }

  // ---------------------------------------------------------------- timeline

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

  // ---------------------------------------------------------------- the store side of the session

  function setRoles(list: unknown) {
    permissions = list;
    try {
      roles = rolesFromPermissions({ permissions: list });
    } catch (error) {
      roles = [];
      if (error instanceof NoPermissionsError) feed.post('warning', 'auth', MSG.NO_PERMISSIONS);
    }
  }

  async function saveSession() {
    const s = session;
    const token = s?.token();
    const userId = viewerUserId();
    if (!host || !s || !token || !userId) return;
    const ctx = s.state().ctx;
    await cache.saveSession({
      host: host.host, version: host.version, token, userId,
      permissions: Array.isArray(permissions) ? permissions.filter((p): p is string => typeof p === 'string') : [],
      expiresAt: null,
      organizationId: ctx.organizationId, locationId: ctx.locationId, floorId: navigation.chosenFloorId(),
    });
  }

  async function loadOrganizationList() {
    const s = session;
    if (!s) return;
    try {
      const list = await s.rest.organizations();
      organizations = (Array.isArray(list) ? list : []).map((o) => ({ id: String(o.id), name: String(o.name ?? '') }));
    } catch (error) {
      // a regular user may not list organizations; the own one still shows
      deps.logger.debug('Organization list unavailable', (error as Error).message);
      organizations = [];
    }
    hub.markDirty('session');
  }

  /** Applies batches read from the cache through the one write path; what came from storage is stored already. */
  function applyCached(batches: ChangeBatch[]): Set<Id> {
    const changed = new Set<Id>();
    for (const batch of batches) {
      const delta = applyBatch(store, batch, applyOptions());
      delta.persist.clear();
      afterDelta(delta);
      for (const id of delta.assets) changed.add(id);
    }
    return changed;
  }

  /**
   * Serves a cached location at once, unless a newer switch, a sign-out or live data came
   * first: the shared part and the shown floor's part (or, with a saved view of that floor,
   * only the shared part), then the rest once a floor snapshot went out (restoreRest). True when
   * the store now serves it. Cached entities pass applyBatch like network ones (issue 11 §3).
   */
  async function serveCached(userId: Id, organizationId: Id, locationId: Id, view: SavedView | null = null): Promise<boolean> {
    const mine = epoch;
    const wanted = () => mine === epoch && !locationLive;
    const locationOnly = store.organizations.has(organizationId);
    restoring = true;
    otherFloorsNow = false;
    const hint = navigation.chosenFloorId();
    const restored = await cache.restore(userId, locationId, locationOnly, wanted, {
      parts(meta) {
        const floorId = hint ?? meta.floorId ?? null;
        return floorId && view?.floorId !== floorId ? [SHARED_PART, floorId] : [SHARED_PART];
      },
    });
    // the last request wins: a sign-out, another switch or the live load came first
    if (!restored || !wanted()) {
      if (mine === epoch) restoring = false;
      return false;
    }
    if (locationOnly) clearLocationData(store); else clearStore(store);
    store.organizationId = organizationId;
    store.locationId = locationId;
    applyCached(restored.batches);
    fromCache = true;
    cachedUserId = userId;
    savedView = view ? { floorId: view.floorId, layers: view.layers, entries: new Map(Object.entries(view.entries as Record<string, DrawState>)) } : null;
    restoredParts = new Set(restored.parts);
    everythingChanged();
    rederiveUsers();
    const rest = restored.allParts.filter((p) => !restoredParts.has(p));
    if (rest.length === 0) { restoring = false; return true; }
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      restRestore = null;
      clock.clearTimeout(fallback);
      void restoreRest(userId, locationId, rest, wanted)
        .catch((error: unknown) => deps.logger.warn('Serving the saved location failed', error))
        .finally(() => { if (mine === epoch) restoring = false; });
    };
    // the first floor snapshot goes out before the worker parses the rest; without one, soon anyway
    const fallback = clock.setTimeout(start, REST_RESTORE_FALLBACK_MS);
    restRestore = () => { clock.clearTimeout(fallback); clock.setTimeout(start, 0); };
    return true;
  }

  /** The rest of a reopen: the other parts of the saved location, the shown floor first, one at a time; the other floors wait (REST_OTHER_FLOORS_MS). */
  async function restoreRest(userId: Id, locationId: Id, parts: string[], wanted: () => boolean): Promise<void> {
    const shown = navigation.floor(roles)?.id ?? null;
    const ordered = [...parts].sort((a, b) => Number(b === shown) - Number(a === shown));
    let others: Promise<void> | null = null;
    for (const part of ordered) {
      if (part !== shown && part !== SHARED_PART && !otherFloorsNow) {
        others ??= new Promise<void>((resolve) => {
          const timer = clock.setTimeout(() => open(), REST_OTHER_FLOORS_MS);
          const open = () => { clock.clearTimeout(timer); openOtherFloors = null; resolve(); };
          openOtherFloors = open;
        });
        await others;
      }
      if (!wanted()) return;
      const merged = await cache.restore(userId, locationId, false, wanted, { parts: () => [part], merge: true });
      if (!merged || !wanted()) return;
      const added = applyCached(merged.batches);
      restoredParts.add(part);
      facts.invalidate(added);
      if (savedView?.floorId === part) {
        // the saved view gives way to the floor itself; keys it showed that are gone must go too
        savedView = null;
        hub.markDirty('assets');
      } else hub.markDirty('assets', added);
      hub.markDirty('structure');
    }
    searchIndex?.reset();
    rederiveUsers();
  }

  const port: SessionHost = {
    sink,
    settings(raw) {
      const normalized = normalizeSettings(raw, { logger: storeLogger });
      if (!normalized) return;
      settings = normalized;
      setRoles((raw as { permissions?: unknown }).permissions);
      everythingChanged();
      void saveSession();
      void loadOrganizationList();
    },
    enterOrganization(organizationId) {
      // a resumed session already serves this organization from the cache
      if (organizationId !== null && organizationId === store.organizationId && fromCache && cachedUserId === viewerUserId()) return;
      epoch += 1;
      forgetReopen();
      reports.reset();
      playback.reset();
      persister.setSource(null);
      const notifications = new Map(store.notifications);
      clearStore(store);
      for (const [id, n] of notifications) store.notifications.set(id, n);
      store.organizationId = organizationId;
      fromCache = false;
      locationLive = false;
      everythingChanged();
      void saveSession();
    },
    enterLocation(organizationId, locationId) {
      // a resumed session already serves this location from the cache; the live load replaces it
      if (locationId !== null && locationId === store.locationId && fromCache && cachedUserId === viewerUserId()) return;
      epoch += 1;
      forgetReopen();
      reports.reset();
      playback.reset();
      const previous = store.locationId;
      persister.setSource(null);
      clearLocationData(store);
      store.organizationId ??= organizationId;
      store.locationId = locationId;
      // a floor chosen in another location does not carry over; one named before any location was
      // entered (a link, signing in again after the session ended) is for this one
      if (previous !== null && previous !== locationId && navigation.chosenFloorId() && !resumedFloor) navigation.reset();
      resumedFloor = false;
      fromCache = false;
      locationLive = false;
      rederiveUsers();
      const userId = viewerUserId();
      cache.target(userId);
      everythingChanged();
      void saveSession();
      if (locationId && userId) void serveCached(userId, organizationId, locationId).catch((error: unknown) => deps.logger.warn('Serving the saved location failed', error));
    },
    endSession(reason) {
      epoch += 1;
      resuming = null;
      forgetReopen();
      reports.reset();
      playback.reset();
      const uid = settings?.user.id ?? resumingUserId;
      resumingUserId = null;
      persister.setSource(null);
      clearStore(store);
      settings = null;
      permissions = undefined;
      roles = [];
      organizations = [];
      navigation.reset();
      fromCache = false;
      locationLive = false;
      progress = null;
      if (reason === 'signOut') feed.clear();
      everythingChanged();
      void (async () => {
        try {
          // a write of this user still in flight lands first, so the clearing below removes it too
          await persister.settled();
          await cache.saveSession(null);
          // an expired session keeps the user's saved data (it is theirs alone); signing out removes it
          if (uid && reason === 'signOut') {
            await storage.clearUser(uid);
            await pageCache?.clearUser(uid);
          }
        } catch (error) {
          deps.logger.warn('Could not clear stored data', error);
        }
      })();
    },
  };
  /** a resumed session keeps its saved floor through the first location switch */
  let resumedFloor = false;
  /**
   * Bumps at every sign-in, sign-out and resume: a resume still reading the
   * saved session or location when the user signs out (or another signs in)
   * gives up instead of bringing the previous user back (issue 11 §3).
   */
  let userEpoch = 0;
  /** the saved session's user while resume() reads its data (settings come later) */
  let resumingUserId: Id | null = null;
  /** the last resume and the user epoch it began: a second call meanwhile gets its answer */
  let resuming: { epoch: number; result: Promise<boolean> } | null = null;

  /** the signed-in (or resuming) user, if any */
  const currentUserId = (): Id | null => settings?.user.id ?? resumingUserId ?? viewerUserId();

  /** ends this tab's session; `elsewhere`: another tab already signed out on the server */
  function endLocally(elsewhere: boolean) {
    userEpoch += 1;
    const s = session;
    if (s && s.state().phase.name !== 'signedOut' && s.state().phase.name !== 'sessionExpired') {
      if (elsewhere) s.signOutElsewhere();
      else s.signOut();
    } else if (resumingUserId || store.organizationId || fromCache) {
      // no session yet (a resume still reading): forget what it may already have served
      port.endSession('signOut');
    }
  }

  const stopTabs = deps.tabs?.listen((message) => {
    // another user signing out in another tab says nothing about this one
    if (message.type === 'signedOut' && message.userId === currentUserId()) endLocally(true);
  });

  function forgetReopen() {
    savedView = null;
    restoredParts = new Set();
    restRestore = null;
    openOtherFloors?.();
    restoring = false;
    viewSaver.stop();
  }

  function ensureSession(init: { host: string; version?: number }): Session {
    const version = init.version ?? DEFAULT_API_VERSION;
    if (session && host && host.host === init.host && host.version === version) return session;
    session?.dispose();
    host = { host: init.host, version };
    session = createSession({
      host: init.host,
      version,
      clock,
      corrected,
      scheduler,
      fetch: deps.fetch,
      transportFactory: deps.transportFactory,
      logger: syncLogger,
      timeouts: { ...DEFAULT_SESSION_TIMEOUTS, timeSyncIntervalMs: TIME_SYNC_INTERVAL_MS, ...deps.timeouts },
      port,
      reconnectStepMs: deps.reconnectStepMs,
      reconnectMaxDelayMs: deps.reconnectMaxDelayMs,
      onChange() {
        hub.markDirty('connection');
        hub.markDirty('session');
        connectionMoved();
      },
      onError(error) { feed.post(error.level, error.type, error.message); },
      onProgress(p) { progress = p; hub.markDirty('session'); },
    });
    if (!browserOnline) session.setOnline(false);
    return session;
  }

  const notInitialised = () => failure(0, null, 'Engine not initialised: call init() first');

  /**
   * An account call (sign-in, signup, a password reset or set from a mailed code): refused before anything is
   * sent while the browser is offline, typed as the other writes are (docs/engine.md "Account calls offline").
   * Signed out there is no connection to judge the server by, so the browser's flag is the test, as in the forms.
   */
  function accountCall<T>(call: (s: Session) => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
    if (!session) return Promise.resolve(notInitialised());
    if (!browserOnline) return Promise.resolve(serverUnreachable());
    return call(session);
  }

  async function signedIn(call: (s: Session) => Promise<Settings>): Promise<ApiResult<Settings>> {
    const s = session;
    if (!s) return notInitialised();
    // a resume still reading the saved location of whoever was here must not land
    userEpoch += 1;
    epoch += 1;
    const result = await toResult(() => call(s));
    return result.ok ? { ok: true, value: settings ?? result.value } : result;
  }

  /** Reads the stored session and serves its saved location, then resumes the session over the network. */
  async function resumeStored(): Promise<boolean> {
    const mine = ++userEpoch;
    await cache.open();
    let stored: StoredSession | null = null;
    try { stored = await storage.loadSession(); } catch (error) { deps.logger.warn('Could not read the stored session', error); }
    if (mine !== userEpoch) return false;
    if (!stored || typeof stored.token !== 'string' || !stored.token || typeof stored.userId !== 'string' || !stored.userId) return false;
    const s = ensureSession(host ?? { host: stored.host, version: stored.version });
    resumingUserId = stored.userId;
    setRoles(stored.permissions ?? []);
    navigation.restore(stored.floorId);
    resumedFloor = stored.floorId !== null;
    // the saved location is drawn before any network call; the session then reloads it live
    if (stored.organizationId && stored.locationId) {
      epoch += 1;
      clearStore(store);
      store.organizationId = stored.organizationId;
      store.locationId = stored.locationId;
      const view = await storage.loadView({ userId: stored.userId, locationId: stored.locationId }).catch(() => null);
      // signed out (or another user signed in) while the saved view was read
      if (mine !== userEpoch) return false;
      await serveCached(stored.userId, stored.organizationId, stored.locationId, view);
      // signed out (or another user signed in) while the saved location was read
      if (mine !== userEpoch) return false;
    }
    resumingUserId = null;
    s.resume({ token: stored.token, userId: stored.userId, organizationId: stored.organizationId, locationId: stored.locationId });
    // the store holds what the cache holds: nothing to write until something changes
    cache.target(stored.userId, { fromCache: true });
    return true;
  }

  const actions = createActions({
    store,
    config: () => config.location(),
    now: () => corrected.now(),
    timeZone,
    rest: () => (session?.token() ? session.rest : null),
    reachable: () => {
      // as the UI's useServerReach decides it: connected (loading or live) and online
      const state = session?.state();
      return !!state && browserOnline && state.ctx.online && (state.phase.name === 'loading' || state.phase.name === 'live');
    },
    permissions: () => permissions,
    roles: () => roles,
    userId: viewerUserId,
    apply,
    unauthorized: () => session?.unauthorized(),
    optimistic,
    facts,
  });

  const api: Engine = {
    async init(options: EngineInit) {
      ensureSession(options);
      await cache.open();
    },

    async subscribe(spec: ViewSpec, listener: ViewListener) {
      const id = hub.subscribe(spec, listener);
      if (spec.view === 'floor') {
        // the first floor snapshot of a reopen is out: now the rest may be read; another floor wants them all
        restRestore?.();
        wantOtherFloors(spec.floorId);
      } else if (spec.view === 'search') wantOtherFloors(); // the finder searches every floor
      return id;
    },
    async unsubscribe(id) { hub.unsubscribe(id); },

    signIn: (email, password, options) => accountCall(() => signedIn((s) => s.signIn(email, password, options))),
    signInWithIdToken: (idToken) => accountCall(() => signedIn((s) => s.signInWithIdToken(idToken))),
    signUp: (email) => accountCall((s) => toResult(() => s.rest.signup(email))),
    authUri: (email) => accountCall((s) => toResult(() => s.rest.authUri(email))),
    recoverPassword: (email) => accountCall((s) => toResult(() => s.rest.recoverPassword(email))),
    confirmSignUp: (code, password) => accountCall((s) => confirmSignUp(s.rest, code, password)),
    setPasswordWithCode: (link, password) => accountCall((s) => setPasswordWithCode(s.rest, link, password)),

    resume() {
      // main.tsx starts the resume while the UI loads, and the UI asks again: both get the one in flight
      if (resuming?.epoch !== userEpoch) {
        const result = resumeStored(); // bumps userEpoch before its first await
        resuming = { epoch: userEpoch, result };
      }
      return resuming.result;
    },

    async signOut() {
      const uid = currentUserId();
      endLocally(false);
      // the same user's other tabs sign out too (a shared computer: signing out means everywhere)
      if (uid) deps.tabs?.post({ type: 'signedOut', userId: uid });
    },

    selectOrganization: (organizationId) => (session ? session.selectOrganization(organizationId) : Promise.resolve(notInitialised())),
    selectLocation: (locationId) => (session ? session.selectLocation(locationId) : Promise.resolve(notInitialised())),
    async selectBuilding(buildingId) {
      if (navigation.selectBuilding(buildingId, roles)) { hub.markDirty('session'); await saveSession(); }
    },
    async selectFloor(floorId) {
      if (navigation.selectFloor(floorId)) { hub.markDirty('session'); await saveSession(); }
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

    async setOnline(online) {
      browserOnline = online;
      if (session) session.setOnline(online);
      else { hub.markDirty('connection'); connectionMoved(); }
    },

    internals: { store, scheduler, hub, persister, corrected, session: () => session, sink, facts, modules },

    async dispose() {
      disposed = true;
      stopTabs?.();
      deps.tabs?.close();
      await persister.flush().catch(() => undefined);
      persister.dispose();
      hub.dispose();
      scheduler.clear();
      session?.dispose();
      await storage.close().catch(() => undefined);
    },
  };
  return api;
}
