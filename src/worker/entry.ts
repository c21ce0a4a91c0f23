// The worker entry (DESIGN §1): the only file that touches `self` and calls
// Comlink.expose. `start(endpoint, code)` exposes an engine on any Comlink
// endpoint, so tests drive this same code over a MessageChannel in Node. In a
// worker the bottom lines load the engine's code with import() (engineCode.ts
// says why: V8's code cache), hold the page's messages until it is there,
// then start it on `self` and forward online/offline events.

import * as Comlink from 'comlink';
import { ENGINE_UNAVAILABLE, type EngineApi } from '../shared/api.js';
import type { Engine, EngineDeps } from './engine.js';
import { registerViewPortReceiver } from './views/viewPort.js';

/** The engine's code: a module of its own, loaded with import(). */
export type EngineCode = typeof import('./engineCode.js');
export const loadEngineCode = (): Promise<EngineCode> => import('./engineCode.js');

/** Every EngineApi method, and nothing else of the engine (a missing one fails to compile). */
const API_METHODS = Object.keys({
  init: 1, subscribe: 1, unsubscribe: 1, signIn: 1, signInWithIdToken: 1, signUp: 1, authUri: 1, recoverPassword: 1,
  confirmSignUp: 1, setPasswordWithCode: 1,
  resume: 1, signOut: 1, selectOrganization: 1, selectLocation: 1, selectBuilding: 1, selectFloor: 1,
  bookRoom: 1, cancelBooking: 1, createTicket: 1, closeTicket: 1, vote: 1, updateAsset: 1, setManualLocation: 1,
  markNotificationRead: 1, cancelReport: 1, rerunReport: 1, setPlaybackTime: 1, saveNow: 1, setOnline: 1,
} satisfies Record<keyof EngineApi, 1>) as Array<keyof EngineApi>;

export interface StartOptions {
  /** overrides of the production dependencies (tests pass memory storage, fake fetch…) */
  deps?: Partial<EngineDeps>;
  /** where 'online'/'offline' events come from; default the endpoint itself */
  events?: Pick<EventTarget, 'addEventListener'> | null;
}

/** Exposes a new engine's API (and nothing else of it) on the endpoint. */
export function start(endpoint: Comlink.Endpoint, code: EngineCode, options: StartOptions = {}): Engine {
  // view listeners arrive as one-way ports (views/viewPort.ts)
  registerViewPortReceiver();
  const engine = code.createProductionEngine(options.deps);
  // Two sources tell the engine whether the browser is online: the worker's own global, and the page
  // (ui/engine/workerEngine.ts: a worker started offline hears no event of it, and under network emulation
  // the worker's global gets none). Each change reaches the engine once: going online forces a reconnect.
  let told: boolean | null = null;
  const setOnline = (online: boolean): Promise<void> => {
    if (online === told) return Promise.resolve();
    told = online;
    return engine.setOnline(online);
  };
  const api = Object.fromEntries(API_METHODS.map((m) => [m, m === 'setOnline' ? setOnline : (engine[m] as (...a: unknown[]) => unknown).bind(engine)])) as unknown as EngineApi;
  Comlink.expose(api, endpoint);
  const events = options.events === undefined ? (endpoint as unknown as Pick<EventTarget, 'addEventListener'>) : options.events;
  events?.addEventListener('online', () => { void setOnline(true); });
  events?.addEventListener('offline', () => { void setOnline(false); });
  return engine;
}

type WorkerScope = Comlink.Endpoint & Pick<EventTarget, 'addEventListener' | 'removeEventListener'> & { reportError?(error: unknown): void };

/**
 * Starts the engine on the worker's global once its code is there. The page posts its first calls (init,
 * resume, the first views) at once: they are held, and handed to the engine in order before any later one.
 */
export function boot(worker: WorkerScope, load: () => Promise<EngineCode> = loadEngineCode): Promise<Engine | null> {
  const held: Event[] = [];
  const hold = (event: Event) => { held.push(event); };
  worker.addEventListener('message', hold);
  return load().then((code) => {
    worker.removeEventListener('message', hold);
    const endpoint: Comlink.Endpoint = {
      postMessage: (message, transfer) => worker.postMessage(message, transfer),
      addEventListener(type, listener, options) {
        worker.addEventListener(type, listener, options);
        if (type !== 'message') return;
        // after expose has returned, before the next task (the next message) runs
        const replay = held.splice(0);
        void Promise.resolve().then(() => {
          for (const event of replay) {
            if (typeof listener === 'function') listener(event as MessageEvent);
            else listener.handleEvent(event as MessageEvent);
          }
        });
      },
      removeEventListener: (type, listener, options) => worker.removeEventListener(type, listener, options),
    };
    return start(endpoint, code, { events: worker });
  }, (error: unknown) => {
    // like a worker script that failed to load: the page's Worker gets an error event
    console.error('[storey] the engine could not be loaded', error);
    worker.reportError?.(error);
    // and the page is told in so many words (an error event may also be any uncaught error): it says the app cannot start
    worker.postMessage({ [ENGINE_UNAVAILABLE]: true });
    return null;
  });
}

// In a dedicated worker (not when a test imports this module in Node).
const scope = globalThis as { WorkerGlobalScope?: unknown; self?: unknown };
if (typeof scope.WorkerGlobalScope !== 'undefined' && typeof self !== 'undefined') void boot(self as unknown as WorkerScope);
