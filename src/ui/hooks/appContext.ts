// App-wide state the screens share: the signed-in session, the rooms view
// (popups book from it), the timezone of the location and a status line for
// the outcome of actions. Provided by the Shell.

import { createContext, useContext } from 'react';
import type { RoomEntry, SessionView } from '../../shared/api.js';
import type { Role } from '../../shared/types.js';
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

export function hasRole(session: SessionView, role: Role): boolean {
  return session.roles.includes(role);
}

/** The resolved config value at a dotted path, or the fallback when absent or of another type. */
export function configValue<T>(session: SessionView, path: string, fallback: T): T {
  let value: unknown = session.config;
  for (const part of path.split('.')) {
    if (!value || typeof value !== 'object') return fallback;
    value = (value as Record<string, unknown>)[part];
  }
  if (value === undefined || value === null) return fallback;
  if (Array.isArray(fallback) !== Array.isArray(value) || typeof value !== typeof fallback) return fallback;
  return value as T;
}
