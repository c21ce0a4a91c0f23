// createEngine: the worker's engine behind the Comlink API of src/shared/api.ts
// (DESIGN §2, §4, §5). It wires the sync layer's validated batches into the
// mutable store, derives draw state on demand, pushes view patches, persists
// to the injected storage, and runs every time-based rule on one scheduler
// over the corrected clock. All side effects come in through `deps`.

import type {
  ApiResult, ConnectionView, EngineApi, EngineInit, LoadProgress, ViewListener, ViewSpec,
} from '../shared/api.js';
import { REALTIME_TIMELINE_INTERVAL_MS } from '../shared/constants.js';
import { MSG } from '../shared/messages.js';
import { normalizeSettings } from '../shared/normalize/people.js';
import { DEFAULT_API_VERSION } from '../shared/rest.js';
import { NoPermissionsError, rolesFromPermissions } from '../shared/roles.js';
import type { Id, Role, Settings } from '../shared/types.js';
import { createConfigResolver } from './derive/configResolver.js';
import { createFactsCache } from './derive/factsCache.js';
import { createActions } from './engine/actions.js';
import { createCacheFlow } from './engine/cacheFlow.js';
import { buildSessionView } from './engine/sessionView.js';
import { markEverythingChanged, routeDelta, type DeltaRouting } from './engine/deltaRouting.js';
import { createFeed } from './engine/feed.js';
import { failure, toResult } from './engine/results.js';
import type { ChangeBatch, ChangeSink, Clock, FetchFn, Logger, TransportFactory } from './ports.js';
import { createScheduler, type Scheduler } from './scheduler.js';
import { createPersister, type Persister, type StoragePort, type StoredSession } from './storage/index.js';
import { applyBatch } from './store/applyBatch.js';
import { clearLocationData, clearStore, createStore, type Store } from './store/store.js';
import { syncAllUserEntities } from './store/userEntities.js';
import { withPersonSiblings } from './store/people.js';
import { createDelta, type StoreDelta } from './store/delta.js';
import { createCorrectedClock, createSync, isHttpError, type CorrectedClock, type Sync } from './sync/index.js';
import { createViewSources } from './views/sources.js';
import { createViewHub, type ViewHub } from './views/viewHub.js';
import { createReportService } from './reports/reportService.js';
import type { UserPageCache } from './storage/idbPageCache.js';

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
  /** report pages of closed days (IndexedDB in the worker); none: reports always fetch */
  pageCache?: (userId: () => Id | null) => UserPageCache;
}

export interface EngineInternals {
  store: Store;
  scheduler: Scheduler;
  hub: ViewHub;
  persister: Persister;
  corrected: CorrectedClock;
  sync(): Sync | null;
  /** the sink the sync layer feeds (tests may feed it directly) */
  sink: ChangeSink;
}

export interface Engine extends EngineApi {
  readonly internals: EngineInternals;
  dispose(): Promise<void>;
}

const RESUME_RETRY_KEY = 'engine:resume';
const TIMELINE_KEY = 'engine:timeline';
const RESUME_RETRY_MAX_MS = 60_000;

export function createEngine(deps: EngineDeps): Engine {
  const { clock, storage } = deps;
  const corrected = createCorrectedClock(clock);
  const scheduler = createScheduler(clock, () => corrected.now());
  const store = createStore();
  const config = createConfigResolver(store);

  let sync: Sync | null = null;
  let host: { host: string; version: number } | null = null;
  let settings: Settings | null = null;
  let userId: Id | null = null;
  let token: string | null = null;
  let permissions: string[] = [];
  let permissionsMissing = false;
  let roles: Role[] = [];
  let organizations: Array<{ id: Id; name: string }> = [];
  let floorId: Id | null = null;
  let desiredLocation: Id | null = null;
  let fromCache = false;
  let loading = false;
  let progress: LoadProgress | null = null;
  let locationLoad: { id: Id; promise: Promise<ApiResult<void>> } | null = null;
  let connection: ConnectionView = {
    state: 'idle', transportState: null, transport: null, nextRetryAt: null, attempts: 0, online: true,
    fromCache: false, serverOffsetMs: 0, lastError: null,
  };
  let resumeFailures = 0;
  let disposed = false;

  const hub: ViewHub = createViewHub({
    clock,
    logger: deps.logger,
    flushIntervalMs: deps.flushIntervalMs,
    createSource: (spec) => sources(spec),
  });
  const feed = createFeed(() => corrected.now(), () => hub.markDirty('feed'));
  const storeLogger = feed.logger(deps.logger, 'validation');
  const syncLogger = feed.logger(deps.logger, 'stream');

  const facts = createFactsCache({
    store,
    scheduler,
    context: () => ({
      now: corrected.now(),
      viewerUserId: userId,
      roles,
      config,
      timeZone: (store.locationId && store.locations.get(store.locationId)?.timezone) || 'UTC',
    }),
    onExpired: (id) => {
      // a person's other assets may take over (or give back) their position
      const ids = withPersonSiblings(store, [id]);
      facts.invalidate(ids);
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
    position: (scope) => sync?.position(scope) ?? null,
  });

  const sources = createViewSources({
    store, facts, config,
    roles: () => roles,
    viewerUserId: () => userId,
    now: () => corrected.now(),
    fromCache: () => fromCache,
    loading: () => loading,
    connection: () => ({ ...connection, fromCache }),
    session: sessionView,
    feed: () => feed.entries(),
    report: (spec) => reports.source(spec),
  });

  const pageCache = deps.pageCache?.(() => userId) ?? null;
  const reports = createReportService({
    store,
    config: () => config.location(),
    roles: () => roles,
    permissions: () => (permissionsMissing ? undefined : permissions),
    now: () => corrected.now(),
    fetchPage: (type, query) => {
      const s = sync;
      if (!s || !store.organizationId || !store.locationId) return Promise.reject(new Error('No location loaded'));
      return s.rest.measurements(store.organizationId, store.locationId, type, query);
    },
    cache: pageCache,
    markDirty: (key) => hub.markDirty('reports', [key]),
    warn: (message) => feed.post('warning', 'validation', message),
  });

  function sessionView() {
    return buildSessionView({
      store, config, settings, userId, signedIn: userId !== null && token !== null,
      roles, permissions, organizations, floorId, progress,
    });
  }

  // ---------------------------------------------------------------- deltas

  const routing: DeltaRouting = { store, config, facts, hub, feed, persister, viewerUserId: () => userId };
  const everythingChanged = () => markEverythingChanged(routing);
  const afterDelta = (delta: StoreDelta) => routeDelta(routing, delta);

  const applyOptions = () => ({
    logger: storeLogger,
    now: () => corrected.now(),
    manualLocationTimeoutMs: config.location().manualLocationTimeout,
  });

  const sink: ChangeSink = {
    apply(batch: ChangeBatch) {
      if (disposed) return;
      const delta = applyBatch(store, batch, applyOptions());
      afterDelta(delta);
      const orgLocations = batch?.scope?.kind === 'organization'
        && batch.changes.some((c) => c.collection === 'locations' && c.kind === 'initial');
      if (orgLocations && desiredLocation && sync && sync.locationId() !== desiredLocation && !locationLoad) {
        // a reconnect reloaded the organization while the chosen location never loaded (e.g. offline at resume)
        const id = desiredLocation;
        queueMicrotask(() => { void loadLocationNetwork(id); });
      }
    },
  };

  function rederiveUsers() {
    const delta = createDelta();
    syncAllUserEntities(store, delta, applyOptions());
    afterDelta(delta);
  }

  // ---------------------------------------------------------------- timeline

  /** Every REALTIME_TIMELINE_INTERVAL_MS: re-derive what changes continuously; patches carry only real changes. */
  function scheduleTimeline() {
    scheduler.scheduleIn(TIMELINE_KEY, REALTIME_TIMELINE_INTERVAL_MS, () => {
      const ids = facts.continuous();
      facts.invalidate(ids);
      hub.markDirty('assets', ids);
      hub.markDirty('users', 'all');
      scheduleTimeline();
    });
  }
  scheduleTimeline();

  // ---------------------------------------------------------------- sync and session

  function ensureSync(init: { host: string; version?: number }): Sync {
    const version = init.version ?? DEFAULT_API_VERSION;
    if (sync && host && host.host === init.host && host.version === version) return sync;
    if (sync) void sync.dispose();
    host = { host: init.host, version };
    sync = createSync({
      host: init.host,
      version,
      clock,
      corrected,
      scheduler,
      fetch: deps.fetch,
      transportFactory: deps.transportFactory,
      logger: syncLogger,
      sink,
      onConnection(view) { connection = view; hub.markDirty('connection'); },
      onError(error) { feed.post(error.level, error.type, error.message); },
      onProgress(p) { progress = p; hub.markDirty('session'); },
    });
    return sync;
  }

  function setRoles(list: unknown) {
    try {
      roles = rolesFromPermissions({ permissions: list });
      permissions = (list as string[]).filter((p) => typeof p === 'string');
      permissionsMissing = false;
    } catch (error) {
      roles = [];
      permissions = [];
      permissionsMissing = error instanceof NoPermissionsError;
      if (error instanceof NoPermissionsError) feed.post('warning', 'auth', MSG.NO_PERMISSIONS);
    }
  }

  async function saveSession() {
    if (!host || !userId || !token) return;
    await cache.saveSession({
      host: host.host, version: host.version, token, userId, permissions, expiresAt: null,
      organizationId: store.organizationId, locationId: store.locationId, floorId,
    });
  }

  const updatePersistSource = () => cache.target(userId);
  const openStorage = () => cache.open();

  /** Serves a cached location at once, before any network answer. */
  async function serveCached(uid: Id, locationId: Id, locationOnly: boolean): Promise<boolean> {
    if (!(await cache.restore(uid, locationId, locationOnly))) return false;
    fromCache = true;
    everythingChanged();
    rederiveUsers();
    return true;
  }

  async function applySettings(raw: Settings) {
    const normalized = normalizeSettings(raw, { logger: storeLogger });
    if (!normalized) return;
    if (userId && userId !== normalized.user.id) {
      persister.setSource(null);
      clearStore(store);
      fromCache = false;
    }
    settings = normalized;
    userId = normalized.user.id;
    token = sync?.token() ?? token;
    setRoles((raw as { permissions?: unknown }).permissions);
    everythingChanged();
    await saveSession();
    void sync?.connect().catch((error: unknown) => deps.logger.warn('Connect refused', (error as Error).message));
    void loadOrganizationList();
  }

  async function loadOrganizationList() {
    const s = sync;
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

  async function signedIn(call: () => Promise<Settings>): Promise<ApiResult<Settings>> {
    const result = await toResult(call);
    if (result.ok) {
      await applySettings(result.value);
      return { ok: true, value: settings ?? result.value };
    }
    return result;
  }

  async function resumeNetwork(organizationId: Id | null, locationId: Id | null) {
    const s = sync;
    if (!s || disposed) return;
    try {
      const raw = await s.loadSettings();
      resumeFailures = 0;
      await applySettings(raw);
    } catch (error) {
      if (isHttpError(error) && (error.status === 401 || error.status === 403)) { await api.signOut(); return; }
      resumeFailures += 1;
      feed.post('error', 'network', MSG.PROBLEM_CONNECTING);
      const delay = Math.min(RESUME_RETRY_MAX_MS, 5_000 * resumeFailures);
      scheduler.scheduleIn(RESUME_RETRY_KEY, delay, () => { void resumeNetwork(organizationId, locationId); });
      return;
    }
    if (organizationId) {
      const org = await api.loadOrganization(organizationId);
      if (org.ok && locationId) await loadLocationNetwork(locationId);
    }
  }

  function loadLocationNetwork(locationId: Id): Promise<ApiResult<void>> {
    if (locationLoad?.id === locationId) return locationLoad.promise;
    const s = sync;
    if (!s) return Promise.resolve(failure(0, null, 'Engine not initialised'));
    loading = true;
    hub.markDirty('structure');
    const promise = (async (): Promise<ApiResult<void>> => {
      const result = await toResult(() => s.loadLocation(locationId));
      if (store.locationId === locationId) {
        loading = false;
        if (result.ok && result.value) {
          fromCache = false;
          rederiveUsers();
        }
        hub.markDirty('structure');
        hub.markDirty('connection');
        hub.markDirty('session');
        await saveSession();
      }
      if (!result.ok) return result;
      if (!result.value) return failure(404, null, `Location ${locationId} is not a location of the loaded organization`);
      return { ok: true, value: undefined };
    })();
    locationLoad = { id: locationId, promise };
    void promise.finally(() => { if (locationLoad?.promise === promise) locationLoad = null; });
    return promise;
  }

  const notInitialised = () => failure(0, null, 'Engine not initialised: call init() first');

  const actions = createActions({
    store, config, corrected, feed,
    sync: () => sync,
    roles: () => roles,
    userId: () => userId,
    afterDelta,
    applyOptions,
  });

  const api: Engine = {
    async init(options: EngineInit) {
      ensureSync(options);
      await openStorage();
    },

    async subscribe(spec: ViewSpec, listener: ViewListener) {
      return hub.subscribe(spec, listener);
    },
    async unsubscribe(id) { hub.unsubscribe(id); },

    signIn: (email, password) => (sync ? signedIn(() => sync!.signIn(email, password)) : Promise.resolve(notInitialised())),
    signInWithIdToken: (idToken) => (sync ? signedIn(() => sync!.signInWithIdToken(idToken)) : Promise.resolve(notInitialised())),
    signUp: (email) => (sync ? toResult(() => sync!.rest.signup(email)) : Promise.resolve(notInitialised())),
    authUri: (email) => (sync ? toResult(() => sync!.rest.authUri(email)) : Promise.resolve(notInitialised())),
    recoverPassword: (email) => (sync ? toResult(() => sync!.rest.recoverPassword(email)) : Promise.resolve(notInitialised())),

    async resume() {
      await openStorage();
      let stored: StoredSession | null = null;
      try { stored = await storage.loadSession(); } catch (error) { deps.logger.warn('Could not read the stored session', error); }
      if (!stored || typeof stored.token !== 'string' || !stored.token) return false;
      const s = ensureSync(host ?? { host: stored.host, version: stored.version });
      s.setToken(stored.token);
      token = stored.token;
      userId = stored.userId;
      setRoles(stored.permissions ?? []);
      floorId = stored.floorId;
      desiredLocation = stored.locationId;
      if (stored.organizationId && stored.locationId) await serveCached(stored.userId, stored.locationId, false);
      if (!store.organizationId && stored.organizationId) store.organizationId = stored.organizationId;
      updatePersistSource();
      everythingChanged();
      void resumeNetwork(stored.organizationId, stored.locationId);
      return true;
    },

    async signOut() {
      const uid = userId;
      persister.setSource(null);
      scheduler.cancel(RESUME_RETRY_KEY);
      if (sync) {
        await sync.reset();
        sync.setToken(null);
      }
      clearStore(store);
      settings = null; userId = null; token = null; roles = []; permissions = []; organizations = [];
      floorId = null; desiredLocation = null; fromCache = false; loading = false; progress = null;
      reports.reset();
      feed.clear();
      everythingChanged();
      try {
        await cache.saveSession(null);
        if (uid) await storage.clearUser(uid);
        if (uid) await pageCache?.clearUser(uid);
      } catch (error) {
        deps.logger.warn('Could not clear stored data on sign-out', error);
      }
    },

    async loadOrganization(organizationId) {
      const s = sync;
      if (!s) return notInitialised();
      if (store.organizationId !== organizationId) {
        persister.setSource(null);
        const notifications = new Map(store.notifications);
        clearStore(store);
        for (const [id, n] of notifications) store.notifications.set(id, n);
        store.organizationId = organizationId;
        floorId = null;
        desiredLocation = null;
        fromCache = false;
        everythingChanged();
      }
      const result = await toResult(() => s.loadOrganization(organizationId));
      hub.markDirty('session');
      await saveSession();
      return result;
    },

    async loadLocation(locationId) {
      const s = sync;
      if (!s) return notInitialised();
      const orgId = store.organizationId;
      const org = orgId ? store.organizations.get(orgId) : undefined;
      if (!orgId || !(store.locations.has(locationId) || org?.locations.includes(locationId))) {
        const message = `Location ${locationId} is not a location of the loaded organization; not loading it.`;
        deps.logger.warn(message);
        return failure(404, null, message);
      }
      desiredLocation = locationId;
      if (store.locationId !== locationId) {
        reports.reset();
        clearLocationData(store);
        store.locationId = locationId;
        floorId = null;
        fromCache = false;
        if (userId) await serveCached(userId, locationId, true);
        store.locationId = locationId;
        rederiveUsers();
        updatePersistSource();
        everythingChanged();
      }
      return loadLocationNetwork(locationId);
    },

    async selectFloor(id) {
      floorId = id;
      hub.markDirty('session');
      await saveSession();
    },

    book: actions.book,
    cancelBooking: actions.cancelBooking,
    createTicket: actions.createTicket,
    vote: actions.vote,
    updateAsset: actions.updateAsset,
    setManualLocation: actions.setManualLocation,
    markNotificationRead: actions.markNotificationRead,
    async cancelReport(request) { reports.cancel(request); },

    async setOnline(online) {
      connection = { ...connection, online };
      sync?.setOnline(online);
      hub.markDirty('connection');
    },

    internals: { store, scheduler, hub, persister, corrected, sync: () => sync, sink },

    async dispose() {
      disposed = true;
      await persister.flush().catch(() => undefined);
      persister.dispose();
      hub.dispose();
      scheduler.clear();
      if (sync) await sync.dispose();
      await storage.close().catch(() => undefined);
    },
  };
  return api;
}
