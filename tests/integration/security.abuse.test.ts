// Issue 12 §5 — abuse and disclosure at the door, played against the real
// reference server: password guessing from one address and from many, mail
// flooding, Pusher auth floods (429 + Retry-After, nothing changed), a
// sign-in that takes as long for an unknown address, signup that creates no
// user before the mailed code comes back, the CORS allow-list, mailed links
// that ignore a forged Host, a log without secrets, and the bearer scheme in
// any case.

import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResponse } from '../../src/shared/rest.js';
import { DEV_VIEWER_ORIGINS } from '../../server/app.js';
import { RATE_LIMITED } from '../../server/rateLimits.js';
import { hashPassword, issueToken } from '../../server/auth.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { storeFingerprint } from './support/attack.js';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** POST a form as the client at `address` (the server trusts X-Forwarded-For, as behind a proxy). */
function postFrom(t: TestServer, address: string, path: string, fields: Record<string, string>, token?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address };
  if (token) headers.authorization = `Bearer ${token}`;
  return fetch(`${t.baseUrl}${path}`, { method: 'POST', headers, body: form(fields) });
}

async function expectLimited(res: Response): Promise<void> {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(((await res.json()) as { message: string }).message).toBe(RATE_LIMITED);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('security: rate limits on the doors attackers knock on', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer({ trustProxy: true }); });
  afterAll(async () => { await t?.close(); });

  it('150 wrong passwords in 7 s from 15 addresses: at most 10 are tried, the rest 429 with Retry-After, no session', async () => {
    const victim = t.accounts.admin;
    const tokensBefore = t.server.store.tokens.size;
    const started = Date.now();
    // all at once, as a script would: the check, the hash and the count run in one turn of the event loop
    const answers = await Promise.all(Array.from({ length: 150 }, (_, i) =>
      postFrom(t, `198.51.100.${(i % 15) + 1}`, '/login', { email: victim.email, password: `guess-${i}` })));
    expect(Date.now() - started).toBeLessThan(7_000);
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(140);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    await expectLimited(answers.find((r) => r.status === 429)!);
    // the account stays closed to guessing for the window, even with the right password from a fresh address
    await expectLimited(await postFrom(t, '198.51.100.200', '/login', { email: victim.email, password: victim.password }));
    expect(t.server.store.tokens.size).toBe(tokensBefore);
    // other accounts are not affected
    expect((await postFrom(t, '198.51.100.201', '/login', { email: t.accounts.edit.email, password: t.accounts.edit.password })).status).toBe(200);
  });

  it('one address may try 30 sign-ins a minute, over any accounts; the 31st is 429 and other addresses go on', async () => {
    const attacker = '203.0.113.7';
    for (let i = 0; i < 30; i += 1) {
      expect((await postFrom(t, attacker, '/login', { email: `nobody${i}@storey.test`, password: 'x' })).status).toBe(401);
    }
    await expectLimited(await postFrom(t, attacker, '/login', { email: t.accounts.regular.email, password: t.accounts.regular.password }));
    expect((await postFrom(t, '203.0.113.8', '/login', { email: t.accounts.regular.email, password: t.accounts.regular.password })).status).toBe(200);
  });

  it('password recovery and signup send at most 3 mails to one address a minute, from any number of clients', async () => {
    const email = t.accounts.service.email;
    const mailsBefore = t.server.outbox.list().filter((m) => m.to === email).length;
    const recover = await Promise.all(Array.from({ length: 6 }, (_, i) => postFrom(t, `192.0.2.${i + 1}`, '/recover_password', { email })));
    expect(recover.filter((r) => r.status === 202).length).toBe(3);
    await expectLimited(recover.find((r) => r.status === 429)!);
    expect(t.server.outbox.list().filter((m) => m.to === email).length - mailsBefore).toBe(3);
    const newcomer = 'flooded@storey.test';
    const signup = await Promise.all(Array.from({ length: 5 }, (_, i) => postFrom(t, `192.0.2.${i + 20}`, '/signup', { email: newcomer })));
    expect(signup.filter((r) => r.status === 202).length).toBe(3);
    expect(t.server.outbox.list().filter((m) => m.to === newcomer).length).toBe(3);
  });

  it('one client may send 10 recovery or signup requests a minute over any addresses', async () => {
    const client = '192.0.2.99';
    for (let i = 0; i < 10; i += 1) expect((await postFrom(t, client, '/recover_password', { email: `someone${i}@storey.test` })).status).toBe(202);
    await expectLimited(await postFrom(t, client, '/recover_password', { email: 'one-more@storey.test' }));
  });

  it('counts wrong old passwords and wrong mail codes against the account: 10 a minute, then 429 even for the right one', async () => {
    const s = t.server.store;
    const user = s.createUser(t.accounts.regular.organizationId, { email: `guessed.${Date.now()}@storey.test`, permissions: ['USER_UPDATE_SELF'] });
    s.credentials.set(user.id, { passwordHash: hashPassword('right-password-1') });
    // a stolen session guessing the password behind it, from many addresses
    const token = (await (await postFrom(t, '198.18.0.1', '/login', { email: user.email, password: 'right-password-1' })).json() as LoginResponse).token;
    const path = `/organizations/${user.organization_id}/users/${user.id}/password`;
    const before = storeFingerprint(t);
    const guesses = await Promise.all(Array.from({ length: 14 }, (_, i) =>
      postFrom(t, `198.18.1.${i + 1}`, path, { password: 'taken-over-1', old_password: `guess-${i}` }, token)));
    expect(guesses.filter((r) => r.status === 403).length).toBe(10);
    await expectLimited(guesses.find((r) => r.status === 429)!);
    await expectLimited(await postFrom(t, '198.18.2.1', path, { password: 'taken-over-1', old_password: 'right-password-1' }, token));
    // wrong codes from anyone count against the same account
    await expectLimited(await postFrom(t, '198.18.2.2', path, { password: 'taken-over-1', code: 'A'.repeat(24) }));
    expect(storeFingerprint(t)).toBe(before);
    // another account is not affected
    const other = s.createUser(t.accounts.regular.organizationId, { email: `other.${Date.now()}@storey.test`, permissions: ['USER_UPDATE_SELF'] });
    const wrongCode = await postFrom(t, '198.18.2.3', `/organizations/${other.organization_id}/users/${other.id}/password`, { password: 'taken-over-1', code: 'B'.repeat(24) });
    expect(wrongCode.status).toBe(403);
  });

  it('one client may confirm 10 signup codes a minute', async () => {
    const client = '198.18.3.1';
    for (let i = 0; i < 10; i += 1) {
      expect((await postFrom(t, client, '/signup/confirm', { code: `${'C'.repeat(22)}${String(i).padStart(2, '0')}`, password: 'new-password-1' })).status).toBe(403);
    }
    await expectLimited(await postFrom(t, client, '/signup/confirm', { code: 'D'.repeat(24), password: 'new-password-1' }));
  });

  it('limits auth-URI look-ups per client and per address', async () => {
    const lookup = (from: string, email: string) =>
      fetch(`${t.baseUrl}/auth_uri?email=${encodeURIComponent(email)}`, { headers: { 'x-forwarded-for': from } });
    for (let i = 0; i < 20; i += 1) expect((await lookup(`100.64.0.${i + 1}`, 'probe@storey.test')).status).toBe(200);
    await expectLimited(await lookup('100.64.0.100', 'probe@storey.test'));
    for (let i = 0; i < 60; i += 1) expect((await lookup('100.64.1.1', `p${i}@storey.test`)).status).toBe(200);
    await expectLimited(await lookup('100.64.1.1', 'another@storey.test'));
  });
});

describe('security: Pusher auth floods', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer({ trustProxy: true, rateLimits: { pusherAuth: { perClient: 6, perAccount: 4 } } }); });
  afterAll(async () => { await t?.close(); });

  it('refuses channel authorisations past the per-account and per-client limits with 429', async () => {
    const tokens = await t.signInAll();
    const channel = `private-organization-${t.accounts.regular.organizationId}`;
    const auth = (from: string, token: string) => postFrom(t, from, '/pusher/auth', { socket_id: '1.1', channel_name: channel }, token);
    // per account, from any addresses
    for (let i = 0; i < 4; i += 1) expect((await auth(`10.9.0.${i + 1}`, tokens.regular)).status).not.toBe(429);
    await expectLimited(await auth('10.9.0.50', tokens.regular));
    // per client, over any accounts
    for (let i = 0; i < 3; i += 1) expect((await auth('10.9.1.1', tokens.edit)).status).not.toBe(429);
    for (let i = 0; i < 3; i += 1) expect((await auth('10.9.1.1', tokens.service)).status).not.toBe(429);
    await expectLimited(await auth('10.9.1.1', tokens.admin));
    expect((await auth('10.9.1.2', tokens.admin)).status).not.toBe(429);
  });
});

describe('security: sign-in takes as long whether the address has an account or not', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer({ rateLimits: { login: { perClient: 1_000, perAccount: 1_000 } } }); });
  afterAll(async () => { await t?.close(); });

  it('answers an unknown address, a wrong password and an account without a password in comparable time', async () => {
    const s = t.server.store;
    const invited = s.createUser(t.accounts.admin.organizationId, { email: 'no-password-yet@storey.test', permissions: ['USER_UPDATE_SELF'] });
    s.credentials.set(invited.id, { passwordHash: null });
    s.credentials.set(t.accounts.regular.userId, { passwordHash: hashPassword(t.accounts.regular.password) });
    const timeOf = async (email: string) => {
      const started = performance.now();
      const res = await t.api('/login', { method: 'POST', form: { email, password: 'wrong-password' } });
      expect(res.status).toBe(401);
      return performance.now() - started;
    };
    const known: number[] = []; const unknown: number[] = []; const noPassword: number[] = [];
    await timeOf(t.accounts.regular.email); // warm-up
    for (let i = 0; i < 9; i += 1) {
      known.push(await timeOf(t.accounts.regular.email));
      unknown.push(await timeOf(`ghost${i}@nowhere.example`));
      noPassword.push(await timeOf(invited.email));
    }
    // without the decoy check an unknown address answered in a fraction of the password hash's time
    expect(median(unknown) / median(known)).toBeGreaterThan(0.6);
    expect(median(noPassword) / median(known)).toBeGreaterThan(0.6);
    expect(median(unknown) / median(known)).toBeLessThan(1.7);
  });
});

describe('security: signup, CORS, mailed links, the log and the bearer scheme', () => {
  let t: TestServer;
  const log: string[] = [];
  beforeAll(async () => {
    t = await startTestServer({ logger: true, logStream: { write: (line: string) => { log.push(line); } }, corsOrigins: DEV_VIEWER_ORIGINS });
  });
  afterAll(async () => { await t?.close(); });

  it('creates no user on signup; only the mailed code, confirmed with a password, does', async () => {
    const email = 'typed-by-someone-else@storey.test';
    const before = storeFingerprint(t);
    expect((await t.api('/signup', { method: 'POST', form: { email } })).status).toBe(202);
    expect(t.server.store.userByEmail(email)).toBeUndefined();
    expect(storeFingerprint(t)).toBe(before);
    const mail = t.server.outbox.latest(email)!;
    expect(mail.text).toContain(`${t.url}/#/signup?code=${mail.code}`);
    // the code is no password-reset code of any user, and a wrong code creates nothing
    const anyUser = t.accounts.regular;
    expect((await t.api(`/organizations/${anyUser.organizationId}/users/${anyUser.userId}/password`, { method: 'POST', json: { code: mail.code, password: 'hijacked-pass' } })).status).toBe(403);
    expect((await t.api('/signup/confirm', { method: 'POST', json: { code: 'not-the-code', password: 'some-password' } })).status).toBe(403);
    expect(storeFingerprint(t)).toBe(before);
    const ok = await t.api('/signup/confirm', { method: 'POST', json: { code: mail.code, password: 'my-own-password' } });
    expect(ok.status).toBe(201);
    const user = t.server.store.userByEmail(email)!;
    expect(user.permissions).toEqual(['USER_UPDATE_SELF']);
    expect((await t.api('/login', { method: 'POST', form: { email, password: 'my-own-password' } })).status).toBe(200);
  });

  it('refuses an expired signup code, and one for an address that has an account by now, creating nothing', async () => {
    const late = 'slow-reader@storey.test';
    await t.api('/signup', { method: 'POST', form: { email: late } });
    const code = t.server.outbox.latest(late)!.code;
    t.server.store.mailCodes.get(code)!.expiresAt = t.server.store.clock.now() - 1;
    expect((await t.api('/signup/confirm', { method: 'POST', json: { code, password: 'too-late-pass' } })).status).toBe(403);
    expect(t.server.store.userByEmail(late)).toBeUndefined();
    const twice = 'twice@storey.test';
    await t.api('/signup', { method: 'POST', form: { email: twice } });
    const first = t.server.outbox.latest(twice)!.code;
    await t.api('/signup', { method: 'POST', form: { email: twice } });
    const second = t.server.outbox.latest(twice)!.code;
    expect((await t.api('/signup/confirm', { method: 'POST', json: { code: second, password: 'first-password' } })).status).toBe(201);
    const before = storeFingerprint(t);
    expect((await t.api('/signup/confirm', { method: 'POST', json: { code: first, password: 'second-password' } })).status).toBe(409);
    expect(storeFingerprint(t)).toBe(before);
  });

  it('signing up an address that has an account mails its owner a recovery code and changes nothing', async () => {
    const victim = t.accounts.edit;
    const before = storeFingerprint(t);
    expect((await t.api('/signup', { method: 'POST', form: { email: victim.email } })).status).toBe(202);
    expect(t.server.outbox.latest(victim.email)!.purpose).toBe('recover');
    expect(storeFingerprint(t)).toBe(before);
  });

  it('mails links to the server’s own URL whatever Host the request claims', async () => {
    const email = t.accounts.service.email;
    const status = await new Promise<number>((done, fail) => {
      const body = form({ email });
      const req = request(`${t.baseUrl}/recover_password`, {
        method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
      }, (res) => { res.resume(); done(res.statusCode ?? 0); });
      req.on('error', fail);
      req.end(body);
    });
    expect(status).toBe(202);
    const mail = t.server.outbox.latest(email)!;
    expect(mail.text).not.toContain('evil.example');
    expect(mail.text).toContain(`${t.url}/#/set-password?`);
  });

  describe('CORS', () => {
    const preflight = (origin: string) => fetch(`${t.baseUrl}/login`, {
      method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    const read = (origin: string, token: string) => fetch(`${t.baseUrl}/organizations`, { headers: { origin, authorization: `Bearer ${token}` } });

    it('allows the server’s own origin and the viewer’s dev origin, with credentials', async () => {
      const token = await t.signIn('regular');
      for (const origin of [t.url, 'http://localhost:5173', 'http://127.0.0.1:5173']) {
        const res = await read(origin, token);
        expect(res.headers.get('access-control-allow-origin'), origin).toBe(origin);
        expect(res.headers.get('access-control-allow-credentials'), origin).toBe('true');
        expect((await preflight(origin)).headers.get('access-control-allow-origin'), origin).toBe(origin);
      }
    });

    it('never allows another origin, nor the null origin, and sends no credentials header to them', async () => {
      const token = await t.signIn('regular');
      for (const origin of ['https://evil.example', 'null', 'http://localhost:5174', `${t.url}.evil.example`, 'http://127.0.0.1']) {
        for (const res of [await read(origin, token), await preflight(origin)]) {
          expect(res.headers.get('access-control-allow-origin'), origin).toBeNull();
          expect(res.headers.get('access-control-allow-credentials'), origin).toBeNull();
        }
      }
    });

    it('takes the allow-list from configuration, which replaces the dev origins', async () => {
      const own = await startTestServer({ corsOrigins: ['https://viewer.example.com'] });
      try {
        const token = await own.signIn('regular');
        const get = (origin: string) => fetch(`${own.baseUrl}/organizations`, { headers: { origin, authorization: `Bearer ${token}` } });
        expect((await get('https://viewer.example.com')).headers.get('access-control-allow-origin')).toBe('https://viewer.example.com');
        expect((await get('http://localhost:5173')).headers.get('access-control-allow-origin')).toBeNull();
        expect((await get(own.url)).headers.get('access-control-allow-origin')).toBe(own.url);
      } finally {
        await own.close();
      }
    });
  });

  it('logs requests without query values or the bearer token', async () => {
    const token = await t.signIn('regular');
    log.length = 0;
    await fetch(`${t.baseUrl}/auth_uri?email=${encodeURIComponent('private.person@storey.test')}`);
    await fetch(`${t.baseUrl}/organizations?code=SECRET-CODE&auth_signature=abc123`, { headers: { authorization: `Bearer ${token}` } });
    const text = log.join('');
    expect(text).toContain('/v1/auth_uri?email=[redacted]');
    expect(text).toContain('/v1/organizations?code=[redacted]&auth_signature=[redacted]');
    for (const secret of ['private.person', 'SECRET-CODE', 'abc123', token]) expect(text).not.toContain(secret);
  });

  it('takes the bearer scheme in any case and nothing else', async () => {
    const token = await t.signIn('regular');
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      expect((await fetch(`${t.baseUrl}/organizations`, { headers: { authorization: `${scheme} ${token}` } })).status, scheme).toBe(200);
    }
    for (const header of [`Basic ${token}`, token, `Bearer${token}`, `Bearer ${token} extra`]) {
      expect((await fetch(`${t.baseUrl}/organizations`, { headers: { authorization: header } })).status, header).toBe(401);
    }
    const login = (await (await t.api('/login', { method: 'POST', form: { email: t.accounts.edit.email, password: t.accounts.edit.password } })).json()) as LoginResponse;
    expect(login.token_type).toBe('Bearer');
  });
});

describe('security: a loop on /v2/settings', () => {
  let t: TestServer;
  // the default is 600 a minute per user; lowered so the test stays short
  beforeAll(async () => { t = await startTestServer({ transport: 'mqtt', rateLimits: { settings: { perClient: 0, perAccount: 20 } } }); }, 60_000);
  afterAll(async () => { await t?.close(); });

  it('is limited per user, over all its sessions, with 429 and Retry-After; other users go on', async () => {
    const s = t.server.store;
    const sessions = [issueToken(s, t.accounts.regular.userId).token, issueToken(s, t.accounts.regular.userId).token];
    const settings = (token: string) => fetch(`${t.url}/v2/settings`, { headers: { authorization: `Bearer ${token}` } });
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => settings(sessions[i % 2]!)));
    expect(answers.filter((r) => r.status === 200).length).toBe(20);
    await expectLimited(answers.find((r) => r.status === 429)!);
    expect((await settings(issueToken(s, t.accounts.edit.userId).token)).status).toBe(200);
  });
});

describe('security: a regular user’s write loop', () => {
  let t: TestServer;
  // the default is 120 a minute per user; lowered so the test stays short
  beforeAll(async () => { t = await startTestServer({ rateLimits: { userWrites: { perClient: 0, perAccount: 10 } } }); });
  afterAll(async () => { await t?.close(); });

  it('stops at the limit with 429, publishing nothing more to the organization; others go on', async () => {
    const { store, seed } = t.server;
    const org = seed.organizationId;
    const loc = seed.locationIds[0]!;
    const token = await t.signIn('regular');
    const floor = [...store.assets.values()].find((a) => a.type === 'floor' && a.location_id === loc && store.isAssetPublic(a))!;
    const ticket = [...store.assets.values()].find((a) => a.type === 'ticket' && a.location_id === loc && store.isAssetPublic(a))!;
    const vote = `/organizations/${org}/locations/${loc}/assets/${ticket.id}/vote`;
    // toggling a vote, posting voices, moving oneself: every one is sent to every viewer
    const writes = [
      ...Array.from({ length: 4 }, (_, i) => () => t.api(vote, { method: i % 2 ? 'DELETE' : 'PUT', token, json: i % 2 ? undefined : { direction: 1 } })),
      ...Array.from({ length: 4 }, (_, i) => () => t.api(`/organizations/${org}/locations/${loc}/assets`, {
        method: 'POST', token, json: { type: 'voice', subtype: 'other', name: `Spam ${i}`, parent_id: floor.id, value: { text: 'spam' } },
      })),
      ...Array.from({ length: 4 }, (_, i) => () => t.api(`/organizations/${org}/users/${t.accounts.regular.userId}`, { method: 'PATCH', token, json: { speech_bubble: `spam ${i}` } })),
    ];
    const statuses: number[] = [];
    for (const write of writes.slice(0, 10)) statuses.push((await write()).status);
    expect(statuses.every((s) => s < 300)).toBe(true);
    const before = storeFingerprint(t);
    let published = 0;
    const stop = t.server.publisher.onPublish(() => { published += 1; });
    for (const write of writes.slice(10)) await expectLimited(await write());
    await expectLimited(await writes[0]!());
    await expectLimited(await writes[5]!());
    stop();
    expect(published).toBe(0);
    expect(storeFingerprint(t)).toBe(before);
    // another user, and the same user's reads, go on
    const other = await t.signIn('service');
    expect((await t.api(vote, { method: 'PUT', token: other, json: { direction: -1 } })).status).toBe(200);
    expect((await t.api(`/organizations/${org}/locations/${loc}/assets`, { token })).status).toBe(200);
  });
});

describe('security: a forged X-Forwarded-For without --trust-proxy', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer(); });
  afterAll(async () => { await t?.close(); });

  it('does not give one client a fresh address per request: the per-client sign-in limit still holds', async () => {
    for (let i = 0; i < 30; i += 1) {
      expect((await postFrom(t, `203.0.113.${i + 1}`, '/login', { email: `nobody${i}@storey.test`, password: 'x' })).status).toBe(401);
    }
    await expectLimited(await postFrom(t, '203.0.113.200', '/login', { email: t.accounts.regular.email, password: t.accounts.regular.password }));
  });
});

describe('security: the session cookie', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer({ trustProxy: true }); });
  afterAll(async () => { await t?.close(); });

  const signIn = (headers: Record<string, string>) => fetch(`${t.baseUrl}/login`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: form({ email: t.accounts.regular.email, password: t.accounts.regular.password }),
  });

  it('is HttpOnly and SameSite=Lax, and Secure when the server is reached over https (behind a TLS proxy), so it never travels in clear', async () => {
    const tls = await signIn({ 'x-forwarded-proto': 'https' });
    expect(tls.status).toBe(200);
    const cookie = tls.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^storey_session=[^;]+;/);
    expect(cookie).toMatch(/; Secure(;|$)/);
    expect(cookie).toMatch(/; HttpOnly(;|$)/);
    expect(cookie).toMatch(/; SameSite=Lax(;|$)/);
    const { token } = (await tls.json()) as LoginResponse;
    const out = await fetch(`${t.baseUrl}/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-forwarded-proto': 'https' } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^storey_session=;.*; Secure(;|$)/);
    // plain http (the dev viewer on localhost): a Secure cookie would never be sent back, so none is asked for
    const plain = await signIn({});
    expect(plain.headers.get('set-cookie')).not.toMatch(/Secure/);
  });
});

describe('security: the session cookie on a request from another site', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer({ transport: 'mqtt' }); }, 60_000);
  afterAll(async () => { await t?.close(); });

  it('opens nothing: a page elsewhere that navigates to /v2/settings cannot kick the user’s live connections off, nor sign them out', async () => {
    const { default: mqtt } = await import('mqtt');
    const login = await fetch(`${t.baseUrl}/login`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ email: t.accounts.regular.email, password: t.accounts.regular.password }),
    });
    const { token } = (await login.json()) as LoginResponse;
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    // four tabs of the session, each with its own broker credentials (the most a session keeps)
    const tabs = [];
    for (let i = 0; i < 4; i += 1) {
      const s = (await (await fetch(`${t.url}/v2/settings`, { headers: { authorization: `Bearer ${token}` } })).json()) as { mqtt_config: { mqtt_url: string; username: string; password: string; client_id: string } };
      const c = s.mqtt_config;
      tabs.push(await mqtt.connectAsync(c.mqtt_url, { protocolVersion: 5, username: c.username, password: c.password, clientId: c.client_id, reconnectPeriod: 0 }));
    }
    // what a browser sends when another site's page opens the address (a link, a form, window.open)
    const crossSite = { cookie, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
    for (let i = 0; i < 4; i += 1) expect((await fetch(`${t.url}/v2/settings`, { headers: crossSite })).status).toBe(401);
    expect((await fetch(`${t.baseUrl}/logout`, { method: 'POST', headers: crossSite })).status).toBe(401);
    await new Promise((r) => setTimeout(r, 300));
    expect(tabs.map((c) => c.connected)).toEqual([true, true, true, true]);
    expect((await t.api('/notifications', { token })).status).toBe(200);
    // the viewer's own requests (same origin, or its dev server on another port of the same site) still use it
    for (const site of ['same-origin', 'same-site', 'none']) {
      expect((await fetch(`${t.url}/v2/settings`, { headers: { cookie, 'sec-fetch-site': site } })).status, site).toBe(200);
    }
    for (const c of tabs) await c.endAsync(true);
  });
});
