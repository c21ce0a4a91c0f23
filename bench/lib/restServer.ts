// The reference server as the REST benches load it: the 10,000-desk location
// of the reopen benches (REOPEN_SEED), quiet, on a free loopback port, with a
// demo user signed in; and a GET read byte by byte off the socket, so what
// crossed the wire is counted before any decoding.

import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:http';
import { startStoreyServer, type StoreyServer } from '../../server/app.js';
import type { Role } from '../../src/shared/types.js';
import { REOPEN_SEED } from './reopenRuns.js';

/** What a browser sends as Accept-Encoding (Chromium). */
export const BROWSER_ACCEPT = 'gzip, deflate, br, zstd';

export interface RestBenchServer {
  server: StoreyServer;
  baseUrl: string;
  org: string;
  /** the 10,000-desk location */
  loc: string;
  /** the signed-in user's Authorization header */
  auth: { authorization: string };
  close(): Promise<void>;
}

export async function startRestBenchServer(role: Role = 'regular'): Promise<RestBenchServer> {
  const server = await startStoreyServer({ host: '127.0.0.1', port: 0, transport: 'pusher', simulate: false, seed: REOPEN_SEED });
  try {
    const { email, password, organizationId } = server.seed.accounts[role];
    const login = await fetch(`${server.baseUrl}/login`, { method: 'POST', body: new URLSearchParams({ email, password }) });
    if (!login.ok) throw new Error(`sign-in as ${role}: ${login.status}`);
    const { token } = (await login.json()) as { token: string };
    return {
      server, baseUrl: server.baseUrl, org: organizationId, loc: server.seed.locationIds[0]!,
      auth: { authorization: `Bearer ${token}` },
      close: () => server.close(),
    };
  } catch (error) {
    await server.close();
    throw error;
  }
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** the body as it came off the socket (still compressed) */
  body: Buffer;
  /** request → last byte, ms */
  ms: number;
}

/** A GET whose body is kept as it arrives on the socket, not decoded. */
export function rawGet(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), ms: performance.now() - t0 }));
      res.on('error', reject);
    }).on('error', reject).end();
  });
}
