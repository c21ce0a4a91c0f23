// Files and paths, played against the real reference server: the public file
// area (/v1/files/, served without a token because image elements cannot
// send one) where a name is the only secret, the viewer's static files, and
// requests crafted by hand — traversal in raw paths, redirects to another
// host, method-override headers. Until 2026-11-25 an uploaded avatar was
// named by its user id and upload time (both in the user record every member
// of the organization receives), a replaced avatar stayed served at its old
// address, and a deleted user's avatar was served forever.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_PERMISSIONS } from '../../src/shared/constants.js';
import { restPaths, type ImageResponse, type WireUser } from '../../src/shared/rest.js';
import { hashPassword, issueToken } from '../../server/auth.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { storeFingerprint } from './support/attack.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** A request with the path exactly as written (fetch would normalise `..` and `//`). */
function raw(t: TestServer, path: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  const url = new URL(t.url);
  return new Promise<{ status: number; location: string | undefined; body: string }>((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: init.method ?? 'GET', headers: init.headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => { body += chunk.toString(); });
      res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('security: files, paths and hand-made requests', () => {
  let t: TestServer;
  let parent: string;
  let org: string;

  /** a user with a session; `upload` puts an avatar through the API as them */
  function member() {
    const s = t.server.store;
    const user = s.createUser(org, { email: `files.${s.users.size + 1}.${Date.now()}@storey.test`, permissions: [ROLE_PERMISSIONS.regular] });
    s.credentials.set(user.id, { passwordHash: hashPassword('member-password-1') });
    const token = issueToken(s, user.id).token;
    const upload = async () => {
      const res = await fetch(`${t.baseUrl}${restPaths.userImage(org, user.id)}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'image/png' }, body: PNG });
      expect(res.status).toBe(200);
      return ((await res.json()) as ImageResponse).path;
    };
    return { user, token, upload };
  }
  const fileStatus = async (path: string) => (await fetch(`${t.url}/v1/files/${path}`)).status;

  beforeAll(async () => {
    parent = await mkdtemp(join(tmpdir(), 'storey-files-'));
    const www = join(parent, 'www');
    await mkdir(join(www, 'sub'), { recursive: true });
    await writeFile(join(parent, 'secret.txt'), 'TOP-SECRET');
    await writeFile(join(www, '.env'), 'DOTENV-SECRET');
    await writeFile(join(www, 'index.html'), '<!doctype html><title>Storey</title>');
    await writeFile(join(www, 'sub', 'app.js'), 'console.log(1)');
    t = await startTestServer({ staticDir: www });
    org = t.accounts.regular.organizationId;
  });
  afterAll(async () => {
    await t?.close();
    await rm(parent, { recursive: true, force: true });
  });

  it('names an uploaded avatar with random bits, not by what every member knows of the user', async () => {
    const m = member();
    const path = await m.upload();
    expect(path).toMatch(/^avatars\/\d+-[0-9a-f]{24}$/);
    const seen = (await (await t.api(restPaths.user(org, m.user.id), { token: await t.signIn('regular') })).json()) as WireUser;
    expect(seen.avatar_url).toBe(path);
    // what a former member or a guesser could build from the id and the upload time does not exist
    expect(await fileStatus(`avatars/${m.user.id}-${seen.avatar_timestamp}`)).toBe(404);
    expect(await fileStatus(path)).toBe(200);
  });

  it('withdraws the previous avatar when a new one is uploaded, when it is removed, and when the user is deleted', async () => {
    const m = member();
    const first = await m.upload();
    const second = await m.upload();
    expect(second).not.toBe(first);
    expect(await fileStatus(first)).toBe(404);
    expect(await fileStatus(second)).toBe(200);
    expect((await t.api(restPaths.userImage(org, m.user.id), { method: 'DELETE', token: m.token })).status).toBe(204);
    expect(await fileStatus(second)).toBe(404);

    const gone = member();
    const photo = await gone.upload();
    expect((await t.api(restPaths.user(org, gone.user.id), { method: 'DELETE', token: await t.signIn('admin') })).status).toBe(204);
    expect(await fileStatus(photo)).toBe(404);
  });

  it('serves nothing outside the viewer’s folder, no dotfile and no redirect, whatever the raw path says', async () => {
    const paths = [
      '/../secret.txt', '/..%2fsecret.txt', '/%2e%2e/secret.txt', '/%2e%2e%2fsecret.txt', '/sub/..%2f..%2fsecret.txt', '/sub/%2e%2e/%2e%2e/secret.txt',
      '/%5c..%5csecret.txt', '/.env', '/%2eenv', '/sub/../.env',
      '/sub', '//evil.example/', '//evil.example/%2e%2e', '/%2f%2fevil.example', '/\\evil.example', '/%5cevil.example',
    ];
    for (const path of paths) {
      const res = await raw(t, path);
      expect.soft(res.body, path).not.toMatch(/SECRET/);
      expect.soft(res.location, path).toBeUndefined();
      expect.soft(res.status, path).toBe(200);
      expect.soft(res.body, path).toContain('<title>Storey</title>');
    }
    expect((await raw(t, '/sub/app.js')).body).toBe('console.log(1)');
    for (const path of ['/v1/files/..%2f..%2fsecret.txt', '/v1/files/../../secret.txt', '/v1/files/%2e%2e/%2e%2e/secret.txt', '/v1/files/avatars/..%2f..%2f.env']) {
      const res = await raw(t, path);
      expect.soft(res.status, path).toBe(404);
      expect.soft(res.body, path).not.toMatch(/SECRET/);
    }
  });

  it('takes no method from a header or the query string: a POST never deletes or patches', async () => {
    const token = await t.signIn('admin');
    const m = member();
    const before = storeFingerprint(t);
    for (const header of ['x-http-method-override', 'x-method-override', 'x-http-method']) {
      const res = await raw(t, `/v1${restPaths.user(org, m.user.id)}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, [header]: 'DELETE' } });
      expect(res.status, header).toBe(404);
    }
    expect((await raw(t, `/v1${restPaths.user(org, m.user.id)}?_method=DELETE`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
    // a GET with the override header stays a read
    expect((await raw(t, `/v1${restPaths.user(org, m.user.id)}`, { headers: { authorization: `Bearer ${token}`, 'x-http-method-override': 'DELETE' } })).status).toBe(200);
    expect(storeFingerprint(t)).toBe(before);
    expect(t.server.store.users.has(m.user.id)).toBe(true);
  });
});

describe('security: an uploaded SVG opened in a real browser', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer(); });
  afterAll(async () => { await t?.close(); });

  it('runs none of its scripts in the server’s origin, whether opened as a page or shown as an image', async () => {
    // a regular user uploads an avatar that would read the viewer's session data if its script ran in our origin
    const attacker = await t.signIn('regular');
    const beacon: string[] = [];
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" onload="document.title=\'pwned-onload\'">'
      + '<script>document.title = "pwned"; fetch("/v2/settings", { credentials: "include" }).then(() => { document.title = "pwned-fetch"; });</script>'
      + '<foreignObject width="100" height="100"><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:parent.document.title=\'pwned-iframe\'"></iframe></foreignObject>'
      + '<rect width="10" height="10" fill="red"/></svg>';
    const upload = await fetch(`${t.baseUrl}${restPaths.userImage(t.accounts.regular.organizationId, t.accounts.regular.userId)}`, {
      method: 'PUT', headers: { authorization: `Bearer ${attacker}`, 'content-type': 'image/svg+xml' }, body: svg,
    });
    expect(upload.status).toBe(200);
    const url = `${t.url}/v1/files/${((await upload.json()) as ImageResponse).path}`;
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
    try {
      const page = await browser.newPage();
      page.on('request', (r) => { if (r.url().includes('/v2/settings')) beacon.push(r.url()); });
      // the victim opens the picture's address, as a link in a chat would
      const res = await page.goto(url);
      await page.waitForTimeout(300);
      expect(await page.title()).toBe('');
      expect(res!.headers()['content-security-policy']).toContain("default-src 'none'");
      expect(res!.headers()['x-content-type-options']).toBe('nosniff');
      // the same picture as an image element of a page of our origin
      await page.goto(`${t.url}/v1/current_time`);
      await page.evaluate(async (src) => {
        const img = document.createElement('img');
        img.src = src;
        document.body.append(img);
        await new Promise((resolve) => { img.onload = resolve; img.onerror = resolve; });
      }, url);
      await page.waitForTimeout(300);
      expect(await page.title()).toBe('');
      expect(beacon).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});

describe('security: files of a deleted asset', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer(); });
  afterAll(async () => { await t?.close(); });

  it('are withdrawn with it: an uploaded image and a floor plan stop being served', async () => {
    const { store, seed } = t.server;
    const org = seed.organizationId;
    const loc = seed.locationIds[0]!;
    const edit = await t.signIn('edit');
    const floor = [...store.assets.values()].find((a) => a.type === 'floor' && a.location_id === loc && store.isAssetPublic(a))!;
    const desk = (await (await t.api(restPaths.assets(org, loc), { method: 'POST', token: edit, json: { type: 'shape', subtype: 'desk', name: 'Short-lived', parent_id: floor.id } })).json()) as { id: string };
    const upload = await fetch(`${t.baseUrl}${restPaths.assetImage(org, loc, desk.id, 'texture')}`, { method: 'PUT', headers: { authorization: `Bearer ${edit}`, 'content-type': 'image/png' }, body: PNG });
    const image = ((await upload.json()) as ImageResponse).path;
    // a neighbour's image, which the deleted desk's texture_path may name too, stays
    const neighbour = [...store.assets.values()].find((a) => a.location_id === loc && a.subtype === 'desk' && a.id !== desk.id)!;
    const kept = ((await (await fetch(`${t.baseUrl}${restPaths.assetImage(org, loc, neighbour.id, 'texture')}`, { method: 'PUT', headers: { authorization: `Bearer ${edit}`, 'content-type': 'image/png' }, body: PNG })).json()) as ImageResponse).path;
    expect((await t.api(restPaths.asset(org, loc, desk.id), { method: 'PATCH', token: edit, json: { model_path: kept } })).status).toBe(200);
    const status = async (path: string) => (await fetch(`${t.url}/v1/files/${path}`)).status;
    expect(await status(image)).toBe(200);
    expect((await t.api(restPaths.asset(org, loc, desk.id), { method: 'DELETE', token: edit })).status).toBe(204);
    expect(await status(image)).toBe(404);
    expect(await status(kept)).toBe(200);
    // a floor with its plan, emptied and deleted
    const building = [...store.assets.values()].find((a) => a.type === 'building' && a.location_id === loc && store.isAssetPublic(a))!;
    const newFloor = (await (await t.api(restPaths.assets(org, loc), { method: 'POST', token: edit, json: { type: 'floor', name: 'Temporary floor', parent_id: building.id } })).json()) as { id: string };
    const plan = `floorplans/${newFloor.id}-0123456789abcdef01234567.svg`;
    store.files.set(plan, { contentType: 'image/svg+xml', data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
    expect((await t.api(restPaths.asset(org, loc, newFloor.id), { method: 'PATCH', token: edit, json: { floor_plan_img_path: plan } })).status).toBe(200);
    expect(await status(plan)).toBe(200);
    expect((await t.api(restPaths.asset(org, loc, newFloor.id), { method: 'DELETE', token: edit })).status).toBe(204);
    expect(await status(plan)).toBe(404);
  });
});
