// The app root: resumes a stored session, finishes an OpenID return (an
// id_token in the URL fragment, removed at once), opens a mail's signup or
// password link (also removed at once), then shows the sign-in screen or the
// signed-in shell, driven by the engine's session view.

import { useEffect, useEffectEvent, useState } from 'react';
import { SELF_KEY } from '../shared/api.js';
import { parseQuery } from '../shared/query.js';
import { AccountCodeForm, flowOfLink } from './components/AccountCodeForm.js';
import { SignIn, failureText } from './components/SignIn.js';
import { accountLinkFromHash, type AccountLink } from './lib/accountLink.js';
import { Shell } from './components/Shell.js';
import { UpdatePrompt } from './components/UpdatePrompt.js';
import { clearPainted, dropPainted, joinPaintEpoch, readPainted } from './lib/paintedFloor.js';
import { EngineContext, useEngine as useEngineFromContext } from './hooks/engineContext.js';
import { useView, useViewEntry, useViewReady } from './hooks/useView.js';
import type { EngineClient } from './engine/engineClient.js';

/** Reads `id_token` from an OpenID fragment (#id_token=…&state=…). */
export function idTokenFromHash(hash: string): string | null {
  const token = parseQuery(hash.replace(/^#/, '')).id_token;
  return typeof token === 'string' && /^[A-Za-z0-9_.-]+$/.test(token) ? token : null;
}

function clearLocationHash() {
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`);
}

export interface AppProps {
  client: EngineClient;
  apiHost: string;
  /** test seams */
  hash?: string;
  clearHash?: () => void;
}

function Root({ apiHost, hash, clearHash }: Omit<AppProps, 'client'>) {
  const session = useView({ view: 'session' });
  const ready = useViewReady(session);
  const view = useViewEntry(session, SELF_KEY);
  const [starting, setStarting] = useState(true);
  const [openIdError, setOpenIdError] = useState<string | null>(null);
  const { api } = useEngineFromContext();
  // a signup or password link is read once and removed from the URL: its code must not stay in history
  const [accountLink, setAccountLink] = useState<AccountLink | null>(() => {
    const link = accountLinkFromHash(hash ?? window.location.hash);
    if (link) (clearHash ?? clearLocationHash)();
    return link;
  });
  /** what a finished link leaves for the sign-in form */
  const [afterLink, setAfterLink] = useState<{ notice?: string; email?: string } | null>(null);
  // a link opened in a tab that already shows the app changes only the fragment
  useEffect(() => {
    const onHash = () => {
      const link = accountLinkFromHash(window.location.hash);
      if (!link) return;
      clearLocationHash();
      setAccountLink(link);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  // the OpenID token is taken from the URL once, when the engine starts; a
  // later render (new test seams) must not start again
  const takeIdToken = useEffectEvent((): string | null => {
    const token = idTokenFromHash(hash ?? window.location.hash);
    if (token) (clearHash ?? clearLocationHash)();
    return token;
  });
  useEffect(() => {
    let cancelled = false;
    const token = takeIdToken();
    (async () => {
      if (token) {
        const result = await api.signInWithIdToken(token);
        if (!result.ok && !cancelled) setOpenIdError(failureText(result));
      } else {
        await api.resume();
      }
    })()
      .catch(() => undefined)
      .finally(() => {
        if (!cancelled) setStarting(false);
      });
    return () => {
      cancelled = true;
    };
  }, [api]);

  // the painted floor belongs to one sign-in of one user (lib/paintedFloor.ts): signed out, it goes
  const signedIn = !!view?.signedIn;
  const userId = view?.user ? String(view.user.id) : null;
  useEffect(() => {
    if (!ready || (starting && !signedIn)) return;
    if (!signedIn) {
      clearPainted({ signedOut: true });
      dropPainted();
      return;
    }
    joinPaintEpoch();
    const stored = readPainted();
    if (stored && userId && stored.userId !== userId) clearPainted();
  }, [ready, starting, signedIn, userId]);
  // a mail's link is shown instead of the floor: the painted one goes
  useEffect(() => {
    if (accountLink) dropPainted();
  }, [accountLink]);

  if (!ready || (starting && !view?.signedIn)) {
    return (
      <div className="splash" role="status">
        Starting…
      </div>
    );
  }
  if (accountLink) {
    // shown signed in too: a reset or invite link is for whoever holds the mail, not the session of this browser
    const finish = (result: { notice?: string; email?: string }) => {
      setAccountLink(null);
      setAfterLink(result.notice ? result : null);
    };
    return (
      <main className="sign-in">
        <AccountCodeForm flow={flowOfLink(accountLink)} onDone={finish} onBack={() => finish({})} />
      </main>
    );
  }
  if (!view?.signedIn) {
    return (
      <SignIn
        key={afterLink ? 'after-link' : 'sign-in'}
        initialError={openIdError ?? view?.sessionEnded ?? null}
        initialNotice={afterLink?.notice ?? null}
        initialEmail={afterLink?.email ?? ''}
      />
    );
  }
  return <Shell session={view} apiHost={apiHost} />;
}

export function App({ client, ...rest }: AppProps) {
  return (
    <EngineContext.Provider value={client}>
      <Root {...rest} />
      <UpdatePrompt />
    </EngineContext.Provider>
  );
}
