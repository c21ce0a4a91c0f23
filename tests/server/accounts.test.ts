import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResponse } from '../../src/shared/rest.js';
import type { Settings } from '../../src/shared/types.js';
import type { Mail } from '../../server/mail.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const HS_SECRET = 'openid-test-secret';
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });

function jwt(claims: Record<string, unknown>, alg: 'HS256' | 'RS256', key: string | import('node:crypto').KeyObject): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const data = `${b64({ alg, typ: 'JWT' })}.${b64(claims)}`;
  const sig = alg === 'HS256'
    ? createHmac('sha256', key as string).update(data).digest()
    : sign('RSA-SHA256', Buffer.from(data), key as import('node:crypto').KeyObject);
  return `${data}.${sig.toString('base64url')}`;
}

describe('server accounts', () => {
  let t: TestServer;
  let rs: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ openId: { key: HS_SECRET, algorithm: 'HS256', audience: 'storey' } });
    rs = await startTestServer({ openId: { key: rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString(), algorithm: 'RS256', audience: 'storey' } });
  });
  afterAll(async () => {
    await t?.close();
    await rs?.close();
  });

  describe('POST /login', () => {
    it('answers a bearer token for the right form credentials', async () => {
      const res = await t.api('/login', { method: 'POST', form: { email: t.accounts.regular.email, password: t.accounts.regular.password } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as LoginResponse;
      expect(body.token_type).toBe('Bearer');
      expect(body.token.length).toBeGreaterThanOrEqual(40);
      expect(body.user_id).toBe(t.accounts.regular.userId);
      expect(res.headers.get('set-cookie')).toMatch(/storey_session=.*HttpOnly/i);
    });
    it('refuses a wrong password with 401', async () => {
      const res = await t.api('/login', { method: 'POST', form: { email: t.accounts.regular.email, password: 'wrong-password' } });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { message: string }).message).toBe('Invalid email or password');
    });
    it('refuses a body without a password with 400 naming the field', async () => {
      const res = await t.api('/login', { method: 'POST', form: { email: t.accounts.regular.email } });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain('password');
    });
  });

  describe('POST /openid_login', () => {
    const claims = (extra: Record<string, unknown> = {}) => ({ email: 'edit@storey.test', email_verified: true, aud: 'storey', exp: Math.floor(Date.now() / 1000) + 600, ...extra });
    it('signs in with an HS256 id_token signed by the configured key', async () => {
      const res = await t.api('/openid_login', { method: 'POST', form: { id_token: jwt(claims(), 'HS256', HS_SECRET) } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as LoginResponse).user_id).toBe(t.accounts.edit.userId);
    });
    it('signs in with an RS256 id_token', async () => {
      const res = await rs.api('/openid_login', { method: 'POST', form: { id_token: jwt(claims(), 'RS256', rsa.privateKey) } });
      expect(res.status).toBe(200);
    });
    it('refuses a token signed with another key, an expired one, or one for another audience with 401', async () => {
      for (const token of [
        jwt(claims(), 'HS256', 'another-secret'),
        jwt(claims({ exp: Math.floor(Date.now() / 1000) - 10 }), 'HS256', HS_SECRET),
        jwt(claims({ aud: 'someone-else' }), 'HS256', HS_SECRET),
        jwt(claims(), 'RS256', rsa.privateKey),
      ]) {
        const res = await t.api('/openid_login', { method: 'POST', form: { id_token: token } });
        expect(res.status).toBe(401);
      }
    });
    it('refuses a missing id_token with 400', async () => {
      expect((await t.api('/openid_login', { method: 'POST', form: {} })).status).toBe(400);
    });
  });

  describe('signup, recovery and invite', () => {
    const outbox = async (): Promise<Mail[]> => (await (await t.api('/dev/outbox')).json()) as Mail[];

    it('signs up an address of the organization domain once the mailed code is confirmed with a password', async () => {
      const email = 'newcomer@storey.test';
      const res = await t.api('/signup', { method: 'POST', form: { email } });
      expect(res.status).toBe(202);
      const mail = (await outbox()).find((m) => m.to === email)!;
      expect(mail.purpose).toBe('signup');
      expect(mail.text).toContain(mail.code);
      expect(mail.user_id).toBeNull();
      const confirm = await t.api('/signup/confirm', { method: 'POST', json: { code: mail.code, password: 'brand-new-pass' } });
      expect(confirm.status).toBe(201);
      const created = (await confirm.json()) as { user_id: string; organization_id: string; email: string };
      expect(created.organization_id).toBe(mail.organization_id);
      expect(created.email).toBe(email);
      expect(t.server.store.userByEmail(email)?.id).toBe(created.user_id);
      expect((await t.api('/login', { method: 'POST', form: { email, password: 'brand-new-pass' } })).status).toBe(200);
      // the code is single use
      const again = await t.api('/signup/confirm', { method: 'POST', json: { code: mail.code, password: 'another-pass-1' } });
      expect(again.status).toBe(403);
    });
    it('answers 202 for an unknown domain without sending mail', async () => {
      const before = (await outbox()).length;
      expect((await t.api('/signup', { method: 'POST', form: { email: 'nobody@unknown.example' } })).status).toBe(202);
      expect((await outbox()).length).toBe(before);
    });
    it('refuses a malformed email with 400', async () => {
      expect((await t.api('/signup', { method: 'POST', form: { email: 'not-an-email' } })).status).toBe(400);
      expect((await t.api('/recover_password', { method: 'POST', form: {} })).status).toBe(400);
    });
    it('recovers a password through the mailed code', async () => {
      const res = await t.api('/recover_password', { method: 'POST', form: { email: t.accounts.service.email } });
      expect(res.status).toBe(202);
      const mail = t.server.outbox.latest(t.accounts.service.email)!;
      expect(mail.purpose).toBe('recover');
      const set = await t.api(`/organizations/${mail.organization_id}/users/${mail.user_id}/password`, { method: 'POST', json: { code: mail.code, password: 'recovered-pass' } });
      expect(set.status).toBe(204);
      expect((await t.api('/login', { method: 'POST', form: { email: t.accounts.service.email, password: 'recovered-pass' } })).status).toBe(200);
      t.accounts.service.password = 'recovered-pass';
    });
    it('changes the own password only with the old one', async () => {
      const token = await t.signIn('regular');
      const { organizationId, userId, password } = t.accounts.regular;
      const path = `/organizations/${organizationId}/users/${userId}/password`;
      expect((await t.api(path, { method: 'POST', token, json: { old_password: 'wrong-one', password: 'changed-pass' } })).status).toBe(403);
      expect((await t.api(path, { method: 'POST', token, json: { old_password: password, password: 'short' } })).status).toBe(400);
      expect((await t.api(path, { method: 'POST', json: { old_password: password, password: 'changed-pass' } })).status).toBe(401);
      expect((await t.api(path, { method: 'POST', token, json: { old_password: password, password: 'changed-pass' } })).status).toBe(204);
      t.accounts.regular.password = 'changed-pass';
      const edit = await t.signIn('edit');
      const other = `/organizations/${organizationId}/users/${t.accounts.edit.userId}/password`;
      expect((await t.api(other, { method: 'POST', token, json: { old_password: 'changed-pass', password: 'hijacked-pass' } })).status).toBe(403);
      expect(edit).toBeTruthy();
    });
    it('invites a user by mail (edit role) and refuses the regular role with 403', async () => {
      const org = t.accounts.edit.organizationId;
      const regular = await t.signIn('regular');
      expect((await t.api(`/organizations/${org}/invite_user`, { method: 'POST', token: regular, json: { email: 'guest@storey.test' } })).status).toBe(403);
      const edit = await t.signIn('edit');
      const res = await t.api(`/organizations/${org}/invite_user`, { method: 'POST', token: edit, json: { email: 'guest@storey.test', first_name: 'Gus' } });
      expect(res.status).toBe(201);
      const mail = t.server.outbox.latest('guest@storey.test')!;
      expect(mail.purpose).toBe('invite');
      expect((await t.api(`/organizations/${org}/invite_user`, { method: 'POST', token: edit, json: { email: 'guest@storey.test' } })).status).toBe(409);
      expect((await t.api(`/organizations/${org}/invite_user`, { method: 'POST', token: edit, json: { mail: 'x' } })).status).toBe(400);
      expect((await t.api(`/organizations/${t.accounts.otherOrg.organizationId}/invite_user`, { method: 'POST', token: edit, json: { email: 'spy@storey.test' } })).status).toBe(403);
      expect((await t.api('/organizations/999999/invite_user', { method: 'POST', token: edit, json: { email: 'x@storey.test' } })).status).toBe(404);
    });
  });

  describe('GET /auth_uri', () => {
    it('answers the organization single-sign-on URI, or null for password sign-in', async () => {
      const sso = await (await t.api('/auth_uri?email=someone@other.test')).json();
      expect(sso).toEqual({ uri: 'https://sso.other.test/authorize' });
      expect(await (await t.api(`/auth_uri?email=${t.accounts.edit.email}`)).json()).toEqual({ uri: null });
      expect((await t.api('/auth_uri')).status).toBe(400);
    });
  });

  describe('GET /current_time', () => {
    it('answers the server time in ms without a token', async () => {
      const before = Date.now();
      const { time } = (await (await t.api('/current_time')).json()) as { time: number };
      expect(time).toBeGreaterThanOrEqual(before - 5);
      expect(time).toBeLessThanOrEqual(Date.now() + 5);
    });
  });

  describe('GET /v2/settings', () => {
    it('answers user, permissions, cdn_base_url and the pusher_config to connect with', async () => {
      const token = await t.signIn('edit');
      const res = await fetch(`${t.url}/v2/settings`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      const settings = (await res.json()) as Settings;
      expect(settings.user.id).toBe(t.accounts.edit.userId);
      expect(settings.permissions).toEqual(['ASSET_UPDATE', 'USER_UPDATE_SELF']);
      expect(settings.cdn_base_url).toBe(`${t.url}/v1/files/`);
      expect(settings.pusher_config).toEqual({
        app_key: t.server.pusher.key, cluster: 'local', ws_host: '127.0.0.1', ws_port: Number(new URL(t.url).port), force_tls: false,
      });
      expect(settings.mqtt_config).toBeUndefined();
    });
    it('accepts the session cookie set by /login (credentials included)', async () => {
      const login = await t.api('/login', { method: 'POST', form: { email: t.accounts.edit.email, password: t.accounts.edit.password } });
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      const res = await fetch(`${t.url}/v2/settings`, { headers: { cookie } });
      expect(res.status).toBe(200);
    });
    it('answers 401 without credentials, and the cookie opens no other route', async () => {
      expect((await fetch(`${t.url}/v2/settings`)).status).toBe(401);
      const login = await t.api('/login', { method: 'POST', form: { email: t.accounts.edit.email, password: t.accounts.edit.password } });
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      expect((await t.api('/notifications', { headers: { cookie } })).status).toBe(401);
    });
  });
});
