// The live-sync half of the engine (spec §4, §5, §7, §8): REST client, time
// sync, connection state machine with back-off, scope subscriptions and
// stream validation. createEngine (src/worker/engine.ts) wires it to the store
// through `sink`; nothing here knows about the store.

import type { ConnectionView, LoadProgress } from '../../shared/api.js';
import type { PostedError } from '../../shared/messages.js';
import type { StreamPosition, StreamScope } from '../../shared/protocol.js';
import type { Id, Settings } from '../../shared/types.js';
import type { ChangeSink, Clock, FetchFn, Logger, TransportFactory } from '../ports.js';
import type { Scheduler } from '../scheduler.js';
import type { RestClient } from '../rest/restClient.js';
import type { CorrectedClock } from './timeSync.js';
import type { SubscriptionState } from './subscriptions.js';

export interface SyncOptions {
  /** e.g. http://127.0.0.1:8080; calls go to {host}/v{version} */
  host: string;
  /** default 1 (DEFAULT_API_VERSION) */
  version?: number;
  /** raw clock, used to measure the round trip of GET /current_time */
  clock: Clock;
  /** from createCorrectedClock(clock); time sync sets its offset */
  corrected: CorrectedClock;
  /** created by the engine over corrected.now; keys used here start with 'sync:' */
  scheduler: Scheduler;
  fetch: FetchFn;
  /** transports/index.ts `createTransport` in production */
  transportFactory: TransportFactory;
  logger: Logger;
  /** receives validated, ordered changes: kind 'initial' (items) after each scope load, then live ones */
  sink: ChangeSink;
  /** every change of the connection view, as a fresh object */
  onConnection(view: ConnectionView): void;
  /** the §8 posted errors (level 'error', type 'network') */
  onError(error: PostedError): void;
  /** initial-load progress: what = collection, done/total = loads of the scope */
  onProgress?(progress: LoadProgress): void;
  /** tests only: the back-off step and cap; defaults RECONNECT_STEP_MS, RECONNECT_MAX_DELAY_MS */
  reconnectStepMs?: number;
  reconnectMaxDelayMs?: number;
}

export interface Sync {
  /** typed client of every spec §7 call, with this session's token */
  readonly rest: RestClient;
  setToken(token: string | null): void;
  token(): string | null;
  /** the settings of the signed-in user (GET /v2/settings), or null */
  settings(): Settings | null;
  /** POST /login, then GET /v2/settings. Does not connect. Throws HttpError or SignInError. */
  signIn(email: string, password: string): Promise<Settings>;
  /** POST /openid_login, then GET /v2/settings. Does not connect. */
  signInWithIdToken(idToken: string): Promise<Settings>;
  /** GET /v2/settings with the current token (resume); throws like signIn */
  loadSettings(): Promise<Settings>;
  /**
   * Connects the live transport. Rejects only with MSG.ONLY_ONE_CONNECTION_ATTEMPT
   * or MSG.CURRENT_USER_NOT_SET; network failures become connection state, a
   * posted error and a scheduled reconnect, and the promise resolves.
   */
  connect(): Promise<void>;
  /** closes the transport, cancels reconnects and time sync; subscriptions are kept for the next connect */
  disconnect(): Promise<void>;
  /** the browser went online (logged, forces a reconnect) or offline (logged) */
  setOnline(online: boolean): void;
  /**
   * Stops the previous organization's (and location's) subscriptions, then
   * subscribes to the organization scope and loads organization, locations,
   * users and external objects. Rejects with HttpError when a load fails (a
   * reconnect is scheduled unless the answer was a 4xx).
   */
  loadOrganization(organizationId: Id): Promise<void>;
  /**
   * Stops the previous location's subscription, subscribes and loads assets and
   * sensors. Only for a location of the loaded organization; otherwise logs and
   * resolves false without doing anything.
   */
  loadLocation(locationId: Id): Promise<boolean>;
  /** subscribes to the user's notifications scope; connect does it for settings.user.id */
  subscribeUser(userId: Id): Promise<void>;
  /** stops every scope and forgets the loaded organization and location (sign-out) */
  reset(): Promise<void>;
  state(): ConnectionView;
  organizationId(): Id | null;
  locationId(): Id | null;
  /** a location scope without `audience` means the location's stream in use (edit or public) */
  subscriptionState(scope: StreamScope): SubscriptionState;
  /** the live position reached in a scope (for persistence), or null; location scopes as in subscriptionState */
  position(scope: StreamScope): StreamPosition | null;
  /** the location scope in use, with the audience the user's roles chose (docs/sync.md), or null */
  locationScope(): StreamScope | null;
  dispose(): Promise<void>;
}

export { createSync, SignInError } from './createSync.js';
export { createCorrectedClock, type CorrectedClock } from './timeSync.js';
export { reconnectDelayMs } from './backoff.js';
export { HttpError, isHttpError } from '../rest/httpError.js';
export type { RestClient } from '../rest/restClient.js';
export type { SubscriptionState } from './subscriptions.js';
