// The engine's use of storage: opening it once (posting its warnings), the
// persist source of the loaded (user, location), reading a cached location as
// change batches for the engine to apply, and saving the session. Failures
// never stop the engine.

import { locationScope, organizationScope, userScope } from '../sync/scopeLoaders.js';
import type { StreamPosition, StreamScope } from '../../shared/protocol.js';
import type { Id } from '../../shared/types.js';
import type { ChangeBatch, Logger } from '../ports.js';
import {
  STORAGE_WARNINGS, type CachedLocationMeta, type Persister, type StoragePort, type StoredSession,
} from '../storage/index.js';
import type { Store } from '../store/store.js';
import { cachedBatches, cachedPartBatch, createPersistSource } from './cache.js';
import type { Feed } from './feed.js';

export interface CacheFlowOptions {
  store: Store;
  storage: StoragePort;
  persister: Persister;
  feed: Feed;
  logger: Logger;
  now(): number;
  position(scope: StreamScope): StreamPosition | null;
  /** the floor shown now (saved with the cache, read first on a reopen) */
  floorId?(): Id | null;
  /** false while the store is still being filled from the cache: it is not written whole until then */
  ready?(): boolean;
}

export interface RestoreOptions {
  /** which parts to read once the meta is known; default every part */
  parts?(meta: CachedLocationMeta): readonly string[];
  /** add the parts to what the store holds (the rest of a reopen) instead of replacing it */
  merge?: boolean;
}

export interface Restored {
  /** the parts read now */
  parts: string[];
  /** every part the cache holds */
  allParts: string[];
  meta: CachedLocationMeta;
  /** what the engine applies through applyBatch: 'initial' batches, or with `merge` one batch that adds */
  batches: ChangeBatch[];
}

export interface CacheFlow {
  open(): Promise<void>;
  /**
   * points the persister at the store's (user, location), or stops it; the first write is a full one,
   * unless `fromCache`: the store then holds what the cache holds (maybe not all of it yet)
   */
  target(userId: Id | null, options?: { fromCache?: boolean }): void;
  /**
   * Reads a cached location (or some of its parts) as change batches for the one write path; null
   * when there is none, it was unreadable (dropped with the warning), or `stillWanted` says no once
   * the read is done (a later switch, a sign-out or live data won).
   */
  restore(userId: Id, locationId: Id, locationOnly: boolean, stillWanted?: () => boolean, options?: RestoreOptions): Promise<Restored | null>;
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

    target(userId, targetOptions = {}) {
      if (!userId || !store.locationId || !store.organizationId) { persister.setSource(null); return; }
      const organizationId = store.organizationId;
      const locationId = store.locationId;
      const scopes = [organizationScope(organizationId), locationScope(organizationId, locationId), userScope(userId)];
      persister.setSource(createPersistSource({
        store,
        key: { userId, locationId },
        organizationId,
        now: options.now,
        floorId: options.floorId,
        ready: options.ready,
        streams() {
          const out: Record<string, StreamPosition> = {};
          for (const scope of scopes) {
            const p = options.position(scope);
            if (p) out[scope.kind] = p;
          }
          return out;
        },
      }));
      // what the store already holds (the organization loaded before the location was chosen) is saved too;
      // a store filled from the cache holds nothing new, and maybe only some parts of it so far
      if (!targetOptions.fromCache) persister.requestFull();
    },

    async restore(userId, locationId, locationOnly, stillWanted = () => true, restoreOptions = {}) {
      await flow.open();
      let cached;
      try {
        cached = await storage.loadLocation({ userId, locationId }, warn, { parts: restoreOptions.parts });
      } catch (error) {
        logger.warn(STORAGE_WARNINGS.UNREADABLE_DROPPED, error);
        warn(STORAGE_WARNINGS.UNREADABLE_DROPPED);
        return null;
      }
      if (!cached || !stillWanted()) return null;
      // a cache of another user or location under this key is not this one's
      const mine = cached.meta?.userId === userId && cached.meta?.locationId === locationId;
      const part = restoreOptions.merge ? cachedPartBatch(cached) : null;
      const batches = !mine ? null : restoreOptions.merge ? (part ? [part] : null) : cachedBatches(cached, { locationOnly });
      if (!batches) {
        logger.warn(STORAGE_WARNINGS.UNREADABLE_DROPPED);
        warn(STORAGE_WARNINGS.UNREADABLE_DROPPED);
        return null;
      }
      return { parts: cached.parts, allParts: cached.meta.parts ?? cached.parts, meta: cached.meta, batches };
    },

    async saveSession(session) {
      try { await storage.saveSession(session); } catch (error) { logger.warn('Could not save the session', error); }
    },
  };
  return flow;
}
