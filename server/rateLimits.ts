// Limits on the routes an attacker repeats (sign-in, signup, recovery,
// auth-URI, Pusher auth, settings), per client address and per account, through
// @fastify/rate-limit: a refused request answers 429 with Retry-After and
// does nothing. Numbers and reasons: docs/security.md "Abuse limits".

import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './routes/guard.js';

export type LimitedRoute = 'login' | 'openidLogin' | 'signup' | 'signupConfirm' | 'recover' | 'setPassword' | 'authUri' | 'pusherAuth' | 'settings' | 'userWrites';

export interface RouteLimit {
  /** requests of one client address per window */
  perClient: number;
  /** per account (email or user) per window; for sign-in, wrong passwords only; 0: none */
  perAccount: number;
}

export interface RateLimits extends Record<LimitedRoute, RouteLimit> {
  windowMs: number;
}

/**
 * A person signs in a few times an hour; a script tries thousands of
 * passwords. Ten wrong passwords a minute per account (and 30 sign-ins per
 * address) leave the person untouched and the script at 600 tries an hour.
 */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  windowMs: 60_000,
  login: { perClient: 30, perAccount: 10 },
  openidLogin: { perClient: 30, perAccount: 0 },
  signup: { perClient: 10, perAccount: 3 },
  signupConfirm: { perClient: 10, perAccount: 0 },
  recover: { perClient: 10, perAccount: 3 },
  setPassword: { perClient: 60, perAccount: 10 },
  authUri: { perClient: 60, perAccount: 20 },
  // a viewer authorises a few channels per connection; a reconnect storm of many tabs stays well below
  pusherAuth: { perClient: 300, perAccount: 120 },
  // GET /v2/settings makes broker credentials (one dynamic-security round trip each, queued for everyone):
  // a viewer asks once per connect, at most every 5 s while reconnecting; many displays may share one
  // account, hence per user and no per-client limit (an office behind one address reconnects at once)
  settings: { perClient: 0, perAccount: 600 },
  // the writes every role may make and every viewer of the organization receives live: tickets and
  // voices, votes, one's own profile and position, bookings; a person makes a few a minute, a loop
  // would flood everyone's streams (docs/security.md "Abuse limits")
  userWrites: { perClient: 0, perAccount: 120 },
};

export const RATE_LIMITED = 'Too many requests; try again later';

export interface RateLimiter {
  /** route config limiting each client address (the `config` of a route) */
  perClient(route: LimitedRoute): FastifyContextConfig;
  /**
   * Per-account limit of `route` for `account` (lower-cased email or user id):
   * throws 429 when the account is over it. With `count: 'failures'` it only
   * checks here; call the returned `failed()` to count a failed attempt.
   */
  account(route: LimitedRoute, req: FastifyRequest, reply: FastifyReply, account: string, count?: 'all' | 'failures'): Promise<{ failed(): Promise<void> }>;
}

export async function registerRateLimits(app: FastifyInstance, overrides: Partial<RateLimits> = {}): Promise<RateLimiter> {
  const limits: RateLimits = { ...DEFAULT_RATE_LIMITS, ...overrides };
  await app.register(fastifyRateLimit, {
    global: false,
    timeWindow: limits.windowMs,
    errorResponseBuilder: () => new HttpError(429, RATE_LIMITED),
  });
  // the account key is set by the route before each check (a request carries one account)
  const accountKey = new WeakMap<FastifyRequest, string>();
  const checks = new Map<LimitedRoute, ReturnType<FastifyInstance['createRateLimit']>>();
  const checkOf = (route: LimitedRoute) => {
    let check = checks.get(route);
    if (!check) {
      check = app.createRateLimit({
        max: limits[route].perAccount, timeWindow: limits.windowMs, keyGenerator: (req) => `${route}:${accountKey.get(req) ?? ''}`,
      });
      checks.set(route, check);
    }
    return check;
  };

  return {
    perClient: (route) => ({ rateLimit: { max: limits[route].perClient, timeWindow: limits.windowMs } }),
    async account(route, req, reply, account, count = 'all') {
      const none = { failed: async () => undefined };
      if (limits[route].perAccount <= 0) return none;
      accountKey.set(req, account.toLowerCase());
      const check = checkOf(route);
      const state = await check(req, { increment: count === 'all' });
      if (!state.isAllowed) {
        const over = count === 'all' ? state.isExceeded : state.remaining <= 0;
        if (over) {
          reply.header('retry-after', String(Math.max(1, state.ttlInSeconds)));
          throw new HttpError(429, RATE_LIMITED);
        }
      }
      return count === 'all' ? none : { failed: async () => { await check(req); } };
    },
  };
}
