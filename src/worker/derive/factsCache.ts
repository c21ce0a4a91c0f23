// Facts per asset, computed on demand and cached until the asset, its sensors
// or time changes them. Each computation hands its next change instant to the
// one scheduler (keyed per asset, one platform timer for all), and assets that
// change continuously join the set the real-time timeline re-derives.

import type { Id } from '../../shared/types.js';
import type { Scheduler } from '../scheduler.js';
import type { Store } from '../store/store.js';
import { computeFacts, type AssetFacts, type DeriveContext } from './assetFacts.js';

export interface FactsCache {
  get(id: Id): AssetFacts | null;
  invalidate(ids: Iterable<Id>): void;
  invalidateAll(): void;
  /** ids whose facts change continuously (fading, clean-desk colour, heat) */
  continuous(): Id[];
  size(): number;
}

export interface FactsCacheOptions {
  store: Store;
  scheduler: Scheduler;
  /** the context at this instant (now, viewer, roles, time zone, config) */
  context(): Omit<DeriveContext, 'store'>;
  /** an asset's facts expired by time: re-derive and re-send it */
  onExpired(id: Id): void;
}

export const RECHECK_KEY_PREFIX = 'asset:';

export function createFactsCache(options: FactsCacheOptions): FactsCache {
  const { store, scheduler } = options;
  const cache = new Map<Id, AssetFacts | null>();
  const continuous = new Set<Id>();

  function expire(id: Id) {
    cache.delete(id);
    continuous.delete(id);
    options.onExpired(id);
  }

  return {
    get(id) {
      if (cache.has(id)) return cache.get(id)!;
      const asset = store.assets.get(id);
      if (!asset) return null;
      const facts = computeFacts(asset, { ...options.context(), store });
      cache.set(id, facts);
      const key = RECHECK_KEY_PREFIX + id;
      if (facts?.nextChangeAt != null) {
        if (scheduler.dueAt(key) !== facts.nextChangeAt) scheduler.scheduleAt(key, facts.nextChangeAt, () => expire(id));
      } else if (scheduler.has(key)) scheduler.cancel(key);
      if (facts?.continuous) continuous.add(id); else continuous.delete(id);
      return facts;
    },
    invalidate(ids) {
      for (const id of ids) { cache.delete(id); continuous.delete(id); }
    },
    invalidateAll() { cache.clear(); continuous.clear(); },
    continuous: () => [...continuous],
    size: () => cache.size,
  };
}
