// The worker entry (DESIGN §1): the only file that touches `self` and calls
// Comlink.expose. `start(endpoint)` exposes an engine on any Comlink endpoint,
// so tests drive this same code over a MessageChannel in Node; in a worker the
// bottom lines start it on `self` and forward online/offline events.

import * as Comlink from 'comlink';
import type { EngineApi } from '../shared/api.js';
import { createEngine, type Engine, type EngineDeps } from './engine.js';
import type { Logger } from './ports.js';
import { createIdbPageCache } from './storage/idbPageCache.js';
import { createIdbStorage } from './storage/idbStorage.js';
import { systemClock } from './systemClock.js';
import { createTransport } from './transports/index.js';

/** Logs to the console with a prefix; callers never pass tokens (DESIGN §8). */
export const consoleLogger: Logger = {
  debug: () => undefined,
  info: (m, ...d) => console.info(`[storey] ${m}`, ...d),
  warn: (m, ...d) => console.warn(`[storey] ${m}`, ...d),
  error: (m, ...d) => console.error(`[storey] ${m}`, ...d),
};

/** Every EngineApi method, and nothing else of the engine (a missing one fails to compile). */
const API_METHODS = Object.keys({
  init: 1, subscribe: 1, unsubscribe: 1, signIn: 1, signInWithIdToken: 1, signUp: 1, authUri: 1, recoverPassword: 1,
  confirmSignUp: 1, setPasswordWithCode: 1,
  resume: 1, signOut: 1, selectOrganization: 1, selectLocation: 1, selectBuilding: 1, selectFloor: 1,
  bookRoom: 1, cancelBooking: 1, createTicket: 1, closeTicket: 1, vote: 1, updateAsset: 1, setManualLocation: 1,
  markNotificationRead: 1, cancelReport: 1, rerunReport: 1, setPlaybackTime: 1, setOnline: 1,
} satisfies Record<keyof EngineApi, 1>) as Array<keyof EngineApi>;

export interface StartOptions {
  /** overrides of the production dependencies (tests pass memory storage, fake fetch…) */
  deps?: Partial<EngineDeps>;
  /** where 'online'/'offline' events come from; default the endpoint itself */
  events?: Pick<EventTarget, 'addEventListener'> | null;
}

/** Exposes a new engine's API (and nothing else of it) on the endpoint. */
export function start(endpoint: Comlink.Endpoint, options: StartOptions = {}): Engine {
  const clock = options.deps?.clock ?? systemClock;
  const engine = createEngine({
    clock,
    fetch: (input, init) => globalThis.fetch(input, init),
    transportFactory: createTransport,
    storage: createIdbStorage(),
    logger: consoleLogger,
    pageCache: (user) => createIdbPageCache({ userId: user, now: () => clock.now() }),
    ...options.deps,
  });
  const api = Object.fromEntries(API_METHODS.map((m) => [m, (engine[m] as (...a: unknown[]) => unknown).bind(engine)])) as unknown as EngineApi;
  Comlink.expose(api, endpoint);
  const events = options.events === undefined ? (endpoint as unknown as Pick<EventTarget, 'addEventListener'>) : options.events;
  events?.addEventListener('online', () => { void engine.setOnline(true); });
  events?.addEventListener('offline', () => { void engine.setOnline(false); });
  return engine;
}

// In a dedicated worker (not when a test imports this module in Node).
const scope = globalThis as { WorkerGlobalScope?: unknown; self?: unknown };
if (typeof scope.WorkerGlobalScope !== 'undefined' && typeof self !== 'undefined') start(self as unknown as Comlink.Endpoint);
