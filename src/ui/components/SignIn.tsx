// Sign-in screen (spec §7: /login, /openid_login, /signup, /auth_uri,
// /recover_password): email and password, single sign-on when the server
// knows an OpenID provider for the address, signup and password recovery,
// and finishing them with the mailed code or link (AccountCodeForm).

import { useId, useState, type FormEvent } from 'react';
import type { ApiResult } from '../../shared/api.js';
import { useEngine } from '../hooks/engineContext.js';
import { useBrowserOnline } from '../hooks/useServerReach.js';
import { errorText } from '../lib/errorText.js';
import { AccountCodeForm, type CodeFlow } from './AccountCodeForm.js';
import { OfflineNote } from './OfflineNote.js';

type Mode = 'signin' | 'signup' | 'recover';

export function failureText(result: Extract<ApiResult<unknown>, { ok: false }>): string {
  if (result.status === 401 || result.status === 403) return 'Wrong email or password.';
  return errorText(result);
}

/** Only http(s) redirects leave the app; anything else is refused. */
export function safeRedirect(uri: string | null | undefined): string | null {
  if (!uri) return null;
  try {
    const url = new URL(uri);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

export interface SignInProps {
  /** navigates away for single sign-on; injectable for tests */
  redirect?: (uri: string) => void;
  /** an error from a failed OpenID return */
  initialError?: string | null;
  /** what a finished mail link left to say, and the address it named */
  initialNotice?: string | null;
  initialEmail?: string;
}

export const SIGNUP_SENT = 'Check your inbox: we sent a code to finish signing up. Type it here, or open the link in the mail.';


export function SignIn({
  redirect = (uri) => window.location.assign(uri), initialError = null, initialNotice = null, initialEmail = '',
}: SignInProps) {
  const { api } = useEngine();
  const [mode, setMode] = useState<Mode>('signin');
  const [codeFlow, setCodeFlow] = useState<CodeFlow | null>(null);
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(initialError);
  const [notice, setNotice] = useState<string | null>(initialNotice);
  const emailId = useId();
  const passwordId = useId();
  const offlineId = useId();
  // offline, nothing can be sent: the buttons wait for the network, saying why (the fields stay editable)
  const online = useBrowserOnline();
  const why = online ? undefined : offlineId;

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await work();
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Something went wrong.');
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!online) return;
    void run(async () => {
      if (mode === 'signin') {
        const result = await api.signIn(email.trim(), password);
        if (!result.ok) setError(failureText(result));
      } else if (mode === 'signup') {
        const result = await api.signUp(email.trim());
        if (result.ok) setCodeFlow({ kind: 'signup', code: '', notice: SIGNUP_SENT });
        else setError(failureText(result));
      } else {
        const result = await api.recoverPassword(email.trim());
        if (result.ok) setNotice('If the address is known, a message to reset the password is on its way.');
        else setError(failureText(result));
      }
    });
  };

  const singleSignOn = () =>
    void run(async () => {
      const result = await api.authUri(email.trim());
      const target = result.ok ? safeRedirect(result.value.uri) : null;
      if (target) redirect(target);
      else if (result.ok) setError('Single sign-on is not set up for this address. Use your password.');
      else setError(failureText(result));
    });

  if (codeFlow) {
    const back = (next: { notice?: string; email?: string } = {}) => {
      setCodeFlow(null);
      setMode('signin');
      setError(null);
      setNotice(next.notice ?? null);
      if (next.email) setEmail(next.email);
    };
    return (
      <main className="sign-in">
        <AccountCodeForm flow={codeFlow} onDone={back} onBack={() => back()} />
      </main>
    );
  }

  const title = mode === 'signin' ? 'Sign in' : mode === 'signup' ? 'Create an account' : 'Reset your password';
  return (
    <main className="sign-in">
      <form onSubmit={submit} aria-labelledby="sign-in-title" className="card">
        <h1 id="sign-in-title">{title}</h1>
        <label htmlFor={emailId}>Email</label>
        <input
          id={emailId}
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        {mode === 'signin' ? (
          <>
            <label htmlFor={passwordId}>Password</label>
            <input
              id={passwordId}
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </>
        ) : null}
        {error ? (
          <p role="alert" className="error">
            {error}
          </p>
        ) : null}
        {notice ? (
          <p role="status" className="notice">
            {notice}
          </p>
        ) : null}
        {online ? null : <OfflineNote id={offlineId} action={mode === 'signin' ? 'signing in' : mode === 'signup' ? 'signing up' : 'resetting a password'} />}
        <button type="submit" disabled={busy || !online} aria-describedby={why}>
          {mode === 'signin' ? 'Sign in' : mode === 'signup' ? 'Sign up' : 'Send reset link'}
        </button>
        {mode === 'signin' ? (
          <button type="button" className="secondary" disabled={busy || !email.trim() || !online} aria-describedby={why} onClick={singleSignOn}>
            Sign in with single sign-on
          </button>
        ) : null}
        <nav aria-label="Account" className="sign-in-links">
          {mode !== 'signin' ? (
            <>
              <button type="button" className="link" onClick={() => setMode('signin')}>
                Back to sign in
              </button>
              {mode === 'signup' ? (
                <button type="button" className="link" onClick={() => setCodeFlow({ kind: 'signup', code: '' })}>
                  I have a code
                </button>
              ) : null}
            </>
          ) : (
            <>
              <button type="button" className="link" onClick={() => setMode('signup')}>
                Create an account
              </button>
              <button type="button" className="link" onClick={() => setMode('recover')}>
                Forgot your password?
              </button>
            </>
          )}
        </nav>
      </form>
    </main>
  );
}
