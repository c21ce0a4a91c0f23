// A Pusher-protocol endpoint of our own, so the demo and the tests need no
// hosted service: websocket protocol 7 on /app/{key} (ws package) and the
// HTTP events API (POST /apps/{id}/events and /batch_events) verified the
// way the official `pusher` SDK signs it. Only what Storey uses: private
// channels, no public or presence ones, no client events, and terminating a user's
// connections (POST /apps/{id}/users/{user}/terminate_connections) when
// their sessions end (docs/security.md).

import { createHash, createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';

export interface PusherServerOptions {
  appId: string;
  key: string;
  secret: string;
  /** seconds of silence before the client should ping; sent in the handshake */
  activityTimeoutS?: number;
  /** requests older or newer than this are refused (Pusher allows 600 s) */
  maxClockSkewS?: number;
  /** a socket no /pusher/auth bound to a session is closed after this long (PUSHER_UNAUTHENTICATED_TIMEOUT_MS) */
  unauthenticatedTimeoutMs?: number;
  /** sockets not yet bound to a session, per client address (PUSHER_UNAUTHENTICATED_PER_ADDRESS) */
  maxUnauthenticatedPerAddress?: number;
  /** behind a reverse proxy: the client address is the first of X-Forwarded-For (as the REST rate limits count) */
  trustProxy?: boolean;
}

export interface PusherServer {
  attach(server: Server): void;
  registerRoutes(app: FastifyInstance): Promise<void>;
  /** delivers one event to every socket subscribed to `channel` */
  broadcast(channel: string, event: string, data: string): void;
  subscribers(channel: string): number;
  /** remembers that `socketId` joined channels for this user and session (at /pusher/auth) */
  bindSession(socketId: string, userId: string, sessionId: string): void;
  /** closes (4009) every socket of `userId`, or of any of `sessionIds`; returns how many */
  terminate(match: { userId?: string; sessionIds?: readonly string[] }): number;
  close(): Promise<void>;
}

interface Socket {
  id: string;
  ws: WebSocket;
  channels: Set<string>;
  userIds: Set<string>;
  sessionIds: Set<string>;
  /** the client address, while no session is bound to it (counted in `unbound`), else null */
  unboundFrom: string | null;
  timer: ReturnType<typeof setTimeout> | null;
}

/**
 * Anyone may open a socket: it costs memory and a file descriptor until a session is bound to it at
 * /pusher/auth, which the engine asks for at once (its user channel), so a socket still unbound after this
 * long is closed, as hosted Pusher closes connections that did not sign in within 30 s (4009).
 */
export const PUSHER_UNAUTHENTICATED_TIMEOUT_MS = 30_000;
/**
 * Sockets one client address may hold before any is bound to a session; a new one past it is closed with
 * Pusher's 4100 ("Over capacity": the client backs off and tries again). An office behind one address
 * reloading at once binds each socket within a round trip, far below this.
 */
export const PUSHER_UNAUTHENTICATED_PER_ADDRESS = 50;
/** Pusher's close code for "over capacity": reconnect after a back-off. */
export const PUSHER_OVER_CAPACITY_CODE = 4100;

/** Pusher's close code for a connection that is no longer authorized: the client must not reconnect unchanged. */
export const PUSHER_UNAUTHORIZED_CODE = 4009;

export const PUSHER_PROTOCOL_VERSION = 7;
/** Maximum event data, as hosted Pusher enforces. */
export const PUSHER_EVENT_DATA_MAX_BYTES = 10_240;

export function signSocket(secret: string, socketId: string, channel: string): string {
  return createHmac('sha256', secret).update(`${socketId}:${channel}`).digest('hex');
}

function safeEqualHex(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function createPusherServer(options: PusherServerOptions): PusherServer {
  const activityTimeoutS = options.activityTimeoutS ?? 120;
  const maxSkewS = options.maxClockSkewS ?? 600;
  const unauthenticatedTimeoutMs = options.unauthenticatedTimeoutMs ?? PUSHER_UNAUTHENTICATED_TIMEOUT_MS;
  const maxUnbound = options.maxUnauthenticatedPerAddress ?? PUSHER_UNAUTHENTICATED_PER_ADDRESS;
  /** client address → its sockets not bound to a session yet */
  const unbound = new Map<string, number>();
  const addressOf = (req: IncomingMessage) => {
    const forwarded = options.trustProxy ? String(req.headers['x-forwarded-for'] ?? '').split(',')[0]?.trim() : '';
    return forwarded || req.socket.remoteAddress || 'unknown';
  };
  /** the socket has a session now, or is gone: it no longer counts against its address */
  const settle = (s: Socket) => {
    if (s.timer) clearTimeout(s.timer);
    s.timer = null;
    if (s.unboundFrom === null) return;
    const left = (unbound.get(s.unboundFrom) ?? 1) - 1;
    if (left > 0) unbound.set(s.unboundFrom, left);
    else unbound.delete(s.unboundFrom);
    s.unboundFrom = null;
  };
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const channels = new Map<string, Set<Socket>>();
  const sockets = new Set<Socket>();
  const attached: Array<{ server: Server; listener: (req: IncomingMessage, socket: Duplex, head: Buffer) => void }> = [];

  const send = (ws: WebSocket, message: object) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  const error = (s: Socket, message: string, code: number | null = null) =>
    send(s.ws, { event: 'pusher:error', data: { code, message } });

  function subscribe(s: Socket, data: { channel?: unknown; auth?: unknown }) {
    const channel = typeof data.channel === 'string' ? data.channel : '';
    if (!/^[A-Za-z0-9_\-=@,.;]{1,164}$/.test(channel)) return error(s, 'Invalid channel name');
    // Storey publishes on private channels only: a public one would carry nothing, and keeping
    // every name an unsigned socket sends would let one socket fill the server (docs/security.md)
    if (!channel.startsWith('private-') || channel.startsWith('private-encrypted-')) {
      return error(s, `Unsupported channel type: ${channel}`);
    }
    const auth = typeof data.auth === 'string' ? data.auth : '';
    const [key, signature] = auth.split(':');
    const expected = signSocket(options.secret, s.id, channel);
    if (key !== options.key || !signature || !safeEqualHex(signature, expected)) {
      return error(s, `Invalid signature: Expected HMAC SHA256 hex digest of ${s.id}:${channel}`);
    }
    s.channels.add(channel);
    let set = channels.get(channel);
    if (!set) channels.set(channel, (set = new Set()));
    set.add(s);
    send(s.ws, { event: 'pusher_internal:subscription_succeeded', channel, data: '{}' });
  }

  function unsubscribe(s: Socket, channel: string) {
    s.channels.delete(channel);
    const set = channels.get(channel);
    set?.delete(s);
    if (set && set.size === 0) channels.delete(channel);
  }

  function onMessage(s: Socket, raw: string) {
    let msg: { event?: unknown; data?: unknown };
    try {
      msg = JSON.parse(raw);
    } catch {
      return error(s, 'Invalid JSON');
    }
    let data = msg.data;
    if (typeof data === 'string') {
      try { data = JSON.parse(data); } catch { /* keep the string */ }
    }
    const d = (data && typeof data === 'object' ? data : {}) as { channel?: unknown; auth?: unknown };
    switch (msg.event) {
      case 'pusher:ping':
        return send(s.ws, { event: 'pusher:pong', data: {} });
      case 'pusher:pong':
        return;
      case 'pusher:subscribe':
        return subscribe(s, d);
      case 'pusher:unsubscribe':
        return typeof d.channel === 'string' ? unsubscribe(s, d.channel) : undefined;
      default:
        return error(s, 'Client events are not enabled');
    }
  }

  function onConnection(ws: WebSocket, req: IncomingMessage) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const key = url.pathname.split('/')[2] ?? '';
    if (key !== options.key) {
      send(ws, { event: 'pusher:error', data: { code: 4001, message: `App key ${key} not in this cluster` } });
      ws.close(4001, 'Unknown app key');
      return;
    }
    const protocol = Number(url.searchParams.get('protocol') ?? PUSHER_PROTOCOL_VERSION);
    if (protocol < 5 || protocol > PUSHER_PROTOCOL_VERSION) {
      send(ws, { event: 'pusher:error', data: { code: 4007, message: `Unsupported protocol version ${protocol}` } });
      ws.close(4007, 'Unsupported protocol version');
      return;
    }
    const address = addressOf(req);
    if ((unbound.get(address) ?? 0) >= maxUnbound) {
      send(ws, { event: 'pusher:error', data: { code: PUSHER_OVER_CAPACITY_CODE, message: 'Too many connections not signed in from this address' } });
      ws.close(PUSHER_OVER_CAPACITY_CODE, 'Over capacity');
      return;
    }
    unbound.set(address, (unbound.get(address) ?? 0) + 1);
    const s: Socket = {
      id: `${randomInt(1, 2 ** 31)}.${randomInt(1, 2 ** 31)}`, ws, channels: new Set(), userIds: new Set(), sessionIds: new Set(),
      unboundFrom: address, timer: null,
    };
    s.timer = setTimeout(() => {
      s.timer = null;
      if (s.sessionIds.size > 0 || !sockets.has(s)) return;
      settle(s);
      for (const c of [...s.channels]) unsubscribe(s, c);
      sockets.delete(s);
      send(ws, { event: 'pusher:error', data: { code: PUSHER_UNAUTHORIZED_CODE, message: 'Connection is unauthorized: no session within the time allowed' } });
      ws.close(PUSHER_UNAUTHORIZED_CODE, 'Connection is unauthorized');
    }, unauthenticatedTimeoutMs);
    s.timer.unref?.();
    sockets.add(s);
    ws.on('message', (raw) => onMessage(s, raw.toString()));
    ws.on('close', () => {
      settle(s);
      for (const c of [...s.channels]) unsubscribe(s, c);
      sockets.delete(s);
    });
    ws.on('error', () => ws.terminate());
    send(ws, {
      event: 'pusher:connection_established',
      data: JSON.stringify({ socket_id: s.id, activity_timeout: activityTimeoutS }),
    });
  }
  wss.on('connection', onConnection);

  function verifyApiRequest(method: string, path: string, query: Record<string, string>, rawBody: string): string | null {
    const { auth_signature: signature, ...params } = query;
    if (params.auth_key !== options.key) return 'Unknown auth_key';
    if (params.auth_version !== '1.0') return 'Unsupported auth_version';
    const ts = Number(params.auth_timestamp);
    if (!Number.isFinite(ts) || Math.abs(Date.now() / 1000 - ts) > maxSkewS) return 'Timestamp expired';
    if (rawBody && params.body_md5 !== createHash('md5').update(rawBody, 'utf8').digest('hex')) return 'Invalid body_md5';
    const ordered = Object.keys(params).sort().map((k) => `${k}=${params[k]}`).join('&');
    const expected = createHmac('sha256', options.secret).update([method, path, ordered].join('\n')).digest('hex');
    return signature && safeEqualHex(signature, expected) ? null : 'Invalid signature';
  }

  interface ApiEvent { name?: unknown; data?: unknown; channels?: unknown; channel?: unknown }

  function deliver(events: ApiEvent[]): string | null {
    for (const ev of events) {
      const targets = Array.isArray(ev.channels) ? ev.channels : [ev.channel];
      if (typeof ev.name !== 'string' || typeof ev.data !== 'string') return 'Event needs a name and string data';
      if (Buffer.byteLength(ev.data) > PUSHER_EVENT_DATA_MAX_BYTES) return 'Event data too large';
      if (targets.length === 0 || targets.some((c) => typeof c !== 'string')) return 'Event needs channels';
    }
    for (const ev of events) {
      const targets = (Array.isArray(ev.channels) ? ev.channels : [ev.channel]) as string[];
      for (const c of targets) server.broadcast(c, ev.name as string, ev.data as string);
    }
    return null;
  }

  const server: PusherServer = {
    attach(http) {
      const listener = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
        const path = (req.url ?? '').split('?')[0] ?? '';
        if (!/^\/app\/[^/]+$/.test(path)) return;
        wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
      };
      http.on('upgrade', listener);
      attached.push({ server: http, listener });
    },
    async registerRoutes(app) {
      await app.register(async (sub) => {
        // the SDK's terminateUserConnections (hosted Pusher's user termination API)
        sub.post('/apps/:appId/users/:userId/terminate_connections', { config: { public: true } }, async (req, reply) => {
          const { appId, userId } = req.params as { appId: string; userId: string };
          if (appId !== options.appId) return reply.code(404).send({ error: 'Unknown app' });
          const raw = typeof req.body === 'string' ? req.body : '';
          const problem = verifyApiRequest('POST', `/apps/${appId}/users/${userId}/terminate_connections`, req.query as Record<string, string>, raw);
          if (problem) return reply.code(401).send({ error: problem });
          server.terminate({ userId });
          return {};
        });
        // the signature covers the exact body text, so keep it raw
        sub.removeAllContentTypeParsers();
        sub.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body));
        const handle = (kind: 'events' | 'batch_events') => async (req: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
          const { appId } = req.params as { appId: string };
          if (appId !== options.appId) return reply.code(404).send({ error: 'Unknown app' });
          const raw = typeof req.body === 'string' ? req.body : '';
          const problem = verifyApiRequest('POST', `/apps/${appId}/${kind}`, req.query as Record<string, string>, raw);
          if (problem) return reply.code(401).send({ error: problem });
          let body: { batch?: ApiEvent[] } & ApiEvent;
          try {
            body = JSON.parse(raw);
          } catch {
            return reply.code(400).send({ error: 'Invalid JSON' });
          }
          const events = kind === 'events' ? [body] : Array.isArray(body?.batch) ? body.batch : null;
          if (!events) return reply.code(400).send({ error: 'batch must be an array' });
          const bad = deliver(events);
          if (bad) return reply.code(400).send({ error: bad });
          return kind === 'events' ? {} : { batch: events.map(() => ({})) };
        };
        // signed by the app secret instead of a user token
        sub.post('/apps/:appId/events', { config: { public: true } }, handle('events'));
        sub.post('/apps/:appId/batch_events', { config: { public: true } }, handle('batch_events'));
      });
    },
    broadcast(channel, event, data) {
      const set = channels.get(channel);
      if (!set) return;
      const frame = JSON.stringify({ event, channel, data });
      for (const s of set) if (s.ws.readyState === s.ws.OPEN) s.ws.send(frame);
    },
    subscribers: (channel) => channels.get(channel)?.size ?? 0,
    bindSession(socketId, userId, sessionId) {
      for (const s of sockets) {
        if (s.id !== socketId) continue;
        s.userIds.add(userId);
        s.sessionIds.add(sessionId);
        settle(s);
      }
    },
    terminate(match) {
      let count = 0;
      for (const s of [...sockets]) {
        const hit = (match.userId !== undefined && s.userIds.has(match.userId))
          || (match.sessionIds ?? []).some((id) => s.sessionIds.has(id));
        if (!hit) continue;
        count += 1;
        settle(s);
        // no further event reaches it, whatever arrives before the close handshake ends
        for (const c of [...s.channels]) unsubscribe(s, c);
        sockets.delete(s);
        send(s.ws, { event: 'pusher:error', data: { code: PUSHER_UNAUTHORIZED_CODE, message: 'Connection is unauthorized' } });
        s.ws.close(PUSHER_UNAUTHORIZED_CODE, 'Connection is unauthorized');
      }
      return count;
    },
    async close() {
      for (const { server: http, listener } of attached) http.off('upgrade', listener);
      for (const s of sockets) {
        settle(s);
        s.ws.terminate();
      }
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
  return server;
}
