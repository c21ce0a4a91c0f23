// Views and patches (DESIGN §4): each subscription gets one snapshot, then
// patches of only the entries whose content changed, at most one batch per
// VIEW_FLUSH_INTERVAL_MS for the whole engine (one flush timer, not one per
// view). Work per flush follows the dirty keys, not the size of the view.

import * as Comlink from 'comlink';
import type { ViewListener, ViewMessage, ViewSpec } from '../../shared/api.js';
import type { Clock, Logger, TimerHandle } from '../ports.js';
import { dequal as deepEqual } from 'dequal';

export const VIEW_FLUSH_INTERVAL_MS = 50;

export type DirtyChannel =
  | 'assets' | 'structure' | 'users' | 'notifications' | 'connection' | 'session' | 'feed' | 'reports' | 'search' | 'optimistic';
export type DirtyKeys = Set<string> | 'all';
export type Dirty = ReadonlyMap<DirtyChannel, DirtyKeys>;

/** What a view computes; the hub keeps what was sent and diffs. */
export interface ViewSource<E = unknown, M = unknown> {
  /** keys of every current entry */
  keys(): Iterable<string>;
  /** the entry now, or undefined when it is not (or no longer) in the view */
  entry(key: string): E | undefined;
  meta(): M;
  /** keys that may have changed for this dirty set; null when unaffected */
  affected(dirty: Dirty): Iterable<string> | 'all' | null;
  metaAffected(dirty: Dirty): boolean;
}

export type ViewSourceFactory = (spec: ViewSpec) => ViewSource;

interface Subscription {
  id: number;
  spec: ViewSpec;
  listener: ViewListener;
  source: ViewSource;
  sent: Map<string, unknown>;
  sentMeta: unknown;
  version: number;
}

export interface ViewHub {
  subscribe(spec: ViewSpec, listener: ViewListener): number;
  unsubscribe(id: number): void;
  /** marks keys of a channel as changed and arms the flush timer */
  markDirty(channel: DirtyChannel, keys?: Iterable<string> | 'all'): void;
  /** sends pending patches now (the timer calls this) */
  flush(): void;
  /** subscriptions (tests, diagnostics) */
  specs(): ViewSpec[];
  dispose(): void;
}

export interface ViewHubOptions {
  clock: Clock;
  logger: Logger;
  createSource: ViewSourceFactory;
  flushIntervalMs?: number;
}

export function createViewHub(options: ViewHubOptions): ViewHub {
  const { clock, logger, createSource } = options;
  const interval = options.flushIntervalMs ?? VIEW_FLUSH_INTERVAL_MS;
  const subs = new Map<number, Subscription>();
  let nextId = 1;
  let dirty = new Map<DirtyChannel, DirtyKeys>();
  let timer: TimerHandle | null = null;
  let lastFlushAt = -Infinity;

  function deliver(sub: Subscription, message: ViewMessage) {
    try {
      // a Comlink proxy returns a promise; a closed port rejects it
      const result = sub.listener(message) as unknown;
      if (result && typeof (result as Promise<void>).catch === 'function') {
        (result as Promise<void>).catch((error) => logger.debug('view listener failed', sub.spec.view, error));
      }
    } catch (error) {
      logger.warn('view listener threw', sub.spec.view, error);
    }
  }

  function arm() {
    if (timer !== null) return;
    const delay = Math.max(0, lastFlushAt + interval - clock.now());
    timer = clock.setTimeout(() => { timer = null; hub.flush(); }, delay);
  }

  function flushOne(sub: Subscription, d: Dirty) {
    const affected = sub.source.affected(d);
    const metaChanged = sub.source.metaAffected(d);
    if (affected === null && !metaChanged) return;
    const upserted: Record<string, unknown> = {};
    const removed: string[] = [];
    let count = 0;
    if (affected !== null) {
      const keys: Iterable<string> = affected === 'all'
        ? new Set([...sub.sent.keys(), ...sub.source.keys()])
        : affected;
      for (const key of keys) {
        const entry = sub.source.entry(key);
        const prev = sub.sent.get(key);
        if (entry === undefined) {
          if (prev !== undefined) { sub.sent.delete(key); removed.push(key); count++; }
        } else if (prev === undefined || !deepEqual(prev, entry)) {
          sub.sent.set(key, entry);
          upserted[key] = entry;
          count++;
        }
      }
    }
    let meta: unknown;
    let sendMeta = false;
    if (metaChanged) {
      meta = sub.source.meta();
      if (!deepEqual(meta, sub.sentMeta)) { sub.sentMeta = meta; sendMeta = true; }
    }
    if (count === 0 && !sendMeta) return;
    sub.version += 1;
    deliver(sub, sendMeta
      ? { type: 'patch', version: sub.version, upserted, removed, meta }
      : { type: 'patch', version: sub.version, upserted, removed });
  }

  const hub: ViewHub = {
    subscribe(spec, listener) {
      const id = nextId++;
      const source = createSource(spec);
      const sent = new Map<string, unknown>();
      const entries: Record<string, unknown> = {};
      for (const key of source.keys()) {
        const entry = source.entry(key);
        if (entry === undefined) continue;
        sent.set(key, entry);
        entries[key] = entry;
      }
      const meta = source.meta();
      const sub: Subscription = { id, spec, listener, source, sent, sentMeta: meta, version: 1 };
      subs.set(id, sub);
      deliver(sub, { type: 'snapshot', version: 1, entries, meta });
      return id;
    },
    unsubscribe(id) {
      const sub = subs.get(id);
      if (!sub) return;
      subs.delete(id);
      // a Comlink proxy keeps its port (and Node) alive until released
      const release = (sub.listener as unknown as Record<symbol, unknown>)[Comlink.releaseProxy];
      if (typeof release === 'function') {
        try { (release as () => void).call(sub.listener); } catch (error) { logger.debug('release failed', error); }
      }
    },
    markDirty(channel, keys = 'all') {
      // without subscribers a later snapshot computes everything afresh
      if (subs.size === 0) return;
      const current = dirty.get(channel);
      if (current === 'all') { /* already everything */ } else if (keys === 'all') {
        dirty.set(channel, 'all');
      } else {
        const set = current ?? new Set<string>();
        for (const k of keys) set.add(k);
        dirty.set(channel, set);
      }
      arm();
    },
    flush() {
      if (timer !== null) { clock.clearTimeout(timer); timer = null; }
      lastFlushAt = clock.now();
      const d = dirty;
      dirty = new Map();
      if (d.size === 0) return;
      for (const sub of [...subs.values()]) {
        try { flushOne(sub, d); } catch (error) { logger.error('view flush failed', sub.spec.view, error); }
      }
    },
    specs: () => [...subs.values()].map((s) => s.spec),
    dispose() {
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
      for (const id of [...subs.keys()]) hub.unsubscribe(id);
    },
  };
  return hub;
}
