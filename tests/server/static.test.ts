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
  it('keeps the API protected and its unknown routes a JSON 404', async () => {
    expect((await t.api('/organizations')).status).toBe(401);
    expect((await t.api('/nope')).status).toBe(404);
  });
});
