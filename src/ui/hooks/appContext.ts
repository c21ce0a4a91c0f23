// App-wide state the screens share: the signed-in session, the rooms view
// (popups book from it), the timezone of the location and a status line for
// the outcome of actions. Provided by the Shell.

import { createContext, useContext } from 'react';
import type { RoomEntry, SessionView } from '../../shared/api.js';
import type { ViewMirror } from '../engine/viewMirror.js';

export interface AppContextValue {
  session: SessionView;
  rooms: ViewMirror<RoomEntry, null> | null;
  timeZone: string | undefined;
  /** "Floor 1, Building A" for a floor of the loaded location, or null */
  floorName(floorId: string): string | null;
  /** announces the outcome of an action in the live region */
  announce(message: string, kind?: 'info' | 'error'): void;
  /** the server can be reached: actions that write to it are offered (hooks/useServerReach.ts) */
  writable: boolean;
}

export const AppContext = createContext<AppContextValue | null>(null);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useApp needs an <AppContext.Provider>');
  return value;
}


/**
 * Whether the loaded data can be trusted to be complete, so an empty list may
 * say "none": the location's data is in (live, or saved data while retrying),
 * not still on its way (signing in, connecting, loading, navigating). A
 * reconnect (connecting or loading again with the floor ready) keeps what was
 * loaded: the People list does not flip to "locating…" and back at each retry.
 */
export function dataSettled(session: SessionView): boolean {
  if (session.phase === 'signingIn') return session.fromCache;
  if (session.phase === 'connecting' || session.phase === 'loading') return session.fromCache || session.navigation === 'ready';
  return session.navigation === 'ready' || session.navigation === 'noFloors' || session.navigation === 'noLocations' || session.navigation === 'noOrganization';
}
