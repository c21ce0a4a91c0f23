// The runner of the session machine (machine.ts): it holds what the pure
// machine must not (the token, settings, REST client, live transport and
// scope subscriptions), performs each effect through the injected ports with
// a timeout on the injected clock, and feeds outcomes back as events.

import { MSG } from '../../shared/messages.js';
import { scopeKey, type StreamScope } from '../../shared/protocol.js';
import type { ApiResult } from '../../shared/api.js';
import type { Id, Settings } from '../../shared/types.js';
import type { LoginResponse } from '../../shared/rest.js';
import { errorText } from '../decode.js';
import { createRestClient } from '../rest/restClient.js';
import { isHttpError } from '../rest/httpError.js';
import { TransportConfigError } from '../transports/transportError.js';
import { reconnectDelayMs } from '../sync/backoff.js';
import { locationScope, organizationScope, scopeLoaders, streamAudienceOf, userScope } from '../sync/scopeLoaders.js';
import { createSubscriptions } from '../sync/subscriptions.js';
import { measureOffset } from '../sync/timeSync.js';
import { createLiveLink } from './liveLink.js';
import {
  initialSessionState, isAttemptOngoing, isSignedIn, refKey, transition, wantedScopes,
  type FailureInfo, type ScopeRef, type SessionEffect, type SessionEvent, type SessionState,
} from './machine.js';
import { runWithTimeout, StepTimeoutError } from './timeouts.js';
import type { SessionOptions, Session } from './types.js';

const RECONNECT_KEY = 'session:reconnect';
const TIME_SYNC_KEY = 'session:time';

export class SignInError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInError';
  }
}

/** A load or choice that a later one replaced: it settles, as superseded. */
export const SUPERSEDED = 'Superseded by a later choice.';

function failureOf(error: unknown): FailureInfo {
  return {
    status: isHttpError(error) ? error.status : null,
    timedOut: error instanceof StepTimeoutError,
    detail: error instanceof TransportConfigError ? error.message : null,
  };
}

export function createSession(options: SessionOptions): Session {
  const { clock, corrected, scheduler, logger, timeouts, port } = options;
  let state: SessionState = initialSessionState();
  let token: string | null = null;
  let settings: Settings | null = null;
  let disposed = false;
  const rest = createRestClient({ host: options.host, version: options.version, fetch: options.fetch, token: () => token });
  /** location ids of the loaded organization, learnt from its loads and live changes */
  const orgLocationIds = new Set<Id>();
  const waiters = new Map<string, Array<(result: ApiResult<void>) => void>>();

  const subs = createSubscriptions({
    sink: {
      apply(batch) {
        if (batch.scope.kind === 'organization' && batch.scope.organizationId === state.ctx.organizationId) noteLocations(batch);
        port.sink.apply(batch);
      },
    },
    logger,
    onProgress: options.onProgress,
    onInvalid(reason) {
      logger.warn(reason === 'uninitialized' ? MSG.UNINITIALIZED_STREAM : MSG.RECONNECTING_STREAM_INVALID);
      dispatch({ type: 'streamInvalid' });
    },
  });

  const live = createLiveLink({
    logger,
    subs,
    onLost: () => dispatch({ type: 'transportLost' }),
    onState: () => options.onChange(state),
  });

  function noteLocations(batch: Parameters<typeof port.sink.apply>[0]) {
    let changed = false;
    for (const c of batch.changes) {
      if (c.collection !== 'locations' || c.kind === 'initial' || c.id === undefined) continue;
      if (c.kind === 'deleted') changed = orgLocationIds.delete(String(c.id)) || changed;
      else if (!orgLocationIds.has(String(c.id))) { orgLocationIds.add(String(c.id)); changed = true; }
    }
    if (changed) dispatch({ type: 'locationsChanged', locationIds: [...orgLocationIds] });
  }

  // ------------------------------------------------------------ scopes

  /** The stream of a wanted scope: an organization and a location follow the edit stream for the edit role (docs/sync.md). */
  function streamOf(ref: ScopeRef): StreamScope {
    return streamWith(ref, streamAudienceOf(settings));
  }
  function streamWith(ref: ScopeRef, audience: ReturnType<typeof streamAudienceOf>): StreamScope {
    switch (ref.kind) {
      case 'user': return userScope(ref.userId);
      case 'organization': return organizationScope(ref.organizationId, audience);
      case 'location': return locationScope(ref.organizationId, ref.locationId, audience);
    }
  }

  function settle(key: string, result: ApiResult<void>) {
    const list = waiters.get(key);
    if (!list) return;
    waiters.delete(key);
    for (const resolve of list) resolve(result);
  }

  function settleAll(result: ApiResult<void>) {
    for (const key of [...waiters.keys()]) settle(key, result);
  }

  const superseded = (): ApiResult<void> => ({ ok: false, status: 0, body: null, message: SUPERSEDED });

  async function loadScope(attempt: number, ref: ScopeRef) {
    const scope = streamOf(ref);
    const generation = state.ctx.generation;
    if (ref.kind === 'organization') orgLocationIds.clear();
    try {
      const loaded = await runWithTimeout(clock, timeouts.loadMs, async (signal) => {
        subs.start(scope, scopeLoaders(rest, scope, (ids) => { for (const id of ids) orgLocationIds.add(id); }, signal));
        await live.subscribe(scope);
        return subs.load(scope);
      });
      if (!loaded || generation !== state.ctx.generation) return;
      dispatch({ type: 'scopeLoaded', attempt, scope: ref, locationIds: ref.kind === 'organization' ? [...orgLocationIds] : undefined });
      settle(refKey(ref), { ok: true, value: undefined });
    } catch (error) {
      if (generation !== state.ctx.generation) return;
      logger.warn(`Loading ${scopeKey(scope)} failed`, errorText(error));
      dispatch({ type: 'scopeFailed', attempt, scope: ref, ...failureOf(error) });
    }
  }

  function stopScope(ref: ScopeRef) {
    const scope = streamOf(ref);
    subs.stop(scope);
    live.unsubscribe(scope);
    settle(refKey(ref), superseded());
  }

  // ------------------------------------------------------------ connect steps

  async function syncTime(attempt: number, periodic: boolean) {
    try {
      const offset = await runWithTimeout(clock, timeouts.timeSyncMs, (signal) => measureOffset(clock, () => rest.currentTime(signal)));
      corrected.setOffset(offset);
      if (periodic) {
        if (attempt === state.ctx.attempt) scheduleTimeSync();
        options.onChange(state);
      } else dispatch({ type: 'stepDone', attempt, step: 'time' });
    } catch (error) {
      logger.warn(MSG.COULD_NOT_SYNC_TIME, errorText(error));
      dispatch(periodic ? { type: 'timeSyncFailed', attempt, ...failureOf(error) } : { type: 'stepFailed', attempt, step: 'time', ...failureOf(error) });
    }
  }

  async function loadSettings(attempt: number) {
    try {
      const s = await runWithTimeout(clock, timeouts.settingsMs, (signal) => fetchSettings(signal));
      if (attempt !== state.ctx.attempt) return;
      adoptSettings(s);
      dispatch({ type: 'stepDone', attempt, step: 'settings', homeOrganizationId: s.user.organization_id ?? null });
    } catch (error) {
      logger.warn(MSG.PROBLEM_CONNECTING, errorText(error));
      dispatch({ type: 'stepFailed', attempt, step: 'settings', ...failureOf(error) });
    }
  }

  async function openTransport(attempt: number) {
    try {
      if (!settings || !token) throw new Error(MSG.CURRENT_USER_NOT_SET);
      const t = options.transportFactory(settings, { baseUrl: rest.baseUrl, token, fetch: options.fetch, logger });
      await runWithTimeout(clock, timeouts.transportMs, () => live.open(t));
      dispatch({ type: 'stepDone', attempt, step: 'transport' });
    } catch (error) {
      logger.warn(MSG.PROBLEM_CONNECTING, errorText(error));
      dispatch({ type: 'stepFailed', attempt, step: 'transport', ...failureOf(error) });
    }
  }

  function scheduleTimeSync() {
    scheduler.scheduleIn(TIME_SYNC_KEY, timeouts.timeSyncIntervalMs, () => dispatch({ type: 'timeSyncDue' }));
  }

  // ------------------------------------------------------------ effects

  function perform(effect: SessionEffect) {
    switch (effect.type) {
      case 'syncTime': void syncTime(effect.attempt, effect.periodic); return;
      case 'loadSettings': void loadSettings(effect.attempt); return;
      case 'openTransport': void openTransport(effect.attempt); return;
      case 'closeTransport': live.close(); subs.resetAll(); return;
      case 'loadScope': void loadScope(effect.attempt, effect.scope); return;
      case 'stopScope': stopScope(effect.scope); return;
      case 'scheduleRetry': scheduler.scheduleAt(RECONNECT_KEY, effect.at, () => dispatch({ type: 'retryDue' })); return;
      case 'cancelRetry': scheduler.cancel(RECONNECT_KEY); return;
      case 'scheduleTimeSync': scheduleTimeSync(); return;
      case 'cancelTimeSync': scheduler.cancel(TIME_SYNC_KEY); return;
      case 'post': options.onError({ level: 'error', type: 'network', message: effect.message, time: corrected.now() }); return;
      case 'log': logger[effect.level](effect.message); return;
      case 'enterOrganization': port.enterOrganization(effect.organizationId); return;
      case 'enterLocation': port.enterLocation(effect.organizationId, effect.locationId); return;
      case 'rejectChoice':
        settle(refKey(effect.scope), { ok: false, status: effect.status ?? 0, body: null, message: effect.message });
        return;
      case 'endSession':
        // signing out ends the session on the server too; never waited for, so it works offline
        if (effect.reason === 'signOut' && token) rest.logout().catch((error: unknown) => logger.debug('Server sign-out failed', errorText(error)));
        token = null;
        settings = null;
        live.reset();
        orgLocationIds.clear();
        settleAll(superseded());
        port.endSession(effect.reason);
        return;
    }
  }

  // Effects may report back synchronously: such events wait until the current one is done.
  const queue: SessionEvent[] = [];
  let dispatching = false;
  function dispatch(event: SessionEvent) {
    if (disposed) return;
    queue.push(event);
    if (dispatching) return;
    dispatching = true;
    try {
      for (let next = queue.shift(); next; next = queue.shift()) step(next);
    } finally {
      dispatching = false;
    }
    settleAbandoned();
  }

  /**
   * A caller waiting for a choice the session no longer wants (another
   * organization was chosen while the location still waited for it, or a
   * later location replaced the remembered one) hears it was superseded:
   * every call settles (issue 11 §1).
   */
  function settleAbandoned() {
    if (waiters.size === 0) return;
    const { ctx } = state;
    const alive = new Set(wantedScopes(ctx).map(refKey));
    if (ctx.organizationId && ctx.preferredLocationId) {
      alive.add(refKey({ kind: 'location', organizationId: ctx.organizationId, locationId: ctx.preferredLocationId }));
    }
    for (const key of [...waiters.keys()]) if (!alive.has(key)) settle(key, superseded());
  }

  function step(event: SessionEvent) {
    const result = transition(state, event, {
      now: corrected.now(),
      backoff: (failures) => reconnectDelayMs(failures, options.reconnectStepMs, options.reconnectMaxDelayMs),
      streamRetryWindowMs: options.reconnectStepMs ?? 5_000,
    });
    const changed = result.state !== state;
    state = result.state;
    for (const effect of result.effects) {
      try { perform(effect); } catch (error) { logger.error('Session effect failed', effect.type, error); }
    }
    if (changed || result.effects.length) options.onChange(state);
  }

  // ------------------------------------------------------------ sign-in

  async function fetchSettings(signal?: AbortSignal): Promise<Settings> {
    const s = await rest.settings(signal);
    const id = (s as { user?: { id?: unknown } } | null)?.user?.id;
    if (typeof id !== 'string' || id === '') throw new SignInError('Sign-in needs user data with a non-empty string id.');
    return s;
  }

  function adoptSettings(s: Settings) {
    const previous = streamAudienceOf(settings);
    settings = s;
    // a changed edit role switches the organization and the location to the other streams; the transport is closed here
    if (previous !== streamAudienceOf(s)) {
      for (const ref of wantedScopes(state.ctx)) if (ref.kind !== 'user') subs.stop(streamWith(ref, previous));
    }
    port.settings(s);
  }

  async function signInWith(call: () => Promise<LoginResponse>): Promise<Settings> {
    // signing in over a session ends it first: nothing of the previous user may stay
    if (isSignedIn(state.phase)) dispatch({ type: 'signOut' });
    dispatch({ type: 'signInStarted' });
    const generation = state.ctx.generation;
    try {
      const response = await runWithTimeout(clock, timeouts.settingsMs, () => call());
      if (!response || typeof response.token !== 'string' || response.token === '') throw new SignInError('Sign-in answered without a token.');
      token = response.token;
      const s = await runWithTimeout(clock, timeouts.settingsMs, (signal) => fetchSettings(signal));
      if (generation !== state.ctx.generation) throw new SignInError(SUPERSEDED);
      settings = s;
      port.settings(s);
      dispatch({ type: 'signedIn', userId: s.user.id, homeOrganizationId: s.user.organization_id ?? null });
      return s;
    } catch (error) {
      if (generation === state.ctx.generation) {
        token = null;
        dispatch({ type: 'signInFailed' });
      }
      throw error;
    }
  }

  function waitFor(ref: ScopeRef): Promise<ApiResult<void>> {
    return new Promise((resolve) => {
      const key = refKey(ref);
      const list = waiters.get(key) ?? [];
      list.push(resolve);
      waiters.set(key, list);
    });
  }

  const session: Session = {
    rest,
    state: () => state,
    token: () => token,
    settings: () => settings,
    signIn: (email, password, options) => signInWith(() => rest.login(email, password, options?.device === 'display')),
    signInWithIdToken: (idToken) => signInWith(() => rest.openIdLogin(idToken)),
    resume(stored) {
      token = stored.token;
      dispatch({ type: 'resumed', userId: stored.userId, organizationId: stored.organizationId, locationId: stored.locationId });
    },
    connect() {
      if (!token) throw new Error(MSG.CURRENT_USER_NOT_SET);
      if (isAttemptOngoing(state.phase)) throw new Error(MSG.ONLY_ONE_CONNECTION_ATTEMPT);
      dispatch({ type: 'connectRequested' });
    },
    signOut() { dispatch({ type: 'signOut' }); },
    // the other tab already ended the token on the server: without it, the sign-out below sends no logout
    signOutElsewhere() { token = null; dispatch({ type: 'signOut' }); },
    unauthorized() { dispatch({ type: 'unauthorized' }); },
    setOnline(online) { dispatch({ type: online ? 'online' : 'offline' }); },
    async selectOrganization(organizationId) {
      if (!token) return { ok: false, status: 401, body: null, message: MSG.CURRENT_USER_NOT_SET };
      const ref: ScopeRef = { kind: 'organization', organizationId };
      const done = waitFor(ref);
      dispatch({ type: 'selectOrganization', organizationId });
      if (state.ctx.organizationId === organizationId && state.ctx.everLoaded.includes(refKey(ref))) settle(refKey(ref), { ok: true, value: undefined });
      return done;
    },
    async selectLocation(locationId) {
      if (!token) return { ok: false, status: 401, body: null, message: MSG.CURRENT_USER_NOT_SET };
      const organizationId = state.ctx.organizationId ?? '';
      const ref: ScopeRef = { kind: 'location', organizationId, locationId };
      const done = waitFor(ref);
      dispatch({ type: 'selectLocation', locationId });
      if (state.ctx.locationId === locationId && state.ctx.everLoaded.includes(refKey(ref))) settle(refKey(ref), { ok: true, value: undefined });
      return done;
    },
    transport: () => live.info(),
    subscriptionState: (scope) => subs.state(resolveScope(scope)),
    position: (scope) => subs.position(resolveScope(scope)),
    locationScope() {
      const loc = wantedScopes(state.ctx).find((r) => r.kind === 'location');
      return loc ? streamOf(loc) : null;
    },
    dispose() {
      disposed = true;
      scheduler.cancel(RECONNECT_KEY);
      scheduler.cancel(TIME_SYNC_KEY);
      live.close();
      settleAll(superseded());
    },
  };

  /** an organization or location scope asked about without its audience means the stream in use */
  function resolveScope(scope: StreamScope): StreamScope {
    if (scope.kind === 'user' || scope.audience) return scope;
    return streamWith(scope.kind === 'organization' ? { kind: 'organization', organizationId: scope.organizationId } : scope, streamAudienceOf(settings));
  }

  return session;
}
