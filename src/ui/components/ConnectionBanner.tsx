// Connection state (spec §4: connecting, connected, unavailable, error) with
// the next retry and the offline flag. Quiet while all is well; a polite live
// region otherwise. Saved data is said once, by the shell's cache notice.

import { useEffect, useState } from 'react';
import { SELF_KEY, type ConnectionView } from '../../shared/api.js';
import { useView, useViewEntry } from '../hooks/useView.js';
import { useBrowserOnline } from '../hooks/useServerReach.js';

const STATE_WORDS: Record<ConnectionView['state'], string> = {
  idle: 'Not connected',
  connecting: 'Connecting…',
  connected: 'Connected',
  unavailable: 'Connection unavailable',
  error: 'Connection error',
};

/** Whole seconds until `at`, never negative. */
export function secondsUntil(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}

export function bannerText(c: ConnectionView, now: number): string {
  const parts: string[] = [];
  parts.push(c.online ? STATE_WORDS[c.state] : 'Offline: no network');
  if (c.nextRetryAt !== null && c.state !== 'connected') parts.push(`next retry in ${secondsUntil(c.nextRetryAt, now)} s`);
  if (c.attempts > 0 && c.state !== 'connected') parts.push(`attempt ${c.attempts}`);
  // offline says why already; a server error under it is noise
  if (c.lastError && c.state !== 'connected' && c.online) parts.push(c.lastError);
  return parts.join(' · ');
}

function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

export function ConnectionBanner() {
  const mirror = useView({ view: 'connection' });
  const live = useViewEntry(mirror, SELF_KEY);
  const browserOnline = useBrowserOnline();
  const connection = live && !browserOnline ? { ...live, online: false } : live;
  const troubled = !!connection && (connection.state !== 'connected' || !connection.online);
  const now = useNow(troubled && connection?.nextRetryAt != null) + (connection?.serverOffsetMs ?? 0);
  if (!connection) return null;
  return (
    <div
      className={`connection-banner state-${connection.online ? connection.state : 'offline'}${troubled ? ' shown' : ''}`}
      role="status"
      aria-live="polite"
      data-state={connection.online ? connection.state : 'offline'}
      data-testid="connection-banner"
      hidden={!troubled}
    >
      {troubled ? bannerText(connection, now) : 'Connected'}
    </div>
  );
}
