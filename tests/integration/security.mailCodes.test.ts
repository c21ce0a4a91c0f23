// One-time mail codes (recovery, invite) against the real reference server,
// as someone who got hold of one — a copy of a mail, a mailbox read once —
// would use it after its owner reacted: a code mailed before the password
// changed, or before the address changed, sets no password afterwards. Until
// 2026-11-25 such a code kept working for its 24 hours, so changing one's
// password, or an admin moving a user off a compromised mailbox, did not lock
// out whoever held a reset mail.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_PERMISSIONS } from '../../src/shared/constants.js';
import { restPaths } from '../../src/shared/rest.js';
import { hashPassword, issueToken } from '../../server/auth.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { messageOf } from './support/attack.js';

describe('security: mail codes after the password or the address changed', () => {
  let t: TestServer;
  let org: string;
  let adminToken: string;
  let serial = 0;

  /** a user with a password and a session */
  function victim() {
    serial += 1;
    const s = t.server.store;
    const email = `codes.${serial}@storey.test`;
    const user = s.createUser(org, { email, first_name: 'Victim', permissions: [ROLE_PERMISSIONS.regular] });
    const password = `victim-password-${serial}`;
    s.credentials.set(user.id, { passwordHash: hashPassword(password) });
    return { user, email, password, token: issueToken(s, user.id).token };
  }
  /** asks for a recovery mail as anyone can, and reads its code as the mailbox's reader would */
  async function recoveryCode(email: string): Promise<string> {
    expect((await t.api(restPaths.recoverPassword(), { method: 'POST', form: { email } })).status).toBe(202);
    return t.server.outbox.latest(email)!.code!;
  }
  const setWithCode = (userId: string, code: string, password: string) =>
    t.api(restPaths.userPassword(org, userId), { method: 'POST', json: { password, code } });
  const signIn = async (email: string, password: string) => (await t.api(restPaths.login(), { method: 'POST', form: { email, password } })).status;

  beforeAll(async () => {
    t = await startTestServer();
    org = t.accounts.admin.organizationId;
    adminToken = await t.signIn('admin');
  });
  afterAll(async () => { await t?.close(); });

  it('a code still works while nothing changed (the control)', async () => {
    const v = victim();
    const code = await recoveryCode(v.email);
    expect((await setWithCode(v.user.id, code, 'recovered-pass-1')).status).toBe(204);
    expect(await signIn(v.email, 'recovered-pass-1')).toBe(200);
  });

  it('a code mailed before the user changed their password sets nothing afterwards', async () => {
    const v = victim();
    const stolen = await recoveryCode(v.email);
    const change = await t.api(restPaths.userPassword(org, v.user.id), { method: 'POST', token: v.token, json: { password: 'owner-new-pass-1', old_password: v.password } });
    expect(change.status).toBe(204);
    const res = await setWithCode(v.user.id, stolen, 'attacker-pass-1');
    expect(res.status).toBe(403);
    expect(await messageOf(res)).toBe('Invalid or expired code');
    expect(await signIn(v.email, 'attacker-pass-1')).toBe(401);
    expect(await signIn(v.email, 'owner-new-pass-1')).toBe(200);
  });

  it('a recovery ends every other code of the user: a second mail read by someone else is dead', async () => {
    const v = victim();
    const stolen = await recoveryCode(v.email);
    const own = await recoveryCode(v.email);
    expect((await setWithCode(v.user.id, own, 'owner-new-pass-2')).status).toBe(204);
    expect((await setWithCode(v.user.id, stolen, 'attacker-pass-2')).status).toBe(403);
    expect(await signIn(v.email, 'owner-new-pass-2')).toBe(200);
  });

  it('an admin setting the password ends the codes mailed before', async () => {
    const v = victim();
    const stolen = await recoveryCode(v.email);
    expect((await t.api(restPaths.userPassword(org, v.user.id), { method: 'POST', token: adminToken, json: { password: 'admin-set-pass-1' } })).status).toBe(204);
    expect((await setWithCode(v.user.id, stolen, 'attacker-pass-3')).status).toBe(403);
    expect(await signIn(v.email, 'admin-set-pass-1')).toBe(200);
  });

  it('codes mailed to the old address stop working once the address changes, by the user or by an admin', async () => {
    const own = victim();
    const stolen = await recoveryCode(own.email);
    const moved = await t.api(restPaths.user(org, own.user.id), {
      method: 'PATCH', token: own.token, json: { email: `moved.${own.user.id}@storey.test`, current_password: own.password },
    });
    expect(moved.status).toBe(200);
    expect((await setWithCode(own.user.id, stolen, 'attacker-pass-4')).status).toBe(403);
    expect(await signIn(`moved.${own.user.id}@storey.test`, own.password)).toBe(200);

    const rescued = victim();
    const leaked = await recoveryCode(rescued.email);
    expect((await t.api(restPaths.user(org, rescued.user.id), { method: 'PATCH', token: adminToken, json: { email: `safe.${rescued.user.id}@storey.test` } })).status).toBe(200);
    expect((await setWithCode(rescued.user.id, leaked, 'attacker-pass-5')).status).toBe(403);
    expect(await signIn(`safe.${rescued.user.id}@storey.test`, rescued.password)).toBe(200);
    // a PATCH that leaves the address as it was (case aside) keeps the codes
    const same = victim();
    const kept = await recoveryCode(same.email);
    expect((await t.api(restPaths.user(org, same.user.id), { method: 'PATCH', token: adminToken, json: { email: same.email.toUpperCase(), first_name: 'Same' } })).status).toBe(200);
    expect((await setWithCode(same.user.id, kept, 'same-owner-pass-1')).status).toBe(204);
  });
});
