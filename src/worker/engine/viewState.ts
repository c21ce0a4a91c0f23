// What the views read (ViewState of views/sources.ts) from the engine's parts
// and state: session and connection views, the reopen's saved floor view,
// reports, playback, the finder's index, room-display and people wake-ups.

import type { Id } from '../../shared/types.js';
import type { ConfigResolver } from '../derive/configResolver.js';
import type { FactsCache } from '../derive/factsCache.js';
import type { EngineModules } from '../engineModules.js';
import type { Clock } from '../ports.js';
import type { Scheduler } from '../scheduler.js';
import { initialSessionState } from '../session/machine.js';
import { createSearchDocs } from '../search/searchDocs.js';
import type { SearchIndex } from '../search/searchIndex.js';
import { searchSource } from '../search/searchSource.js';
import type { Store } from '../store/store.js';
import type { CorrectedClock } from '../sync/timeSync.js';
import { createViewSources, personEntry, type ViewState } from '../views/sources.js';
import type { ViewHub, ViewSourceFactory } from '../views/viewHub.js';
import type { Analytics } from './analytics.js';
import type { Feed } from './feed.js';
import type { Navigation } from './navigation.js';
import type { Reopen } from './reopen.js';
import { buildConnectionView, buildSessionView } from './sessionView.js';
import { permissionWords, viewerUserIdOf, type EngineState } from './state.js';

const SEARCH_BUILD_KEY = 'engine:search-build';
const ROOM_DISPLAY_KEY = 'engine:room-display:';
const PERSON_RECHECK_KEY = 'engine:person-recheck:';
const SIGNED_OUT = initialSessionState();

export interface EngineViewOptions {
  state: EngineState;
  store: Store;
  facts: FactsCache;
  config: ConfigResolver;
  clock: Clock;
  corrected: CorrectedClock;
  scheduler: Scheduler;
  hub: ViewHub;
  feed: Feed;
  navigation: Navigation;
  modules: EngineModules;
  reopen: Reopen;
  /** reports and playback (views of their own) */
  analytics: Analytics;
  /** the loaded location's time zone */
  timeZone(): string;
}

export interface EngineViews {
  viewState: ViewState;
  sources: ViewSourceFactory;
}

export function createEngineViews(options: EngineViewOptions): EngineViews {
  const { state, store, facts, config, clock, corrected, scheduler, hub, feed, navigation, modules, reopen, timeZone } = options;
  const viewerUserId = () => viewerUserIdOf(state);

  const sessionState = () => state.session?.state() ?? SIGNED_OUT;
  const sessionView = () => buildSessionView({
    store,
    state: sessionState(),
    config: config.location(),
    settings: state.settings, roles: state.roles,
    permissions: permissionWords(state),
    organizations: state.organizations, navigation, progress: state.progress, fromCache: state.fromCache,
    structureLoaded: store.buildings.size > 0 || state.locationLive,
  });

  const viewState: ViewState = {
    store, facts, config,
    roles: () => state.roles,
    viewerUserId,
    now: () => corrected.now(),
    fromCache: () => state.fromCache,
    loading: () => !!store.locationId && !state.locationLive,
    connection: () => {
      const view = buildConnectionView(sessionState(), state.session?.transport() ?? { name: null, state: null }, { fromCache: state.fromCache, serverOffsetMs: corrected.offsetMs });
      return state.session ? view : { ...view, online: state.browserOnline };
    },
    session: sessionView,
    feed: () => feed.entries(),
    savedFloorView: (floorId, layers) => reopen.savedFloorView(floorId, layers),
    report: (spec) => options.analytics.reports.source(spec),
    playback: (spec) => options.analytics.playback.source(spec),
    search: (spec) => searchSource(currentSearchIndex, modules.search, searchDocs, spec, () => navigation.floor(state.roles)?.id ?? null),
    routing: modules.routing,
    roomDisplay: {
      timeZone,
      wakeAt: (roomId, at) => {
        const key = `${ROOM_DISPLAY_KEY}${roomId}`;
        if (scheduler.dueAt(key) !== at) scheduler.scheduleAt(key, at, () => hub.markDirty('assets', [roomId]));
      },
    },
    // the people view and the finder read the person again (an "at <location>" note that ran out)
    recheckPersonAt: (userId: Id, at: number) => {
      const key = `${PERSON_RECHECK_KEY}${userId}`;
      if (scheduler.dueAt(key) !== at) scheduler.scheduleAt(key, at, () => hub.markDirty('users', [userId]));
    },
  };

  const searchDocs = createSearchDocs({ store, facts, roles: () => state.roles, person: (id) => personEntry(viewState, id) });
  // the finder's index exists once its code has come (the first search asks for it)
  function currentSearchIndex(): SearchIndex | null {
    const code = modules.search.get();
    if (!state.searchIndex && code) {
      state.searchIndex = code.createSearchIndex(searchDocs, {
        now: () => clock.now(),
        defer: (fn) => scheduler.scheduleIn(SEARCH_BUILD_KEY, 0, fn),
        onProgress: () => hub.markDirty('search'),
      });
    }
    return state.searchIndex;
  }

  return { viewState, sources: createViewSources(viewState) };
}
