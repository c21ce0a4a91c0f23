// The session and the account calls: the session runner per host, sign-in and
// the other account calls (refused offline), the resume of a saved session, and
// a sign-out that reaches the same user's other tabs.

import type { ApiResult, EngineApi } from '../../shared/api.js';
import { TIME_SYNC_INTERVAL_MS } from '../../shared/constants.js';
import { DEFAULT_API_VERSION } from '../../shared/rest.js';
import type { Settings } from '../../shared/types.js';
import type { Clock, FetchFn, Logger, TransportFactory } from '../ports.js';
import type { Scheduler } from '../scheduler.js';
import { createSession } from '../session/createSession.js';
import { DEFAULT_SESSION_TIMEOUTS } from '../session/timeouts.js';
import type { Session, SessionHost, SessionTimeouts } from '../session/types.js';
import type { StoragePort, StoredSession } from '../storage/index.js';
import { clearStore, type Store } from '../store/store.js';
import type { CorrectedClock } from '../sync/timeSync.js';
import type { TabChannel } from '../tabChannel.js';
import type { ViewHub } from '../views/viewHub.js';
import { confirmSignUp, setPasswordWithCode } from './accountActions.js';
import type { CacheFlow } from './cacheFlow.js';
import type { Feed } from './feed.js';
import type { Navigation } from './navigation.js';
import type { Reopen } from './reopen.js';
import { failure, serverUnreachable, toResult } from './results.js';
import { viewerUserIdOf, type EngineState } from './state.js';

export interface AccountOptions {
  state: EngineState;
  store: Store;
  clock: Clock;
  corrected: CorrectedClock;
  scheduler: Scheduler;
  fetch: FetchFn;
  transportFactory: TransportFactory;
  storage: StoragePort;
  cache: CacheFlow;
  navigation: Navigation;
  reopen: Reopen;
  hub: ViewHub;
  feed: Feed;
  logger: Logger;
  /** the session's own log (stream warnings go to the feed too) */
  syncLogger: Logger;
  timeouts?: Partial<SessionTimeouts>;
  reconnectStepMs?: number;
  reconnectMaxDelayMs?: number;
  tabs?: TabChannel;
  /** the store side of the session's effects */
  port: SessionHost;
  setRoles(list: unknown): void;
  /** the connection moved (report views waiting for live data follow it) */
  connectionMoved(): void;
}

type AccountApi = Pick<EngineApi,
  'init' | 'signIn' | 'signInWithIdToken' | 'signUp' | 'authUri' | 'recoverPassword' | 'confirmSignUp' | 'setPasswordWithCode'
  | 'resume' | 'signOut' | 'selectOrganization' | 'selectLocation' | 'setOnline'>;

export interface Account {
  api: AccountApi;
  /** stops listening to the other tabs and closes the channel */
  close(): void;
}

export function createAccount(options: AccountOptions): Account {
  const { state, store, cache, storage, navigation, reopen, hub, feed, logger, port } = options;

  /** the signed-in (or resuming) user, if any */
  const currentUserId = () => state.settings?.user.id ?? state.resumingUserId ?? viewerUserIdOf(state);

  /** ends this tab's session; `elsewhere`: another tab already signed out on the server */
  function endLocally(elsewhere: boolean) {
    state.userEpoch += 1;
    const s = state.session;
    if (s && s.state().phase.name !== 'signedOut' && s.state().phase.name !== 'sessionExpired') {
      if (elsewhere) s.signOutElsewhere();
      else s.signOut();
    } else if (state.resumingUserId || store.organizationId || state.fromCache) {
      // no session yet (a resume still reading): forget what it may already have served
      port.endSession('signOut');
    }
  }

  const stopTabs = options.tabs?.listen((message) => {
    // another user signing out in another tab says nothing about this one
    if (message.type === 'signedOut' && message.userId === currentUserId()) endLocally(true);
  });

  function ensureSession(init: { host: string; version?: number }): Session {
    const version = init.version ?? DEFAULT_API_VERSION;
    if (state.session && state.host && state.host.host === init.host && state.host.version === version) return state.session;
    state.session?.dispose();
    state.host = { host: init.host, version };
    const session = createSession({
      host: init.host,
      version,
      clock: options.clock,
      corrected: options.corrected,
      scheduler: options.scheduler,
      fetch: options.fetch,
      transportFactory: options.transportFactory,
      logger: options.syncLogger,
      timeouts: { ...DEFAULT_SESSION_TIMEOUTS, timeSyncIntervalMs: TIME_SYNC_INTERVAL_MS, ...options.timeouts },
      port,
      reconnectStepMs: options.reconnectStepMs,
      reconnectMaxDelayMs: options.reconnectMaxDelayMs,
      onChange() {
        hub.markDirty('connection');
        hub.markDirty('session');
        options.connectionMoved();
      },
      onError(error) { feed.post(error.level, error.type, error.message); },
      onProgress(p) { state.progress = p; hub.markDirty('session'); },
    });
    state.session = session;
    if (!state.browserOnline) session.setOnline(false);
    return session;
  }

  const notInitialised = () => failure(0, null, 'Engine not initialised: call init() first');

  /**
   * An account call (sign-in, signup, a password reset or set from a mailed code): refused before anything is
   * sent while the browser is offline, typed as the other writes are (docs/engine.md "Account calls offline").
   * Signed out there is no connection to judge the server by, so the browser's flag is the test, as in the forms.
   */
  function accountCall<T>(call: (s: Session) => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
    if (!state.session) return Promise.resolve(notInitialised());
    if (!state.browserOnline) return Promise.resolve(serverUnreachable());
    return call(state.session);
  }

  async function signedIn(call: (s: Session) => Promise<Settings>): Promise<ApiResult<Settings>> {
    const s = state.session;
    if (!s) return notInitialised();
    // a resume still reading the saved location of whoever was here must not land
    state.userEpoch += 1;
    state.epoch += 1;
    const result = await toResult(() => call(s));
    return result.ok ? { ok: true, value: state.settings ?? result.value } : result;
  }

  /** Reads the stored session and serves its saved location, then resumes the session over the network. */
  async function resumeStored(): Promise<boolean> {
    const mine = ++state.userEpoch;
    await cache.open();
    let stored: StoredSession | null = null;
    try { stored = await storage.loadSession(); } catch (error) { logger.warn('Could not read the stored session', error); }
    if (mine !== state.userEpoch) return false;
    if (!stored || typeof stored.token !== 'string' || !stored.token || typeof stored.userId !== 'string' || !stored.userId) return false;
    const s = ensureSession(state.host ?? { host: stored.host, version: stored.version });
    state.resumingUserId = stored.userId;
    options.setRoles(stored.permissions ?? []);
    navigation.restore(stored.floorId);
    state.resumedFloor = stored.floorId !== null;
    // the saved location is drawn before any network call; the session then reloads it live
    if (stored.organizationId && stored.locationId) {
      state.epoch += 1;
      clearStore(store);
      store.organizationId = stored.organizationId;
      store.locationId = stored.locationId;
      const view = await storage.loadView({ userId: stored.userId, locationId: stored.locationId }).catch(() => null);
      // signed out (or another user signed in) while the saved view was read
      if (mine !== state.userEpoch) return false;
      await reopen.serve(stored.userId, stored.organizationId, stored.locationId, view);
      // signed out (or another user signed in) while the saved location was read
      if (mine !== state.userEpoch) return false;
    }
    state.resumingUserId = null;
    s.resume({ token: stored.token, userId: stored.userId, organizationId: stored.organizationId, locationId: stored.locationId });
    // the store holds what the cache holds: nothing to write until something changes
    cache.target(stored.userId, { fromCache: true });
    return true;
  }

  const api: AccountApi = {
    async init(init) {
      ensureSession(init);
      await cache.open();
    },

    signIn: (email, password, signInOptions) => accountCall(() => signedIn((s) => s.signIn(email, password, signInOptions))),
    signInWithIdToken: (idToken) => accountCall(() => signedIn((s) => s.signInWithIdToken(idToken))),
    signUp: (email) => accountCall((s) => toResult(() => s.rest.signup(email))),
    authUri: (email) => accountCall((s) => toResult(() => s.rest.authUri(email))),
    recoverPassword: (email) => accountCall((s) => toResult(() => s.rest.recoverPassword(email))),
    confirmSignUp: (code, password) => accountCall((s) => confirmSignUp(s.rest, code, password)),
    setPasswordWithCode: (link, password) => accountCall((s) => setPasswordWithCode(s.rest, link, password)),

    resume() {
      // main.tsx starts the resume while the UI loads, and the UI asks again: both get the one in flight
      if (state.resuming?.epoch !== state.userEpoch) {
        const result = resumeStored(); // bumps userEpoch before its first await
        state.resuming = { epoch: state.userEpoch, result };
      }
      return state.resuming.result;
    },

    async signOut() {
      const uid = currentUserId();
      endLocally(false);
      // the same user's other tabs sign out too (a shared computer: signing out means everywhere)
      if (uid) options.tabs?.post({ type: 'signedOut', userId: uid });
    },

    selectOrganization: (organizationId) => (state.session ? state.session.selectOrganization(organizationId) : Promise.resolve(notInitialised())),
    selectLocation: (locationId) => (state.session ? state.session.selectLocation(locationId) : Promise.resolve(notInitialised())),

    async setOnline(online) {
      state.browserOnline = online;
      if (state.session) state.session.setOnline(online);
      else { hub.markDirty('connection'); options.connectionMoved(); }
    },
  };

  return {
    api,
    close() {
      stopTabs?.();
      options.tabs?.close();
    },
  };
}
