// Finishing an account flow from a mail: the signup code (typed, or taken
// from the mail's link) with the new account's password, or a new password
// from a reset or invite link. The worker checks and sends (confirmSignUp,
// setPasswordWithCode); a refusal is said in words that tell what to do next.

import { useId, useState, type FormEvent } from 'react';
import type { ApiResult, PasswordLink } from '../../shared/api.js';
import { useEngine } from '../hooks/engineContext.js';
import { useBrowserOnline } from '../hooks/useServerReach.js';
import type { AccountLink } from '../lib/accountLink.js';
import { errorText } from '../lib/errorText.js';
import { OfflineNote } from './OfflineNote.js';

export type CodeFlow =
  | { kind: 'signup'; code: string; notice?: string }
  | { kind: 'setPassword'; link: PasswordLink | null };

export const CODE_FORM_TEXT = {
  SIGNUP_CODE_REFUSED: 'This code is wrong, used or expired. Check the mail, or sign up again for a new code.',
  LINK_REFUSED: 'This link is wrong, used or expired. Ask for a new one with “Forgot your password?”.',
  LINK_INCOMPLETE: 'This link is incomplete. Open it again from the mail, or ask for a new one with “Forgot your password?”.',
  ACCOUNT_EXISTS: 'This address already has an account. Sign in, or reset your password.',
  PASSWORDS_DIFFER: 'The two passwords differ. Type the same password twice.',
  ACCOUNT_READY: 'Your account is ready. Sign in with your new password.',
  PASSWORD_SET: 'Your password is set. Sign in with it.',
} as const;

type Failure = Extract<ApiResult<unknown>, { ok: false }>;

/** The form a mail's link opens. */
export function flowOfLink(link: AccountLink): CodeFlow {
  return link.kind === 'signup' ? { kind: 'signup', code: link.code } : { kind: 'setPassword', link: link.link };
}

/** The words for a refused code or link. */
export function codeFailureText(kind: CodeFlow['kind'], failure: Failure): string {
  if (failure.status === 403) return kind === 'signup' ? CODE_FORM_TEXT.SIGNUP_CODE_REFUSED : CODE_FORM_TEXT.LINK_REFUSED;
  if (failure.status === 409) return CODE_FORM_TEXT.ACCOUNT_EXISTS;
  return errorText(failure);
}

export interface AccountCodeFormProps {
  flow: CodeFlow;
  /** finished: signed in (no notice), or back to the sign-in form with a notice and the address when it is known */
  onDone(result: { notice?: string; email?: string }): void;
  onBack(): void;
}

export function AccountCodeForm({ flow, onDone, onBack }: AccountCodeFormProps) {
  const { api } = useEngine();
  const [code, setCode] = useState(flow.kind === 'signup' ? flow.code : '');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [busy, setBusy] = useState(false);
  const incomplete = flow.kind === 'setPassword' && !flow.link;
  const [error, setError] = useState<string | null>(incomplete ? CODE_FORM_TEXT.LINK_INCOMPLETE : null);
  const codeId = useId();
  const passwordId = useId();
  const repeatId = useId();
  const offlineId = useId();
  const online = useBrowserOnline();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || incomplete || !online) return;
    if (password !== repeat) {
      setError(CODE_FORM_TEXT.PASSWORDS_DIFFER);
      return;
    }
    setBusy(true);
    setError(null);
    void (async () => {
      try {
        if (flow.kind === 'signup') {
          const result = await api.confirmSignUp(code, password);
          if (!result.ok) return setError(codeFailureText('signup', result));
          // the account exists: sign in with it at once; the app then shows the floor
          const signedIn = await api.signIn(result.value.email, password);
          onDone(signedIn.ok ? {} : { notice: CODE_FORM_TEXT.ACCOUNT_READY, email: result.value.email });
        } else if (flow.link) {
          const result = await api.setPasswordWithCode(flow.link, password);
          if (!result.ok) return setError(codeFailureText('setPassword', result));
          onDone({ notice: CODE_FORM_TEXT.PASSWORD_SET });
        }
      } catch (e) {
        setError(e instanceof Error ? e.message : 'Something went wrong.');
      } finally {
        setBusy(false);
      }
    })();
  };

  const signup = flow.kind === 'signup';
  return (
    <form onSubmit={submit} aria-labelledby="code-form-title" className="card" aria-busy={busy}>
      <h1 id="code-form-title">{signup ? 'Finish signing up' : 'Choose a new password'}</h1>
      {signup && flow.notice ? (
        <p role="status" className="notice">
          {flow.notice}
        </p>
      ) : null}
      {signup ? (
        <>
          <label htmlFor={codeId}>Code from the mail</label>
          <input
            id={codeId}
            autoComplete="one-time-code"
            spellCheck={false}
            autoCapitalize="off"
            required
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        </>
      ) : null}
      {!incomplete ? (
        <>
          <label htmlFor={passwordId}>New password</label>
          <input id={passwordId} type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
          <label htmlFor={repeatId}>Repeat the password</label>
          <input id={repeatId} type="password" autoComplete="new-password" required value={repeat} onChange={(e) => setRepeat(e.target.value)} />
        </>
      ) : null}
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      {!incomplete ? (
        <>
          {online ? null : <OfflineNote id={offlineId} action={signup ? 'creating the account' : 'setting the password'} />}
          <button type="submit" disabled={busy || !online} aria-describedby={online ? undefined : offlineId}>
            {busy ? 'Saving…' : signup ? 'Create account' : 'Set password'}
          </button>
        </>
      ) : null}
      <nav aria-label="Account" className="sign-in-links">
        <button type="button" className="link" onClick={onBack}>
          Back to sign in
        </button>
      </nav>
    </form>
  );
}
