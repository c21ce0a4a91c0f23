// Main-thread mirror of one engine view (DESIGN §4): applies the worker's
// snapshot and patches and notifies per-key subscribers, so a changed desk
// re-renders that desk only. Pure TypeScript (no DOM, no React) so the
// engine's Comlink tests can drive it in Node.

import type { ViewMessage, ViewName, ViewTypes } from '../../shared/api.js';

export type Listener = () => void;
/** Told which keys changed in one applied message (meta changes are not keys). */
export type ChangeListener = (changed: ReadonlySet<string>, metaChanged: boolean) => void;

export interface ViewMirror<T = unknown, M = unknown> {
  /** applies one message; returns whether anything visible changed */
  apply(message: ViewMessage<T, M>): boolean;
  /** the entry of one key; the same object until that key changes */
  getSnapshot(key: string): T | undefined;
  /** notified only when this key's entry changes (or goes away) */
  subscribe(key: string, listener: Listener): () => void;
  /** all entries; a new object after any change, the same object otherwise */
  getEntries(): Readonly<Record<string, T>>;
  /** the keys; a new array only when a key is added or removed */
  getKeys(): readonly string[];
  subscribeKeys(listener: Listener): () => void;
  getMeta(): M | undefined;
  subscribeMeta(listener: Listener): () => void;
  /** whole view: notified once per applied message that changed something */
  subscribeAll(listener: Listener): () => void;
  /** like subscribeAll, with the changed keys */
  subscribeChanges(listener: ChangeListener): () => void;
  /** whether a snapshot has arrived since creation or the last reset */
  readonly ready: boolean;
  /** version of the last applied message of the current subscription */
  readonly version: number;
  /** expects a new snapshot (a new subscription feeds this mirror) */
  reset(): void;
}

export type ViewMirrorOf<V extends ViewName> = ViewMirror<ViewTypes[V]['entry'], ViewTypes[V]['meta']>;

/** Structural equality of plain (structured-clone) data. */
export function sameData(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

export function createViewMirror<T = unknown, M = unknown>(): ViewMirror<T, M> {
  const entries = new Map<string, T>();
  const keyListeners = new Map<string, Set<Listener>>();
  const keysListeners = new Set<Listener>();
  const metaListeners = new Set<Listener>();
  const allListeners = new Set<Listener>();
  const changeListeners = new Set<ChangeListener>();
  let meta: M | undefined;
  let version = 0;
  let ready = false;
  let entriesCache: Record<string, T> | null = {};
  let keysCache: string[] | null = [];

  function add<L>(set: Set<L>, listener: L): () => void {
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  // Keeps the old object when the data is equal, so a re-sent snapshot
  // (after a reconnect or a layer change) re-renders nothing that did not change.
  function put(key: string, value: T, changed: Set<string>): boolean {
    const old = entries.get(key);
    if (old !== undefined && sameData(old, value)) return false;
    entries.set(key, value);
    changed.add(key);
    return old === undefined;
  }

  function apply(message: ViewMessage<T, M>): boolean {
    const changed = new Set<string>();
    let keysChanged = false;
    let metaChanged = false;
    if (message.type === 'snapshot') {
      for (const key of [...entries.keys()]) {
        if (!Object.prototype.hasOwnProperty.call(message.entries, key)) {
          entries.delete(key);
          changed.add(key);
          keysChanged = true;
        }
      }
      for (const [key, value] of Object.entries(message.entries)) {
        if (put(key, value, changed)) keysChanged = true;
      }
      if (!ready || !sameData(meta, message.meta)) {
        meta = message.meta;
        metaChanged = true;
      }
      ready = true;
      version = message.version;
    } else {
      // patches before the snapshot, or replays of older versions, are stale
      if (!ready || message.version <= version) return false;
      version = message.version;
      for (const key of message.removed) {
        if (entries.delete(key)) {
          changed.add(key);
          keysChanged = true;
        }
      }
      for (const [key, value] of Object.entries(message.upserted)) {
        if (put(key, value, changed)) keysChanged = true;
      }
      if (message.meta !== undefined && !sameData(meta, message.meta)) {
        meta = message.meta;
        metaChanged = true;
      }
    }
    if (changed.size === 0 && !metaChanged) return false;
    if (changed.size > 0) entriesCache = null;
    if (keysChanged) keysCache = null;
    for (const key of changed) {
      const set = keyListeners.get(key);
      if (set) for (const l of [...set]) l();
    }
    if (keysChanged) for (const l of [...keysListeners]) l();
    if (metaChanged) for (const l of [...metaListeners]) l();
    for (const l of [...changeListeners]) l(changed, metaChanged);
    for (const l of [...allListeners]) l();
    return true;
  }

  return {
    apply,
    getSnapshot: (key) => entries.get(key),
    subscribe(key, listener) {
      let set = keyListeners.get(key);
      if (!set) keyListeners.set(key, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && keyListeners.get(key) === set) keyListeners.delete(key);
      };
    },
    getEntries() {
      if (!entriesCache) entriesCache = Object.fromEntries(entries);
      return entriesCache;
    },
    getKeys() {
      if (!keysCache) keysCache = [...entries.keys()];
      return keysCache;
    },
    subscribeKeys: (listener) => add(keysListeners, listener),
    getMeta: () => meta,
    subscribeMeta: (listener) => add(metaListeners, listener),
    subscribeAll: (listener) => add(allListeners, listener),
    subscribeChanges: (listener) => add(changeListeners, listener),
    get ready() {
      return ready;
    },
    get version() {
      return version;
    },
    reset() {
      ready = false;
      version = 0;
    },
  };
}
