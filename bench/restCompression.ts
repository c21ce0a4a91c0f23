// The location's REST loads compressed (diagnostic, no target): the
// 10,000-desk location's asset and sensor lists as the regular demo user
// loads them, through the reference server over HTTP.
//   1. each codec and level on the real bodies, in this process: bytes, CPU
//      to compress and to decompress (the server's and the client's share),
//      and what the bytes take to cross a link of 10 and 50 Mbit/s (computed
//      from the bytes, not a measured network);
//   2. the server as configured (server/compression.ts), as the browser asks
//      (`accept-encoding: gzip, deflate, br, zstd`) against `identity`: bytes
//      read from the socket, the server process's CPU per request, loopback
//      wall time; the decoded body must equal the plain one;
//   3. Node's own fetch (undici, as the engine runs under vitest) decodes it.
//   node --import tsx bench/restCompression.ts [rounds=5]

import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { restPaths } from '../src/shared/rest.js';
import { cpuMs, fmt, median, publish, renderTable, type BenchRow } from './lib/report.js';
import { BROWSER_ACCEPT, rawGet, startRestBenchServer } from './lib/restServer.js';

const ROUNDS = Number(process.argv[2] ?? 5);
const LINKS_MBIT = [10, 50];

interface Codec { name: string; compress(b: Buffer): Buffer; decompress(b: Buffer): Buffer }
const codecs: Codec[] = [
  ...[1, 4, 6, 9].map((level) => ({ name: `gzip ${level}`, compress: (b: Buffer) => gzipSync(b, { level }), decompress: (b: Buffer) => gunzipSync(b) })),
  ...[1, 4, 5, 6].map((q) => ({
    name: `br ${q}`,
    compress: (b: Buffer) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: q, [constants.BROTLI_PARAM_SIZE_HINT]: b.length } }),
    decompress: (b: Buffer) => brotliDecompressSync(b),
  })),
];

/** A GET's status, coding, body as it came and time. */
async function raw(url: string, headers: Record<string, string>): Promise<{ status: number; encoding: string; wire: number; body: Buffer; ms: number }> {
  const res = await rawGet(url, headers);
  return { status: res.status, encoding: String(res.headers['content-encoding'] ?? 'identity'), wire: res.body.length, body: res.body, ms: res.ms };
}

function decode(encoding: string, body: Buffer): Buffer {
  if (encoding === 'br') return brotliDecompressSync(body);
  if (encoding === 'gzip') return gunzipSync(body);
  if (encoding === 'identity') return body;
  throw new Error(`unexpected content-encoding ${encoding}`);
}

async function main(): Promise<void> {
  const { baseUrl, org, loc, auth, close } = await startRestBenchServer();
  try {
    const loads = [['assets', restPaths.assets(org, loc)], ['sensors', restPaths.sensors(org, loc)]] as const;

    // 1. codecs and levels on the real bodies
    const plain = new Map<string, Buffer>();
    for (const [name, path] of loads) plain.set(name, (await raw(`${baseUrl}${path}`, { ...auth, 'accept-encoding': 'identity' })).body);
    const total = [...plain.values()].reduce((n, b) => n + b.length, 0);
    const levelRows: string[][] = [];
    for (const codec of codecs) {
      let bytes = 0; let inMs = 0; let outMs = 0;
      for (const body of plain.values()) {
        const packed: number[] = []; const unpacked: number[] = [];
        let out: Buffer = Buffer.alloc(0);
        for (let r = 0; r < ROUNDS; r++) {
          let t0 = cpuMs();
          out = codec.compress(body);
          packed.push(cpuMs() - t0);
          t0 = cpuMs();
          codec.decompress(out);
          unpacked.push(cpuMs() - t0);
        }
        bytes += out.length; inMs += median(packed); outMs += median(unpacked);
      }
      levelRows.push([
        codec.name, `${fmt(bytes / 1e6)} MB`, `${fmt(total / bytes)}×`, `${fmt(inMs)} ms`, `${fmt(outMs)} ms`,
        ...LINKS_MBIT.map((mbit) => `${fmt((bytes * 8) / (mbit * 1e3))} ms`),
      ]);
    }
    console.log(`\n## Assets + sensors of the 10,000-desk location as the regular user (${fmt(total / 1e6)} MB of JSON): codecs on the real bodies, medians of ${ROUNDS}\n`);
    console.log(renderTable(
      ['codec', 'bytes', 'smaller', 'compress CPU', 'decompress CPU', ...LINKS_MBIT.map((m) => `at ${m} Mbit/s`)],
      [['identity', `${fmt(total / 1e6)} MB`, '1.00×', '—', '—', ...LINKS_MBIT.map((mbit) => `${fmt((total * 8) / (mbit * 1e3))} ms`)], ...levelRows],
    ));
    console.log('  · "at N Mbit/s" is the bytes\' time on such a link, computed, not measured; the server streams, so compressing overlaps sending');

    // 2. the server as configured, asked as a browser asks, against identity
    const rows: BenchRow[] = [];
    for (const [name, path] of loads) {
      const sides = { identity: { wire: [] as number[], cpu: [] as number[], ms: [] as number[], encoding: '' }, browser: { wire: [] as number[], cpu: [] as number[], ms: [] as number[], encoding: '' } };
      for (let r = 0; r < ROUNDS; r++) {
        for (const [side, accept] of (r % 2 ? [['browser', BROWSER_ACCEPT], ['identity', 'identity']] : [['identity', 'identity'], ['browser', BROWSER_ACCEPT]]) as Array<['identity' | 'browser', string]>) {
          const t0 = cpuMs();
          const res = await raw(`${baseUrl}${path}`, { ...auth, 'accept-encoding': accept });
          const cpu = cpuMs() - t0;
          if (res.status !== 200) throw new Error(`${name}: ${res.status}`);
          if (!decode(res.encoding, res.body).equals(plain.get(name)!)) throw new Error(`${name}: the ${res.encoding} body does not decode to the plain one`);
          sides[side].wire.push(res.wire); sides[side].cpu.push(cpu); sides[side].ms.push(res.ms); sides[side].encoding = res.encoding;
        }
      }
      const b = sides.browser; const i = sides.identity;
      rows.push(
        { bench: 'restCompression', case: `${name}: bytes on the wire (${b.encoding})`, size: '10k desks', value: median(b.wire) / 1e6, unit: 'MB', baseline: median(i.wire) / 1e6, baselineLabel: 'MB identity', ratio: median(b.wire) / median(i.wire), target: 'report', pass: null },
        { bench: 'restCompression', case: `${name}: server + client CPU a request`, size: '10k desks', value: median(b.cpu), unit: 'ms', baseline: median(i.cpu), baselineLabel: 'ms identity', ratio: median(b.cpu) / median(i.cpu), target: 'report', pass: null },
        { bench: 'restCompression', case: `${name}: loopback, request → last byte`, size: '10k desks', value: median(b.ms), unit: 'ms', baseline: median(i.ms), baselineLabel: 'ms identity', ratio: median(b.ms) / median(i.ms), target: 'report', pass: null },
      );
    }

    // 3. Node's fetch (undici) asks for and decodes it by itself
    const res = await fetch(`${baseUrl}${loads[0][1]}`, { headers: auth });
    const decoded = await res.json() as unknown[];
    const same = JSON.stringify(decoded) === plain.get('assets')!.toString('utf8');
    publish('The server as configured: a browser\'s Accept-Encoding vs identity (medians, alternating)', rows, [
      `Node fetch (undici): content-encoding ${res.headers.get('content-encoding') ?? 'identity'}, decoded by fetch, ${decoded.length} assets, ${same ? 'equal to' : 'DIFFERENT FROM'} the plain body`,
    ]);
    if (!same) process.exitCode = 1;
  } finally {
    await close();
  }
}

await main();
