// The links of account mails (server/routes/accounts.ts): a signup link
// `#/signup?code=…` and a password link (reset or invite)
// `#/set-password?organization=…&user=…&code=…`. Read once from the URL
// fragment at start, then removed, so no code stays in the address bar or history.

import type { PasswordLink } from '../../shared/api.js';
import { parseQuery } from '../../shared/query.js';

export type AccountLink =
  | { kind: 'signup'; code: string }
  /** `link` is null when the mail's link arrived cut short */
  | { kind: 'setPassword'; link: PasswordLink | null };

const ID = /^[A-Za-z0-9_-]{1,64}$/;
/** as long as the server's mail codes may be; anything else is not a code of ours */
const CODE = /^[A-Za-z0-9_-]{1,200}$/;

const text = (value: unknown, pattern: RegExp): string | null => (typeof value === 'string' && pattern.test(value) ? value : null);

/** The account link of a fragment such as `#/set-password?…`, or null. */
export function accountLinkFromHash(hash: string): AccountLink | null {
  const m = /^#?\/(signup|set-password)(?:\?(.*))?$/.exec(hash);
  if (!m) return null;
  const query = parseQuery(m[2] ?? '');
  if (m[1] === 'signup') return { kind: 'signup', code: text(query.code, CODE) ?? '' };
  const organizationId = text(query.organization, ID);
  const userId = text(query.user, ID);
  const code = text(query.code, CODE);
  return { kind: 'setPassword', link: organizationId && userId && code ? { organizationId, userId, code } : null };
}
