// The room display's root: resumes the display's stored session (it signs in
// once and keeps a display token, docs/security.md "Room displays"), shows the
// one-time setup form only when no session exists or the server ended it,
// chooses the room's location, then the room. Reloads and outages resume the
// same way, so the display never asks to sign in again on its own.

import { useEffect, useId, useState, type FormEvent } from 'react';
import { SELF_KEY } from '../../shared/api.js';
import type { EngineClient } from '../engine/engineClient.js';
import { OfflineNote } from '../components/OfflineNote.js';
import { failureText } from '../components/SignIn.js';
import { EngineContext, useEngine } from '../hooks/engineContext.js';
import { useBrowserOnline } from '../hooks/useServerReach.js';
import { useView, useViewEntry, useViewReady } from '../hooks/useView.js';
import type { DisplayRoute } from './displayRoute.js';
import { RoomDisplay } from './RoomDisplay.js';

function DisplaySetup({ ended }: { ended: string | null }) {
  const { api } = useEngine();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const emailId = useId();
  const passwordId = useId();
  const offlineId = useId();
  // offline, the sign-in could only fail: the button waits for the network, saying why (components/OfflineNote.tsx)
  const online = useBrowserOnline();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!online) return;
    setBusy(true);
    setError(null);
    const result = await api.signIn(email, password, { device: 'display' });
    setBusy(false);
    if (!result.ok) setError(failureText(result));
  };
  return (
    <div className="display-setup">
      <form className="card" onSubmit={(e) => void submit(e)} aria-label="Set up this display">
        <h1>Set up this room display</h1>
        <p>Sign in once. The display then stays signed in while it runs; it can only show rooms and book them.</p>
        {ended ? <p className="error" role="alert">{ended}</p> : null}
        <label htmlFor={emailId}>Email</label>
        <input id={emailId} type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} required />
        <label htmlFor={passwordId}>Password</label>
        <input id={passwordId} type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
        {error ? <p className="error" role="alert">{error}</p> : null}
        {online ? null : <OfflineNote id={offlineId} action="setting up the display" />}
        <button type="submit" disabled={busy || !online} aria-describedby={online ? undefined : offlineId}>{busy ? 'Signing in…' : 'Start the display'}</button>
      </form>
    </div>
  );
}

function DisplayRoot({ route }: { route: DisplayRoute }) {
  const { api } = useEngine();
  const session = useView({ view: 'session' });
  const ready = useViewReady(session);
  const view = useViewEntry(session, SELF_KEY);
  const [starting, setStarting] = useState(true);

  useEffect(() => {
    let cancelled = false;
    void api.resume().catch(() => false).finally(() => { if (!cancelled) setStarting(false); });
    return () => { cancelled = true; };
  }, [api]);

  // the room's location, once the organization is there (the worker owns navigation)
  const wanted = route.locationId;
  const locations = view?.locations;
  useEffect(() => {
    if (wanted && view?.signedIn && view.locationId !== wanted && locations?.some((l) => l.id === wanted)) void api.selectLocation(wanted);
  }, [api, wanted, view?.signedIn, view?.locationId, locations]);

  if (!ready || (starting && !view?.signedIn)) return <main className="room-display waiting" role="status">Starting…</main>;
  if (!view?.signedIn) return <DisplaySetup ended={view?.sessionEnded ?? null} />;
  return <RoomDisplay roomId={route.roomId} />;
}

export function DisplayApp({ client, route }: { client: EngineClient; route: DisplayRoute }) {
  return (
    <EngineContext.Provider value={client}>
      <DisplayRoot route={route} />
    </EngineContext.Provider>
  );
}
