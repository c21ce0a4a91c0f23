// Scope subscriptions (spec §4): inactive → active with cache → base loaded.
// Packets that arrive before the initial loads finish are cached and replayed
// in order afterwards through the stream validator; the loads are delivered to
// the sink as kind 'initial', which replaces each collection within the scope.

import { MSG } from '../../shared/messages.js';
import { scopeKey, type Collection, type LivePacket, type StreamPosition, type StreamScope } from '../../shared/protocol.js';
import type { LoadProgress } from '../../shared/api.js';
import type { ChangeSink, Logger, SinkChange } from '../ports.js';
import { createStreamValidator, StreamMismatchError, type StreamValidator } from './streamValidator.js';

export type SubscriptionState = 'inactive' | 'active' | 'loaded';
export type InvalidReason = 'uninitialized' | 'invalid';

export interface CollectionLoad {
  items: unknown[];
  position: StreamPosition | null;
}

export interface ScopeLoader {
  collection: Collection;
  load(): Promise<CollectionLoad>;
}

export interface SubscriptionsOptions {
  sink: ChangeSink;
  logger: Logger;
  /** the stream of `scope` became invalid; the caller reconnects */
  onInvalid(reason: InvalidReason, scope: StreamScope): void;
  onProgress?(progress: LoadProgress): void;
}

interface Subscription {
  scope: StreamScope;
  state: SubscriptionState;
  generation: number;
  loaders: ScopeLoader[];
  cache: LivePacket[];
  validator: StreamValidator | null;
}

export function createSubscriptions(options: SubscriptionsOptions) {
  const { sink, logger } = options;
  const subs = new Map<string, Subscription>();
  let generations = 0;

  function deliver(scope: StreamScope, changes: SinkChange[]) {
    if (changes.length === 0) return;
    try {
      sink.apply({ scope, changes });
    } catch (error) {
      logger.error('Change sink failed', error);
    }
  }

  function invalidate(sub: Subscription, reason: InvalidReason) {
    // hold later packets until the reconnect reloads the scope
    sub.state = 'active';
    sub.cache = [];
    sub.validator = null;
    options.onInvalid(reason, sub.scope);
  }

  function handle(sub: Subscription, packet: LivePacket) {
    const verdict = sub.validator ? sub.validator.check(packet) : { kind: 'uninitialized' as const };
    switch (verdict.kind) {
      case 'contained':
        return;
      case 'uninitialized':
      case 'invalid':
        invalidate(sub, verdict.kind);
        return;
      case 'apply':
        for (const change of verdict.unsourced) {
          logger.warn(MSG.NO_SOURCE_SUBSCRIPTION, change.collection, change.id);
        }
        deliver(sub.scope, verdict.changes);
    }
  }

  return {
    /** (re)activates `scope` with an empty cache; an earlier unfinished load of it becomes stale */
    start(scope: StreamScope, loaders: ScopeLoader[]): void {
      const key = scopeKey(scope);
      subs.set(key, { scope, state: 'active', generation: ++generations, loaders, cache: [], validator: null });
    },

    /**
     * Runs the scope's initial loads, delivers them and replays the cache.
     * Resolves false when the scope was stopped or restarted meanwhile; rejects when a load failed.
     */
    async load(scope: StreamScope): Promise<boolean> {
      const sub = subs.get(scopeKey(scope));
      if (!sub || sub.state !== 'active') return false;
      const generation = sub.generation;
      let done = 0;
      const total = sub.loaders.length;
      const results = await Promise.all(sub.loaders.map(async (loader) => {
        const result = await loader.load();
        done += 1;
        options.onProgress?.({ what: loader.collection, done, total });
        return result;
      }));
      if (subs.get(scopeKey(scope)) !== sub || sub.generation !== generation) return false;

      const positions = new Map<Collection, StreamPosition>();
      let complete = true;
      results.forEach((r, i) => {
        if (r.position) positions.set(sub.loaders[i]!.collection, r.position);
        else complete = false;
      });
      let validator: StreamValidator | null = null;
      if (complete && positions.size > 0) {
        try {
          validator = createStreamValidator(positions);
        } catch (error) {
          if (!(error instanceof StreamMismatchError)) throw error;
          invalidate(sub, 'invalid');
          return false;
        }
      } else {
        logger.warn('Initial loads carry no stream position; live data cannot be validated', scopeKey(scope));
      }

      deliver(scope, results.map((r, i) => ({ collection: sub.loaders[i]!.collection, kind: 'initial', items: r.items })));
      sub.validator = validator;
      sub.state = 'loaded';
      const cached = sub.cache;
      sub.cache = [];
      for (const packet of cached) {
        if (sub.state !== 'loaded') break;
        handle(sub, packet);
      }
      return true;
    },

    receive(scope: StreamScope, packet: LivePacket): void {
      const sub = subs.get(scopeKey(scope));
      if (!sub || sub.state === 'inactive') {
        logger.warn('Ignoring data for an inactive subscription', scopeKey(scope));
        return;
      }
      if (sub.state === 'active') sub.cache.push(packet);
      else handle(sub, packet);
    },

    stop(scope: StreamScope): void {
      const sub = subs.get(scopeKey(scope));
      if (!sub) return;
      sub.state = 'inactive';
      sub.cache = [];
      subs.delete(scopeKey(scope));
    },

    /** every scope back to active-with-cache, for a reconnect that reloads them */
    resetAll(): void {
      for (const sub of subs.values()) {
        sub.state = 'active';
        sub.generation = ++generations;
        sub.cache = [];
        sub.validator = null;
      }
    },

    state(scope: StreamScope): SubscriptionState {
      return subs.get(scopeKey(scope))?.state ?? 'inactive';
    },

    scopes(): StreamScope[] {
      return [...subs.values()].map((s) => s.scope);
    },

    /** the position live data has reached, for persistence */
    position(scope: StreamScope): StreamPosition | null {
      const v = subs.get(scopeKey(scope))?.validator;
      return v ? { stream_id: v.streamId, stream_sequence: v.lastSequence } : null;
    },
  };
}

export type Subscriptions = ReturnType<typeof createSubscriptions>;
