// The session's ports and surface: what the engine gives it (the store side
// of its effects) and what it gives the engine (sign-in, navigation, the
// machine's state, the REST client of the session's token).

import type { ApiResult, LoadProgress, SignInOptions } from '../../shared/api.js';
import type { PostedError } from '../../shared/messages.js';
import type { StreamPosition, StreamScope } from '../../shared/protocol.js';
import type { Id, Settings } from '../../shared/types.js';
import type { ChangeSink, Clock, FetchFn, Logger, TransportFactory } from '../ports.js';
import type { RestClient } from '../rest/restClient.js';
import type { Scheduler } from '../scheduler.js';
import type { SubscriptionState } from '../sync/subscriptions.js';
import type { CorrectedClock } from '../sync/timeSync.js';
import type { LiveInfo } from './liveLink.js';
import type { SessionState } from './machine.js';

/** Limits of each network step, ms (DESIGN §2: every step has a timeout). */
export interface SessionTimeouts {
  timeSyncMs: number;
  settingsMs: number;
  /** transport connect: the broker's CONNACK or Pusher's connection */
  transportMs: number;
  /** one scope's subscription (Pusher auth included) and initial loads */
  loadMs: number;
  /** spec §9: time sync every 30 s */
  timeSyncIntervalMs: number;
}

/** The store side of the session's effects, performed by the engine. */
export interface SessionHost {
  /** validated, ordered changes of the scopes */
  sink: ChangeSink;
  /** settings (re)loaded: roles, the signed-in user */
  settings(settings: Settings): void;
  /** the store switches organization (null: none) */
  enterOrganization(organizationId: Id | null): void;
  /** the store switches location (null: none), serving the saved one at once */
  enterLocation(organizationId: Id, locationId: Id | null): void;
  /** the user's session ended: clear their data and fence what is in flight */
  endSession(reason: 'signOut' | 'expired'): void;
}

export interface SessionOptions {
  host: string;
  version?: number;
  clock: Clock;
  corrected: CorrectedClock;
  scheduler: Scheduler;
  fetch: FetchFn;
  transportFactory: TransportFactory;
  logger: Logger;
  timeouts: SessionTimeouts;
  /** the engine's (store) side of the effects */
  port: SessionHost;
  onChange(state: SessionState): void;
  /** spec §8 posted errors */
  onError(error: PostedError): void;
  onProgress?(progress: LoadProgress): void;
  /** tests: back-off step and cap */
  reconnectStepMs?: number;
  reconnectMaxDelayMs?: number;
}

export interface StoredSessionRef {
  token: string;
  userId: Id;
  organizationId: Id | null;
  locationId: Id | null;
}

export interface Session {
  readonly rest: RestClient;
  state(): SessionState;
  token(): string | null;
  settings(): Settings | null;
  /** POST /login, then GET /v2/settings, then connects. Throws HttpError or SignInError. */
  signIn(email: string, password: string, options?: SignInOptions): Promise<Settings>;
  signInWithIdToken(idToken: string): Promise<Settings>;
  /** a saved session: serves its location from the cache and connects */
  resume(stored: StoredSessionRef): void;
  /** spec §5: throws 'Current user is not set' without a token, 'Only one connection attempt can be ongoing!' during one */
  connect(): void;
  signOut(): void;
  /** another tab signed this user out: the session ends here too, without asking the server again */
  signOutElsewhere(): void;
  /** an authenticated call answered 401: the session ends */
  unauthorized(): void;
  setOnline(online: boolean): void;
  selectOrganization(organizationId: Id): Promise<ApiResult<void>>;
  selectLocation(locationId: Id): Promise<ApiResult<void>>;
  transport(): LiveInfo;
  subscriptionState(scope: StreamScope): SubscriptionState;
  position(scope: StreamScope): StreamPosition | null;
  /** the location stream in use (edit audience for the edit role), or null */
  locationScope(): StreamScope | null;
  dispose(): void;
}
