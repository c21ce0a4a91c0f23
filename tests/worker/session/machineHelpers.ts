// Drives the pure session machine (src/worker/session/machine.ts) the way the
// runner does: one event at a time on a settable corrected clock, keeping the
// last transition's effects for assertions. No ports, no timers.

import {
  initialSessionState, transition,
  type ConnectStep, type ScopeRef, type SessionEffect, type SessionEvent, type SessionState, type TransitionEnv,
} from '../../../src/worker/session/machine.js';

export const T0 = 1_700_000_000_000;
export const STEP_MS = 5_000;
export const MAX_MS = 60_000;

/** Spec §9: min(60 s, 5 s × failures since the last success). */
export const backoff = (failures: number): number => Math.min(MAX_MS, STEP_MS * failures);

export const envAt = (now: number): TransitionEnv => ({ now, backoff, streamRetryWindowMs: STEP_MS });

export const USER = 'u1';
export const ORG_A = 'orgA';
export const ORG_B = 'orgB';
export const A_LOCATIONS = ['L1', 'L2'];
export const B_LOCATIONS = ['M1', 'M2'];

export const userRef = (userId: string = USER): ScopeRef => ({ kind: 'user', userId });
export const orgRef = (organizationId: string): ScopeRef => ({ kind: 'organization', organizationId });
export const locRef = (organizationId: string, locationId: string): ScopeRef => ({ kind: 'location', organizationId, locationId });

/** The effects that open every connect attempt. */
export const attemptEffects = (attempt: number): SessionEffect[] => [
  { type: 'cancelRetry' }, { type: 'cancelTimeSync' }, { type: 'closeTransport' },
  { type: 'syncTime', attempt, periodic: false },
];

/** The effects of a failure that waits for the back-off. */
export const retryEffects = (at: number, message: string | null): SessionEffect[] => [
  { type: 'cancelTimeSync' }, { type: 'closeTransport' },
  ...(message === null ? [] : [{ type: 'post', message } as SessionEffect]),
  { type: 'scheduleRetry', at },
];

/** The effects of the session's end, stopping `scopes` (the wanted ones). */
export const endEffects = (scopes: ScopeRef[], reason: 'signOut' | 'expired'): SessionEffect[] => [
  { type: 'cancelRetry' }, { type: 'cancelTimeSync' }, { type: 'closeTransport' },
  ...scopes.map((scope): SessionEffect => ({ type: 'stopScope', scope })),
  { type: 'endSession', reason },
];

export class Driver {
  state: SessionState;
  now: number;
  effects: SessionEffect[] = [];

  constructor(state: SessionState = initialSessionState(), now: number = T0) {
    this.state = state;
    this.now = now;
  }

  get phase() { return this.state.phase; }
  get ctx() { return this.state.ctx; }

  /** The attempt of the phase (connecting, loading, live); throws otherwise. */
  get attempt(): number {
    const p = this.state.phase;
    if (p.name === 'connecting' || p.name === 'loading' || p.name === 'live') return p.attempt;
    throw new Error(`no attempt in phase ${p.name}`);
  }

  send(event: SessionEvent): SessionEffect[] {
    const result = transition(this.state, event, envAt(this.now));
    this.state = result.state;
    this.effects = result.effects;
    return result.effects;
  }

  advance(ms: number): this {
    this.now += ms;
    return this;
  }

  /** Each connect step of the current attempt answers; settings name the home organization. */
  connect(homeOrganizationId: string | null = ORG_A): this {
    const attempt = this.attempt;
    this.send({ type: 'stepDone', attempt, step: 'time' });
    this.send({ type: 'stepDone', attempt, step: 'settings', homeOrganizationId });
    this.send({ type: 'stepDone', attempt, step: 'transport' });
    return this;
  }

  /** Steps of the current attempt answer up to (not including) `failing`. */
  connectUntil(failing: ConnectStep, homeOrganizationId: string | null = ORG_A): this {
    const attempt = this.attempt;
    const order: ConnectStep[] = ['time', 'settings', 'transport'];
    for (const step of order.slice(0, order.indexOf(failing))) {
      this.send({ type: 'stepDone', attempt, step, homeOrganizationId: step === 'settings' ? homeOrganizationId : undefined });
    }
    return this;
  }

  loaded(scope: ScopeRef, locationIds?: string[]): SessionEffect[] {
    return this.send({ type: 'scopeLoaded', attempt: this.attempt, scope, locationIds });
  }
}

/** Signed in as USER (home ORG_A), connecting attempt 1 at the time step. */
export function signedIn(): Driver {
  const d = new Driver();
  d.send({ type: 'signedIn', userId: USER, homeOrganizationId: ORG_A });
  return d;
}

/** Live on ORG_A (locations L1, L2) with L1 chosen by default, attempt 1. */
export function liveOnA(): Driver {
  const d = signedIn().connect();
  d.loaded(userRef());
  d.loaded(orgRef(ORG_A), A_LOCATIONS);
  d.loaded(locRef(ORG_A, 'L1'));
  if (d.phase.name !== 'live') throw new Error(`expected live, got ${d.phase.name}`);
  return d;
}

/** From live on ORG_A/L1: the transport drops and the retry is due, so a reconnect attempt is at its time step. */
export function reconnectingOnA(): Driver {
  const d = liveOnA();
  d.send({ type: 'transportLost' });
  d.advance(STEP_MS).send({ type: 'retryDue' });
  return d;
}
