// Whether the server can be reached now, for the actions that write to it
// (docs/ui.md, "Writes wait for the server"). Offered while the server cannot
// be reached, an action only fails after the person filled it in; so every
// write (book, cancel, vote, close, rename, publish, send a ticket or voice,
// set or clear one's location, mark a notification read) is disabled with the
// reason in words, and comes back on by itself with the connection.

import { useEffect, useState } from 'react';
import { SELF_KEY, type ConnectionView } from '../../shared/api.js';
import { useView, useViewEntry } from './useView.js';

/** Why a write action is disabled: said next to it while the server cannot be reached (the worker refuses with the same words). */
export { NEEDS_SERVER } from '../../shared/api.js';

/** The browser's own online flag: the engine hears of a change only when it happens, not a page that starts offline. */
export function useBrowserOnline(): boolean {
  const [online, setOnline] = useState(() => (typeof navigator === 'undefined' ? true : navigator.onLine));
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return online;
}

/**
 * The server answers now: the engine is connected (loading or live: its own
 * requests go through) and neither it nor the browser says offline. Before
 * the engine's first word nothing is claimed either way.
 */
export function canReachServer(connection: ConnectionView | undefined, browserOnline: boolean): boolean {
  if (!browserOnline) return false;
  if (!connection) return true;
  return connection.online && connection.state === 'connected';
}

export function useServerReach(): boolean {
  const connection = useViewEntry(useView({ view: 'connection' }), SELF_KEY);
  return canReachServer(connection, useBrowserOnline());
}
