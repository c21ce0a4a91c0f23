import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES, confirmSignUp, setPasswordWithCode } from '../../../src/worker/engine/accountActions.js';
import { createRestClient } from '../../../src/worker/rest/restClient.js';
import { createFakeFetch } from '../sync/fakes.js';

function client() {
  const api = createFakeFetch();
  const rest = createRestClient({ host: 'http://api.test', fetch: api.fetch, token: () => null });
  return { api, rest };
}
const refused = { statusCode: 403, error: 'Forbidden', message: 'Invalid or expired code' };

describe('account intents', () => {
  describe('confirmSignUp', () => {
    it('posts the code (trimmed, as pasted from a mail) and the password as JSON and answers the new account', async () => {
      const { api, rest } = client();
      api.on('POST', '/v1/signup/confirm', () => ({ status: 201, body: { user_id: '41', organization_id: '1', email: 'new@storey.test' } }));
      const result = await confirmSignUp(rest, '  abc-DEF_123 \n', 'a long password');
      expect(result).toEqual({ ok: true, value: { userId: '41', organizationId: '1', email: 'new@storey.test' } });
      expect(api.calls[0]!.headers['content-type']).toBe('application/json');
      expect(JSON.parse(String(api.calls[0]!.body))).toEqual({ code: 'abc-DEF_123', password: 'a long password' });
    });

    it('refuses an empty code or a short password in words, without asking the server', async () => {
      const { api, rest } = client();
      expect(await confirmSignUp(rest, '   ', 'a long password')).toMatchObject({ ok: false, status: 400, message: ACCOUNT_MESSAGES.CODE_REQUIRED });
      expect(await confirmSignUp(rest, 'abc', 'short')).toMatchObject({ ok: false, status: 400, message: 'A password needs at least 8 characters.' });
      expect(api.calls).toHaveLength(0);
    });

    it('hands the server’s refusal back as data', async () => {
      const { api, rest } = client();
      api.on('POST', '/v1/signup/confirm', () => ({ status: 403, body: refused }));
      expect(await confirmSignUp(rest, 'used', 'a long password')).toMatchObject({ ok: false, status: 403, body: refused });
    });
  });

  describe('setPasswordWithCode', () => {
    it('posts the new password with the link’s code to the user’s password route', async () => {
      const { api, rest } = client();
      api.on('POST', '/v1/organizations/1/users/7/password', () => ({ status: 204 }));
      const result = await setPasswordWithCode(rest, { organizationId: '1', userId: '7', code: 'c0de' }, 'a long password');
      expect(result).toEqual({ ok: true, value: undefined });
      expect(JSON.parse(String(api.calls[0]!.body))).toEqual({ password: 'a long password', code: 'c0de' });
    });

    it('refuses a cut-short link, an empty code or a short password without asking the server', async () => {
      const { api, rest } = client();
      expect(await setPasswordWithCode(rest, { organizationId: '1', userId: '../x', code: 'c' }, 'a long password')).toMatchObject({ status: 400, message: ACCOUNT_MESSAGES.BAD_LINK });
      expect(await setPasswordWithCode(rest, { organizationId: '1', userId: '7', code: ' ' }, 'a long password')).toMatchObject({ status: 400, message: ACCOUNT_MESSAGES.CODE_REQUIRED });
      expect(await setPasswordWithCode(rest, { organizationId: '1', userId: '7', code: 'c' }, '1234567')).toMatchObject({ status: 400, message: ACCOUNT_MESSAGES.PASSWORD_TOO_SHORT });
      expect(api.calls).toHaveLength(0);
    });

    it('hands a refused code back with its status', async () => {
      const { api, rest } = client();
      api.on('POST', '/v1/organizations/1/users/7/password', () => ({ status: 403, body: refused }));
      expect(await setPasswordWithCode(rest, { organizationId: '1', userId: '7', code: 'old' }, 'a long password')).toMatchObject({ ok: false, status: 403 });
    });
  });
});
