// Whether an address has an account in another organization is that
// organization's business. Until 2026-11-25 an edit user creating or inviting
// an address learnt it from a 409; now a non-admin's account for an address of
// no organization's domain is an invitation, made when its mailed code comes
// back, and the answer is 202 whether the address is free or taken elsewhere
// (whose owner is mailed instead). A 409 is left only for an account of the
// caller's own organization, which the caller can list anyway
// (docs/security.md "Addresses that have an account"). GET /auth_uri answers
// by the address's domain only, so it tells no account either.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_PERMISSIONS } from '../../src/shared/constants.js';
import { hashPassword, issueToken } from '../../server/auth.js';
import { restPaths } from '../../src/shared/rest.js';
import { DEMO_DOMAIN, OTHER_DOMAIN } from '../../server/seed/demo.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { messageOf } from './support/attack.js';

describe('security: creating or inviting an address says nothing about other organizations', () => {
  let t: TestServer;
  let tokens: Awaited<ReturnType<TestServer['signInAll']>>;
  let org: string;
  let orgB: string;
  let serial = 0;
  const fresh = (name: string) => `${name}.${++serial}@freemail.test`;
  const routes = () => [['create', restPaths.users(org)], ['invite', restPaths.inviteUser(org)]] as const;

  beforeAll(async () => {
    t = await startTestServer();
    tokens = await t.signInAll();
    org = t.accounts.edit.organizationId;
    orgB = t.accounts.otherOrg.organizationId;
  });
  afterAll(async () => { await t?.close(); });

  it('answers the same for an address with an account in another organization as for a free one, and mails the owner instead', async () => {
    for (const [what, path] of routes()) {
      // an account of another organization, at an address of no organization's domain (a contractor's)
      const taken = fresh(`taken.${what}`);
      const owner = t.server.store.createUser(orgB, { email: taken, first_name: 'Owner' });
      const usersBefore = t.server.store.users.size;
      const free = fresh(`free.${what}`);
      const answers = [];
      for (const email of [free, taken]) {
        const res = await t.api(path, { method: 'POST', token: tokens.edit, json: { email, first_name: 'Pat' } });
        answers.push({ status: res.status, body: await res.json() as unknown });
      }
      expect(answers[0]).toEqual({ status: 202, body: { status: 'accepted' } });
      expect(answers[1], `${what}: the answer for an address taken elsewhere`).toEqual(answers[0]);
      // nothing made yet, in either organization; the other organization's account unchanged
      expect(t.server.store.users.size).toBe(usersBefore);
      expect(t.server.store.userByEmail(taken)).toEqual(owner);
      // the owner learns of it, with a way into their own account; the free address gets its invitation
      const toOwner = t.server.outbox.latest(taken)!;
      expect(toOwner).toMatchObject({ purpose: 'recover', user_id: owner.id, organization_id: orgB, subject: 'Storey Demo invited you to Storey' });
      expect(toOwner.text).toContain('already has an account; nothing was changed');
      expect(t.server.outbox.latest(free)).toMatchObject({ purpose: 'invite', user_id: null, organization_id: org });
    }
  });

  it('makes the invited account when its code comes back: in the inviting organization, with the role granted, proven', async () => {
    for (const [what, path] of routes()) {
      const email = fresh(`joins.${what}`);
      const res = await t.api(path, { method: 'POST', token: tokens.edit, json: { email, first_name: 'Sam', last_name: 'Lee', permissions: [ROLE_PERMISSIONS.service, ROLE_PERMISSIONS.regular] } });
      expect(res.status).toBe(202);
      const mail = t.server.outbox.latest(email)!;
      expect(mail.text).toContain(`/#/signup?code=${mail.code}`);
      const confirmed = await t.api(restPaths.signupConfirm(), { method: 'POST', form: { code: mail.code, password: `pw-${what}-joins-1` } });
      expect(confirmed.status).toBe(201);
      const user = t.server.store.userByEmail(email)!;
      expect(user).toMatchObject({ organization_id: org, first_name: 'Sam', last_name: 'Lee', permissions: [ROLE_PERMISSIONS.service, ROLE_PERMISSIONS.regular] });
      expect(t.server.store.credentials.get(user.id)?.addressUnproven).toBeFalsy();
      expect((await t.api(restPaths.login(), { method: 'POST', form: { email, password: `pw-${what}-joins-1` } })).status).toBe(200);
      // single use
      expect((await t.api(restPaths.signupConfirm(), { method: 'POST', form: { code: mail.code, password: 'another-pass-1' } })).status).toBe(403);
    }
  });

  it('mails one address no more often than a signup does, free or taken, whichever route', async () => {
    for (const taken of [false, true]) {
      const email = fresh(taken ? 'flooded.owner' : 'flooded');
      if (taken) t.server.store.createUser(orgB, { email });
      const mailsBefore = t.server.outbox.list().filter((m) => m.to === email).length;
      const statuses = [];
      for (const [, path] of [...routes(), ...routes()]) statuses.push((await t.api(path, { method: 'POST', token: tokens.edit, json: { email } })).status);
      expect(statuses).toEqual([202, 202, 202, 429]);
      expect(t.server.outbox.list().filter((m) => m.to === email).length - mailsBefore).toBe(3);
    }
  });

  it('still refuses with 409 an address of the caller’s own organization, which the caller can list', async () => {
    for (const [, path] of routes()) {
      const mine = t.server.store.createUser(org, { email: fresh('colleague') });
      const res = await t.api(path, { method: 'POST', token: tokens.edit, json: { email: mine.email } });
      expect(res.status).toBe(409);
      expect(await messageOf(res)).toBe('A user with this email exists');
      const listed = await (await t.api(restPaths.users(org), { token: tokens.edit })).json() as Array<{ email: string }>;
      expect(listed.map((u) => u.email)).toContain(mine.email);
    }
  });

  it('refuses an invitation whose address became another organization’s domain before it came back', async () => {
    const email = `late.${++serial}@claimed.test`;
    expect((await t.api(restPaths.inviteUser(org), { method: 'POST', token: tokens.edit, json: { email } })).status).toBe(202);
    expect((await t.api(restPaths.organization(orgB), { method: 'PATCH', token: tokens.admin, json: { email_domains: [...t.server.store.organizations.get(orgB)!.email_domains, 'claimed.test'] } })).status).toBe(200);
    const res = await t.api(restPaths.signupConfirm(), { method: 'POST', form: { code: t.server.outbox.latest(email)!.code, password: 'late-pass-1' } });
    expect(res.status).toBe(403);
    expect(t.server.store.userByEmail(email)).toBeUndefined();
  });

  it('answers GET /auth_uri by the address’s domain alone: an account, and its organization’s single sign-on, stay untold', async () => {
    const authUri = async (email: string) => {
      const res = await t.api(restPaths.authUri(email));
      expect(res.status).toBe(200);
      return res.json() as Promise<{ uri: string | null }>;
    };
    const sso = t.server.store.organizations.get(orgB)!.sso_uri;
    expect(sso).toBeTruthy();
    // a guest of the organization with single sign-on, at an address of no organization's domain
    const guest = t.server.store.createUser(orgB, { email: fresh('guest') });
    expect(await authUri(guest.email)).toEqual(await authUri(fresh('nobody')));
    expect(await authUri(guest.email)).toEqual({ uri: null });
    // the organization's own domain finds its single sign-on, account or not (what the viewer's button follows)
    expect(await authUri(t.accounts.otherOrg.email)).toEqual({ uri: sso });
    expect(await authUri(`not.yet.${++serial}@${OTHER_DOMAIN}`)).toEqual({ uri: sso });
    // and an account of the organization with single sign-on does not carry it to another domain's address
    const moved = t.server.store.createUser(orgB, { email: `moved.${++serial}@${DEMO_DOMAIN}` });
    expect(await authUri(moved.email)).toEqual({ uri: null });
  });
});

describe('security: probing addresses by moving one’s own', () => {
  const PER_MINUTE = 5;
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ rateLimits: { userWrites: { perClient: 0, perAccount: PER_MINUTE } } });
  });
  afterAll(async () => { await t?.close(); });

  it('counts every attempt against the user’s writes, a 409 or a wrong password too, so probing is bounded', async () => {
    const s = t.server.store;
    const org = t.accounts.regular.organizationId;
    const me = s.createUser(org, { email: 'prober@storey.test', permissions: ['USER_UPDATE_SELF'] });
    s.credentials.set(me.id, { passwordHash: hashPassword('prober-pass-1') });
    const token = issueToken(s, me.id).token;
    const taken = s.createUser(t.accounts.otherOrg.organizationId, { email: 'probed@freemail.test' });
    const move = (email: string, password = 'prober-pass-1') =>
      t.api(restPaths.user(org, me.id), { method: 'PATCH', token, json: { email, current_password: password } }).then((r) => r.status);
    const statuses = [];
    for (let i = 0; i < PER_MINUTE - 1; i += 1) statuses.push(await move(taken.email));
    statuses.push(await move('another@freemail.test', 'wrong-guess'));
    statuses.push(await move(taken.email));
    expect(statuses).toEqual([...Array(PER_MINUTE - 1).fill(409), 403, 429]);
    expect(s.users.get(me.id)!.email).toBe('prober@storey.test');
  });
});
