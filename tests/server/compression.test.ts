// Answers compressed for a client that accepts it (server/compression.ts):
// raw HTTP requests read the bytes as sent, Node's fetch (undici, what the
// engine uses under Node) decodes them itself.

import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_ID_HEADER, STREAM_SEQUENCE_HEADER } from '../../src/shared/protocol.js';
import { restPaths } from '../../src/shared/rest.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { storeFingerprint } from '../integration/support/attack.js';

interface RawAnswer { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

describe('server compression', () => {
  let t: TestServer;
  let token: string;
  let assetsPath: string;

  /** a request whose answer is read as its bytes came, not decoded */
  function raw(path: string, headers: Record<string, string>, method = 'GET', body?: Buffer): Promise<RawAnswer> {
    return new Promise((resolve, reject) => {
      const req = request(`${t.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  beforeAll(async () => {
    t = await startTestServer();
    token = await t.signIn('regular');
    assetsPath = restPaths.assets(t.accounts.regular.organizationId, t.server.seed.locationIds[0]!);
  });
  afterAll(async () => { await t?.close(); });

  describe('GET .../assets', () => {
    it('answers brotli to a browser\'s accept-encoding, the same JSON and stream position as a plain answer', async () => {
      const plain = await raw(assetsPath, { 'accept-encoding': 'identity' });
      const br = await raw(assetsPath, { 'accept-encoding': 'gzip, deflate, br, zstd' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(br.headers['content-encoding']).toBe('br');
      expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
      expect(br.body.length).toBeLessThan(plain.body.length / 5);
      expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));
      expect(br.headers[STREAM_ID_HEADER]).toBe(plain.headers[STREAM_ID_HEADER]);
      expect(br.headers[STREAM_SEQUENCE_HEADER]).toBe(plain.headers[STREAM_SEQUENCE_HEADER]);
    });

    it('answers gzip to a client without brotli', async () => {
      const plain = await raw(assetsPath, { 'accept-encoding': 'identity' });
      const gz = await raw(assetsPath, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    });

    it('is decoded by Node\'s fetch itself, as the engine reads it', async () => {
      const plain = JSON.parse((await raw(assetsPath, { 'accept-encoding': 'identity' })).body.toString('utf8')) as unknown;
      const res = await t.api(assetsPath, { token });
      expect(res.headers.get('content-encoding')).toMatch(/^(gzip|br)$/);
      expect(await res.json()).toEqual(plain);
    });
  });

  it('sends a small answer as it is', async () => {
    const res = await raw('/current_time', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.length).toBeLessThan(1024);
  });

  it('never inflates a request body: a gzip-encoded write is refused and changes nothing', async () => {
    const edit = await t.signIn('edit');
    const floor = [...t.server.store.assets.values()].find((a) => a.type === 'floor' && !a.hidden && a.location_id === t.server.seed.locationIds[0])!;
    const body = gzipSync(JSON.stringify({ type: 'shape', subtype: 'desk', name: 'Zipped', parent_id: floor.id, x: 1, y: 1 }));
    const before = storeFingerprint(t);
    const res = await raw(assetsPath, { authorization: `Bearer ${edit}`, 'content-type': 'application/json', 'content-encoding': 'gzip' }, 'POST', body);
    expect(res.status).toBe(400);
    expect(storeFingerprint(t)).toBe(before);
    // the same body sent plain is a valid write
    const plain = await raw(assetsPath, { authorization: `Bearer ${edit}`, 'content-type': 'application/json' }, 'POST', gunzipSync(body));
    expect(plain.status).toBe(201);
  });
});
