// The engine's mutable session state as one typed object, shared by the parts
// createEngine assembles, so each reads and writes named fields instead of
// closing over loose variables of one large closure.

import type { DrawState, LoadProgress } from '../../shared/api.js';
import type { Id, Role, Settings } from '../../shared/types.js';
import type { SearchIndex } from '../search/searchIndex.js';
import type { Session } from '../session/types.js';

/**
 * A reopen restores the saved location in parts (docs/engine.md, "Reopen"): the shared part and the shown
 * floor (or its saved view) first, the rest after the first floor snapshot went out (the other floors only if
 * live data is late, REST_OTHER_FLOORS_MS).
 */
export interface ReopenState {
  /** the shown floor's draw states as last saved, served until that floor's part is restored */
  savedView: { floorId: Id; layers: string[]; entries: Map<string, DrawState> } | null;
  restoredParts: Set<string>;
  /** starts reading the rest once the first floor snapshot went out */
  restRestore: (() => void) | null;
  /** parts of a saved location are still being read: the store cannot be written whole yet */
  restoring: boolean;
  /** ends the other floors' wait of a reopen (restoreRest) */
  openOtherFloors: (() => void) | null;
  /** another floor or the finder was opened during a reopen: the other floors are read without waiting */
  otherFloorsNow: boolean;
}

export interface EngineState {
  session: Session | null;
  /** the API host the session talks to */
  host: { host: string; version: number } | null;
  // who is signed in (owned here; the machine owns whether and where)
  settings: Settings | null;
  permissions: unknown;
  roles: Role[];
  organizations: Array<{ id: Id; name: string }>;
  progress: LoadProgress | null;
  // what the store holds of the location: saved data, or live data of the current load
  fromCache: boolean;
  /** whose saved data the store serves while fromCache */
  cachedUserId: Id | null;
  locationLive: boolean;
  /** bumps at every location switch and session end: a slower cache read of an older one is dropped */
  epoch: number;
  reopen: ReopenState;
  /** a resumed session keeps its saved floor through the first location switch */
  resumedFloor: boolean;
  /**
   * Bumps at every sign-in, sign-out and resume: a resume still reading the saved session or location when
   * the user signs out (or another signs in) gives up instead of bringing the previous user back (issue 11 §3).
   */
  userEpoch: number;
  /** the saved session's user while resume() reads its data (settings come later) */
  resumingUserId: Id | null;
  /** the last resume and the user epoch it began: a second call meanwhile gets its answer */
  resuming: { epoch: number; result: Promise<boolean> } | null;
  /** the finder's index, once its code has come (the first search asks for it) */
  searchIndex: SearchIndex | null;
  /** the browser's online state, kept while no session exists yet */
  browserOnline: boolean;
  disposed: boolean;
}

export function createReopenState(): ReopenState {
  return { savedView: null, restoredParts: new Set(), restRestore: null, restoring: false, openOtherFloors: null, otherFloorsNow: false };
}

export function createEngineState(): EngineState {
  return {
    session: null,
    host: null,
    settings: null,
    permissions: undefined,
    roles: [],
    organizations: [],
    progress: null,
    fromCache: false,
    cachedUserId: null,
    locationLive: false,
    epoch: 0,
    reopen: createReopenState(),
    resumedFloor: false,
    userEpoch: 0,
    resumingUserId: null,
    resuming: null,
    searchIndex: null,
    browserOnline: true,
    disposed: false,
  };
}

/** The signed-in user as the session machine knows them. */
export function viewerUserIdOf(state: EngineState): Id | null {
  return state.session?.state().ctx.userId ?? null;
}

/** The permissions of the settings that are words (what is saved, and what the session view lists). */
export function permissionWords(state: EngineState): string[] {
  return Array.isArray(state.permissions) ? state.permissions.filter((p): p is string => typeof p === 'string') : [];
}
