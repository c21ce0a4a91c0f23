import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('server --static', () => {
  let t: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'storey-static-'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>Storey</title>');
    await writeFile(join(dir, 'app.js'), 'console.log(1)');
    await writeFile(join(dir, 'big.js'), `console.log(${JSON.stringify('x'.repeat(20_000))})`);
    t = await startTestServer({ staticDir: dir });
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the built viewer without a token, with index.html for client routes', async () => {
    expect(await (await fetch(`${t.url}/`)).text()).toContain('<title>Storey</title>');
    expect(await (await fetch(`${t.url}/app.js`)).text()).toBe('console.log(1)');
    expect(await (await fetch(`${t.url}/floors/12`)).text()).toContain('<title>Storey</title>');
  });
  it('sends the viewer\'s files as they are, compressing only the API (server/compression.ts)', async () => {
    const big = await fetch(`${t.url}/big.js`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(big.headers.get('content-encoding')).toBeNull();
    expect((await big.text()).length).toBeGreaterThan(20_000);
    const token = await t.signIn('regular');
    const api = await t.api(`/organizations/${t.accounts.regular.organizationId}/locations/${t.server.seed.locationIds[0]}/assets`, { token, headers: { 'accept-encoding': 'br, gzip' } });
    expect(api.headers.get('content-encoding')).toBe('br');
  });
  it('keeps the API protected and its unknown routes a JSON 404', async () => {
    expect((await t.api('/organizations')).status).toBe(401);
    expect((await t.api('/nope')).status).toBe(404);
  });
});
