// Issue 12 §1 — roles inside one organization, played against the real
// reference server: every role tries every change on a user of every role
// (and on itself), and each refusal is shown to leave the user, their
// credentials and their sessions exactly as they were. Also the take-over
// chain of the issue, role grants on create and invite, and OpenID sign-in
// with an unverified email.

import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_PERMISSIONS } from '../../src/shared/constants.js';
import { restPaths, type WireUser } from '../../src/shared/rest.js';
import type { Role } from '../../src/shared/types.js';
import { hashPassword, issueToken, type OpenIdOptions } from '../../server/auth.js';
import { ADDRESS_UNPROVEN } from '../../server/routes/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { messageOf } from './support/attack.js';

const ROLES = ['admin', 'edit', 'service', 'regular'] as const;
const PERMISSIONS: Record<Role, string[]> = {
  admin: Object.values(ROLE_PERMISSIONS),
  edit: [ROLE_PERMISSIONS.edit, ROLE_PERMISSIONS.regular],
  service: [ROLE_PERMISSIONS.service, ROLE_PERMISSIONS.regular],
  regular: [ROLE_PERMISSIONS.regular],
};
const RANK: Record<Role, number> = { regular: 0, service: 1, edit: 2, admin: 3 };
const OPENID_SECRET = 'security-roles-openid-secret';

/** The rule under test, written out independently of the server's code. */
function allowedOnOther(actor: Role, target: Role, change: Change): boolean {
  const manages = actor === 'admin' || (actor === 'edit' && RANK[target] < RANK.edit);
  switch (change) {
    case 'profile': case 'avatar': case 'tag': case 'delete': return manages;
    case 'email': case 'permissions': case 'password': return actor === 'admin';
  }
}

/** `tag`: removing the user's location tag (DELETE /location_tags/{id}), which clears their `location_tag_id` */
type Change = 'profile' | 'email' | 'permissions' | 'password' | 'avatar' | 'tag' | 'delete';
const CHANGES: Change[] = ['profile', 'email', 'permissions', 'password', 'avatar', 'tag', 'delete'];

describe('security: roles inside an organization', () => {
  let t: TestServer;
  let org: string;
  let tokens: Record<Role, string>;
  let serial = 0;

  /** A fresh user of `role` with a password, an avatar, a location tag and an open session. */
  function makeUser(role: Role) {
    const s = t.server.store;
    serial += 1;
    const user = s.createUser(org, { email: `target.${role}.${serial}@storey.test`, first_name: 'Target', permissions: PERMISSIONS[role] });
    const password = `pw-${role}-${serial}-secret`;
    s.credentials.set(user.id, { passwordHash: hashPassword(password) });
    s.files.set(`avatars/${user.id}.svg`, { contentType: 'image/svg+xml', data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
    s.updateUser(user.id, { avatar_url: `avatars/${user.id}.svg` });
    const loc = t.server.seed.locationIds[0]!;
    const sensor = [...s.sensors.values()].find((x) => x.location_id === loc)!;
    s.createLocationTag({ organization_id: org, location_id: loc, user_id: user.id, sensor_id: sensor.id });
    const { token } = issueToken(s, user.id);
    return { user, password, token };
  }

  /** The user, their credentials, their location tags and whether their session still works, as one string. */
  async function fingerprint(userId: string, token: string): Promise<string> {
    const s = t.server.store;
    const session = await t.api(restPaths.notifications(), { token });
    const tags = [...s.locationTags.values()].filter((tag) => tag.user_id === userId);
    return JSON.stringify([s.users.get(userId) ?? null, s.credentials.get(userId) ?? null, tags, session.status]);
  }

  function attempt(change: Change, actorToken: string, target: WireUser): Promise<Response> {
    const path = restPaths.user(org, target.id);
    switch (change) {
      case 'profile': return t.api(path, { method: 'PATCH', token: actorToken, json: { first_name: 'Renamed' } });
      case 'email': return t.api(path, { method: 'PATCH', token: actorToken, json: { email: `attacker.${serial}@evil.example` } });
      // raise a lower user to admin, or strip an admin
      case 'permissions': return t.api(path, {
        method: 'PATCH', token: actorToken,
        json: { permissions: target.permissions.includes(ROLE_PERMISSIONS.admin) ? PERMISSIONS.regular : PERMISSIONS.admin },
      });
      case 'password': return t.api(restPaths.userPassword(org, target.id), { method: 'POST', token: actorToken, json: { password: 'taken-over-pass' } });
      case 'avatar': return t.api(restPaths.userImage(org, target.id), { method: 'DELETE', token: actorToken });
      case 'tag': return t.api(restPaths.locationTag(target.location_tag_id!), { method: 'DELETE', token: actorToken });
      case 'delete': return t.api(path, { method: 'DELETE', token: actorToken });
    }
  }

  beforeAll(async () => {
    t = await startTestServer({ openId: { key: OPENID_SECRET, algorithm: 'HS256', audience: 'storey' } });
    org = t.accounts.admin.organizationId;
    tokens = Object.fromEntries(ROLES.map((r) => [r, issueToken(t.server.store, t.accounts[r].userId).token])) as Record<Role, string>;
  });
  afterAll(async () => { await t?.close(); });

  describe.each(ROLES)('%s acting on another user', (actor) => {
    it.each(ROLES)('changes a user with the %s role only where the rule allows, and a refusal changes nothing', async (targetRole) => {
      for (const change of CHANGES) {
        const { user, token } = makeUser(targetRole);
        const before = await fingerprint(user.id, token);
        const res = await attempt(change, tokens[actor], user);
        const label = `${actor} → ${targetRole}: ${change}`;
        if (allowedOnOther(actor, targetRole, change)) {
          expect.soft(res.status, label).toBeLessThan(300);
          expect.soft(await fingerprint(user.id, token), label).not.toBe(before);
        } else {
          expect.soft(res.status, label).toBe(403);
          expect.soft(await fingerprint(user.id, token), label).toBe(before);
        }
      }
    });
  });

  describe.each(ROLES)('%s acting on itself', (role) => {
    it('changes its own profile and avatar, but not its own permissions unless admin', async () => {
      const me = makeUser(role);
      expect((await t.api(restPaths.user(org, me.user.id), { method: 'PATCH', token: me.token, json: { first_name: 'Me', visible: false } })).status).toBe(200);
      expect((await t.api(restPaths.userImage(org, me.user.id), { method: 'DELETE', token: me.token })).status).toBe(204);
      const before = await fingerprint(me.user.id, me.token);
      const raise = await t.api(restPaths.user(org, me.user.id), { method: 'PATCH', token: me.token, json: { permissions: PERMISSIONS.admin } });
      if (role === 'admin') {
        expect(raise.status).toBe(200);
      } else {
        expect(raise.status).toBe(403);
        expect(await fingerprint(me.user.id, me.token)).toBe(before);
      }
    });

    it('changes its own email only with the current password', async () => {
      const me = makeUser(role);
      const path = restPaths.user(org, me.user.id);
      const before = await fingerprint(me.user.id, me.token);
      const bare = await t.api(path, { method: 'PATCH', token: me.token, json: { email: `new.${me.user.id}@storey.test` } });
      expect(bare.status).toBe(403);
      expect(await messageOf(bare)).toBe('Changing your email needs your current password in body/current_password');
      expect((await t.api(path, { method: 'PATCH', token: me.token, json: { email: `new.${me.user.id}@storey.test`, current_password: 'guessed-wrong' } })).status).toBe(403);
      expect(await fingerprint(me.user.id, me.token)).toBe(before);
      const ok = await t.api(path, { method: 'PATCH', token: me.token, json: { email: `new.${me.user.id}@storey.test`, current_password: me.password } });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as WireUser & { current_password?: unknown }).current_password).toBeUndefined();
      expect(t.server.store.users.get(me.user.id)!.email).toBe(`new.${me.user.id}@storey.test`);
      expect(JSON.stringify(t.server.store.users.get(me.user.id))).not.toContain(me.password);
    });

    it('changes its own password only with the old one, and may not delete itself', async () => {
      const me = makeUser(role);
      const path = restPaths.userPassword(org, me.user.id);
      const before = await fingerprint(me.user.id, me.token);
      expect((await t.api(path, { method: 'POST', token: me.token, json: { password: 'fresh-password-1' } })).status).toBe(403);
      expect((await t.api(path, { method: 'POST', token: me.token, json: { password: 'fresh-password-1', old_password: 'not-it' } })).status).toBe(403);
      expect((await t.api(restPaths.user(org, me.user.id), { method: 'DELETE', token: me.token })).status).toBe(409);
      expect(await fingerprint(me.user.id, me.token)).toBe(before);
      expect((await t.api(path, { method: 'POST', token: me.token, json: { password: 'fresh-password-1', old_password: me.password } })).status).toBe(204);
    });
  });

  it('stops the take-over of the issue at its first step: edit cannot point the admin account at its own mailbox', async () => {
    const admin = t.accounts.admin;
    const before = await fingerprint(admin.userId, tokens.admin);
    const hijack = await t.api(restPaths.user(org, admin.userId), { method: 'PATCH', token: tokens.edit, json: { email: 'edit.owns.you@storey.test' } });
    expect(hijack.status).toBe(403);
    expect((await t.api(restPaths.recoverPassword(), { method: 'POST', form: { email: 'edit.owns.you@storey.test' } })).status).toBe(202);
    expect(t.server.outbox.latest('edit.owns.you@storey.test')).toBeUndefined();
    expect((await t.api(restPaths.user(org, admin.userId), { method: 'PATCH', token: tokens.edit, json: { first_name: 'Pwned' } })).status).toBe(403);
    expect((await t.api(restPaths.user(org, admin.userId), { method: 'DELETE', token: tokens.edit })).status).toBe(403);
    expect(await fingerprint(admin.userId, tokens.admin)).toBe(before);
  });

  it('lets create and invite grant only roles below the caller’s own, except for an admin', async () => {
    const count = () => t.server.store.users.size;
    const n = count();
    for (const permissions of [PERMISSIONS.edit, PERMISSIONS.admin, [ROLE_PERMISSIONS.edit]]) {
      expect((await t.api(restPaths.users(org), { method: 'POST', token: tokens.edit, json: { email: `grant.${permissions.length}.${n}@storey.test`, permissions } })).status).toBe(403);
      expect((await t.api(restPaths.inviteUser(org), { method: 'POST', token: tokens.edit, json: { email: `invite.${permissions.length}.${n}@storey.test`, permissions } })).status).toBe(403);
    }
    expect(count()).toBe(n);
    expect((await t.api(restPaths.users(org), { method: 'POST', token: tokens.edit, json: { email: `staff.${n}@storey.test`, permissions: PERMISSIONS.service } })).status).toBe(201);
    expect((await t.api(restPaths.users(org), { method: 'POST', token: tokens.admin, json: { email: `boss.${n}@storey.test`, permissions: PERMISSIONS.admin } })).status).toBe(201);
    expect((await t.api(restPaths.users(org), { method: 'POST', token: tokens.regular, json: { email: `nope.${n}@storey.test` } })).status).toBe(403);
  });

  it('lets only an admin create a user with a password: an edit user would know the password of an account it does not own', async () => {
    const n = t.server.store.users.size;
    const planted = { email: `future.boss.${n}@storey.test`, password: 'planted-password-1' };
    const refused = await t.api(restPaths.users(org), { method: 'POST', token: tokens.edit, json: planted });
    expect(refused.status).toBe(403);
    expect(await messageOf(refused)).toBe('Only the user or an admin may change a password');
    expect(t.server.store.userByEmail(planted.email)).toBeUndefined();
    // the edit user invites instead: the mail, not the edit user, sets the password
    expect((await t.api(restPaths.users(org), { method: 'POST', token: tokens.edit, json: { email: planted.email } })).status).toBe(201);
    expect((await t.api(restPaths.login(), { method: 'POST', form: planted })).status).toBe(401);
    const byAdmin = { email: `made.by.admin.${n}@storey.test`, password: 'admin-made-pass-1' };
    expect((await t.api(restPaths.users(org), { method: 'POST', token: tokens.admin, json: byAdmin })).status).toBe(201);
    expect((await t.api(restPaths.login(), { method: 'POST', form: byAdmin })).status).toBe(200);
  });

  describe('OpenID sign-in', () => {
    const idToken = (claims: Record<string, unknown>) => {
      const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const data = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ aud: 'storey', exp: Math.floor(Date.now() / 1000) + 600, ...claims })}`;
      return `${data}.${createHmac('sha256', OPENID_SECRET).update(data).digest('base64url')}`;
    };

    it('refuses an id_token whose email is not verified, issuing no session', async () => {
      const sessions = t.server.store.tokens.size;
      for (const verified of [false, 'false', undefined, null, 'yes']) {
        const res = await t.api(restPaths.openidLogin(), { method: 'POST', form: { id_token: idToken({ email: t.accounts.admin.email, email_verified: verified }) } });
        expect.soft(res.status, String(verified)).toBe(401);
        expect.soft(res.headers.get('set-cookie'), String(verified)).toBeNull();
      }
      expect(t.server.store.tokens.size).toBe(sessions);
      const ok = await t.api(restPaths.openidLogin(), { method: 'POST', form: { id_token: idToken({ email: t.accounts.regular.email, email_verified: true }) } });
      expect(ok.status).toBe(200);
    });

    it('does not open an account for the owner of an address its user gave themself, until a mail to that address came back', async () => {
      // a regular user takes the address of a colleague who has not signed in yet, keeping its own password
      const squatter = makeUser('regular');
      const address = `future.ceo.${squatter.user.id}@storey.test`;
      const sso = () => t.api(restPaths.openidLogin(), { method: 'POST', form: { id_token: idToken({ email: address, email_verified: true }) } });
      const moved = await t.api(restPaths.user(org, squatter.user.id), { method: 'PATCH', token: squatter.token, json: { email: address, current_password: squatter.password } });
      expect(moved.status).toBe(200);
      const sessions = t.server.store.tokens.size;
      // the colleague signs in with the company's identity provider: not into the squatter's account
      const refused = await sso();
      expect(refused.status).toBe(401);
      expect(await messageOf(refused)).toBe(ADDRESS_UNPROVEN);
      expect(refused.headers.get('set-cookie')).toBeNull();
      expect(t.server.store.tokens.size).toBe(sessions);
      // changing its own password with the old one proves nothing about the address
      const newPassword = 'squatter-new-pass-1';
      expect((await t.api(restPaths.userPassword(org, squatter.user.id), { method: 'POST', token: squatter.token, json: { password: newPassword, old_password: squatter.password } })).status).toBe(204);
      expect((await sso()).status).toBe(401);
      // the address's owner recovers the account by mail: the squatter is out, and single sign-on works from now on
      expect((await t.api(restPaths.recoverPassword(), { method: 'POST', form: { email: address } })).status).toBe(202);
      const code = t.server.outbox.latest(address)!.code!;
      expect((await t.api(restPaths.userPassword(org, squatter.user.id), { method: 'POST', json: { password: 'owner-pass-123', code } })).status).toBe(204);
      expect((await t.api(restPaths.notifications(), { token: squatter.token })).status).toBe(401);
      expect((await t.api(restPaths.login(), { method: 'POST', form: { email: address, password: newPassword } })).status).toBe(401);
      expect((await sso()).status).toBe(200);
    });

    it('refuses an id_token the provider issued to another app, or to no app, issuing no session', async () => {
      const sessions = t.server.store.tokens.size;
      // a token the user's provider gave a third-party app they also signed in to, replayed here
      for (const aud of ['another-app', ['another-app', 'a-third'], undefined, '', null]) {
        const res = await t.api(restPaths.openidLogin(), { method: 'POST', form: { id_token: idToken({ email: t.accounts.admin.email, email_verified: true, aud }) } });
        expect.soft(res.status, JSON.stringify(aud)).toBe(401);
      }
      expect(t.server.store.tokens.size).toBe(sessions);
      // one naming this server among others is taken
      expect((await t.api(restPaths.openidLogin(), { method: 'POST', form: { id_token: idToken({ email: t.accounts.regular.email, email_verified: true, aud: ['another-app', 'storey'] }) } })).status).toBe(200);
    });

    it('refuses an id_token of another issuer when one is configured (another tenant of a provider signing with the same key)', async () => {
      const tenant = await startTestServer({ openId: { key: OPENID_SECRET, algorithm: 'HS256', audience: 'storey', issuer: 'https://idp.storey.test/tenant-a' } });
      try {
        const login = (iss: unknown) => tenant.api(restPaths.openidLogin(), { method: 'POST', form: { id_token: idToken({ email: tenant.accounts.admin.email, email_verified: true, iss }) } });
        for (const iss of ['https://idp.storey.test/tenant-b', undefined, '']) expect.soft((await login(iss)).status, String(iss)).toBe(401);
        expect((await login('https://idp.storey.test/tenant-a')).status).toBe(200);
      } finally {
        await tenant.close();
      }
    });

    it('does not start OpenID sign-in without an audience to check', async () => {
      const noAudience = { key: OPENID_SECRET, algorithm: 'HS256' } as unknown as OpenIdOptions;
      await expect(startTestServer({ openId: noAudience })).rejects.toThrow(/OpenID sign-in needs an audience/);
      await expect(startTestServer({ openId: { ...noAudience, audience: '' } })).rejects.toThrow(/OpenID sign-in needs an audience/);
    });

    it('keeps another organization’s users off this organization’s addresses, and proves no address outside their own domains', async () => {
      const n = t.server.store.users.size;
      const orgB = t.accounts.otherOrg.organizationId;
      const editOfB = issueToken(t.server.store, t.accounts.otherOrg.userId).token;
      const sso = (email: string) => t.api(restPaths.openidLogin(), { method: 'POST', form: { id_token: idToken({ email, email_verified: true }) } });
      // the other organization's edit user squats the address of this organization's next hire: refused, nothing made or mailed
      const hire = `next.hire.${n}@storey.test`;
      for (const [path, json] of [[restPaths.users(orgB), { email: hire }], [restPaths.inviteUser(orgB), { email: hire }]] as const) {
        const res = await t.api(path, { method: 'POST', token: editOfB, json });
        expect(res.status).toBe(403);
        expect(await messageOf(res)).toBe('This address is of another organization\'s email domain');
      }
      const moved = await t.api(restPaths.user(orgB, t.accounts.otherOrg.userId), { method: 'PATCH', token: editOfB, json: { email: `ceo.${n}@storey.test`, current_password: t.accounts.otherOrg.password } });
      expect(moved.status).toBe(403);
      expect(t.server.store.userByEmail(hire)).toBeUndefined();
      expect(t.server.outbox.latest(hire)).toBeUndefined();
      // this organization's own edit user makes that account: single sign-on opens it at once (the control)
      expect((await t.api(restPaths.users(org), { method: 'POST', token: tokens.edit, json: { email: hire } })).status).toBe(201);
      expect((await sso(hire)).status).toBe(200);
      // an address of no organization's domain: an invitation; no account, so single sign-on opens nothing, until the mailed code comes back
      const contractor = `contractor.${n}@elsewhere.test`;
      expect((await t.api(restPaths.users(orgB), { method: 'POST', token: editOfB, json: { email: contractor } })).status).toBe(202);
      expect(t.server.store.userByEmail(contractor)).toBeUndefined();
      expect((await sso(contractor)).status).toBe(401);
      expect((await t.api(restPaths.signupConfirm(), { method: 'POST', form: { code: t.server.outbox.latest(contractor)!.code, password: 'contractor-pass-1' } })).status).toBe(201);
      expect(t.server.store.userByEmail(contractor)?.organization_id).toBe(orgB);
      expect((await sso(contractor)).status).toBe(200);
      // an admin reaches every organization, addresses included
      expect((await t.api(restPaths.users(orgB), { method: 'POST', token: tokens.admin, json: { email: `seconded.${n}@storey.test` } })).status).toBe(201);
    });

    it('opens at once an account an admin moved to a new address', async () => {
      const user = makeUser('regular');
      const address = `moved.by.admin.${user.user.id}@storey.test`;
      expect((await t.api(restPaths.user(org, user.user.id), { method: 'PATCH', token: tokens.admin, json: { email: address } })).status).toBe(200);
      expect((await t.api(restPaths.openidLogin(), { method: 'POST', form: { id_token: idToken({ email: address, email_verified: true }) } })).status).toBe(200);
    });
  });
});
