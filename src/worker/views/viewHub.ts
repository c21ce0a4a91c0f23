// Views and patches (DESIGN §4): each subscription gets one snapshot, then
// patches of only the entries whose content changed, at most one batch per
// VIEW_FLUSH_INTERVAL_MS for the whole engine (one flush timer, not one per
// view). Work per flush follows the dirty keys, not the size of the view.
// A message never carries more than MESSAGE_ENTRIES entries: a larger
// snapshot goes in parts and a larger patch as several patches, so no single
// message costs the main thread a long task to receive (issue 14).

import * as Comlink from 'comlink';
import type { ViewListener, ViewMessage, ViewSpec } from '../../shared/api.js';
import type { Clock, Logger, TimerHandle } from '../ports.js';
import { dequal as deepEqual } from 'dequal';

export const VIEW_FLUSH_INTERVAL_MS = 50;
/** Entries per message: about 100 KB of draw states, a few ms to clone on either side. */
export const MESSAGE_ENTRIES = 400;

export type DirtyChannel =
  | 'assets' | 'values' | 'structure' | 'users' | 'notifications' | 'connection' | 'session' | 'feed' | 'reports' | 'search' | 'optimistic' | 'playback'
  /** a module loaded on first use (lazyModule.ts) arrived or failed to */
  | 'loaded';
export type DirtyKeys = Set<string> | 'all';
export type Dirty = ReadonlyMap<DirtyChannel, DirtyKeys>;

/**
 * Carried by a patch, under this symbol (not enumerable, and no structured clone copies it): for each
 * upserted key that was sent before, the entry sent then. A view's port to the page (views/viewPort.ts) sends
 * such an entry as its changed fields only; the hub's listeners in the worker see whole entries as ever.
 */
export const PRIORS = Symbol('storey.viewPriors');
export type WithPriors = ViewMessage & { [PRIORS]?: ReadonlyMap<string, unknown> };

/** What a view computes; the hub keeps what was sent and diffs. */
export interface ViewSource<E = unknown, M = unknown> {
  /** keys of every current entry */
  keys(): Iterable<string>;
  /** the entry now, or undefined when it is not (or no longer) in the view; `kept`: the hub's record of the key, when asked for one */
  entry(key: string, kept?: Kept): E | undefined;
  meta(): M;
  /** keys that may have changed for this dirty set; null when unaffected */
  affected(dirty: Dirty): Iterable<string> | 'all' | null;
  metaAffected(dirty: Dirty): boolean;
  /** the subscription ended: work kept going only for it may stop (a report nobody watches) */
  close?(): void;
  /**
   * The records the hub keeps per key, when the source keeps its own per-key state in them (the floor
   * view: the facts an entry was drawn from and the draw state made of them): one lookup finds what was
   * sent and what it came from, and `affected` asks the same map (issue 14). Without it the hub makes its own.
   */
  readonly kept?: Map<string, Kept>;
  /**
   * Whether a new entry draws as the one sent (both given, not the same object): the source's own comparison
   * of its kind of entry (the floor view's draw states, issue 14); a deep comparison without it
   */
  same?(sent: unknown, entry: unknown): boolean;
}

/**
 * One key of a subscription: what the hub last sent (undefined: nothing, or removed since), and for the
 * source's own use what it made the entry from and what it made. The hub passes it to `entry` and drops it
 * once nothing was sent and the source keeps nothing in it.
 */
export interface Kept {
  sent: unknown;
  from: unknown;
  made: unknown;
}

const newKept = (): Kept => ({ sent: undefined, from: undefined, made: undefined });

export type ViewSourceFactory = (spec: ViewSpec) => ViewSource;

/** Dirty assets of both asset channels (changed assets and changed readings): 'all', the keys, or null. */
export function dirtyAssets(d: Dirty): Iterable<string> | 'all' | null {
  const assets = d.get('assets');
  const values = d.get('values');
  if (assets === 'all' || values === 'all') return 'all';
  if (!assets || !values) return assets ?? values ?? null;
  const out = new Set(assets);
  for (const id of values) out.add(id);
  return out;
}

interface Subscription {
  id: number;
  spec: ViewSpec;
  listener: ViewListener;
  source: ViewSource;
  /** per key, what was sent (and the source's own part); a record without either is not kept */
  kept: Map<string, Kept>;
  sentMeta: unknown;
  version: number;
}

export interface ViewHub {
  subscribe(spec: ViewSpec, listener: ViewListener): number;
  unsubscribe(id: number): void;
  /** marks keys of a channel as changed and arms the flush timer */
  markDirty(channel: DirtyChannel, keys?: Iterable<string> | 'all'): void;
  /**
   * The set of keys marked on `channel` for the next flush, for a caller to add to directly (the live
   * path's readings: one insertion per asset, no set per packet to copy from, issue 14), with the flush
   * timer armed; markDirty of this very set adds nothing. Null when nothing listens or the channel is
   * marked 'all'. A set left empty marks nothing.
   */
  pending(channel: DirtyChannel): Set<string> | null;
  /** sends pending patches now (the timer calls this) */
  flush(): void;
  /** subscriptions (tests, diagnostics) */
  specs(): ViewSpec[];
  /** what the first subscription matching `match` was last sent (the saved floor view) */
  sent(match: (spec: ViewSpec) => boolean): { spec: ViewSpec; version: number; entries: ReadonlyMap<string, unknown> } | null;
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
    // the upserts in message-sized parts as they are found: a large patch is not gathered and cut again
    const parts: Array<Record<string, unknown>> = [];
    let upserted: Record<string, unknown> = {};
    // per part: the entries last sent of its keys that were sent before (PRIORS)
    const priorParts: Array<Map<string, unknown> | null> = [];
    // a Map: asset ids are integer-like keys, which an object keeps as slow sparse elements
    let priors: Map<string, unknown> | null = null;
    let inPart = 0;
    const removed: string[] = [];
    let count = 0;
    if (affected !== null) {
      const same = sub.source.same ?? deepEqual;
      const keys: Iterable<string> = affected === 'all'
        ? new Set([...sub.kept.keys(), ...sub.source.keys()])
        : affected;
      // a key not kept yet is offered a spare record, kept (and replaced) only when something came of it: most
      // such keys of a live load are assets of other floors, which come to nothing here
      let spare = newKept();
      for (const key of keys) {
        let kept = sub.kept.get(key);
        const known = kept !== undefined;
        if (!known) kept = spare;
        const entry = sub.source.entry(key, kept);
        const prev = kept!.sent;
        if (entry === undefined) {
          if (prev !== undefined) { kept!.sent = undefined; removed.push(key); count++; }
          if (kept!.from === undefined) { if (known) sub.kept.delete(key); } else if (!known) { sub.kept.set(key, kept!); spare = newKept(); }
        } else {
          if (!known) { sub.kept.set(key, kept!); spare = newKept(); }
          if (prev === undefined || (prev !== entry && !same(prev, entry))) {
            kept!.sent = entry;
            if (inPart === MESSAGE_ENTRIES) { parts.push(upserted); priorParts.push(priors); upserted = {}; priors = null; inPart = 0; }
            upserted[key] = entry;
            if (prev !== undefined) (priors ??= new Map()).set(key, prev);
            inPart++;
            count++;
          }
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
    // a large patch goes as several, each a whole patch of its own version: the removals with the first, the
    // meta with the last
    parts.push(upserted);
    priorParts.push(priors);
    for (let i = 0; i < parts.length; i++) {
      sub.version += 1;
      const message: WithPriors = { type: 'patch', version: sub.version, upserted: parts[i]!, removed: i === 0 ? removed : [] };
      if (i === parts.length - 1 && sendMeta) message.meta = meta;
      // not enumerable: a listener comparing or copying messages sees what it always did
      if (priorParts[i]) Object.defineProperty(message, PRIORS, { value: priorParts[i] });
      deliver(sub, message);
    }
  }

  /** A snapshot: one message, or MESSAGE_ENTRIES-sized parts of the same version. */
  function sendSnapshot(sub: Subscription, entries: Array<[string, unknown]>, meta: unknown) {
    const parts = Math.max(1, Math.ceil(entries.length / MESSAGE_ENTRIES));
    const chunk = (i: number) => Object.fromEntries(entries.slice(i * MESSAGE_ENTRIES, (i + 1) * MESSAGE_ENTRIES));
    deliver(sub, parts > 1
      ? { type: 'snapshot', version: sub.version, entries: chunk(0), meta, parts }
      : { type: 'snapshot', version: sub.version, entries: Object.fromEntries(entries), meta });
    for (let part = 1; part < parts; part++) deliver(sub, { type: 'snapshotPart', version: sub.version, part, entries: chunk(part) });
  }

  const hub: ViewHub = {
    subscribe(spec, listener) {
      const id = nextId++;
      const source = createSource(spec);
      const kept = source.kept ?? new Map<string, Kept>();
      const entries: Array<[string, unknown]> = [];
      for (const key of source.keys()) {
        const record = kept.get(key) ?? newKept();
        const entry = source.entry(key, record);
        if (entry !== undefined) { record.sent = entry; entries.push([key, entry]); }
        if (record.sent !== undefined || record.from !== undefined) kept.set(key, record);
      }
      const meta = source.meta();
      const sub: Subscription = { id, spec, listener, source, kept, sentMeta: meta, version: 1 };
      subs.set(id, sub);
      sendSnapshot(sub, entries, meta);
      return id;
    },
    unsubscribe(id) {
      const sub = subs.get(id);
      if (!sub) return;
      subs.delete(id);
      try { sub.source.close?.(); } catch (error) { logger.warn('A view did not close cleanly', error); }
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
      } else if (keys !== current) {
        const set = current ?? new Set<string>();
        for (const k of keys) set.add(k);
        dirty.set(channel, set);
      }
      arm();
    },
    pending(channel) {
      if (subs.size === 0) return null;
      const current = dirty.get(channel);
      if (current === 'all') return null;
      arm();
      if (current) return current;
      const set = new Set<string>();
      dirty.set(channel, set);
      return set;
    },
    flush() {
      if (timer !== null) { clock.clearTimeout(timer); timer = null; }
      const d = dirty;
      dirty = new Map();
      // a set handed out by `pending` that nothing was added to marks nothing; a flush that sends nothing
      // does not hold back the next one
      for (const [channel, keys] of d) if (keys !== 'all' && keys.size === 0) d.delete(channel);
      if (d.size === 0) return;
      lastFlushAt = clock.now();
      for (const sub of [...subs.values()]) {
        try { flushOne(sub, d); } catch (error) { logger.error('view flush failed', sub.spec.view, error); }
      }
    },
    specs: () => [...subs.values()].map((s) => s.spec),
    sent(match) {
      for (const sub of subs.values()) {
        if (!match(sub.spec)) continue;
        // asked for rarely (the saved floor view): the sent entries gathered then
        const entries = new Map<string, unknown>();
        for (const [key, kept] of sub.kept) if (kept.sent !== undefined) entries.set(key, kept.sent);
        return { spec: sub.spec, version: sub.version, entries };
      }
      return null;
    },
    dispose() {
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
      for (const id of [...subs.keys()]) hub.unsubscribe(id);
    },
  };
  return hub;
}
