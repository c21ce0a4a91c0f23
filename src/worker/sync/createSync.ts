// The connection state machine (spec §4, §5, §8): connecting → connected, or
// error / unavailable with a reconnect on the back-off schedule. A connect
// attempt syncs time, reloads settings, opens the transport, then activates
// every wanted scope (subscribe, load, replay). See docs/sync.md.

import { TIME_SYNC_INTERVAL_MS } from '../../shared/constants.js';
import { MSG } from '../../shared/messages.js';
import { scopeKey, type LocationAudience, type StreamScope } from '../../shared/protocol.js';
import type { ConnectionView } from '../../shared/api.js';
import type { Id, Settings } from '../../shared/types.js';
import type { ChangeBatch, ChangeSink, Transport } from '../ports.js';
import { errorText, decodePacket } from '../decode.js';
import { isClientError } from '../rest/httpError.js';
import { createRestClient } from '../rest/restClient.js';
import type { LoginResponse } from '../../shared/rest.js';
import { TransportConfigError } from '../transports/transportError.js';
import { reconnectDelayMs } from './backoff.js';
import { measureOffset } from './timeSync.js';
import { createSubscriptions } from './subscriptions.js';
import { locationAudienceOf, locationScope, organizationScope, scopeLoaders, userScope } from './scopeLoaders.js';
import type { Sync, SyncOptions } from './index.js';

const RECONNECT_KEY = 'sync:reconnect';
const TIME_SYNC_KEY = 'sync:time';

export class SignInError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInError';
  }
}

export function createSync(options: SyncOptions): Sync {
  const { clock, corrected, scheduler, logger } = options;
  let token: string | null = null;
  let settings: Settings | null = null;
  const rest = createRestClient({ host: options.host, version: options.version, fetch: options.fetch, token: () => token });

  let transport: Transport | null = null;
  let transportOff: Array<() => void> = [];
  let transportUp = false;
  let attemptId = 0;
  let ongoing = false;
  let failures = 0;
  let lastStreamReconnectAt = -Infinity;
  let disposed = false;
  let organizationId: Id | null = null;
  let locationId: Id | null = null;
  let userId: Id | null = null;
  /** audience of the location scope in use: 'edit' for the edit role (docs/sync.md) */
  let locationAudience: LocationAudience | null = null;
  const orgLocationIds = new Set<Id>();

  let view: ConnectionView = {
    state: 'idle', transportState: null, transport: null, nextRetryAt: null, attempts: 0,
    online: true, fromCache: false, serverOffsetMs: corrected.offsetMs, lastError: null,
  };
  function setView(patch: Partial<ConnectionView>) {
    view = { ...view, ...patch, serverOffsetMs: corrected.offsetMs };
    options.onConnection({ ...view });
  }

  // Learns location ids from live organization changes too, so loadLocation accepts new ones.
  const sink: ChangeSink = {
    apply(batch: ChangeBatch) {
      if (batch.scope.kind === 'organization' && batch.scope.organizationId === organizationId) {
        for (const c of batch.changes) {
          if (c.collection !== 'locations' || c.kind === 'initial') continue;
          if (c.kind === 'deleted' && c.id !== undefined) orgLocationIds.delete(String(c.id));
          else if (c.id !== undefined) orgLocationIds.add(String(c.id));
        }
      }
      options.sink.apply(batch);
    },
  };

  const subs = createSubscriptions({
    sink,
    logger,
    onProgress: options.onProgress,
    onInvalid(reason, scope) {
      logger.warn(reason === 'uninitialized' ? MSG.UNINITIALIZED_STREAM : MSG.RECONNECTING_STREAM_INVALID, scopeKey(scope));
      const now = clock.now();
      // a stream that stays invalid right after a reload would otherwise reconnect in a tight loop
      if (now - lastStreamReconnectAt < (options.reconnectStepMs ?? 5_000)) {
        abandon();
        closeTransport();
        setView({ state: 'unavailable' });
        scheduleReconnect();
        return;
      }
      lastStreamReconnectAt = now;
      forceReconnect();
    },
  });

  // ------------------------------------------------------------ transport

  function closeTransport() {
    for (const off of transportOff) off();
    transportOff = [];
    const t = transport;
    transport = null;
    transportUp = false;
    if (t) t.disconnect().catch((error: unknown) => logger.debug('Transport disconnect failed', errorText(error)));
  }

  function bindTransport(t: Transport) {
    transport = t;
    transportOff = [
      t.onMessage((scope, payload) => {
        if (transport !== t) return;
        const packet = decodePacket(payload, logger);
        if (packet) subs.receive(scope, packet);
      }),
      t.onStateChange((word) => {
        if (transport !== t) return;
        setView({ transportState: word });
        if ((word === 'disconnected' || word === 'error') && transportUp) onTransportLost();
      }),
    ];
  }

  function onTransportLost() {
    logger.warn('Live connection lost; reconnecting on the back-off schedule.');
    abandon();
    closeTransport();
    subs.resetAll();
    setView({ state: 'unavailable' });
    scheduleReconnect();
  }

  // ------------------------------------------------------------ attempts and back-off

  function abandon() {
    attemptId += 1;
    ongoing = false;
  }

  function fail(message: string, error: unknown) {
    logger.warn(message, errorText(error));
    abandon();
    closeTransport();
    scheduler.cancel(TIME_SYNC_KEY);
    options.onError({ level: 'error', type: 'network', message, time: corrected.now() });
    setView({ state: 'error', lastError: error instanceof TransportConfigError ? error.message : message });
    scheduleReconnect();
  }

  function scheduleReconnect() {
    if (disposed || !token || scheduler.has(RECONNECT_KEY)) return;
    failures += 1;
    const delay = reconnectDelayMs(failures, options.reconnectStepMs, options.reconnectMaxDelayMs);
    scheduler.scheduleIn(RECONNECT_KEY, delay, () => {
      if (ongoing || !token || disposed) return;
      void attempt('reconnect');
    });
    setView({ nextRetryAt: scheduler.dueAt(RECONNECT_KEY), attempts: failures });
  }

  function forceReconnect() {
    if (!token || disposed) return;
    abandon();
    void attempt('reconnect');
  }

  async function syncTime() {
    corrected.setOffset(await measureOffset(clock, () => rest.currentTime()));
  }

  function scheduleTimeSync() {
    scheduler.scheduleIn(TIME_SYNC_KEY, TIME_SYNC_INTERVAL_MS, () => {
      const id = attemptId;
      syncTime().then(
        () => { if (id === attemptId && transportUp) { setView({}); scheduleTimeSync(); } },
        (error: unknown) => { if (id === attemptId && transportUp) fail(MSG.COULD_NOT_SYNC_TIME, error); },
      );
    });
  }

  async function attempt(kind: 'connect' | 'reconnect'): Promise<void> {
    const id = ++attemptId;
    ongoing = true;
    const live = () => id === attemptId && !disposed;
    scheduler.cancel(RECONNECT_KEY);
    scheduler.cancel(TIME_SYNC_KEY);
    closeTransport();
    subs.resetAll();
    setView({ state: 'connecting', nextRetryAt: null, transportState: null });
    try {
      try {
        await syncTime();
      } catch (error) {
        // a scheduled attempt names itself; the first connect names the step
        if (live()) fail(kind === 'reconnect' ? MSG.FAILED_RECONNECT_ATTEMPT : MSG.COULD_NOT_SYNC_TIME, error);
        return;
      }
      if (!live()) return;
      let t: Transport;
      try {
        settings = await rest.settings();
        if (!live()) return;
        // the transport is closed here, so the old location scope needs no unsubscribe
        adoptAudience();
        t = options.transportFactory(settings, { baseUrl: rest.baseUrl, token: token!, fetch: options.fetch, logger });
        bindTransport(t);
        setView({ transport: t.name });
        await t.connect();
      } catch (error) {
        if (live()) fail(kind === 'reconnect' ? MSG.FAILED_RECONNECT_ATTEMPT : MSG.PROBLEM_CONNECTING, error);
        return;
      }
      if (!live()) return;
      transportUp = true;
      setView({ state: 'connected', transportState: view.transportState ?? 'connected' });
      scheduleTimeSync();
      try {
        await activateAll();
      } catch (error) {
        if (live()) fail(MSG.FAILED_TRYING_TO_LOAD, error);
        return;
      }
      if (!live()) return;
      failures = 0;
      setView({ attempts: 0, lastError: null });
    } finally {
      if (id === attemptId) ongoing = false;
    }
  }

  // ------------------------------------------------------------ scopes

  /** the location scope in use, with its audience, or null */
  function currentLocationScope(): StreamScope | null {
    return organizationId && locationId ? locationScope(organizationId, locationId, locationAudience) : null;
  }

  /** a location scope asked about without its audience means the one in use */
  function resolve(scope: StreamScope): StreamScope {
    const current = currentLocationScope();
    if (scope.kind !== 'location' || scope.audience || !current || current.kind !== 'location') return scope;
    return current.organizationId === scope.organizationId && current.locationId === scope.locationId ? current : scope;
  }

  /** settings (re)loaded: a changed edit role switches the location to the other stream on the next activation */
  function adoptAudience() {
    const next = locationAudienceOf(settings);
    if (next === locationAudience) return;
    const old = currentLocationScope();
    if (old) subs.stop(old);
    locationAudience = next;
  }

  function wantedScopes(): StreamScope[] {
    const scopes: StreamScope[] = [];
    if (userId) scopes.push(userScope(userId));
    if (organizationId) scopes.push(organizationScope(organizationId));
    const location = currentLocationScope();
    if (location) scopes.push(location);
    return scopes;
  }

  async function activate(scope: StreamScope): Promise<boolean> {
    subs.start(scope, scopeLoaders(rest, scope, (ids) => { for (const i of ids) orgLocationIds.add(i); }));
    const t = transport;
    if (t && transportUp) await t.subscribe(scope);
    return subs.load(scope);
  }

  /** a 4xx answer drops the scope (retrying cannot help); other failures propagate */
  async function activateOrForget(scope: StreamScope): Promise<void> {
    try {
      await activate(scope);
    } catch (error) {
      if (!isClientError(error)) throw error;
      logger.warn(`Cannot load ${scopeKey(scope)}; giving it up.`, errorText(error));
      forget(scope);
      throw error;
    }
  }

  function forget(scope: StreamScope) {
    stopScope(scope);
    if (scope.kind === 'organization') {
      const location = currentLocationScope();
      if (location) stopScope(location);
      organizationId = null;
      locationId = null;
      orgLocationIds.clear();
    } else if (scope.kind === 'location') locationId = null;
    else userId = null;
  }

  function stopScope(scope: StreamScope) {
    subs.stop(scope);
    const t = transport;
    if (t && transportUp) t.unsubscribe(scope).catch((error: unknown) => logger.debug('Unsubscribe failed', errorText(error)));
  }

  async function activateAll() {
    const results = await Promise.allSettled(wantedScopes().map((scope) => activateOrForget(scope)));
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected' && !isClientError(r.reason));
    if (failure) throw failure.reason;
  }

  /** user-requested load: a non-4xx failure posts the §8 error and schedules a reconnect */
  async function userLoad(scope: StreamScope): Promise<void> {
    const id = attemptId;
    try {
      await activateOrForget(scope);
    } catch (error) {
      if (!isClientError(error) && id === attemptId) fail(MSG.FAILED_TRYING_TO_LOAD, error);
      throw error;
    }
  }

  async function afterLogin(response: LoginResponse): Promise<Settings> {
    if (!response || typeof response.token !== 'string' || response.token === '') {
      throw new SignInError('Sign-in answered without a token.');
    }
    token = response.token;
    return loadSettings();
  }

  async function loadSettings(): Promise<Settings> {
    const s = await rest.settings();
    const id = (s as { user?: { id?: unknown } } | null)?.user?.id;
    if (typeof id !== 'string' || id === '') {
      token = null;
      throw new SignInError('Sign-in needs user data with a non-empty string id.');
    }
    settings = s;
    return s;
  }

  async function disconnect() {
    abandon();
    scheduler.cancel(RECONNECT_KEY);
    scheduler.cancel(TIME_SYNC_KEY);
    closeTransport();
    subs.resetAll();
    failures = 0;
    setView({ state: 'idle', nextRetryAt: null, attempts: 0, transportState: null, transport: null });
  }

  return {
    rest,
    setToken(next) {
      if (next === token) return;
      token = next;
      if (next === null) { settings = null; void disconnect(); }
    },
    token: () => token,
    settings: () => settings,
    signIn: async (email, password) => afterLogin(await rest.login(email, password)),
    signInWithIdToken: async (idToken) => afterLogin(await rest.openIdLogin(idToken)),
    loadSettings,
    async connect() {
      if (ongoing) throw new Error(MSG.ONLY_ONE_CONNECTION_ATTEMPT);
      if (!token) throw new Error(MSG.CURRENT_USER_NOT_SET);
      if (settings && !userId) userId = settings.user.id;
      await attempt('connect');
      if (!userId && settings) {
        userId = settings.user.id;
        if (transportUp) await userLoad(userScope(userId)).catch(() => undefined);
      }
    },
    disconnect,
    setOnline(online) {
      logger.info(online ? 'Browser went online; reconnecting.' : 'Browser went offline.');
      setView({ online });
      if (online && token && view.state !== 'idle') forceReconnect();
    },
    async loadOrganization(orgId) {
      if (organizationId !== null && organizationId !== orgId) {
        const location = currentLocationScope();
        if (location) stopScope(location);
        stopScope(organizationScope(organizationId));
        locationId = null;
        orgLocationIds.clear();
      }
      organizationId = orgId;
      await userLoad(organizationScope(orgId));
    },
    async loadLocation(locId) {
      if (!organizationId || !orgLocationIds.has(locId)) {
        logger.warn(`Location ${locId} is not a location of the loaded organization; not loading it.`);
        return false;
      }
      const audience = locationAudienceOf(settings);
      const previous = currentLocationScope();
      if (previous && (locationId !== locId || locationAudience !== audience)) stopScope(previous);
      locationId = locId;
      locationAudience = audience;
      await userLoad(currentLocationScope()!);
      return true;
    },
    async subscribeUser(id) {
      if (userId && userId !== id) stopScope(userScope(userId));
      userId = id;
      await userLoad(userScope(id));
    },
    async reset() {
      for (const scope of wantedScopes()) stopScope(scope);
      organizationId = null;
      locationId = null;
      userId = null;
      orgLocationIds.clear();
    },
    state: () => ({ ...view }),
    organizationId: () => organizationId,
    locationId: () => locationId,
    subscriptionState: (scope) => subs.state(resolve(scope)),
    position: (scope) => subs.position(resolve(scope)),
    locationScope: currentLocationScope,
    async dispose() {
      await disconnect();
      for (const scope of wantedScopes()) subs.stop(scope);
      disposed = true;
    },
  };
}
