// Fakes for the sync unit tests: an in-memory API behind a fetch function, a
// controllable transport, a recording logger and sink. Time is vitest's fake
// timers through systemClock.

import { deflate } from 'pako';
import { vi } from 'vitest';
import { scopeKey, STREAM_ID_HEADER, STREAM_SEQUENCE_HEADER, type LiveChange, type StreamScope } from '../../../src/shared/protocol.js';
import type { Settings } from '../../../src/shared/types.js';
import type { ChangeBatch, Logger, Transport, TransportFactory } from '../../../src/worker/ports.js';
import { systemClock } from '../../../src/worker/systemClock.js';
import { createScheduler } from '../../../src/worker/scheduler.js';
import { createCorrectedClock } from '../../../src/worker/sync/timeSync.js';
import { createSession } from '../../../src/worker/session/createSession.js';
import { DEFAULT_SESSION_TIMEOUTS } from '../../../src/worker/session/timeouts.js';
import { isAttemptOngoing, type SessionState } from '../../../src/worker/session/machine.js';
import type { SessionTimeouts } from '../../../src/worker/session/types.js';
import { buildConnectionView } from '../../../src/worker/engine/sessionView.js';
import { TIME_SYNC_INTERVAL_MS } from '../../../src/shared/constants.js';
import type { ConnectionView } from '../../../src/shared/api.js';
import type { PostedError } from '../../../src/shared/messages.js';

export const HOST = 'http://api.test';

export interface FakeReply { status?: number; body?: unknown; headers?: Record<string, string> }
export interface FakeRequest { method: string; path: string; query: URLSearchParams; headers: Record<string, string>; body: unknown; init: RequestInit }
type Handler = (req: FakeRequest) => FakeReply | Promise<FakeReply>;

/** fetch over a route table keyed `METHOD /v1/path`; a handler that throws is a network failure */
export function createFakeFetch() {
  const routes = new Map<string, Handler>();
  const calls: FakeRequest[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const method = init.method ?? 'GET';
    const headers = (init.headers ?? {}) as Record<string, string>;
    const req: FakeRequest = { method, path: url.pathname, query: url.searchParams, headers, body: init.body, init };
    calls.push(req);
    const handler = routes.get(`${method} ${url.pathname}`);
    if (!handler) return new Response(JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'no route' }), { status: 404, headers: { 'content-type': 'application/json' } });
    const reply = await handler(req);
    const status = reply.status ?? 200;
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status, headers: { 'content-type': 'application/json', ...reply.headers },
    });
  });
  return {
    fetch: fetch as unknown as typeof globalThis.fetch,
    calls,
    on(method: string, path: string, handler: Handler) { routes.set(`${method} ${path}`, handler); },
  };
}

export function createRecordingLogger() {
  const lines: Array<{ level: string; message: string; details: unknown[] }> = [];
  const log = (level: string) => (message: string, ...details: unknown[]) => { lines.push({ level, message, details }); };
  const logger: Logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
  return { logger, lines, messages: (level?: string) => lines.filter((l) => !level || l.level === level).map((l) => l.message) };
}

export class FakeTransport implements Transport {
  subscribed: string[] = [];
  unsubscribed: string[] = [];
  connected = false;
  disconnected = false;
  private messageListeners = new Set<(scope: StreamScope, payload: string) => void>();
  private stateListeners = new Set<(state: string) => void>();
  constructor(readonly name: 'pusher' | 'mqtt', private readonly outcome: () => Promise<void>) {}
  async connect() { await this.outcome(); this.connected = true; this.state('connected'); }
  async disconnect() { this.disconnected = true; this.connected = false; }
  async subscribe(scope: StreamScope) { this.subscribed.push(scopeKey(scope)); }
  async unsubscribe(scope: StreamScope) { this.unsubscribed.push(scopeKey(scope)); }
  onMessage(listener: (scope: StreamScope, payload: string) => void) { this.messageListeners.add(listener); return () => { this.messageListeners.delete(listener); }; }
  onStateChange(listener: (state: string) => void) { this.stateListeners.add(listener); return () => { this.stateListeners.delete(listener); }; }
  emit(scope: StreamScope, payload: string) { for (const l of this.messageListeners) l(scope, payload); }
  state(word: string) { for (const l of this.stateListeners) l(word); }
}

export function encode(value: unknown): string {
  return Buffer.from(deflate(JSON.stringify(value))).toString('base64');
}

export const ORG = { kind: 'organization', organizationId: '1' } as const satisfies StreamScope;
export const LOC = { kind: 'location', organizationId: '1', locationId: '10' } as const satisfies StreamScope;
export const LOC11 = { kind: 'location', organizationId: '1', locationId: '11' } as const satisfies StreamScope;
export const USER = { kind: 'user', userId: '7' } as const satisfies StreamScope;

/** A fake backend with one stream per scope, and a sync wired to it. */
export function createFixture(options: { serverOffsetMs?: number; timeouts?: Partial<SessionTimeouts>; transportFactory?: TransportFactory } = {}) {
  const api = createFakeFetch();
  const { logger, lines, messages } = createRecordingLogger();
  const streams = new Map<string, { id: string; seq: number }>();
  const stream = (scope: StreamScope) => {
    const key = scopeKey(scope);
    if (!streams.has(key)) streams.set(key, { id: `s-${key}`, seq: 0 });
    return streams.get(key)!;
  };
  const positionHeaders = (scope: StreamScope) => ({
    [STREAM_ID_HEADER]: stream(scope).id,
    [STREAM_SEQUENCE_HEADER]: String(stream(scope).seq),
  });
  const data = {
    assets: [{ id: 'a1', name: 'Desk 1' }] as Array<{ id: string; [k: string]: unknown }>,
    sensors: [{ id: 's1', type: 'occupancy' }] as Array<{ id: string; [k: string]: unknown }>,
  };
  const settings: Settings = {
    user: { id: '7' } as Settings['user'],
    permissions: ['USER_UPDATE_SELF'],
    cdn_base_url: null,
    mqtt_config: { url: 'ws://broker.test' },
  };
  const serverOffset = options.serverOffsetMs ?? 0;
  api.on('GET', '/v1/current_time', () => ({ body: { time: Date.now() + serverOffset } }));
  api.on('POST', '/v1/login', () => ({ body: { token: 'secret-token', token_type: 'Bearer', expires_at: 0, user_id: '7', organization_id: '1' } }));
  api.on('GET', '/v2/settings', () => ({ body: settings }));
  api.on('GET', '/v1/notifications', () => ({ body: [], headers: positionHeaders(USER) }));
  api.on('GET', '/v1/organizations/1', () => ({ body: { id: '1', locations: ['10', '11'] }, headers: positionHeaders(ORG) }));
  api.on('GET', '/v1/organizations/1/locations', () => ({ body: [{ id: '10' }, { id: '11' }], headers: positionHeaders(ORG) }));
  api.on('GET', '/v1/organizations/1/users', () => ({ body: [{ id: '7' }], headers: positionHeaders(ORG) }));
  api.on('GET', '/v1/external_objects', () => ({ body: [], headers: positionHeaders(ORG) }));
  for (const loc of ['10', '11']) {
    const scope = loc === '10' ? LOC : LOC11;
    api.on('GET', `/v1/organizations/1/locations/${loc}/assets`, () => ({ body: data.assets, headers: positionHeaders(scope) }));
    api.on('GET', `/v1/organizations/1/locations/${loc}/sensors`, () => ({ body: data.sensors, headers: positionHeaders(scope) }));
  }

  const transports: FakeTransport[] = [];
  /** outcomes of the next transport connects, in order; default success */
  const connectOutcomes: Array<() => Promise<void>> = [];
  const transportFactory: TransportFactory = () => {
    const outcome = connectOutcomes.shift() ?? (async () => undefined);
    const t = new FakeTransport('mqtt', outcome);
    transports.push(t);
    return t;
  };

  const batches: ChangeBatch[] = [];
  const views: ConnectionView[] = [];
  const errors: PostedError[] = [];
  const port = {
    entered: [] as string[],
    ended: [] as string[],
  };
  const corrected = createCorrectedClock(systemClock);
  const scheduler = createScheduler(systemClock, () => corrected.now());
  /** resolves when the machine reaches a state that satisfies the predicate */
  const watchers: Array<{ until: (s: SessionState) => boolean; resolve: () => void }> = [];
  const session = createSession({
    host: HOST, clock: systemClock, corrected, scheduler, fetch: api.fetch, transportFactory: options.transportFactory ?? transportFactory, logger,
    timeouts: { ...DEFAULT_SESSION_TIMEOUTS, timeSyncIntervalMs: TIME_SYNC_INTERVAL_MS, ...options.timeouts },
    port: {
      sink: { apply: (batch) => { batches.push(batch); } },
      settings() {},
      enterOrganization(id) { port.entered.push(`org:${id}`); },
      enterLocation(org, id) { port.entered.push(`loc:${org}/${id}`); },
      endSession(reason) { port.ended.push(reason); },
    },
    onChange(state) {
      views.push(connection());
      for (const w of [...watchers]) if (w.until(state)) { watchers.splice(watchers.indexOf(w), 1); w.resolve(); }
    },
    onError: (error) => errors.push(error),
  });
  const connection = () => buildConnectionView(session.state(), session.transport(), { fromCache: false, serverOffsetMs: corrected.offsetMs });
  const until = (pred: (s: SessionState) => boolean) => (pred(session.state())
    ? Promise.resolve()
    : new Promise<void>((resolve) => { watchers.push({ until: pred, resolve }); }));
  /** the current attempt has ended: live, or failed into the back-off, or the session ended */
  const settled = () => until((s) => !isAttemptOngoing(s.phase) && s.phase.name !== 'signingIn');

  /** the old sync surface, over the session (tests of the connection rules read it) */
  const sync = {
    session,
    state: connection,
    signIn: async (email: string, password: string) => { await session.signIn(email, password); },
    /** waits for the attempt the sign-in started, or starts one */
    async connect() {
      if (!isAttemptOngoing(session.state().phase)) session.connect();
      await settled();
    },
    async loadOrganization(id: string) {
      const r = await session.selectOrganization(id);
      await settled();
      return r;
    },
    async loadLocation(id: string) {
      const r = await session.selectLocation(id);
      await settled();
      return r.ok;
    },
    setOnline: (online: boolean) => session.setOnline(online),
    subscriptionState: session.subscriptionState,
    position: session.position,
    locationScope: session.locationScope,
    organizationId: () => session.state().ctx.organizationId,
    locationId: () => session.state().ctx.locationId,
  };

  /** publishes a packet on the scope's stream (advancing it) and returns the payload */
  function publish(scope: StreamScope, changes: LiveChange[]): string {
    const s = stream(scope);
    s.seq += 1;
    return encode({ stream_id: s.id, stream_sequence: s.seq, changes });
  }

  return {
    api, logger, lines, messages, sync, session, until, settled, port, scheduler, corrected, batches, views, errors, settings, data,
    transports, connectOutcomes, stream, publish,
    transport: () => transports[transports.length - 1]!,
    failing: (message = 'boom') => async () => { throw new Error(message); },
  };
}

/**
 * Signs in and waits for the connection; with the organization when asked
 * (its first location, '10', loads by default with it).
 */
export async function connected(f: ReturnType<typeof createFixture>, load: { org?: boolean; location?: boolean } = {}) {
  await f.sync.signIn('ada@example.com', 'password1');
  await f.sync.connect();
  if (load.org || load.location) await f.sync.loadOrganization('1');
  await f.until((s) => s.phase.name === 'live' || s.phase.name === 'retrying');
}
