// Account intents that need no session: finishing a signup with the mailed
// code, and setting a password from a reset or invite link. The worker checks
// what it can before asking the server, and answers in words the sign-in
// screen shows as they are.

import type { ApiResult, PasswordLink, SignUpConfirmed } from '../../shared/api.js';
import { PASSWORD_MIN_LENGTH } from '../../shared/rest.js';
import type { RestClient } from '../rest/restClient.js';
import { failure, toResult } from './results.js';

export const ACCOUNT_MESSAGES = {
  CODE_REQUIRED: 'Enter the code from the mail.',
  PASSWORD_TOO_SHORT: `A password needs at least ${PASSWORD_MIN_LENGTH} characters.`,
  BAD_LINK: 'This link is incomplete. Open it again from the mail, or ask for a new one.',
} as const;

/** as long as the server's MailCode allows */
const CODE_MAX_LENGTH = 200;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

const badRequest = (message: string) => failure(400, { statusCode: 400, error: 'Bad Request', message }, message);

function passwordProblem(password: string): string | null {
  return password.length < PASSWORD_MIN_LENGTH ? ACCOUNT_MESSAGES.PASSWORD_TOO_SHORT : null;
}

/** Codes are pasted from mails: spaces around them are not part of them. */
function cleanCode(code: string): string | null {
  const trimmed = code.trim();
  return trimmed && trimmed.length <= CODE_MAX_LENGTH ? trimmed : null;
}

export async function confirmSignUp(rest: RestClient, code: string, password: string): Promise<ApiResult<SignUpConfirmed>> {
  const clean = cleanCode(String(code ?? ''));
  if (!clean) return badRequest(ACCOUNT_MESSAGES.CODE_REQUIRED);
  const weak = passwordProblem(String(password ?? ''));
  if (weak) return badRequest(weak);
  const result = await toResult(() => rest.confirmSignup({ code: clean, password }));
  if (!result.ok) return result;
  return { ok: true, value: { userId: result.value.user_id, organizationId: result.value.organization_id, email: result.value.email } };
}

export async function setPasswordWithCode(rest: RestClient, link: PasswordLink, password: string): Promise<ApiResult<void>> {
  const code = cleanCode(String(link?.code ?? ''));
  if (!link || !ID.test(String(link.organizationId)) || !ID.test(String(link.userId))) return badRequest(ACCOUNT_MESSAGES.BAD_LINK);
  if (!code) return badRequest(ACCOUNT_MESSAGES.CODE_REQUIRED);
  const weak = passwordProblem(String(password ?? ''));
  if (weak) return badRequest(weak);
  return toResult(() => rest.setUserPassword(link.organizationId, link.userId, { password, code }));
}
