// Conditional requests on the location's REST loads (diagnostic, no target):
// the 10,000-desk location's asset, sensor and location lists as the regular
// demo user loads them on a reopen, through the reference server over HTTP
// with a browser's Accept-Encoding, revalidated with the ETag of the last load
// (304, server/etags.ts) against loaded whole (200) in the same run,
// alternating; and what the tag costs a 200: the sha256 of the body against
// the body's JSON.stringify, in this process.
//   node --import tsx bench/restEtags.ts [rounds=7]

import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { startStoreyServer, type StoreyServer } from '../server/app.js';
import { restPaths } from '../src/shared/rest.js';
import { REOPEN_SEED } from './lib/reopenRuns.js';
import { cpuMs, median, publish, type BenchRow } from './lib/report.js';

const ROUNDS = Number(process.argv[2] ?? 7);
const BROWSER_ACCEPT = 'gzip, deflate, br, zstd';

/** A GET whose bytes are counted as they arrive on the socket, not decoded. */
function raw(url: string, headers: Record<string, string>): Promise<{ status: number; etag: string; wire: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    request(url, { headers }, (res) => {
      let wire = 0;
      res.on('data', (c: Buffer) => { wire += c.length; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: String(res.headers.etag ?? ''), wire, ms: performance.now() - t0 }));
      res.on('error', reject);
    }).on('error', reject).end();
  });
}

async function main(): Promise<void> {
  const server: StoreyServer = await startStoreyServer({ host: '127.0.0.1', port: 0, transport: 'pusher', simulate: false, seed: REOPEN_SEED });
  try {
    const { email, password } = server.seed.accounts.regular;
    const login = await fetch(`${server.baseUrl}/login`, { method: 'POST', body: new URLSearchParams({ email, password }) });
    const { token } = (await login.json()) as { token: string };
    const org = server.seed.accounts.regular.organizationId;
    const loc = server.seed.locationIds[0]!;
    const loads = [['assets', restPaths.assets(org, loc)], ['sensors', restPaths.sensors(org, loc)], ['locations', restPaths.locations(org)]] as const;
    const headers = { authorization: `Bearer ${token}`, 'accept-encoding': BROWSER_ACCEPT };

    const rows: BenchRow[] = [];
    for (const [name, path] of loads) {
      const url = `${server.baseUrl}${path}`;
      const { etag } = await raw(url, headers);
      const sides = { full: { wire: [] as number[], cpu: [] as number[], ms: [] as number[] }, revalidated: { wire: [] as number[], cpu: [] as number[], ms: [] as number[] } };
      for (let r = 0; r < ROUNDS; r++) {
        const order: Array<'full' | 'revalidated'> = r % 2 ? ['revalidated', 'full'] : ['full', 'revalidated'];
        for (const side of order) {
          const t0 = cpuMs();
          const res = await raw(url, side === 'full' ? headers : { ...headers, 'if-none-match': etag });
          const cpu = cpuMs() - t0;
          const want = side === 'full' ? 200 : 304;
          if (res.status !== want || res.etag !== etag) throw new Error(`${name}: ${side} answered ${res.status} ${res.etag}, not ${want} ${etag}`);
          sides[side].wire.push(res.wire); sides[side].cpu.push(cpu); sides[side].ms.push(res.ms);
        }
      }
      const v = sides.revalidated; const f = sides.full;
      const row = (what: string, unit: string, value: number, baseline: number): BenchRow => ({
        bench: 'restEtags', case: `${name}: ${what}`, size: '10k desks', value, unit, baseline, baselineLabel: `${unit} 200`, ratio: value / baseline, target: 'report', pass: null,
      });
      rows.push(
        row('bytes on the wire (304 vs 200 br)', 'kB', median(v.wire) / 1e3, median(f.wire) / 1e3),
        row('server + client CPU a request', 'ms', median(v.cpu), median(f.cpu)),
        row('loopback, request → last byte', 'ms', median(v.ms), median(f.ms)),
      );
    }

    // what the tag adds to a 200: the hash against the serialization it follows
    const hashRows: BenchRow[] = [];
    for (const [name, path] of loads) {
      const body = await (await fetch(`${server.baseUrl}${path}`, { headers: { authorization: headers.authorization } })).json() as unknown;
      const hash: number[] = []; const stringify: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        let t0 = cpuMs();
        const text = JSON.stringify(body);
        stringify.push(cpuMs() - t0);
        t0 = cpuMs();
        createHash('sha256').update(text).digest('base64');
        hash.push(cpuMs() - t0);
      }
      hashRows.push({
        bench: 'restEtags', case: `${name}: sha256 of the body`, size: '10k desks', value: median(hash), unit: 'ms',
        baseline: median(stringify), baselineLabel: 'ms JSON.stringify', ratio: median(hash) / median(stringify), target: 'report', pass: null,
      });
    }
    publish('Reopen loads revalidated (If-None-Match → 304) vs loaded whole (200), regular user, medians, alternating', rows);
    publish('What the ETag costs a 200: sha256 of the body vs its serialization', hashRows);
  } finally {
    await server.close();
  }
}

await main();
