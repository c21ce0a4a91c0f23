import { describe, expect, it } from 'vitest';
import { MSG } from '../../../src/shared/messages.js';
import {
  initialSessionState, isAttemptOngoing, isSignedIn, SESSION_ENDED_MESSAGE, transition,
  type ConnectStep, type Phase, type ScopeRef, type SessionEffect, type SessionEvent, type SessionState,
} from '../../../src/worker/session/machine.js';
import {
  A_LOCATIONS, B_LOCATIONS, Driver, MAX_MS, ORG_A, ORG_B, STEP_MS, T0, USER,
  attemptEffects, endEffects, envAt, liveOnA, locRef, orgRef, reconnectingOnA, retryEffects, signedIn, userRef,
} from './machineHelpers.js';

const STEPS: ConnectStep[] = ['time', 'settings', 'transport'];

/** An event that must leave the state exactly as it was, with no effects. */
function expectIgnored(d: Driver, event: SessionEvent) {
  const before = d.state;
  const result = transition(before, event, envAt(d.now));
  expect(result.effects).toEqual([]);
  expect(result.state).toEqual(before);
}

/** A failed load: the §8 error, the back-off, and whoever waits for the scope hears of it now. */
const loadRetryEffects = (at: number, scope: ScopeRef, status: number | null): SessionEffect[] => [
  ...retryEffects(at, MSG.FAILED_TRYING_TO_LOAD),
  { type: 'rejectChoice', scope, status, message: 'Failed trying to load.' },
];

/** One driver per phase a session can be in. */
function inPhase(name: Phase['name']): Driver {
  switch (name) {
    case 'signedOut': return new Driver();
    case 'signingIn': { const d = new Driver(); d.send({ type: 'signInStarted' }); return d; }
    case 'connecting': return signedIn();
    case 'loading': return signedIn().connect();
    case 'live': return liveOnA();
    case 'retrying': { const d = liveOnA(); d.send({ type: 'transportLost' }); return d; }
    case 'sessionExpired': { const d = liveOnA(); d.send({ type: 'unauthorized' }); return d; }
  }
}

describe('session/machine', () => {
  describe('initialSessionState', () => {
    it('starts signed out, online, with no user, choice or failures', () => {
      const s = initialSessionState();
      expect(s.phase).toEqual({ name: 'signedOut' });
      expect(s.ctx).toMatchObject({
        userId: null, organizationId: null, locationId: null, homeOrganizationId: null,
        orgLocationIds: null, preferredLocationId: null, failures: 0, online: true, everLoaded: [],
      });
    });
  });

  describe('signInStarted and signInFailed', () => {
    it('goes signingIn from signedOut and back to signedOut when the sign-in fails', () => {
      const d = new Driver();
      expect(d.send({ type: 'signInStarted' })).toEqual([]);
      expect(d.phase).toEqual({ name: 'signingIn' });
      expect(d.send({ type: 'signInFailed' })).toEqual([]);
      expect(d.phase).toEqual({ name: 'signedOut' });
    });

    it('lets the sign-in form start again from an expired session', () => {
      const d = inPhase('sessionExpired');
      d.send({ type: 'signInStarted' });
      expect(d.phase).toEqual({ name: 'signingIn' });
    });

    it('ignores signInStarted while signed in and signInFailed outside signingIn', () => {
      expectIgnored(liveOnA(), { type: 'signInStarted' });
      expectIgnored(new Driver(), { type: 'signInFailed' });
      expectIgnored(liveOnA(), { type: 'signInFailed' });
    });
  });

  describe('signedIn', () => {
    it('starts the first connect attempt at the time step', () => {
      const d = new Driver();
      const effects = d.send({ type: 'signedIn', userId: USER, homeOrganizationId: ORG_A });
      expect(d.phase).toEqual({ name: 'connecting', attempt: 1, step: 'time', reconnect: false });
      expect(effects).toEqual(attemptEffects(1));
      expect(d.ctx).toMatchObject({ userId: USER, homeOrganizationId: ORG_A, organizationId: null, generation: 1, attempt: 1, failures: 0 });
    });

    it('ends a previous user’s session first when another user signs in over it', () => {
      const d = liveOnA();
      const generation = d.ctx.generation;
      const effects = d.send({ type: 'signedIn', userId: 'u2', homeOrganizationId: ORG_B });
      expect(effects).toEqual([
        ...endEffects([userRef(), orgRef(ORG_A), locRef(ORG_A, 'L1')], 'signOut'),
        ...attemptEffects(2),
      ]);
      expect(d.phase).toEqual({ name: 'connecting', attempt: 2, step: 'time', reconnect: false });
      expect(d.ctx).toMatchObject({ userId: 'u2', homeOrganizationId: ORG_B, organizationId: null, locationId: null, orgLocationIds: null, everLoaded: [] });
      expect(d.ctx.generation).toBeGreaterThan(generation);
    });
  });

  describe('connecting', () => {
    it('loads the settings once the time is synced', () => {
      const d = signedIn();
      expect(d.send({ type: 'stepDone', attempt: 1, step: 'time' })).toEqual([{ type: 'loadSettings', attempt: 1 }]);
      expect(d.phase).toEqual({ name: 'connecting', attempt: 1, step: 'settings', reconnect: false });
    });

    it('chooses the home organization from the settings when none is chosen, then opens the transport', () => {
      const d = signedIn().connectUntil('settings');
      const effects = d.send({ type: 'stepDone', attempt: 1, step: 'settings', homeOrganizationId: ORG_B });
      expect(effects).toEqual([{ type: 'enterOrganization', organizationId: ORG_B }, { type: 'openTransport', attempt: 1 }]);
      expect(d.phase).toEqual({ name: 'connecting', attempt: 1, step: 'transport', reconnect: false });
      expect(d.ctx).toMatchObject({ organizationId: ORG_B, homeOrganizationId: ORG_B });
    });

    it('falls back to the home organization named at sign-in when the settings name none', () => {
      const d = signedIn().connectUntil('settings');
      const effects = d.send({ type: 'stepDone', attempt: 1, step: 'settings' });
      expect(effects).toEqual([{ type: 'enterOrganization', organizationId: ORG_A }, { type: 'openTransport', attempt: 1 }]);
      expect(d.ctx.organizationId).toBe(ORG_A);
    });

    it('keeps an organization already chosen instead of the home one', () => {
      const d = signedIn();
      d.send({ type: 'selectOrganization', organizationId: ORG_B });
      d.connectUntil('settings');
      const effects = d.send({ type: 'stepDone', attempt: 1, step: 'settings', homeOrganizationId: ORG_A });
      expect(effects).toEqual([{ type: 'openTransport', attempt: 1 }]);
      expect(d.ctx.organizationId).toBe(ORG_B);
    });

    it('schedules the time sync and loads the user and the organization once the transport is up', () => {
      const d = signedIn().connectUntil('transport');
      const effects = d.send({ type: 'stepDone', attempt: 1, step: 'transport' });
      expect(effects).toEqual([
        { type: 'scheduleTimeSync' },
        { type: 'loadScope', attempt: 1, scope: userRef() },
        { type: 'loadScope', attempt: 1, scope: orgRef(ORG_A) },
      ]);
      expect(d.phase).toEqual({ name: 'loading', attempt: 1, pending: ['user:u1', 'org:orgA'] });
    });

    it('goes live at once for a user without an organization once the user scope loaded', () => {
      const d = new Driver();
      d.send({ type: 'signedIn', userId: USER, homeOrganizationId: null });
      d.connect(null);
      expect(d.effects).toEqual([{ type: 'scheduleTimeSync' }, { type: 'loadScope', attempt: 1, scope: userRef() }]);
      expect(d.ctx.organizationId).toBeNull();
      d.loaded(userRef());
      expect(d.phase).toEqual({ name: 'live', attempt: 1 });
    });
  });

  describe('loading', () => {
    it('chooses the first location once the organization loaded, enters it and loads it', () => {
      const d = signedIn().connect();
      expect(d.loaded(userRef())).toEqual([]);
      expect(d.phase).toEqual({ name: 'loading', attempt: 1, pending: ['org:orgA'] });
      const effects = d.loaded(orgRef(ORG_A), A_LOCATIONS);
      expect(effects).toEqual([
        { type: 'enterLocation', organizationId: ORG_A, locationId: 'L1' },
        { type: 'loadScope', attempt: 1, scope: locRef(ORG_A, 'L1') },
      ]);
      expect(d.phase).toEqual({ name: 'loading', attempt: 1, pending: ['loc:orgA/L1'] });
      expect(d.ctx).toMatchObject({ locationId: 'L1', orgLocationIds: A_LOCATIONS });
    });

    it('goes live once every pending scope loaded', () => {
      const d = signedIn().connect();
      d.loaded(orgRef(ORG_A), A_LOCATIONS);
      d.loaded(locRef(ORG_A, 'L1'));
      expect(d.phase.name).toBe('loading');
      expect(d.loaded(userRef())).toEqual([]);
      expect(d.phase).toEqual({ name: 'live', attempt: 1 });
      expect(d.ctx.everLoaded).toEqual(['org:orgA', 'loc:orgA/L1', 'user:u1']);
    });

    it('enters no location for an organization without locations', () => {
      const d = signedIn().connect();
      d.loaded(userRef());
      expect(d.loaded(orgRef(ORG_A), [])).toEqual([{ type: 'enterLocation', organizationId: ORG_A, locationId: null }]);
      expect(d.phase).toEqual({ name: 'live', attempt: 1 });
      expect(d.ctx.locationId).toBeNull();
    });

    it('resets the failures once live', () => {
      const d = signedIn();
      d.send({ type: 'stepFailed', attempt: 1, step: 'time', status: 503, timedOut: false });
      d.advance(STEP_MS).send({ type: 'retryDue' });
      d.send({ type: 'stepFailed', attempt: 2, step: 'time', status: null, timedOut: true });
      expect(d.ctx.failures).toBe(2);
      d.advance(2 * STEP_MS).send({ type: 'retryDue' });
      d.connect();
      d.loaded(userRef());
      d.loaded(orgRef(ORG_A), A_LOCATIONS);
      expect(d.ctx.failures).toBe(2);
      d.loaded(locRef(ORG_A, 'L1'));
      expect(d.phase).toEqual({ name: 'live', attempt: 3 });
      expect(d.ctx.failures).toBe(0);
      // the next loss waits one step again
      expect(d.send({ type: 'transportLost' })).toEqual(retryEffects(d.now + STEP_MS, null));
    });
  });

  describe('stepFailed', () => {
    it.each([
      ['time', MSG.COULD_NOT_SYNC_TIME],
      ['settings', MSG.PROBLEM_CONNECTING],
      ['transport', MSG.PROBLEM_CONNECTING],
    ] as const)('posts %s failure of the first connect as %j and retries after 5 s', (step, message) => {
      const d = signedIn().connectUntil(step);
      const effects = d.send({ type: 'stepFailed', attempt: 1, step, status: 500, timedOut: false });
      expect(effects).toEqual(retryEffects(T0 + STEP_MS, message));
      expect(d.phase).toEqual({ name: 'retrying', at: T0 + STEP_MS, lastError: message, transportLost: false });
      expect(d.ctx.failures).toBe(1);
    });

    it.each(STEPS)("posts 'Failed reconnect attempt.' when the %s step of a scheduled reconnect fails", (step) => {
      const d = reconnectingOnA();
      expect(d.phase).toEqual({ name: 'connecting', attempt: 2, step: 'time', reconnect: true });
      d.connectUntil(step);
      const effects = d.send({ type: 'stepFailed', attempt: 2, step, status: 502, timedOut: false });
      // the transport loss counted once already
      expect(effects).toEqual(retryEffects(d.now + 2 * STEP_MS, MSG.FAILED_RECONNECT_ATTEMPT));
      expect(d.phase).toMatchObject({ name: 'retrying', lastError: 'Failed reconnect attempt.' });
    });

    it.each(STEPS)('treats a timed-out %s step like a failed one', (step) => {
      const d = signedIn().connectUntil(step);
      const effects = d.send({ type: 'stepFailed', attempt: 1, step, status: null, timedOut: true });
      const message = step === 'time' ? 'Could not sync time with server.' : 'Problem connecting to server.';
      expect(effects).toEqual(retryEffects(T0 + STEP_MS, message));
      expect(d.phase).toEqual({ name: 'retrying', at: T0 + STEP_MS, lastError: message, transportLost: false });
    });

    it('keeps a configuration problem in words as the last error while posting the spec message', () => {
      const d = signedIn().connectUntil('transport');
      const detail = 'Real-time messaging needs an app key and a cluster option.';
      const effects = d.send({ type: 'stepFailed', attempt: 1, step: 'transport', status: null, timedOut: false, detail });
      expect(effects).toEqual(retryEffects(T0 + STEP_MS, MSG.PROBLEM_CONNECTING));
      expect(d.phase).toEqual({ name: 'retrying', at: T0 + STEP_MS, lastError: detail, transportLost: false });
    });

    it('treats a network failure without a status like a failed step', () => {
      const d = signedIn().connectUntil('settings');
      d.send({ type: 'stepFailed', attempt: 1, step: 'settings', status: null, timedOut: false });
      expect(d.phase).toMatchObject({ name: 'retrying', lastError: MSG.PROBLEM_CONNECTING });
    });
  });

  describe('back-off', () => {
    it('waits 5, 10, 15 … 60, 60 s as failed attempts add up, each scheduled from now', () => {
      const d = signedIn();
      const delays: number[] = [];
      for (let i = 0; i < 14; i++) {
        const attempt = d.attempt;
        const effects = d.send({ type: 'stepFailed', attempt, step: 'time', status: 503, timedOut: false });
        const scheduled = effects.find((e) => e.type === 'scheduleRetry');
        if (!scheduled || scheduled.type !== 'scheduleRetry' || d.phase.name !== 'retrying') throw new Error('no retry scheduled');
        expect(scheduled.at).toBe(d.phase.at);
        delays.push(scheduled.at - d.now);
        d.advance(scheduled.at - d.now + 123);
        expect(d.send({ type: 'retryDue' })).toEqual(attemptEffects(attempt + 1));
      }
      expect(delays).toEqual([5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 60, 60].map((s) => s * 1000));
      expect(d.ctx.failures).toBe(14);
      expect(Math.max(...delays)).toBe(MAX_MS);
    });

    it('starts over at 5 s after a success', () => {
      const d = signedIn();
      for (let i = 0; i < 3; i++) {
        d.send({ type: 'stepFailed', attempt: d.attempt, step: 'time', status: 503, timedOut: false });
        d.advance(MAX_MS).send({ type: 'retryDue' });
      }
      d.connect();
      d.loaded(userRef());
      d.loaded(orgRef(ORG_A), A_LOCATIONS);
      d.loaded(locRef(ORG_A, 'L1'));
      d.send({ type: 'streamInvalid' }); // an immediate reconnect, not a failure
      expect(d.send({ type: 'stepFailed', attempt: d.attempt, step: 'time', status: 503, timedOut: false }))
        .toEqual(retryEffects(d.now + STEP_MS, MSG.FAILED_RECONNECT_ATTEMPT));
    });
  });

  describe('401 and unauthorized', () => {
    it.each(STEPS)('ends the session as expired when the %s step answers 401', (step) => {
      const d = signedIn().connectUntil(step);
      const generation = d.ctx.generation;
      const effects = d.send({ type: 'stepFailed', attempt: 1, step, status: 401, timedOut: false });
      const wanted = step === 'time' || step === 'settings' ? [userRef()] : [userRef(), orgRef(ORG_A)];
      expect(effects).toEqual(endEffects(wanted, 'expired'));
      expect(d.phase).toEqual({ name: 'sessionExpired', reason: SESSION_ENDED_MESSAGE });
      expect(d.ctx).toMatchObject({ userId: null, organizationId: null, locationId: null, failures: 0, everLoaded: [], generation: generation + 1 });
      expect(effects.some((e) => e.type === 'post' || e.type === 'scheduleRetry')).toBe(false);
    });

    it('ends the session when a scope load answers 401', () => {
      const d = signedIn().connect();
      d.loaded(userRef());
      const effects = d.send({ type: 'scopeFailed', attempt: 1, scope: orgRef(ORG_A), status: 401, timedOut: false });
      expect(effects).toEqual(endEffects([userRef(), orgRef(ORG_A)], 'expired'));
      expect(d.phase).toEqual({ name: 'sessionExpired', reason: 'Your session has ended — sign in again.' });
    });

    it('ends the session when a reload answers 401, even though reloads are otherwise retried', () => {
      const d = reconnectingOnA().connect();
      const effects = d.send({ type: 'scopeFailed', attempt: 2, scope: locRef(ORG_A, 'L1'), status: 401, timedOut: false });
      expect(effects).toEqual(endEffects([userRef(), orgRef(ORG_A), locRef(ORG_A, 'L1')], 'expired'));
      expect(d.phase.name).toBe('sessionExpired');
    });

    it('ends the session when the periodic time sync answers 401', () => {
      const d = liveOnA();
      expect(d.send({ type: 'timeSyncDue' })).toEqual([{ type: 'syncTime', attempt: 1, periodic: true }]);
      const effects = d.send({ type: 'timeSyncFailed', attempt: 1, status: 401, timedOut: false });
      expect(effects).toEqual(endEffects([userRef(), orgRef(ORG_A), locRef(ORG_A, 'L1')], 'expired'));
      expect(d.phase.name).toBe('sessionExpired');
    });

    it.each(['connecting', 'loading', 'live', 'retrying'] as const)('ends the session on unauthorized while %s', (name) => {
      const d = inPhase(name);
      const wanted = name === 'connecting' ? [userRef()] : name === 'loading' ? [userRef(), orgRef(ORG_A)] : [userRef(), orgRef(ORG_A), locRef(ORG_A, 'L1')];
      expect(d.send({ type: 'unauthorized' })).toEqual(endEffects(wanted, 'expired'));
      expect(d.phase).toEqual({ name: 'sessionExpired', reason: SESSION_ENDED_MESSAGE });
    });

    it.each(['signedOut', 'signingIn', 'sessionExpired'] as const)('does nothing on unauthorized while %s', (name) => {
      expectIgnored(inPhase(name), { type: 'unauthorized' });
    });

    it('does nothing for a 401 that arrives after signing out', () => {
      const d = signedIn().connect();
      d.send({ type: 'signOut' });
      expectIgnored(d, { type: 'stepFailed', attempt: 1, step: 'transport', status: 401, timedOut: false });
      expectIgnored(d, { type: 'scopeFailed', attempt: 1, scope: orgRef(ORG_A), status: 401, timedOut: false });
      expectIgnored(d, { type: 'timeSyncFailed', attempt: 1, status: 401, timedOut: false });
      expect(d.phase).toEqual({ name: 'signedOut' });
    });
  });

  describe('scopeFailed', () => {
    it("retries with 'Failed trying to load.' when a first load fails with a server error", () => {
      const d = signedIn().connect();
      const effects = d.send({ type: 'scopeFailed', attempt: 1, scope: orgRef(ORG_A), status: 503, timedOut: false });
      expect(effects).toEqual(loadRetryEffects(T0 + STEP_MS, orgRef(ORG_A), 503));
      expect(d.phase).toEqual({ name: 'retrying', at: T0 + STEP_MS, lastError: 'Failed trying to load.', transportLost: false });
      expect(d.ctx.organizationId).toBe(ORG_A);
    });

    it("retries with 'Failed trying to load.' when a load times out", () => {
      const d = signedIn().connect();
      d.loaded(orgRef(ORG_A), A_LOCATIONS);
      const effects = d.send({ type: 'scopeFailed', attempt: 1, scope: locRef(ORG_A, 'L1'), status: null, timedOut: true });
      expect(effects).toEqual(loadRetryEffects(T0 + STEP_MS, locRef(ORG_A, 'L1'), null));
      expect(d.ctx.locationId).toBe('L1');
    });

    it('retries a reload refused with 403 or 404 instead of forgetting a scope that loaded before', () => {
      for (const status of [403, 404]) {
        const d = reconnectingOnA().connect();
        expect(d.phase).toEqual({ name: 'loading', attempt: 2, pending: ['user:u1', 'org:orgA', 'loc:orgA/L1'] });
        const effects = d.send({ type: 'scopeFailed', attempt: 2, scope: orgRef(ORG_A), status, timedOut: false });
        expect(effects).toEqual(loadRetryEffects(d.now + 2 * STEP_MS, orgRef(ORG_A), status));
        expect(d.ctx).toMatchObject({ organizationId: ORG_A, locationId: 'L1', failures: 2 });
      }
    });

    it('never gives up the user’s own scope: a refused user load is retried', () => {
      const d = signedIn().connect();
      const effects = d.send({ type: 'scopeFailed', attempt: 1, scope: userRef(), status: 404, timedOut: false });
      expect(effects).toEqual(loadRetryEffects(T0 + STEP_MS, userRef(), 404));
      expect(d.ctx.userId).toBe(USER);
    });

    it('forgets an organization whose first load is refused, without retrying', () => {
      const d = signedIn().connect();
      const effects = d.send({ type: 'scopeFailed', attempt: 1, scope: orgRef(ORG_A), status: 403, timedOut: false });
      const message = 'Cannot load organization orgA; giving it up.';
      expect(effects).toEqual([
        { type: 'log', level: 'warn', message },
        { type: 'rejectChoice', scope: orgRef(ORG_A), status: 403, message },
        { type: 'stopScope', scope: orgRef(ORG_A) },
        { type: 'enterOrganization', organizationId: null },
      ]);
      expect(d.phase).toEqual({ name: 'loading', attempt: 1, pending: ['user:u1'] });
      expect(d.ctx).toMatchObject({ organizationId: null, locationId: null, orgLocationIds: null, failures: 0 });
      d.loaded(userRef());
      expect(d.phase).toEqual({ name: 'live', attempt: 1 });
    });

    it('forgets a chosen organization refused with 404 and its location with it', () => {
      const d = liveOnA();
      d.send({ type: 'selectOrganization', organizationId: ORG_B });
      const effects = d.send({ type: 'scopeFailed', attempt: 1, scope: orgRef(ORG_B), status: 404, timedOut: false });
      const message = 'Cannot load organization orgB; giving it up.';
      expect(effects).toEqual([
        { type: 'log', level: 'warn', message },
        { type: 'rejectChoice', scope: orgRef(ORG_B), status: 404, message },
        { type: 'stopScope', scope: orgRef(ORG_B) },
        { type: 'enterOrganization', organizationId: null },
      ]);
      expect(d.phase).toEqual({ name: 'live', attempt: 1 });
      expect(d.ctx).toMatchObject({ organizationId: null, locationId: null });
    });

    it('forgets a chosen location refused with 404, keeping the organization', () => {
      const d = liveOnA();
      d.send({ type: 'selectLocation', locationId: 'L2' });
      const effects = d.send({ type: 'scopeFailed', attempt: 1, scope: locRef(ORG_A, 'L2'), status: 404, timedOut: false });
      const message = 'Cannot load location L2; giving it up.';
      expect(effects).toEqual([
        { type: 'log', level: 'warn', message },
        { type: 'rejectChoice', scope: locRef(ORG_A, 'L2'), status: 404, message },
        { type: 'stopScope', scope: locRef(ORG_A, 'L2') },
        { type: 'enterLocation', organizationId: ORG_A, locationId: null },
      ]);
      expect(d.phase).toEqual({ name: 'live', attempt: 1 });
      expect(d.ctx).toMatchObject({ organizationId: ORG_A, locationId: null });
    });

    it('stops the saved location too when the organization’s first load is refused', () => {
      const d = new Driver();
      d.send({ type: 'resumed', userId: USER, organizationId: ORG_B, locationId: 'M2' });
      d.connect();
      const message = 'Cannot load organization orgB; giving it up.';
      expect(d.send({ type: 'scopeFailed', attempt: 1, scope: orgRef(ORG_B), status: 403, timedOut: false })).toEqual([
        { type: 'log', level: 'warn', message },
        { type: 'rejectChoice', scope: orgRef(ORG_B), status: 403, message },
        { type: 'stopScope', scope: orgRef(ORG_B) },
        { type: 'stopScope', scope: locRef(ORG_B, 'M2') },
        { type: 'enterOrganization', organizationId: null },
      ]);
      expect(d.phase).toEqual({ name: 'loading', attempt: 1, pending: ['user:u1'] });
      expect(d.ctx).toMatchObject({ organizationId: null, locationId: null });
    });

    it('counts a connection whose refused choice was given up as a success: the failures reset', () => {
      const d = signedIn();
      d.send({ type: 'stepFailed', attempt: 1, step: 'time', status: 503, timedOut: false });
      d.advance(STEP_MS).send({ type: 'retryDue' });
      d.connect();
      d.loaded(userRef());
      d.send({ type: 'scopeFailed', attempt: 2, scope: orgRef(ORG_A), status: 403, timedOut: false });
      expect(d.phase).toEqual({ name: 'live', attempt: 2 });
      expect(d.ctx.failures).toBe(0);
      expect(d.send({ type: 'transportLost' })).toEqual(retryEffects(d.now + STEP_MS, null));
    });

    it.each([
      { status: 404, timedOut: false },
      { status: 403, timedOut: false },
      { status: 500, timedOut: false },
      { status: null, timedOut: true },
    ])('ignores the failure (%o) of a location the user switched away from while it loaded', (failure) => {
      const d = signedIn().connect();
      d.loaded(userRef());
      d.loaded(orgRef(ORG_A), A_LOCATIONS); // L1 is loading
      d.send({ type: 'selectLocation', locationId: 'L2' });
      expect(d.phase).toEqual({ name: 'loading', attempt: 1, pending: ['loc:orgA/L2'] });
      expectIgnored(d, { type: 'scopeFailed', attempt: 1, scope: locRef(ORG_A, 'L1'), ...failure });
    });

    it.each([
      { status: 403, timedOut: false },
      { status: null, timedOut: true },
    ])('ignores the failure (%o) of an organization the user switched away from while it loaded', (failure) => {
      const d = signedIn().connect(); // orgA is loading
      d.send({ type: 'selectOrganization', organizationId: ORG_B });
      expect(d.phase).toEqual({ name: 'loading', attempt: 1, pending: ['user:u1', 'org:orgB'] });
      expectIgnored(d, { type: 'scopeFailed', attempt: 1, scope: orgRef(ORG_A), ...failure });
    });
  });

  describe('streamInvalid', () => {
    it('reconnects at once, without counting a failure', () => {
      const d = liveOnA();
      const effects = d.send({ type: 'streamInvalid' });
      expect(effects).toEqual(attemptEffects(2));
      expect(d.phase).toEqual({ name: 'connecting', attempt: 2, step: 'time', reconnect: true });
      expect(d.ctx).toMatchObject({ failures: 0, lastStreamReconnectAt: T0 });
    });

    it('waits for the back-off when the stream is invalid again within the window', () => {
      const d = liveOnA();
      d.send({ type: 'streamInvalid' });
      d.advance(1_000).connect();
      expect(d.phase.name).toBe('loading');
      const effects = d.advance(1_000).send({ type: 'streamInvalid' });
      expect(effects).toEqual(retryEffects(T0 + 2_000 + STEP_MS, null));
      expect(d.phase).toEqual({ name: 'retrying', at: T0 + 2_000 + STEP_MS, lastError: MSG.RECONNECTING_STREAM_INVALID, transportLost: true });
      expect(d.ctx.failures).toBe(1);
    });

    it('reconnects at once again once the window has passed', () => {
      const d = liveOnA();
      d.send({ type: 'streamInvalid' });
      d.connect();
      d.loaded(userRef());
      d.loaded(orgRef(ORG_A), A_LOCATIONS);
      d.loaded(locRef(ORG_A, 'L1'));
      d.advance(STEP_MS);
      expect(d.send({ type: 'streamInvalid' })).toEqual(attemptEffects(3));
      expect(d.ctx.lastStreamReconnectAt).toBe(T0 + STEP_MS);
    });

    it.each(['signedOut', 'connecting', 'retrying', 'sessionExpired'] as const)('does nothing while %s', (name) => {
      expectIgnored(inPhase(name), { type: 'streamInvalid' });
    });
  });

  describe('transportLost', () => {
    it.each(['loading', 'live'] as const)('retries after the back-off, flagged as a lost transport, while %s', (name) => {
      const d = inPhase(name);
      const effects = d.send({ type: 'transportLost' });
      expect(effects).toEqual(retryEffects(T0 + STEP_MS, null));
      expect(d.phase).toEqual({ name: 'retrying', at: T0 + STEP_MS, lastError: 'Live connection lost.', transportLost: true });
      expect(d.ctx.failures).toBe(1);
    });

    it.each(['signedOut', 'connecting', 'retrying'] as const)('does nothing while %s', (name) => {
      expectIgnored(inPhase(name), { type: 'transportLost' });
    });
  });

  describe('online and offline', () => {
    it.each(['connecting', 'loading', 'live', 'retrying'] as const)('logs going online and reconnects at once while %s', (name) => {
      const d = inPhase(name);
      const attempt = d.ctx.attempt;
      const effects = d.send({ type: 'online' });
      expect(effects).toEqual([
        { type: 'log', level: 'info', message: 'Browser went online; reconnecting.' },
        ...attemptEffects(attempt + 1),
      ]);
      expect(d.phase).toEqual({ name: 'connecting', attempt: attempt + 1, step: 'time', reconnect: true });
    });

    it('only logs going online while signed out', () => {
      const d = new Driver();
      d.send({ type: 'offline' });
      expect(d.send({ type: 'online' })).toEqual([{ type: 'log', level: 'info', message: 'Browser went online; reconnecting.' }]);
      expect(d.phase).toEqual({ name: 'signedOut' });
      expect(d.ctx.online).toBe(true);
    });

    it('only logs going offline', () => {
      const d = liveOnA();
      expect(d.send({ type: 'offline' })).toEqual([{ type: 'log', level: 'info', message: 'Browser went offline.' }]);
      expect(d.phase).toEqual({ name: 'live', attempt: 1 });
      expect(d.ctx.online).toBe(false);
    });
  });

  describe('retryDue', () => {
    it('starts a reconnect attempt from retrying', () => {
      const d = inPhase('retrying');
      d.advance(STEP_MS);
      expect(d.send({ type: 'retryDue' })).toEqual(attemptEffects(2));
      expect(d.phase).toEqual({ name: 'connecting', attempt: 2, step: 'time', reconnect: true });
    });

    it.each(['signedOut', 'signingIn', 'connecting', 'loading', 'live', 'sessionExpired'] as const)('does nothing while %s', (name) => {
      expectIgnored(inPhase(name), { type: 'retryDue' });
    });
  });

  describe('connectRequested', () => {
    it('starts an attempt at once from retrying, cancelling the scheduled one', () => {
      const d = inPhase('retrying');
      expect(d.send({ type: 'connectRequested' })).toEqual(attemptEffects(2));
      expect(d.phase).toEqual({ name: 'connecting', attempt: 2, step: 'time', reconnect: true });
    });

    it('starts a new attempt from live', () => {
      const d = liveOnA();
      expect(d.send({ type: 'connectRequested' })).toEqual(attemptEffects(2));
      expect(d.phase).toMatchObject({ name: 'connecting', attempt: 2, step: 'time' });
    });

    it.each(['signedOut', 'signingIn', 'connecting', 'loading', 'sessionExpired'] as const)('does nothing while %s', (name) => {
      expectIgnored(inPhase(name), { type: 'connectRequested' });
    });
  });

  describe('time sync', () => {
    it.each(['loading', 'live'] as const)('syncs the time periodically while %s', (name) => {
      const d = inPhase(name);
      expect(d.send({ type: 'timeSyncDue' })).toEqual([{ type: 'syncTime', attempt: 1, periodic: true }]);
    });

    it.each(['signedOut', 'connecting', 'retrying'] as const)('does not sync periodically while %s', (name) => {
      expectIgnored(inPhase(name), { type: 'timeSyncDue' });
    });

    it.each([
      { status: 503, timedOut: false },
      { status: null, timedOut: true },
    ])("retries with 'Could not sync time with server.' when a periodic sync fails (%o)", (failure) => {
      const d = liveOnA();
      const effects = d.send({ type: 'timeSyncFailed', attempt: 1, ...failure });
      expect(effects).toEqual(retryEffects(T0 + STEP_MS, MSG.COULD_NOT_SYNC_TIME));
      expect(d.phase).toEqual({ name: 'retrying', at: T0 + STEP_MS, lastError: MSG.COULD_NOT_SYNC_TIME, transportLost: false });
    });
  });

  describe('signOut', () => {
    it.each([
      ['signingIn', []],
      ['connecting', [userRef()]],
      ['loading', [userRef(), orgRef(ORG_A)]],
      ['live', [userRef(), orgRef(ORG_A), locRef(ORG_A, 'L1')]],
      ['retrying', [userRef(), orgRef(ORG_A), locRef(ORG_A, 'L1')]],
      ['sessionExpired', []],
    ] as const)('from %s stops the scopes, ends the session and bumps the generation', (name, scopes) => {
      const d = inPhase(name);
      const generation = d.ctx.generation;
      expect(d.send({ type: 'signOut' })).toEqual(endEffects([...scopes], 'signOut'));
      expect(d.phase).toEqual({ name: 'signedOut' });
      expect(d.ctx).toMatchObject({ generation: generation + 1, userId: null, organizationId: null, locationId: null, orgLocationIds: null, failures: 0, everLoaded: [] });
    });

    it('does nothing while signed out', () => {
      expectIgnored(new Driver(), { type: 'signOut' });
    });

    it('ignores the outcomes of the attempt it interrupted, also after signing in again', () => {
      const d = signedIn().connectUntil('transport');
      d.send({ type: 'signOut' });
      expectIgnored(d, { type: 'stepDone', attempt: 1, step: 'transport' });
      expectIgnored(d, { type: 'scopeLoaded', attempt: 1, scope: userRef() });
      d.send({ type: 'signedIn', userId: 'u2', homeOrganizationId: ORG_B });
      expect(d.phase).toEqual({ name: 'connecting', attempt: 2, step: 'time', reconnect: false });
      expectIgnored(d, { type: 'stepDone', attempt: 1, step: 'time' });
      expectIgnored(d, { type: 'stepFailed', attempt: 1, step: 'time', status: 401, timedOut: false });
    });
  });

  describe('stale outcomes', () => {
    it('ignores step outcomes of an attempt that a newer one replaced', () => {
      const d = signedIn().connectUntil('settings');
      d.send({ type: 'online' }); // attempt 2 replaces attempt 1
      expectIgnored(d, { type: 'stepDone', attempt: 1, step: 'settings', homeOrganizationId: ORG_B });
      expectIgnored(d, { type: 'stepFailed', attempt: 1, step: 'settings', status: 500, timedOut: false });
      expect(d.phase).toEqual({ name: 'connecting', attempt: 2, step: 'time', reconnect: true });
    });

    it('ignores scope outcomes of an older attempt', () => {
      const d = reconnectingOnA().connect();
      expect(d.attempt).toBe(2);
      expectIgnored(d, { type: 'scopeLoaded', attempt: 1, scope: userRef() });
      expectIgnored(d, { type: 'scopeLoaded', attempt: 1, scope: orgRef(ORG_A), locationIds: ['X'] });
      expectIgnored(d, { type: 'scopeFailed', attempt: 1, scope: orgRef(ORG_A), status: 500, timedOut: false });
      expectIgnored(d, { type: 'scopeFailed', attempt: 1, scope: orgRef(ORG_A), status: 401, timedOut: false });
      expectIgnored(d, { type: 'timeSyncFailed', attempt: 1, status: 500, timedOut: false });
    });

    it('ignores outcomes that arrive while retrying', () => {
      const d = signedIn().connect();
      d.send({ type: 'transportLost' });
      expectIgnored(d, { type: 'scopeLoaded', attempt: 1, scope: userRef() });
      expectIgnored(d, { type: 'scopeFailed', attempt: 1, scope: userRef(), status: 500, timedOut: false });
      expectIgnored(d, { type: 'stepDone', attempt: 1, step: 'transport' });
    });
  });

  describe('selectOrganization', () => {
    it('in live stops the old scopes, enters the new organization, loads it and then its first location', () => {
      const d = liveOnA();
      const effects = d.send({ type: 'selectOrganization', organizationId: ORG_B });
      expect(effects).toEqual([
        { type: 'stopScope', scope: locRef(ORG_A, 'L1') },
        { type: 'stopScope', scope: orgRef(ORG_A) },
        { type: 'enterOrganization', organizationId: ORG_B },
        { type: 'loadScope', attempt: 1, scope: orgRef(ORG_B) },
      ]);
      expect(d.phase).toEqual({ name: 'loading', attempt: 1, pending: ['org:orgB'] });
      expect(d.ctx).toMatchObject({ organizationId: ORG_B, locationId: null, orgLocationIds: null, everLoaded: ['user:u1'] });
      expect(d.loaded(orgRef(ORG_B), B_LOCATIONS)).toEqual([
        { type: 'enterLocation', organizationId: ORG_B, locationId: 'M1' },
        { type: 'loadScope', attempt: 1, scope: locRef(ORG_B, 'M1') },
      ]);
      d.loaded(locRef(ORG_B, 'M1'));
      expect(d.phase).toEqual({ name: 'live', attempt: 1 });
      expect(d.ctx).toMatchObject({ organizationId: ORG_B, locationId: 'M1', orgLocationIds: B_LOCATIONS });
    });

    it('does nothing for the organization already chosen', () => {
      expectIgnored(liveOnA(), { type: 'selectOrganization', organizationId: ORG_A });
    });

    it('during connecting is remembered and loaded by the same attempt', () => {
      const d = signedIn();
      expect(d.send({ type: 'selectOrganization', organizationId: ORG_B })).toEqual([{ type: 'enterOrganization', organizationId: ORG_B }]);
      expect(d.phase).toEqual({ name: 'connecting', attempt: 1, step: 'time', reconnect: false });
      d.connect(ORG_A);
      expect(d.effects).toEqual([
        { type: 'scheduleTimeSync' },
        { type: 'loadScope', attempt: 1, scope: userRef() },
        { type: 'loadScope', attempt: 1, scope: orgRef(ORG_B) },
      ]);
    });

    it('while retrying is remembered and loaded by the next attempt', () => {
      const d = inPhase('retrying');
      expect(d.send({ type: 'selectOrganization', organizationId: ORG_B })).toEqual([
        { type: 'stopScope', scope: locRef(ORG_A, 'L1') },
        { type: 'stopScope', scope: orgRef(ORG_A) },
        { type: 'enterOrganization', organizationId: ORG_B },
      ]);
      expect(d.phase.name).toBe('retrying');
      d.advance(STEP_MS).send({ type: 'retryDue' });
      d.connect();
      expect(d.effects).toEqual([
        { type: 'scheduleTimeSync' },
        { type: 'loadScope', attempt: 2, scope: userRef() },
        { type: 'loadScope', attempt: 2, scope: orgRef(ORG_B) },
      ]);
      d.loaded(userRef());
      expect(d.loaded(orgRef(ORG_B), B_LOCATIONS)).toContainEqual({ type: 'loadScope', attempt: 2, scope: locRef(ORG_B, 'M1') });
    });

    it('does nothing while signed out', () => {
      expectIgnored(new Driver(), { type: 'selectOrganization', organizationId: ORG_B });
    });
  });

  describe('selectLocation', () => {
    it('in live stops the old location, enters and loads the new one, then goes live', () => {
      const d = liveOnA();
      expect(d.send({ type: 'selectLocation', locationId: 'L2' })).toEqual([
        { type: 'stopScope', scope: locRef(ORG_A, 'L1') },
        { type: 'enterLocation', organizationId: ORG_A, locationId: 'L2' },
        { type: 'loadScope', attempt: 1, scope: locRef(ORG_A, 'L2') },
      ]);
      expect(d.phase).toEqual({ name: 'loading', attempt: 1, pending: ['loc:orgA/L2'] });
      expect(d.ctx.everLoaded).not.toContain('loc:orgA/L1');
      d.loaded(locRef(ORG_A, 'L2'));
      expect(d.phase).toEqual({ name: 'live', attempt: 1 });
      expect(d.ctx.locationId).toBe('L2');
    });

    it('does nothing for the location already chosen', () => {
      expectIgnored(liveOnA(), { type: 'selectLocation', locationId: 'L1' });
    });

    it('warns and rejects a location that is not of the loaded organization', () => {
      const d = liveOnA();
      const before = d.state;
      const message = 'Location M1 is not a location of the loaded organization; not loading it.';
      expect(d.send({ type: 'selectLocation', locationId: 'M1' })).toEqual([
        { type: 'log', level: 'warn', message },
        { type: 'rejectChoice', scope: locRef(ORG_A, 'M1'), status: 404, message },
      ]);
      expect(d.state).toEqual(before);
    });

    it('rejects a location while no organization is chosen', () => {
      const d = signedIn();
      expect(d.send({ type: 'selectLocation', locationId: 'L1' })).toEqual([
        { type: 'rejectChoice', scope: { kind: 'location', organizationId: '', locationId: 'L1' }, status: 409, message: 'Location L1 cannot load before an organization.' },
      ]);
      expect(d.ctx.locationId).toBeNull();
    });

    it('before the organization’s locations are known is remembered and chosen once they are', () => {
      const d = liveOnA();
      d.send({ type: 'selectOrganization', organizationId: ORG_B });
      expect(d.send({ type: 'selectLocation', locationId: 'M2' })).toEqual([]);
      expect(d.ctx.preferredLocationId).toBe('M2');
      expect(d.loaded(orgRef(ORG_B), B_LOCATIONS)).toEqual([
        { type: 'enterLocation', organizationId: ORG_B, locationId: 'M2' },
        { type: 'loadScope', attempt: 1, scope: locRef(ORG_B, 'M2') },
      ]);
      expect(d.ctx).toMatchObject({ locationId: 'M2', preferredLocationId: null });
    });

    it('falls back to the first location when the remembered one is not the organization’s', () => {
      const d = liveOnA();
      d.send({ type: 'selectOrganization', organizationId: ORG_B });
      d.send({ type: 'selectLocation', locationId: 'L2' });
      expect(d.loaded(orgRef(ORG_B), B_LOCATIONS)).toEqual([
        { type: 'enterLocation', organizationId: ORG_B, locationId: 'M1' },
        { type: 'loadScope', attempt: 1, scope: locRef(ORG_B, 'M1') },
      ]);
    });

    it('during a reconnect is remembered and loaded by that attempt', () => {
      const d = reconnectingOnA();
      expect(d.send({ type: 'selectLocation', locationId: 'L2' })).toEqual([
        { type: 'stopScope', scope: locRef(ORG_A, 'L1') },
        { type: 'enterLocation', organizationId: ORG_A, locationId: 'L2' },
      ]);
      expect(d.phase).toEqual({ name: 'connecting', attempt: 2, step: 'time', reconnect: true });
      d.connect();
      expect(d.effects).toEqual([
        { type: 'scheduleTimeSync' },
        { type: 'loadScope', attempt: 2, scope: userRef() },
        { type: 'loadScope', attempt: 2, scope: orgRef(ORG_A) },
        { type: 'loadScope', attempt: 2, scope: locRef(ORG_A, 'L2') },
      ]);
      d.loaded(userRef());
      expect(d.loaded(orgRef(ORG_A), A_LOCATIONS)).toEqual([]);
      d.loaded(locRef(ORG_A, 'L2'));
      expect(d.phase).toEqual({ name: 'live', attempt: 2 });
    });

    it('while retrying is remembered and loaded by the next attempt', () => {
      const d = inPhase('retrying');
      d.send({ type: 'selectLocation', locationId: 'L2' });
      expect(d.phase.name).toBe('retrying');
      d.advance(STEP_MS).send({ type: 'retryDue' });
      d.connect();
      expect(d.effects).toContainEqual({ type: 'loadScope', attempt: 2, scope: locRef(ORG_A, 'L2') });
      expect(d.effects).not.toContainEqual({ type: 'loadScope', attempt: 2, scope: locRef(ORG_A, 'L1') });
    });

    it('does nothing while signed out', () => {
      expectIgnored(new Driver(), { type: 'selectLocation', locationId: 'L1' });
    });
  });

  describe('locationsChanged', () => {
    it('lets a location created after the organization loaded be chosen', () => {
      const d = liveOnA();
      expect(d.send({ type: 'locationsChanged', locationIds: ['L1', 'L2', 'L3'] })).toEqual([]);
      expect(d.ctx.orgLocationIds).toEqual(['L1', 'L2', 'L3']);
      expect(d.send({ type: 'selectLocation', locationId: 'L3' })).toContainEqual({ type: 'loadScope', attempt: 1, scope: locRef(ORG_A, 'L3') });
    });

    it('refuses a location deleted since the organization loaded', () => {
      const d = liveOnA();
      d.send({ type: 'locationsChanged', locationIds: ['L1'] });
      const effects = d.send({ type: 'selectLocation', locationId: 'L2' });
      expect(effects).toContainEqual({ type: 'log', level: 'warn', message: 'Location L2 is not a location of the loaded organization; not loading it.' });
      expect(effects.some((e) => e.type === 'loadScope')).toBe(false);
    });

    it('is ignored before the organization’s locations are known', () => {
      expectIgnored(signedIn().connect(), { type: 'locationsChanged', locationIds: ['L1'] });
    });
  });

  describe('resumed', () => {
    it('serves the saved organization and location from the cache at once and connects', () => {
      const d = new Driver();
      const effects = d.send({ type: 'resumed', userId: USER, organizationId: ORG_A, locationId: 'L2' });
      expect(effects).toEqual([
        { type: 'enterOrganization', organizationId: ORG_A },
        { type: 'enterLocation', organizationId: ORG_A, locationId: 'L2' },
        ...attemptEffects(1),
      ]);
      expect(d.phase).toEqual({ name: 'connecting', attempt: 1, step: 'time', reconnect: false });
      expect(d.ctx).toMatchObject({ userId: USER, organizationId: ORG_A, locationId: 'L2', preferredLocationId: 'L2' });
    });

    it('loads the saved location only once the organization confirms it is one of its own (spec §4)', () => {
      const d = new Driver();
      d.send({ type: 'resumed', userId: USER, organizationId: ORG_A, locationId: 'L2' });
      d.connect(ORG_B);
      expect(d.effects).toEqual([
        { type: 'scheduleTimeSync' },
        { type: 'loadScope', attempt: 1, scope: userRef() },
        { type: 'loadScope', attempt: 1, scope: orgRef(ORG_A) },
      ]);
      expect(d.ctx.organizationId).toBe(ORG_A);
      d.loaded(userRef());
      expect(d.loaded(orgRef(ORG_A), A_LOCATIONS)).toEqual([{ type: 'loadScope', attempt: 1, scope: locRef(ORG_A, 'L2') }]);
      expect(d.phase).toEqual({ name: 'loading', attempt: 1, pending: ['loc:orgA/L2'] });
      d.loaded(locRef(ORG_A, 'L2'));
      expect(d.phase).toEqual({ name: 'live', attempt: 1 });
      expect(d.ctx.locationId).toBe('L2');
    });

    it('drops a saved location that is no longer the organization’s and takes the first', () => {
      const d = new Driver();
      d.send({ type: 'resumed', userId: USER, organizationId: ORG_A, locationId: 'GONE' });
      d.connect();
      d.loaded(userRef());
      expect(d.loaded(orgRef(ORG_A), A_LOCATIONS)).toEqual([
        { type: 'stopScope', scope: locRef(ORG_A, 'GONE') },
        { type: 'enterLocation', organizationId: ORG_A, locationId: 'L1' },
        { type: 'loadScope', attempt: 1, scope: locRef(ORG_A, 'L1') },
      ]);
      expect(d.phase).toEqual({ name: 'loading', attempt: 1, pending: ['loc:orgA/L1'] });
    });

    it('without a saved organization takes the home one from the settings', () => {
      const d = new Driver();
      d.send({ type: 'resumed', userId: USER, organizationId: null, locationId: null });
      expect(d.effects).toEqual(attemptEffects(1));
      d.connectUntil('settings');
      expect(d.send({ type: 'stepDone', attempt: 1, step: 'settings', homeOrganizationId: ORG_B }))
        .toEqual([{ type: 'enterOrganization', organizationId: ORG_B }, { type: 'openTransport', attempt: 1 }]);
    });
  });

  describe('isSignedIn and isAttemptOngoing', () => {
    it.each([
      ['signedOut', false, false],
      ['signingIn', false, false],
      ['connecting', true, true],
      ['loading', true, true],
      ['live', true, false],
      ['retrying', true, false],
      ['sessionExpired', false, false],
    ] as const)('%s: signed in %s, attempt ongoing %s', (name, signedInExpected, ongoing) => {
      const phase = inPhase(name).phase;
      expect(phase.name).toBe(name);
      expect(isSignedIn(phase)).toBe(signedInExpected);
      expect(isAttemptOngoing(phase)).toBe(ongoing);
    });

    it('refuses a second attempt while one is ongoing: connectRequested changes nothing (spec §5)', () => {
      for (const name of ['connecting', 'loading'] as const) {
        const d = inPhase(name);
        expect(isAttemptOngoing(d.phase)).toBe(true);
        const before: SessionState = d.state;
        expect(d.send({ type: 'connectRequested' })).toEqual([]);
        expect(d.state).toBe(before);
      }
    });
  });
});
