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
  /** announces the outcome of an action in the live region */
  announce(message: string, kind?: 'info' | 'error'): void;
}

export const AppContext = createContext<AppContextValue | null>(null);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useApp needs an <AppContext.Provider>');
  return value;
}

