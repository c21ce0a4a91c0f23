// Test harness around the reference server: starts it in-process on
// 127.0.0.1 port 0 with a small deterministic seed and no simulator timer,
// over Pusher (default) or MQTT (a private Mosquitto). Always `close()` it in
// afterAll. `signIn` and `api` save every test from re-writing fetch calls.

import { DEV_VIEWER_ORIGINS, startStoreyServer, type ServerOptions, type StoreyServer } from '../../server/app.js';
import type { LoginResponse } from '../../src/shared/rest.js';
import type { Role } from '../../src/shared/types.js';

export interface TestAccount {
  email: string;
  password: string;
  userId: string;
  organizationId: string;
}

export interface TestServerOptions extends Omit<ServerOptions, 'host' | 'port'> {
  transport?: 'pusher' | 'mqtt';
}

export interface TestServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** url + '/v1' */
  baseUrl: string;
  accounts: Record<Role | 'otherOrg', TestAccount>;
  /** direct access: store, publisher, simulator, outbox, transport, seed… */
  server: StoreyServer;
  /** signs in through POST /v1/login and returns the bearer token */
  signIn(who: Role | 'otherOrg' | TestAccount): Promise<string>;
  /** a token for every demo account at once */
  signInAll(): Promise<Record<Role | 'otherOrg', string>>;
  /** fetch against baseUrl (or an absolute URL) with an optional bearer token and JSON body */
  api(path: string, init?: { method?: string; token?: string | null; json?: unknown; form?: Record<string, string>; headers?: Record<string, string> }): Promise<Response>;
  close(): Promise<void>;
}

/** Small enough to start in well under a second; deterministic for a given seed. */
export const TEST_SEED = { seed: 42, desks: 24, buildings: 2, floorsPerBuilding: 2, employees: 8, historyDays: 2 } as const;

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const server = await startStoreyServer({
    ...options,
    seed: { ...TEST_SEED, ...options.seed },
    host: '127.0.0.1',
    port: 0,
    transport: options.transport ?? 'pusher',
    simulate: options.simulate ?? false,
    devRoutes: options.devRoutes ?? true,
    // test viewers are served from a random loopback port
    corsOrigins: options.corsOrigins ?? [...DEV_VIEWER_ORIGINS, 'http://127.0.0.1:*'],
  });
  const accounts = Object.fromEntries(
    Object.entries(server.seed.accounts).map(([k, a]) => [k, { email: a.email, password: a.password, userId: a.userId, organizationId: a.organizationId }]),
  ) as Record<Role | 'otherOrg', TestAccount>;

  const api: TestServer['api'] = (path, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    let body: string | undefined;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const target = /^https?:/.test(path) ? path : `${server.baseUrl}${path}`;
    return fetch(target, { method: init.method ?? 'GET', headers, body });
  };

  const testServer: TestServer = {
    url: server.url,
    baseUrl: server.baseUrl,
    accounts,
    server,
    api,
    async signIn(who) {
      const account = typeof who === 'string' ? accounts[who] : who;
      const res = await api('/login', { method: 'POST', form: { email: account.email, password: account.password } });
      if (!res.ok) throw new Error(`sign-in of ${account.email} failed: ${res.status} ${await res.text()}`);
      return ((await res.json()) as LoginResponse).token;
    },
    async signInAll() {
      const who = ['admin', 'edit', 'service', 'regular', 'otherOrg'] as const;
      const tokens = await Promise.all(who.map((w) => testServer.signIn(w)));
      return Object.fromEntries(who.map((w, i) => [w, tokens[i]!])) as Record<Role | 'otherOrg', string>;
    },
    close: () => server.close(),
  };
  return testServer;
}
