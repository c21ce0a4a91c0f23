// Assembles the reference server: fastify with the routes of spec §7, the
// store and publisher, the live transport (own Pusher endpoint, Mosquitto,
// or external services), the seeded demo data and the simulator.
// `startStoreyServer` is what main.ts and the test harness call.

import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Ajv from 'ajv';
import qs from 'qs';
import Fastify, { type FastifyError, type FastifyInstance, type FastifySchemaValidationError } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyCors from '@fastify/cors';
import fastifyFormbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import { STREAM_ID_HEADER, STREAM_SEQUENCE_HEADER } from '../src/shared/protocol.js';
import { IMAGE_MAX_BYTES, SESSION_COOKIE } from '../src/shared/rest.js';
import { DISPLAY_TOKEN_REFUSED, displayMayCall, userForToken, type OpenIdOptions } from './auth.js';
import { sessionIdOf } from './store/records.js';
import { systemClock, type ServerClock } from './clock.js';
import { startMosquitto, type MosquittoBroker } from './live/mosquitto.js';
import { createMqttTransport } from './live/mqttTransport.js';
import { createPublisher, type Publisher } from './live/publisher.js';
import { createPusherServer, type PusherServer, type PusherServerOptions } from './live/pusherServer.js';
import { createPusherTransport } from './live/pusherTransport.js';
import type { LiveTransport } from './live/transport.js';
import { registerCompression } from './compression.js';
import { registerEtags } from './etags.js';
import { jsonLimitProblem } from './jsonLimits.js';
import { registerRateLimits, type RateLimits } from './rateLimits.js';
import { createOutbox, type Outbox } from './mail.js';
import { accountRoutes } from './routes/accounts.js';
import { assetRoutes } from './routes/assets.js';
import { bookingRoutes } from './routes/booking.js';
import type { RouteContext } from './routes/context.js';
import { HttpError } from './routes/guard.js';
import { organizationRoutes } from './routes/organizations.js';
import { peopleRoutes } from './routes/people.js';
import { sensorRoutes } from './routes/sensors.js';
import { seedDemo, type SeedOptions, type SeedResult } from './seed/demo.js';
import { createSimulator, type Simulator, type SimulatorOptions } from './simulator.js';
import type { TokenRecord } from './store/records.js';
import { createStore, type Store } from './store/store.js';

export interface PusherCredentials {
  appId: string;
  key: string;
  secret: string;
  cluster: string;
}

export interface ServerOptions {
  host?: string;
  /** 0 picks a free port */
  port?: number;
  transport?: 'pusher' | 'mqtt';
  /** hosted Pusher: publish there instead of our own endpoint */
  hostedPusher?: PusherCredentials;
  /** credentials of our own Pusher endpoint; random when absent */
  pusher?: Partial<PusherCredentials>;
  /** external MQTT broker instead of a private Mosquitto */
  mqtt?: { url: string; wsUrl?: string; username?: string; password?: string; dynsec?: boolean; clientUsername?: string; clientPassword?: string };
  seed?: Omit<SeedOptions, 'now'>;
  simulate?: boolean;
  simulator?: Omit<SimulatorOptions, 'seed'>;
  clock?: ServerClock;
  staticDir?: string;
  openId?: OpenIdOptions | null;
  logger?: boolean;
  /** where the request log goes when `logger` is on (default stdout) */
  logStream?: { write(line: string): void };
  /** GET /v1/dev/outbox lists the local mail outbox (never in production) */
  devRoutes?: boolean;
  /** sessions kept across a restart (tests: as a real database would), in place before the first request */
  sessions?: Iterable<[string, TokenRecord]>;
  /**
   * Origins whose pages may call the API with credentials (CORS), besides
   * the server's own; `scheme://host:*` allows every port of a host. Default:
   * the viewer's dev and preview origins (docs/security.md "CORS").
   */
  corsOrigins?: readonly string[];
  /** where mailed links point (the viewer's public URL); default: the server's own URL, never the request's Host */
  publicUrl?: string;
  /** behind a reverse proxy: take the client address from X-Forwarded-For (rate limits count per client) */
  trustProxy?: boolean;
  /** per-client and per-account limits of the sign-in routes; tests may lower or raise them */
  rateLimits?: Partial<RateLimits>;
  /** our Pusher endpoint's limits on sockets no session is bound to (server/live/pusherServer.ts); tests may lower them */
  pusherSockets?: Pick<PusherServerOptions, 'unauthenticatedTimeoutMs' | 'maxUnauthenticatedPerAddress'>;
}

export interface StoreyServer {
  url: string;
  baseUrl: string;
  app: FastifyInstance;
  store: Store;
  publisher: Publisher;
  outbox: Outbox;
  transport: LiveTransport;
  pusherServer: PusherServer | null;
  broker: MosquittoBroker | null;
  simulator: Simulator;
  seed: SeedResult;
  /** every registered route (method and pattern) */
  routes: ReadonlyArray<{ method: string; url: string }>;
  pusher: PusherCredentials;
  close(): Promise<void>;
}

export async function startStoreyServer(options: ServerOptions = {}): Promise<StoreyServer> {
  // an id_token issued to another app of the same provider must not sign anyone in here
  if (options.openId && !options.openId.audience) throw new Error('OpenID sign-in needs an audience (--openid-audience): the client id id_tokens must name');
  const clock = options.clock ?? systemClock;
  const publisher = createPublisher();
  const store = createStore(clock, publisher);
  for (const [token, record] of options.sessions ?? []) store.tokens.set(token, record);
  const outbox = createOutbox();
  const seed = seedDemo(store, { ...options.seed, now: clock.now() });
  let transport: LiveTransport | null = null;
  let port = 0;
  let url = '';
  const publicUrl = () => (options.publicUrl ?? url).replace(/\/+$/, '');

  const app = Fastify({
    // the request log never carries query values (codes, signatures, emails) nor headers (the bearer token)
    logger: options.logger ? { serializers: { req: logRequest }, ...(options.logStream ? { stream: options.logStream } : {}) } : false,
    bodyLimit: 1024 * 1024,
    schemaErrorFormatter: formatSchemaErrors,
    trustProxy: options.trustProxy ?? false,
  });
  // query strings and path parameters arrive as text and are coerced; JSON bodies must already have the right types
  const lenient = new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  const exact = new Ajv({ coerceTypes: false, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? exact : lenient).compile(schema));
  // every route, so tests can play an attacker against each one (docs/security.md)
  const routes: Array<{ method: string; url: string }> = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  app.decorateRequest('user', null);
  app.decorateRequest('displayToken', false);
  app.decorateRequest('session', null);
  // an allow-list, never the `null` origin; credentials only for the origins on it
  const corsAllowed = originAllowList(options.corsOrigins ?? DEV_VIEWER_ORIGINS, () => (port ? [new URL(url).origin, new URL(publicUrl()).origin] : []));
  await app.register(fastifyCors, {
    delegator: (req, done) => {
      const origin = req.headers.origin;
      done(null, typeof origin === 'string' && corsAllowed(origin)
        ? {
          origin, credentials: true, exposedHeaders: [STREAM_ID_HEADER, STREAM_SEQUENCE_HEADER],
          methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
        }
        : { origin: false });
    },
  });
  // before every route and the static files, so each answer is compressed for a client that accepts it
  await registerCompression(app);
  // global onSend hooks run before compression's (per route): the tag is of the JSON, a 304 carries no body
  const validators = await registerEtags(app);
  const limits = await registerRateLimits(app, options.rateLimits);
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  // JSON as fastify parses it (__proto__ and constructor keys refused), then the depth and number limits
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, text, done) => {
    parseJson(req, text as string, (err: Error | null, value?: unknown) => {
      if (err) return done(err, undefined);
      const problem = jsonLimitProblem(value);
      return problem ? done(new HttpError(400, problem), undefined) : done(null, value);
    });
  });
  app.addContentTypeParser(/^(image\/.*|application\/octet-stream)$/, { parseAs: 'buffer', bodyLimit: IMAGE_MAX_BYTES }, (_req, body, done) => done(null, body));

  app.addHook('onRequest', async (req) => {
    const header = req.headers.authorization;
    // the scheme is case-insensitive (RFC 9110 §11.1)
    const bearer = typeof header === 'string' ? /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1] ?? null : null;
    // the cookie never speaks for a request another site's page made (a navigation SameSite=Lax lets through):
    // GET /v2/settings makes broker credentials, evicting a tab's, and /logout ends the session (docs/security.md "CORS")
    const crossSite = req.headers['sec-fetch-site'] === 'cross-site';
    const cookie = req.routeOptions.config?.cookieAuth && !crossSite ? req.cookies?.[SESSION_COOKIE] : undefined;
    const token = bearer || cookie || null;
    req.user = token ? userForToken(store, token) : null;
    req.displayToken = !!req.user && !!store.tokens.get(token!)?.display;
    req.session = req.user && token ? { token, id: sessionIdOf(token) } : null;
    // only the API needs a user; the viewer's static files and the Pusher events API (signed by the app secret) do not
    // (decided by the matched route pattern, never by the raw URL, so an encoded path cannot dodge it)
    const route = req.routeOptions.url ?? '';
    const api = route.startsWith('/v1/') || route.startsWith('/v2/');
    if (!req.user && api && !req.routeOptions.config?.public && req.method !== 'OPTIONS') {
      throw new HttpError(401, 'Missing or invalid bearer token');
    }
    if (req.displayToken && !displayMayCall(req.method, route)) throw new HttpError(403, DISPLAY_TOKEN_REFUSED);
  });

  app.setErrorHandler((error: FastifyError | HttpError, req, reply) => {
    const status = 'validation' in error && error.validation ? 400 : error.statusCode ?? 500;
    if (status >= 500) req.log.error({ err: error }, 'request failed');
    const message = status >= 500 ? reasonPhrase(status) : error.message;
    return reply.code(status).send({ statusCode: status, error: reasonPhrase(status), message });
  });
  app.setNotFoundHandler((req, reply) => {
    if (options.staticDir && req.method === 'GET' && !req.url.startsWith('/v1/') && !req.url.startsWith('/v2/')) {
      return reply.sendFile('index.html');
    }
    return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: `Route ${req.method} ${req.url.split('?')[0]} not found` });
  });

  const ctx: RouteContext = {
    store, outbox, openId: options.openId ?? null, publicUrl, limits, validators,
    transport: () => transport,
    port: () => port,
    mailCode: () => { throw new Error('account routes not registered'); },
  };
  await accountRoutes(app, ctx);
  await organizationRoutes(app, ctx);
  await assetRoutes(app, ctx);
  await sensorRoutes(app, ctx);
  await peopleRoutes(app, ctx);
  await bookingRoutes(app, ctx);
  if (options.devRoutes) {
    app.get('/v1/dev/outbox', { config: { public: true } }, async () => outbox.list());
  }

  const pusherCreds: PusherCredentials = {
    appId: options.pusher?.appId ?? String(100000 + (randomBytes(2).readUInt16BE() % 900000)),
    key: options.pusher?.key ?? randomBytes(10).toString('hex'),
    secret: options.pusher?.secret ?? randomBytes(20).toString('hex'),
    cluster: options.pusher?.cluster ?? 'local',
  };
  const transportName = options.transport ?? 'pusher';
  const pusherServer = transportName === 'pusher' && !options.hostedPusher ? createPusherServer({ ...pusherCreds, ...options.pusherSockets, trustProxy: options.trustProxy === true }) : null;
  if (pusherServer) await pusherServer.registerRoutes(app);
  if (options.staticDir) await app.register(fastifyStatic, { root: options.staticDir, prefix: '/', wildcard: false });

  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  port = (app.server.address() as AddressInfo).port;
  const host = options.host && options.host !== '0.0.0.0' && options.host !== '::' ? options.host : '127.0.0.1';
  url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  pusherServer?.attach(app.server);

  let broker: MosquittoBroker | null = null;
  try {
    if (transportName === 'mqtt') {
      if (options.mqtt) {
        transport = await createMqttTransport({
          brokerUrl: options.mqtt.url, wsUrl: options.mqtt.wsUrl, username: options.mqtt.username, password: options.mqtt.password,
          dynsec: options.mqtt.dynsec ?? false,
          sharedClientCredentials: options.mqtt.clientUsername ? { username: options.mqtt.clientUsername, password: options.mqtt.clientPassword ?? '' } : undefined,
        });
      } else {
        broker = await startMosquitto();
        transport = await createMqttTransport({
          brokerUrl: broker.mqttUrl, wsUrl: broker.wsUrl, username: broker.adminUsername, password: broker.adminPassword, dynsec: true,
        });
      }
    } else {
      transport = options.hostedPusher
        ? createPusherTransport(options.hostedPusher)
        : createPusherTransport({ ...pusherCreds, selfHosted: { host, port }, endpoint: pusherServer ?? undefined });
    }
  } catch (err) {
    await app.close();
    await broker?.close();
    throw err;
  }
  publisher.setSink(transport);
  // ended sessions lose their live connections in the same step as their tokens (docs/security.md)
  const live = transport;
  const stopRevoking = store.onRevoke((revocation) => {
    live.revoke(revocation).catch((err: unknown) => app.log.error({ err }, 'could not cut the live access of ended sessions'));
  });

  const simulator = createSimulator(store, { ...options.simulator, seed: options.seed?.seed ?? 1 });
  if (options.simulate) simulator.start();

  let closed = false;
  return {
    url, baseUrl: `${url}/v1`, app, store, publisher, outbox, transport, pusherServer, broker, simulator, seed, routes,
    pusher: options.hostedPusher ?? pusherCreds,
    async close() {
      if (closed) return;
      closed = true;
      simulator.stop();
      stopRevoking();
      await publisher.flush();
      publisher.setSink(null);
      await pusherServer?.close();
      await app.close();
      await transport?.close();
      await broker?.close();
    },
  };
}

/** `body/name must be string`; an unknown field is named: `body must NOT have additional property 'version'`. */
function formatSchemaErrors(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const first = errors[0];
  if (!first) return new Error(`${dataVar} is invalid`);
  const where = `${dataVar}${first.instancePath ?? ''}`;
  const extra = (first.params as { additionalProperty?: unknown } | undefined)?.additionalProperty;
  if (first.keyword === 'additionalProperties' && typeof extra === 'string') {
    return new Error(`${where} must NOT have additional property '${extra}'`);
  }
  return new Error(`${where} ${first.message ?? 'is invalid'}`);
}

function reasonPhrase(status: number): string {
  const phrases: Record<number, string> = {
    400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
    409: 'Conflict', 413: 'Payload Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Content', 429: 'Too Many Requests', 500: 'Internal Server Error',
    503: 'Service Unavailable',
  };
  return phrases[status] ?? 'Error';
}

/** The viewer's dev server and preview (vite.config.ts), the default CORS allow-list besides the server itself. */
export const DEV_VIEWER_ORIGINS: readonly string[] = [
  'http://localhost:5173', 'http://127.0.0.1:5173', 'http://localhost:4173', 'http://127.0.0.1:4173',
];

/** Whether an Origin header is on the list (exact, or `scheme://host:*` for any port); `null` never is. */
export function originAllowList(list: readonly string[], own: () => string[]): (origin: string) => boolean {
  const exact = new Set(list.filter((o) => !o.endsWith(':*')).map((o) => new URL(o).origin));
  const anyPort = list.filter((o) => o.endsWith(':*')).map((o) => o.slice(0, -2).toLowerCase());
  return (origin) => {
    if (origin === 'null' || !/^https?:\/\/[^/]+$/i.test(origin)) return false;
    const normal = new URL(origin).origin;
    if (exact.has(normal) || own().includes(normal)) return true;
    const { protocol, hostname } = new URL(normal);
    return anyPort.includes(`${protocol}//${hostname}`);
  };
}

/** The request as logged: method and path, query values replaced, no headers. */
function logRequest(req: { method: string; url: string; ip?: string }): Record<string, unknown> {
  return { method: req.method, url: redactQuery(req.url), remoteAddress: req.ip };
}

/** `/v1/auth_uri?email=a@b.c` → `/v1/auth_uri?email=[redacted]`: query strings may carry codes, signatures and addresses. */
export function redactQuery(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const names = Object.keys(qs.parse(url.slice(at + 1), { depth: 0 }));
  return `${url.slice(0, at)}?${qs.stringify(Object.fromEntries(names.map((name) => [name, '[redacted]'])), { encode: false })}`;
}

/** Closes the server and exits on Ctrl+C or SIGTERM, once (the CLI and the demo). */
export function closeOnSignals(server: StoreyServer): void {
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}
