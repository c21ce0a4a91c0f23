// Conditional requests on the location's REST loads (diagnostic, no target):
// the 10,000-desk location's asset, sensor and location lists as the regular
// demo user loads them on a reopen, through the reference server over HTTP
// with a browser's Accept-Encoding, revalidated with the ETag of the last load
// (304, server/etags.ts) against loaded whole (200) in the same run,
// alternating; and what the tag costs a 200: the sha256 of the body against
// the body's JSON.stringify, in this process.
//   node --import tsx bench/restEtags.ts [rounds=7]

import { createHash } from 'node:crypto';
import { restPaths } from '../src/shared/rest.js';
import { cpuMs, median, publish, type BenchRow } from './lib/report.js';
import { BROWSER_ACCEPT, rawGet, startRestBenchServer } from './lib/restServer.js';

const ROUNDS = Number(process.argv[2] ?? 7);

/** A GET's status, tag, bytes on the wire and time. */
async function raw(url: string, headers: Record<string, string>): Promise<{ status: number; etag: string; wire: number; ms: number }> {
  const res = await rawGet(url, headers);
  return { status: res.status, etag: String(res.headers.etag ?? ''), wire: res.body.length, ms: res.ms };
}

async function main(): Promise<void> {
  const { baseUrl, org, loc, auth, close } = await startRestBenchServer();
  try {
    const loads = [['assets', restPaths.assets(org, loc)], ['sensors', restPaths.sensors(org, loc)], ['locations', restPaths.locations(org)]] as const;
    const headers = { ...auth, 'accept-encoding': BROWSER_ACCEPT };

    const rows: BenchRow[] = [];
    for (const [name, path] of loads) {
      const url = `${baseUrl}${path}`;
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
      const body = await (await fetch(`${baseUrl}${path}`, { headers: { authorization: headers.authorization } })).json() as unknown;
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
    await close();
  }
}

await main();
