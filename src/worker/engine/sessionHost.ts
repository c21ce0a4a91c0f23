// The store side of the session (its SessionHost port): what settings,
// organization and location switches and session ends do to the store, reports
// and persistence; with the roles, the saved session and the organization list.

import { MSG } from '../../shared/messages.js';
import { normalizeSettings } from '../../shared/normalize/people.js';
import { NoPermissionsError, rolesFromPermissions } from '../../shared/roles.js';
import type { ChangeSink, Logger } from '../ports.js';
import type { PlaybackService } from '../reports/playback.js';
import type { ReportService } from '../reports/reportService.js';
import type { SessionHost } from '../session/types.js';
import type { Persister, StoragePort } from '../storage/index.js';
import type { UserPageCache } from '../storage/idbPageCache.js';
import { clearLocationData, clearStore, type Store } from '../store/store.js';
import type { ViewHub } from '../views/viewHub.js';
import type { CacheFlow } from './cacheFlow.js';
import type { Feed } from './feed.js';
import type { Navigation } from './navigation.js';
import type { Reopen } from './reopen.js';
import { permissionWords, viewerUserIdOf, type EngineState } from './state.js';

export interface SessionHostOptions {
  state: EngineState;
  store: Store;
  sink: ChangeSink;
  navigation: Navigation;
  reopen: Reopen;
  reports: ReportService;
  playback: PlaybackService;
  persister: Persister;
  cache: CacheFlow;
  storage: StoragePort;
  pageCache: UserPageCache | null;
  feed: Feed;
  hub: ViewHub;
  logger: Logger;
  /** validation warnings go to the feed too */
  storeLogger: Logger;
  everythingChanged(): void;
  rederiveUsers(): void;
}

export interface EngineSessionHost {
  port: SessionHost;
  /** roles from a permission list (settings, or the saved session's) */
  setRoles(list: unknown): void;
  /** saves the session (token, user, where they are) for the next reopen */
  saveSession(): Promise<void>;
}

export function createSessionHost(options: SessionHostOptions): EngineSessionHost {
  const { state, store, navigation, reopen, reports, playback, persister, cache, storage, pageCache, feed, hub, logger } = options;

  function setRoles(list: unknown) {
    state.permissions = list;
    try {
      state.roles = rolesFromPermissions({ permissions: list });
    } catch (error) {
      state.roles = [];
      if (error instanceof NoPermissionsError) feed.post('warning', 'auth', MSG.NO_PERMISSIONS);
    }
  }

  async function saveSession() {
    const s = state.session;
    const token = s?.token();
    const userId = viewerUserIdOf(state);
    const host = state.host;
    if (!host || !s || !token || !userId) return;
    const ctx = s.state().ctx;
    await cache.saveSession({
      host: host.host, version: host.version, token, userId,
      permissions: permissionWords(state),
      expiresAt: null,
      organizationId: ctx.organizationId, locationId: ctx.locationId, floorId: navigation.chosenFloorId(),
    });
  }

  async function loadOrganizationList() {
    const s = state.session;
    if (!s) return;
    try {
      const list = await s.rest.organizations();
      state.organizations = (Array.isArray(list) ? list : []).map((o) => ({ id: String(o.id), name: String(o.name ?? '') }));
    } catch (error) {
      // a regular user may not list organizations; the own one still shows
      logger.debug('Organization list unavailable', (error as Error).message);
      state.organizations = [];
    }
    hub.markDirty('session');
  }

  const port: SessionHost = {
    sink: options.sink,
    settings(raw) {
      const normalized = normalizeSettings(raw, { logger: options.storeLogger });
      if (!normalized) return;
      state.settings = normalized;
      setRoles((raw as { permissions?: unknown }).permissions);
      options.everythingChanged();
      void saveSession();
      void loadOrganizationList();
    },
    enterOrganization(organizationId) {
      // a resumed session already serves this organization from the cache
      if (organizationId !== null && organizationId === store.organizationId && state.fromCache && state.cachedUserId === viewerUserIdOf(state)) return;
      state.epoch += 1;
      reopen.forget();
      reports.reset();
      playback.reset();
      persister.setSource(null);
      const notifications = new Map(store.notifications);
      clearStore(store);
      for (const [id, n] of notifications) store.notifications.set(id, n);
      store.organizationId = organizationId;
      state.fromCache = false;
      state.locationLive = false;
      options.everythingChanged();
      void saveSession();
    },
    enterLocation(organizationId, locationId) {
      // a resumed session already serves this location from the cache; the live load replaces it
      if (locationId !== null && locationId === store.locationId && state.fromCache && state.cachedUserId === viewerUserIdOf(state)) return;
      state.epoch += 1;
      reopen.forget();
      reports.reset();
      playback.reset();
      const previous = store.locationId;
      persister.setSource(null);
      clearLocationData(store);
      store.organizationId ??= organizationId;
      store.locationId = locationId;
      // a floor chosen in another location does not carry over; one named before any location was
      // entered (a link, signing in again after the session ended) is for this one
      if (previous !== null && previous !== locationId && navigation.chosenFloorId() && !state.resumedFloor) navigation.reset();
      state.resumedFloor = false;
      state.fromCache = false;
      state.locationLive = false;
      options.rederiveUsers();
      const userId = viewerUserIdOf(state);
      cache.target(userId);
      options.everythingChanged();
      void saveSession();
      if (locationId && userId) void reopen.serve(userId, organizationId, locationId).catch((error: unknown) => logger.warn('Serving the saved location failed', error));
    },
    endSession(reason) {
      state.epoch += 1;
      state.resuming = null;
      reopen.forget();
      reports.reset();
      playback.reset();
      const uid = state.settings?.user.id ?? state.resumingUserId;
      state.resumingUserId = null;
      persister.setSource(null);
      clearStore(store);
      state.settings = null;
      state.permissions = undefined;
      state.roles = [];
      state.organizations = [];
      navigation.reset();
      state.fromCache = false;
      state.locationLive = false;
      state.progress = null;
      if (reason === 'signOut') feed.clear();
      options.everythingChanged();
      void (async () => {
        try {
          // a write of this user still in flight lands first, so the clearing below removes it too
          await persister.settled();
          await cache.saveSession(null);
          // an expired session keeps the user's saved data (it is theirs alone); signing out removes it
          if (uid && reason === 'signOut') {
            await storage.clearUser(uid);
            await pageCache?.clearUser(uid);
          }
        } catch (error) {
          logger.warn('Could not clear stored data', error);
        }
      })();
    },
  };

  return { port, setRoles, saveSession };
}
