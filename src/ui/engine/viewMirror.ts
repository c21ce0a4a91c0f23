// Main-thread mirror of one engine view (DESIGN §4): applies the worker's
// snapshot and patches and notifies per-key subscribers, so a changed desk
// re-renders that desk only. Pure TypeScript (no DOM, no React) so the
// engine's Comlink tests can drive it in Node.
//
// Given a `schedule`, a large message is applied in slices, one task each,
// so React renders a floor of thousands of assets over a few frames instead
// of one long task (issue 14: no main-thread task over 50 ms). The slice
// size adapts to keep each slice, React's render included, near
// SLICE_TARGET_MS. Messages are always applied in order; given a `hold`,
// none while React renders the first screen from the mirrors.

import type { ViewMessage, ViewName, ViewSnapshotMessage, ViewTypes } from '../../shared/api.js';

export type Listener = () => void;
/** Told which keys changed in one applied slice (meta changes are not keys). */
export type ChangeListener = (changed: ReadonlySet<string>, metaChanged: boolean) => void;

export interface ViewMirror<T = unknown, M = unknown> {
  /** takes one message; returns whether anything visible changed at once (false for a stale message) */
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
  /** whole view: notified once per applied slice that changed something */
  subscribeAll(listener: Listener): () => void;
  /** like subscribeAll, with the changed keys */
  subscribeChanges(listener: ChangeListener): () => void;
  /** whether a snapshot has started to apply since creation or the last reset (its meta is there) */
  readonly ready: boolean;
  /** whether every message taken so far is applied (no slice pending) */
  readonly settled: boolean;
  /** version of the last applied message of the current subscription */
  readonly version: number;
  /** expects a new snapshot (a new subscription feeds this mirror); drops what is not applied yet */
  reset(): void;
}

export interface ViewMirrorOptions {
  /** runs a task later (a new macrotask, so the browser may paint in between); none: every message applies at once */
  schedule?: (task: () => void) => void;
  /** a monotonic clock in ms, to adapt the slice size (performance.now) */
  now?: () => number;
  /** entries of the first slice (default SLICE_FIRST_ENTRIES) */
  sliceEntries?: number;
  /**
   * Snapshots to apply whole, in one slice once every part is there, so React draws them
   * in one commit (the saved floor a reopening user waits for, docs/ui.md); the rest is sliced
   */
  atOnce?: (message: ViewSnapshotMessage<unknown, unknown>) => boolean;
  /** while held, messages are taken but not applied (React renders the first screen from what is there) */
  hold?: MirrorHold;
  /**
   * Shows a change that takes more than one slice as one (a replay's step: the map and the bar's time together,
   * docs/reports.md "A step on the screen"): calls `update`, which applies the slices, and keeps the screen as it
   * was until the promise it returns settles, once every message taken meanwhile is applied and React rendered
   * it (the View Transitions API pauses rendering meanwhile, workerEngine.ts). Only patches are presented: a
   * snapshot is a floor being drawn, which says so.
   */
  present?: (update: () => Promise<void>) => void;
  /**
   * Called after React rendered each slice of a presented change, inside the slice's task: the page's style is
   * brought up to date there (workerEngine.ts), a slice at a time, rather than all of the change's in the one
   * frame that shows it. Counted in the slice's time, so the slice size accounts for it.
   */
  presentedSlice?: () => void;
}

/**
 * Holds every mirror's changes while React renders from them in slices: a store that changes
 * during a concurrent render makes React render the whole tree again in one synchronous task
 * (the start-up's first render, 36 ms of CPU and 106 ms long at load 14, issue 14).
 */
export interface MirrorHold {
  held(): boolean;
  /** runs `task` once nothing holds any more */
  whenReleased(task: () => void): void;
}

/** What one slice aims to cost, the render it causes included: well under a 50 ms long task, about a frame. */
export const SLICE_TARGET_MS = 12;
export const SLICE_FIRST_ENTRIES = 200;
const SLICE_MIN_ENTRIES = 25;
const SLICE_MAX_ENTRIES = 5_000;

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

/** A message being applied: its entries as a list with a cursor, so a slice can stop anywhere. */
interface Job<T, M> {
  snapshot: boolean;
  version: number;
  items: Array<[string, T]>;
  /** items from this index on are changed fields (a patch's `changed`), merged into the entry held */
  partialFrom: number;
  cursor: number;
  removed: string[];
  meta: M | undefined;
  hasMeta: boolean;
  /** snapshot parts still to come */
  partsLeft: number;
  /** snapshot: every key it holds (the rest are removed when it completes) */
  seen: Set<string> | null;
  started: boolean;
  /** applied in one slice once whole (options.atOnce) */
  whole: boolean;
}

/**
 * Listeners of the whole view, called in the order they came, each notify over the list as it was when the
 * notify began. The list is kept between changes to it: a floor's hundreds of tiles listen to the whole view, and
 * copying them for every slice applied was garbage the page made per replay step (issue 14).
 */
function listenerList<L>(): { add(listener: L): () => void; now(): readonly L[] } {
  const set = new Set<L>();
  let list: readonly L[] | null = null;
  return {
    add(listener) {
      set.add(listener);
      list = null;
      return () => {
        if (set.delete(listener)) list = null;
      };
    },
    now: () => (list ??= [...set]),
  };
}

export function createViewMirror<T = unknown, M = unknown>(options: ViewMirrorOptions = {}): ViewMirror<T, M> {
  const { schedule, now } = options;
  const entries = new Map<string, T>();
  // a key's listeners, replaced (never changed in place) when one comes or goes: a notify walks the array it
  // read without copying it, as the other listener lists do
  const keyListeners = new Map<string, readonly Listener[]>();
  const keysListeners = listenerList<Listener>();
  const metaListeners = listenerList<Listener>();
  const allListeners = listenerList<Listener>();
  const changeListeners = listenerList<ChangeListener>();
  let meta: M | undefined;
  let version = 0;
  let ready = false;
  let entriesCache: Record<string, T> | null = {};
  let keysCache: string[] | null = [];
  const queue: Array<Job<T, M>> = [];
  /** version of the last message taken (applied or queued) and whether a snapshot was taken */
  let accepted = 0;
  let snapshotAccepted = false;
  let sliceSize = schedule ? options.sliceEntries ?? SLICE_FIRST_ENTRIES : Infinity;
  let scheduled = false;
  /** a slice waits for the hold's release */
  let held = false;
  /** a presented change (options.present): waiting for its update to be called, or applying in it */
  let presenting: 'no' | 'waiting' | 'applying' = 'no';
  let presented: (() => void) | null = null;

  // Keeps the old object when the data is equal, so a re-sent snapshot
  // (after a reconnect or a layer change) re-renders nothing that did not change.
  function put(key: string, value: T, changed: Set<string>): boolean {
    const old = entries.get(key);
    if (old !== undefined && sameData(old, value)) return false;
    entries.set(key, value);
    changed.add(key);
    return old === undefined;
  }

  /**
   * Changed fields of an entry held (a patch's `changed`: the worker's port sends only what changed of an entry
   * it sent before, worker/views/viewPort.ts): a new entry with them, the rest of the fields as they were.
   */
  function merge(key: string, fields: Partial<T>, changed: Set<string>): void {
    const old = entries.get(key);
    // the worker sends fields only of what it sent this mirror before, in order: nothing to merge into is a bug,
    // said, and the rest of the message still applies
    if (old === undefined || typeof old !== 'object' || old === null) {
      console.error(`View patch changes ${key}, which the page does not hold`);
      return;
    }
    entries.set(key, { ...old, ...fields });
    changed.add(key);
  }

  function take(message: ViewMessage<T, M>): boolean {
    if (message.type === 'snapshot') {
      accepted = message.version;
      snapshotAccepted = true;
      queue.push({
        snapshot: true, version: message.version, items: Object.entries(message.entries), partialFrom: Infinity, cursor: 0, removed: [],
        meta: message.meta, hasMeta: true, partsLeft: Math.max(1, message.parts ?? 1) - 1, seen: new Set(), started: false,
        whole: !!options.atOnce?.(message),
      });
      return true;
    }
    if (message.type === 'snapshotPart') {
      const job = queue.find((j) => j.snapshot && j.version === message.version && j.partsLeft > 0);
      if (!job) return false;
      job.partsLeft -= 1;
      for (const item of Object.entries(message.entries)) job.items.push(item);
      return true;
    }
    // patches before the snapshot, or replays of older versions, are stale
    if (!snapshotAccepted || message.version <= accepted) return false;
    accepted = message.version;
    const items = Object.entries(message.upserted);
    const partialFrom = items.length;
    if (message.changed) for (const item of Object.entries(message.changed)) items.push(item as [string, T]);
    queue.push({
      snapshot: false, version: message.version, items, partialFrom, cursor: 0, removed: message.removed,
      meta: message.meta, hasMeta: message.meta !== undefined, partsLeft: 0, seen: null, started: false, whole: false,
    });
    return true;
  }

  /** A snapshot that cannot go on before more of its parts arrive (a part's arrival applies it). */
  function waitsForParts(job: Job<T, M>): boolean {
    return job.partsLeft > 0 && (job.whole || job.cursor >= job.items.length);
  }

  /** Applies up to one slice of the queue and notifies; returns whether anything changed. */
  function slice(): boolean {
    const hold = options.hold;
    if (hold?.held()) {
      if (!held) {
        held = true;
        // at once: what the first screen shows is whole before its effects run (a floor being drawn is
        // told from a whole one by what the mirror holds); a large message goes on in slices as ever
        hold.whenReleased(() => { held = false; slice(); });
      }
      return false;
    }
    const changed = new Set<string>();
    let keysChanged = false;
    let metaChanged = false;
    let quota = sliceSize;
    const t0 = now?.();
    let wholeJob = false;
    while (queue.length && quota > 0) {
      const job = queue[0]!;
      if (job.whole) {
        // nothing of it until every part is here, then all of it (the jobs after it wait a slice)
        if (job.partsLeft > 0) break;
        if (changed.size > 0 || metaChanged) break;
        quota = Infinity;
        wholeJob = true;
      }
      if (!job.started) {
        job.started = true;
        // a snapshot's meta comes first (the floor and its outline, before its assets)
        if (job.snapshot) {
          if (!ready || !sameData(meta, job.meta)) { meta = job.meta; metaChanged = true; }
          ready = true;
        }
        for (const key of job.removed) {
          if (entries.delete(key)) { changed.add(key); keysChanged = true; }
        }
        quota -= job.removed.length;
      }
      for (; job.cursor < job.items.length && quota > 0; job.cursor++, quota--) {
        const [key, value] = job.items[job.cursor]!;
        job.seen?.add(key);
        if (job.cursor >= job.partialFrom) merge(key, value as Partial<T>, changed);
        else if (put(key, value, changed)) keysChanged = true;
      }
      if (job.cursor < job.items.length) break;
      // a snapshot whose parts are still on their way waits for them
      if (job.partsLeft > 0) break;
      if (job.seen) {
        for (const key of [...entries.keys()]) {
          if (!job.seen.has(key)) { entries.delete(key); changed.add(key); keysChanged = true; }
        }
      }
      // a patch's meta (e.g. saved → live data) holds once all of its entries do
      if (!job.snapshot && job.hasMeta && !sameData(meta, job.meta)) { meta = job.meta; metaChanged = true; }
      version = job.version;
      queue.shift();
      if (wholeJob) quota = 0;
    }
    notify(changed, keysChanged, metaChanged);
    const used = sliceSize - quota;
    const inPresented = presenting === 'applying' && (changed.size > 0 || metaChanged);
    if (inPresented && options.presentedSlice) queueMicrotask(options.presentedSlice);
    if (t0 !== undefined && now && !wholeJob && (quota <= 0 || used >= SLICE_MIN_ENTRIES)) {
      const size = sliceSize;
      // measured after React's render of this slice (a microtask queued before this one)
      queueMicrotask(() => {
        const spent = Math.max(0.5, now() - t0);
        // the entries that take about the target, at this slice's cost: a slice that used its whole quota may
        // grow (at most double), any slice that took too long shrinks it (one whose entries went unrendered, a
        // replay not yet on the map, must not leave a size the next drawn step pays for in one task)
        const fit = (used * SLICE_TARGET_MS) / spent;
        const next = quota <= 0 ? Math.min(size * 2, fit) : Math.min(size, fit);
        sliceSize = Math.round(Math.min(SLICE_MAX_ENTRIES, Math.max(SLICE_MIN_ENTRIES, next)));
      });
    }
    if (schedule && !scheduled && queue.length && !waitsForParts(queue[0]!)) {
      scheduled = true;
      schedule(() => { scheduled = false; slice(); });
    }
    if (presenting === 'applying' && queue.length === 0) {
      // all of it is in: shown once React has rendered this last slice (a microtask queued before this one)
      presenting = 'no';
      const done = presented;
      presented = null;
      queueMicrotask(() => done?.());
    }
    return changed.size > 0 || metaChanged;
  }

  /**
   * Whether a patch taken while nothing was queued starts a presented change: it does not fit one slice, or it
   * carries no meta, so more parts of it follow (a large patch comes in parts, the meta in the last).
   */
  function presents(message: ViewMessage<T, M>): boolean {
    if (!options.present || message.type !== 'patch') return false;
    const changedCount = message.changed ? Object.keys(message.changed).length : 0;
    return message.meta === undefined || Object.keys(message.upserted).length + changedCount + message.removed.length > sliceSize;
  }

  function present(): void {
    presenting = 'waiting';
    options.present!(() => new Promise<void>((resolve) => {
      // reset meanwhile: nothing to apply
      if (presenting !== 'waiting') { resolve(); return; }
      presenting = 'applying';
      presented = resolve;
      slice();
    }));
  }

  function notify(changed: Set<string>, keysChanged: boolean, metaChanged: boolean): void {
    if (changed.size === 0 && !metaChanged) return;
    if (changed.size > 0) entriesCache = null;
    if (keysChanged) keysCache = null;
    for (const key of changed) {
      const list = keyListeners.get(key);
      if (list) for (const l of list) l();
    }
    if (keysChanged) for (const l of keysListeners.now()) l();
    if (metaChanged) for (const l of metaListeners.now()) l();
    for (const l of changeListeners.now()) l(changed, metaChanged);
    for (const l of allListeners.now()) l();
  }

  return {
    apply(message) {
      const wasIdle = queue.length === 0;
      if (!take(message)) return false;
      // a presented change applies when its update is called: what comes meanwhile joins it
      if (presenting === 'waiting') return false;
      if (wasIdle && presenting === 'no' && !held && !options.hold?.held() && presents(message)) {
        present();
        return false;
      }
      // work already queued goes first; a slice is on its way for it (or the hold's release)
      return (wasIdle || !scheduled) && !held ? slice() : false;
    },
    getSnapshot: (key) => entries.get(key),
    subscribe(key, listener) {
      const before = keyListeners.get(key) ?? [];
      if (!before.includes(listener)) keyListeners.set(key, [...before, listener]);
      return () => {
        const list = keyListeners.get(key);
        if (!list?.includes(listener)) return;
        if (list.length === 1) keyListeners.delete(key);
        else keyListeners.set(key, list.filter((l) => l !== listener));
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
    subscribeKeys: keysListeners.add,
    getMeta: () => meta,
    subscribeMeta: metaListeners.add,
    subscribeAll: allListeners.add,
    subscribeChanges: changeListeners.add,
    get ready() {
      return ready;
    },
    get settled() {
      return queue.length === 0;
    },
    get version() {
      return version;
    },
    reset() {
      ready = false;
      version = 0;
      accepted = 0;
      snapshotAccepted = false;
      queue.length = 0;
      // a presented change ends with nothing more to apply
      const done = presented;
      presented = null;
      presenting = 'no';
      done?.();
    },
  };
}
