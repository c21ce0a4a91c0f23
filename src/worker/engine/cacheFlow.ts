// The engine's use of storage: opening it once (posting its warnings), the
// persist source of the loaded (user, location), restoring a cached location
// into the store, and saving the session. Failures never stop the engine.

import { locationScope, organizationScope, userScope } from '../sync/scopeLoaders.js';
import type { StreamPosition, StreamScope } from '../../shared/protocol.js';
import type { Id } from '../../shared/types.js';
import type { Logger } from '../ports.js';
import { STORAGE_WARNINGS, type Persister, type StoragePort, type StoredSession } from '../storage/index.js';
import type { Store } from '../store/store.js';
import { createPersistSource, restoreInto } from './cache.js';
import type { Feed } from './feed.js';

export interface CacheFlowOptions {
  store: Store;
  storage: StoragePort;
  persister: Persister;
  feed: Feed;
  logger: Logger;
  now(): number;
  position(scope: StreamScope): StreamPosition | null;
}

export interface CacheFlow {
  open(): Promise<void>;
  /** points the persister at the store's (user, location), or stops it; the first write is a full one */
  target(userId: Id | null): void;
  /**
   * Restores a cached location into the store; false when there is none, it was
   * unreadable, or `stillWanted` says no once the read is done (a later switch or live data won).
   */
  restore(userId: Id, locationId: Id, locationOnly: boolean, stillWanted?: () => boolean): Promise<boolean>;
  saveSession(session: StoredSession | null): Promise<void>;
}

export function createCacheFlow(options: CacheFlowOptions): CacheFlow {
  const { store, storage, persister, feed, logger } = options;
  let ready: Promise<void> | null = null;
  const warn = (message: string) => feed.post('warning', 'storage', message);

  const flow: CacheFlow = {
    open() {
      ready ??= storage.open().then(
        (r) => { for (const w of r.warnings) { logger.warn(w); warn(w); } },
        (error: unknown) => { logger.warn('Storage unavailable; running without a cache', error); },
      );
      return ready;
    },

    target(userId) {
      if (!userId || !store.locationId || !store.organizationId) { persister.setSource(null); return; }
      const organizationId = store.organizationId;
      const locationId = store.locationId;
      const scopes = [organizationScope(organizationId), locationScope(organizationId, locationId), userScope(userId)];
      persister.setSource(createPersistSource({
        store,
        key: { userId, locationId },
        organizationId,
        now: options.now,
        streams() {
          const out: Record<string, StreamPosition> = {};
          for (const scope of scopes) {
            const p = options.position(scope);
            if (p) out[scope.kind] = p;
          }
          return out;
        },
      }));
      // what the store already holds (the organization loaded before the location was chosen) is saved too
      persister.requestFull();
    },

    async restore(userId, locationId, locationOnly, stillWanted = () => true) {
      await flow.open();
      let cached;
      try {
        cached = await storage.loadLocation({ userId, locationId }, warn);
      } catch (error) {
        logger.warn(STORAGE_WARNINGS.UNREADABLE_DROPPED, error);
        warn(STORAGE_WARNINGS.UNREADABLE_DROPPED);
        return false;
      }
      if (!cached || !stillWanted()) return false;
      if (!restoreInto(store, cached, { locationOnly })) {
        warn(STORAGE_WARNINGS.UNREADABLE_DROPPED);
        return false;
      }
      return true;
    },

    async saveSession(session) {
      try { await storage.saveSession(session); } catch (error) { logger.warn('Could not save the session', error); }
    },
  };
  return flow;
}
