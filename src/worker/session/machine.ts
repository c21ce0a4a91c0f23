// The session and connection machine (spec §4, §5, §8; DESIGN §2): one union
// value for where the session stands and a pure `transition(state, event)`
// that returns the next state and the effects to run. The runner
// (createSession.ts) performs effects through the ports and feeds their
// outcomes back as events. docs/sync.md draws the diagram.

import { MSG } from '../../shared/messages.js';
import type { SessionPhase } from '../../shared/api.js';
import type { Id } from '../../shared/types.js';

export type ConnectStep = 'time' | 'settings' | 'transport';

/** A scope the session wants loaded; the runner adds the location audience. */
export type ScopeRef =
  | { kind: 'user'; userId: Id }
  | { kind: 'organization'; organizationId: Id }
  | { kind: 'location'; organizationId: Id; locationId: Id };

export const refKey = (ref: ScopeRef): string =>
  ref.kind === 'user' ? `user:${ref.userId}` : ref.kind === 'organization' ? `org:${ref.organizationId}` : `loc:${ref.organizationId}/${ref.locationId}`;

export type Phase =
  | { name: 'signedOut' }
  | { name: 'signingIn' }
  | { name: 'connecting'; attempt: number; step: ConnectStep; reconnect: boolean }
  | { name: 'loading'; attempt: number; pending: string[] }
  | { name: 'live'; attempt: number }
  | { name: 'retrying'; at: number; lastError: string; transportLost: boolean }
  | { name: 'sessionExpired'; reason: string };

export interface SessionContext {
  /** bumps whenever the user changes (sign-in, sign-out, expiry): effects of an older generation are fenced */
  generation: number;
  /** id of the newest connect attempt; outcomes of older ones are stale */
  attempt: number;
  userId: Id | null;
  /** failed attempts since the last success (spec §9 back-off) */
  failures: number;
  online: boolean;
  /** when a stream invalidity last forced an immediate reconnect (corrected ms) */
  lastStreamReconnectAt: number;
  /** the organization and location the user chose (or the defaults) */
  organizationId: Id | null;
  locationId: Id | null;
  /** the user's own organization (settings), the default */
  homeOrganizationId: Id | null;
  /** location ids of the loaded organization, once its initial load arrived */
  orgLocationIds: Id[] | null;
  /** the location to choose by default once the organization is loaded (a saved session's) */
  preferredLocationId: Id | null;
  /** scope keys loaded at least once in this generation: a later failure of those is a failed reload */
  everLoaded: string[];
}

export interface SessionState {
  phase: Phase;
  ctx: SessionContext;
}

/** What a failed step tells: its HTTP status, whether it timed out, and a configuration problem in words (spec §5). */
export type FailureInfo = { status: number | null; timedOut: boolean; detail?: string | null };

export type SessionEvent =
  | { type: 'signInStarted' }
  | { type: 'signInFailed' }
  | { type: 'signedIn'; userId: Id; homeOrganizationId: Id | null }
  | { type: 'resumed'; userId: Id; organizationId: Id | null; locationId: Id | null }
  | { type: 'connectRequested' }
  | ({ type: 'stepDone'; attempt: number; step: ConnectStep; homeOrganizationId?: Id | null })
  | ({ type: 'stepFailed'; attempt: number; step: ConnectStep } & FailureInfo)
  | { type: 'timeSyncDue' }
  | ({ type: 'timeSyncFailed'; attempt: number } & FailureInfo)
  | { type: 'scopeLoaded'; attempt: number; scope: ScopeRef; locationIds?: Id[] }
  | ({ type: 'scopeFailed'; attempt: number; scope: ScopeRef } & FailureInfo)
  | { type: 'streamInvalid' }
  | { type: 'transportLost' }
  | { type: 'retryDue' }
  | { type: 'online' }
  | { type: 'offline' }
  | { type: 'unauthorized' }
  | { type: 'signOut' }
  | { type: 'selectOrganization'; organizationId: Id }
  | { type: 'selectLocation'; locationId: Id }
  | { type: 'locationsChanged'; locationIds: Id[] };

export type SessionEffect =
  | { type: 'syncTime'; attempt: number; periodic: boolean }
  | { type: 'loadSettings'; attempt: number }
  | { type: 'openTransport'; attempt: number }
  /** closes the transport; every scope goes back to caching until reloaded */
  | { type: 'closeTransport' }
  | { type: 'loadScope'; attempt: number; scope: ScopeRef }
  | { type: 'stopScope'; scope: ScopeRef }
  | { type: 'scheduleRetry'; at: number }
  | { type: 'cancelRetry' }
  | { type: 'scheduleTimeSync' }
  | { type: 'cancelTimeSync' }
  /** a §8 posted error (level error, type network) */
  | { type: 'post'; message: string }
  | { type: 'log'; level: 'info' | 'warn'; message: string }
  /** the store switches to this organization (its data cleared) */
  | { type: 'enterOrganization'; organizationId: Id | null }
  /** the store switches to this location, served from the cache at once when there is one */
  | { type: 'enterLocation'; organizationId: Id; locationId: Id | null }
  /** a chosen organization or location could not be loaded: waiting callers hear why */
  | { type: 'rejectChoice'; scope: ScopeRef; status: number | null; message: string }
  /** drop the token and everything of the user; fence whatever is in flight */
  | { type: 'endSession'; reason: 'signOut' | 'expired' };

export interface TransitionEnv {
  /** corrected-clock now */
  now: number;
  /** delay before the attempt after `failures` failures */
  backoff(failures: number): number;
  /** within this window after a stream reconnect, another invalidity waits for the back-off */
  streamRetryWindowMs: number;
}

export interface Transition {
  state: SessionState;
  effects: SessionEffect[];
}

/** Words of the session's end by itself, for the sign-in screen. */
export const SESSION_ENDED_MESSAGE = 'Your session has ended — sign in again.';

export function initialSessionState(): SessionState {
  return {
    phase: { name: 'signedOut' },
    ctx: {
      generation: 0, attempt: 0, userId: null, failures: 0, online: true, lastStreamReconnectAt: -Infinity,
      organizationId: null, locationId: null, homeOrganizationId: null, orgLocationIds: null,
      preferredLocationId: null, everLoaded: [],
    },
  };
}

export const isSignedIn = (phase: Phase): boolean =>
  phase.name === 'connecting' || phase.name === 'loading' || phase.name === 'live' || phase.name === 'retrying';

/** Spec §5: only one connection attempt may be ongoing. */
export const isAttemptOngoing = (phase: Phase): boolean => phase.name === 'connecting' || phase.name === 'loading';

export function phaseName(phase: Phase): SessionPhase {
  return phase.name;
}

/** The scopes the session wants: the user's notifications, the organization, its chosen location. */
export function wantedScopes(ctx: SessionContext): ScopeRef[] {
  const out: ScopeRef[] = [];
  if (ctx.userId) out.push({ kind: 'user', userId: ctx.userId });
  if (ctx.organizationId) {
    out.push({ kind: 'organization', organizationId: ctx.organizationId });
    if (ctx.locationId) out.push({ kind: 'location', organizationId: ctx.organizationId, locationId: ctx.locationId });
  }
  return out;
}

const stay = (state: SessionState): Transition => ({ state, effects: [] });

function freshContext(ctx: SessionContext, userId: Id | null): SessionContext {
  return {
    ...initialSessionState().ctx,
    generation: ctx.generation + 1,
    attempt: ctx.attempt,
    online: ctx.online,
    userId,
  };
}

function startAttempt(ctx: SessionContext, reconnect: boolean, effects: SessionEffect[] = []): Transition {
  const attempt = ctx.attempt + 1;
  return {
    state: { phase: { name: 'connecting', attempt, step: 'time', reconnect }, ctx: { ...ctx, attempt } },
    effects: [...effects, { type: 'cancelRetry' }, { type: 'cancelTimeSync' }, { type: 'closeTransport' }, { type: 'syncTime', attempt, periodic: false }],
  };
}

function retry(ctx: SessionContext, env: TransitionEnv, message: string, options: { post: boolean; transportLost?: boolean; detail?: string | null }): Transition {
  const failures = ctx.failures + 1;
  const at = env.now + env.backoff(failures);
  const effects: SessionEffect[] = [{ type: 'cancelTimeSync' }, { type: 'closeTransport' }];
  if (options.post) effects.push({ type: 'post', message });
  effects.push({ type: 'scheduleRetry', at });
  return {
    state: { phase: { name: 'retrying', at, lastError: options.detail ?? message, transportLost: !!options.transportLost }, ctx: { ...ctx, failures } },
    effects,
  };
}

function end(ctx: SessionContext, reason: 'signOut' | 'expired'): Transition {
  const phase: Phase = reason === 'signOut' ? { name: 'signedOut' } : { name: 'sessionExpired', reason: SESSION_ENDED_MESSAGE };
  return {
    state: { phase, ctx: freshContext(ctx, null) },
    effects: [
      { type: 'cancelRetry' }, { type: 'cancelTimeSync' }, { type: 'closeTransport' },
      ...wantedScopes(ctx).map((scope): SessionEffect => ({ type: 'stopScope', scope })),
      { type: 'endSession', reason },
    ],
  };
}

/** Loading a location works only for a location of the loaded organization (spec §4). */
function knownLocation(ctx: SessionContext, locationId: Id): boolean {
  return ctx.organizationId !== null && ctx.orgLocationIds !== null && ctx.orgLocationIds.includes(locationId);
}

/** Puts scopes into the loading phase (from live, or adding to loading). */
function load(state: SessionState, scopes: ScopeRef[], effects: SessionEffect[]): Transition {
  const { phase, ctx } = state;
  if (phase.name !== 'live' && phase.name !== 'loading') return { state, effects };
  const pending = phase.name === 'loading' ? [...phase.pending] : [];
  for (const scope of scopes) {
    if (!pending.includes(refKey(scope))) pending.push(refKey(scope));
    effects.push({ type: 'loadScope', attempt: phase.attempt, scope });
  }
  return { state: { phase: { name: 'loading', attempt: phase.attempt, pending }, ctx }, effects };
}

/** A loading phase with nothing left pending is live: the attempt succeeded, so the back-off starts over. */
function liveWhenLoaded(state: SessionState): SessionState {
  const { phase } = state;
  return phase.name === 'loading' && phase.pending.length === 0
    ? { phase: { name: 'live', attempt: phase.attempt }, ctx: { ...state.ctx, failures: 0 } }
    : state;
}

/** A scope outcome counts only for a scope still wanted: one the user switched away from is stopped. */
const isWanted = (ctx: SessionContext, scope: ScopeRef): boolean =>
  wantedScopes(ctx).some((s) => refKey(s) === refKey(scope));

function withoutPending(phase: Phase, keys: string[]): Phase {
  return phase.name === 'loading' ? { ...phase, pending: phase.pending.filter((k) => !keys.includes(k)) } : phase;
}

function selectOrganization(state: SessionState, organizationId: Id): Transition {
  const { ctx } = state;
  if (ctx.organizationId === organizationId) return stay(state);
  const effects: SessionEffect[] = [];
  // the location goes first, then its organization
  const old = wantedScopes(ctx).filter((s) => s.kind !== 'user').reverse();
  for (const scope of old) effects.push({ type: 'stopScope', scope });
  effects.push({ type: 'enterOrganization', organizationId });
  const next: SessionState = {
    phase: withoutPending(state.phase, old.map(refKey)),
    ctx: { ...ctx, organizationId, locationId: null, orgLocationIds: null, preferredLocationId: null, everLoaded: ctx.everLoaded.filter((k) => !old.some((s) => refKey(s) === k)) },
  };
  return load(next, [{ kind: 'organization', organizationId }], effects);
}

function selectLocation(state: SessionState, locationId: Id): Transition {
  const { ctx } = state;
  if (!ctx.organizationId) {
    return { state, effects: [{ type: 'rejectChoice', scope: { kind: 'location', organizationId: '', locationId }, status: 409, message: `Location ${locationId} cannot load before an organization.` }] };
  }
  if (ctx.orgLocationIds === null) {
    // the organization is still loading: remember the choice, check it once the organization is there
    return { state: { ...state, ctx: { ...ctx, preferredLocationId: locationId } }, effects: [] };
  }
  if (!knownLocation(ctx, locationId)) {
    const message = `Location ${locationId} is not a location of the loaded organization; not loading it.`;
    return {
      state,
      effects: [
        { type: 'log', level: 'warn', message },
        { type: 'rejectChoice', scope: { kind: 'location', organizationId: ctx.organizationId, locationId }, status: 404, message },
      ],
    };
  }
  if (ctx.locationId === locationId) return stay(state);
  const effects: SessionEffect[] = [];
  const oldKey: string[] = [];
  if (ctx.locationId) {
    const old: ScopeRef = { kind: 'location', organizationId: ctx.organizationId, locationId: ctx.locationId };
    effects.push({ type: 'stopScope', scope: old });
    oldKey.push(refKey(old));
  }
  effects.push({ type: 'enterLocation', organizationId: ctx.organizationId, locationId });
  const next: SessionState = {
    phase: withoutPending(state.phase, oldKey),
    ctx: { ...ctx, locationId, everLoaded: ctx.everLoaded.filter((k) => !oldKey.includes(k)) },
  };
  return load(next, [{ kind: 'location', organizationId: ctx.organizationId, locationId }], effects);
}

/** After the organization loaded: the chosen location if it is one of its own, else the first. */
function defaultLocation(ctx: SessionContext, locationIds: Id[]): Id | null {
  if (ctx.preferredLocationId && locationIds.includes(ctx.preferredLocationId)) return ctx.preferredLocationId;
  if (ctx.locationId && locationIds.includes(ctx.locationId)) return ctx.locationId;
  return locationIds[0] ?? null;
}

function scopeLoaded(state: SessionState, event: Extract<SessionEvent, { type: 'scopeLoaded' }>): Transition {
  const { phase } = state;
  const key = refKey(event.scope);
  let ctx: SessionContext = { ...state.ctx, everLoaded: state.ctx.everLoaded.includes(key) ? state.ctx.everLoaded : [...state.ctx.everLoaded, key] };
  let next: SessionState = { phase: withoutPending(phase, [key]), ctx };
  const effects: SessionEffect[] = [];
  if (event.scope.kind === 'organization' && event.scope.organizationId === ctx.organizationId) {
    const locationIds = event.locationIds ?? [];
    ctx = { ...ctx, orgLocationIds: locationIds };
    const wanted = defaultLocation(ctx, locationIds);
    next = { ...next, ctx: { ...ctx, preferredLocationId: null } };
    if (ctx.locationId && !locationIds.includes(ctx.locationId)) {
      // the saved location is no longer one of the organization's
      const old: ScopeRef = { kind: 'location', organizationId: ctx.organizationId!, locationId: ctx.locationId };
      effects.push({ type: 'stopScope', scope: old });
      next = { phase: withoutPending(next.phase, [refKey(old)]), ctx: { ...next.ctx, locationId: null } };
    }
    if (wanted && wanted !== next.ctx.locationId) {
      const chosen = selectLocation(next, wanted);
      next = chosen.state;
      effects.push(...chosen.effects);
    } else if (wanted && state.ctx.orgLocationIds === null) {
      // the saved location waited for this confirmation (transport step): load it now
      const confirmed = load(next, [{ kind: 'location', organizationId: ctx.organizationId!, locationId: wanted }], []);
      next = confirmed.state;
      effects.push(...confirmed.effects);
    } else if (!wanted && next.ctx.locationId === null) {
      effects.push({ type: 'enterLocation', organizationId: ctx.organizationId!, locationId: null });
    }
  }
  return { state: liveWhenLoaded(next), effects };
}

function scopeFailed(state: SessionState, event: Extract<SessionEvent, { type: 'scopeFailed' }>, env: TransitionEnv): Transition {
  const { ctx } = state;
  if (event.status === 401) return end(ctx, 'expired');
  const key = refKey(event.scope);
  const reload = ctx.everLoaded.includes(key);
  const refused = event.status === 403 || event.status === 404;
  if (!reload && refused && event.scope.kind !== 'user') {
    // a choice the server refuses (not the user's to see, or gone): forget it instead of retrying forever
    const message = `Cannot load ${event.scope.kind} ${event.scope.kind === 'organization' ? event.scope.organizationId : event.scope.locationId}; giving it up.`;
    const effects: SessionEffect[] = [
      { type: 'log', level: 'warn', message },
      { type: 'rejectChoice', scope: event.scope, status: event.status, message },
      { type: 'stopScope', scope: event.scope },
    ];
    let nextCtx = ctx;
    const dropped = [key];
    if (event.scope.kind === 'organization') {
      const loc = wantedScopes(ctx).find((s) => s.kind === 'location');
      if (loc) { effects.push({ type: 'stopScope', scope: loc }); dropped.push(refKey(loc)); }
      nextCtx = { ...ctx, organizationId: null, locationId: null, orgLocationIds: null };
      effects.push({ type: 'enterOrganization', organizationId: null });
    } else {
      nextCtx = { ...ctx, locationId: null };
      effects.push({ type: 'enterLocation', organizationId: ctx.organizationId ?? '', locationId: null });
    }
    return { state: liveWhenLoaded({ phase: withoutPending(state.phase, dropped), ctx: nextCtx }), effects };
  }
  const retried = retry(ctx, env, MSG.FAILED_TRYING_TO_LOAD, { post: true });
  // whoever waits for this load hears of the failure now; the scope reloads on the back-off
  retried.effects.push({ type: 'rejectChoice', scope: event.scope, status: event.status, message: MSG.FAILED_TRYING_TO_LOAD });
  return retried;
}

function connectingStep(state: SessionState, event: Extract<SessionEvent, { type: 'stepDone' }>): Transition {
  const { phase, ctx } = state;
  if (phase.name !== 'connecting') return stay(state);
  switch (event.step) {
    case 'time':
      return { state: { phase: { ...phase, step: 'settings' }, ctx }, effects: [{ type: 'loadSettings', attempt: phase.attempt }] };
    case 'settings': {
      const home = event.homeOrganizationId ?? ctx.homeOrganizationId;
      const effects: SessionEffect[] = [];
      let next = { ...ctx, homeOrganizationId: home };
      if (!next.organizationId && home) {
        next = { ...next, organizationId: home };
        effects.push({ type: 'enterOrganization', organizationId: home });
      }
      effects.push({ type: 'openTransport', attempt: phase.attempt });
      return { state: { phase: { ...phase, step: 'transport' }, ctx: next }, effects };
    }
    case 'transport': {
      // the organization's location list reloads with it, so a location waits for it (unless known)
      const scopes = wantedScopes(ctx).filter((s) => s.kind !== 'location' || knownLocation(ctx, s.locationId));
      const effects: SessionEffect[] = [{ type: 'scheduleTimeSync' }];
      for (const scope of scopes) effects.push({ type: 'loadScope', attempt: phase.attempt, scope });
      if (scopes.length === 0) return { state: { phase: { name: 'live', attempt: phase.attempt }, ctx: { ...ctx, failures: 0 } }, effects };
      return { state: { phase: { name: 'loading', attempt: phase.attempt, pending: scopes.map(refKey) }, ctx }, effects };
    }
  }
}

function connectFailureMessage(phase: Extract<Phase, { name: 'connecting' }>): string {
  // a scheduled attempt names itself; the first connect names the step
  if (phase.reconnect) return MSG.FAILED_RECONNECT_ATTEMPT;
  return phase.step === 'time' ? MSG.COULD_NOT_SYNC_TIME : MSG.PROBLEM_CONNECTING;
}

const attemptOf = (phase: Phase): number | null =>
  phase.name === 'connecting' || phase.name === 'loading' || phase.name === 'live' ? phase.attempt : null;

/** The pure heart: what an event does in a state. Stale outcomes (older attempts) change nothing. */
export function transition(state: SessionState, event: SessionEvent, env: TransitionEnv): Transition {
  const { phase, ctx } = state;
  switch (event.type) {
    case 'signOut':
      return phase.name === 'signedOut' ? stay(state) : end(ctx, 'signOut');
    case 'unauthorized':
      return isSignedIn(phase) ? end(ctx, 'expired') : stay(state);
    case 'online': {
      const next = { ...state, ctx: { ...ctx, online: true } };
      const log: SessionEffect = { type: 'log', level: 'info', message: 'Browser went online; reconnecting.' };
      return isSignedIn(phase) ? startAttempt(next.ctx, true, [log]) : { state: next, effects: [log] };
    }
    case 'offline':
      return { state: { ...state, ctx: { ...ctx, online: false } }, effects: [{ type: 'log', level: 'info', message: 'Browser went offline.' }] };
    case 'signInStarted':
      return phase.name === 'signedOut' || phase.name === 'sessionExpired' ? { state: { phase: { name: 'signingIn' }, ctx }, effects: [] } : stay(state);
    case 'signInFailed':
      return phase.name === 'signingIn' ? { state: { phase: { name: 'signedOut' }, ctx }, effects: [] } : stay(state);
    case 'signedIn': {
      // a different user may sign in over a session: everything of the previous one goes first
      const ended = isSignedIn(phase) ? end(ctx, 'signOut') : { state, effects: [] as SessionEffect[] };
      const base = freshContext(ended.state.ctx, event.userId);
      return startAttempt({ ...base, homeOrganizationId: event.homeOrganizationId }, false, ended.effects);
    }
    case 'resumed': {
      const base = freshContext(ctx, event.userId);
      const effects: SessionEffect[] = [];
      const next: SessionContext = { ...base, organizationId: event.organizationId, preferredLocationId: event.locationId };
      if (event.organizationId) {
        effects.push({ type: 'enterOrganization', organizationId: event.organizationId });
        // the saved location is served from the cache at once; it reloads once the organization confirms it
        if (event.locationId) effects.push({ type: 'enterLocation', organizationId: event.organizationId, locationId: event.locationId });
      }
      return startAttempt({ ...next, locationId: event.locationId }, false, effects);
    }
    case 'connectRequested':
      return isSignedIn(phase) && !isAttemptOngoing(phase) ? startAttempt(ctx, phase.name !== 'live' || ctx.failures > 0) : stay(state);
    case 'retryDue':
      return phase.name === 'retrying' ? startAttempt(ctx, true) : stay(state);
    case 'stepDone':
      return attemptOf(phase) === event.attempt ? connectingStep(state, event) : stay(state);
    case 'stepFailed':
      if (phase.name !== 'connecting' || phase.attempt !== event.attempt) return stay(state);
      if (event.status === 401) return end(ctx, 'expired');
      return retry(ctx, env, connectFailureMessage(phase), { post: true, detail: event.detail });
    case 'timeSyncDue': {
      const attempt = attemptOf(phase);
      return attempt !== null && phase.name !== 'connecting' ? { state, effects: [{ type: 'syncTime', attempt, periodic: true }] } : stay(state);
    }
    case 'timeSyncFailed':
      if (attemptOf(phase) !== event.attempt || phase.name === 'connecting') return stay(state);
      if (event.status === 401) return end(ctx, 'expired');
      return retry(ctx, env, MSG.COULD_NOT_SYNC_TIME, { post: true });
    case 'scopeLoaded':
      return attemptOf(phase) === event.attempt && phase.name !== 'connecting' && isWanted(ctx, event.scope) ? scopeLoaded(state, event) : stay(state);
    case 'scopeFailed':
      if (attemptOf(phase) !== event.attempt || phase.name === 'connecting') return stay(state);
      // a scope stopped meanwhile (the user chose another) fails into nothing; a 401 still ends the session
      if (event.status !== 401 && !isWanted(ctx, event.scope)) return stay(state);
      return scopeFailed(state, event, env);
    case 'streamInvalid':
      if (phase.name !== 'loading' && phase.name !== 'live') return stay(state);
      // a stream that stays invalid right after a reload would otherwise reconnect in a tight loop
      if (env.now - ctx.lastStreamReconnectAt < env.streamRetryWindowMs) {
        return retry(ctx, env, MSG.RECONNECTING_STREAM_INVALID, { post: false, transportLost: true });
      }
      return startAttempt({ ...ctx, lastStreamReconnectAt: env.now }, true);
    case 'transportLost':
      if (phase.name !== 'loading' && phase.name !== 'live') return stay(state);
      return retry(ctx, env, 'Live connection lost.', { post: false, transportLost: true });
    case 'selectOrganization':
      return isSignedIn(phase) ? selectOrganization(state, event.organizationId) : stay(state);
    case 'selectLocation':
      return isSignedIn(phase) ? selectLocation(state, event.locationId) : stay(state);
    case 'locationsChanged':
      return ctx.orgLocationIds === null ? stay(state) : { state: { phase, ctx: { ...ctx, orgLocationIds: event.locationIds } }, effects: [] };
  }
}
