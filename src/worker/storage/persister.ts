// Throttled persistence of the working store (DESIGN §5, tldraw-style): the
// entities a batch touched queue up and are written together in one
// transaction at most every PERSIST_THROTTLE_MS. A failed write (quota, a
// closed database) never stops the engine: it is retried later as a full
// rewrite, since we cannot know which part of the failed write landed.
// Each entity goes to the part its source names (a floor, or the shared
// part); an entity that moved parts is deleted from the part it was in.
// A large write never holds the worker long (issue 14): its entities are
// placed a slice a task, then the storage serializes a record a task, all in
// one transaction; a source that goes (sign-out) aborts it, and then none of
// it lands.

import type { Id } from '../../shared/types.js';
import type { Clock, Logger, TimerHandle } from '../ports.js';
import {
  SHARED_PART, STORAGE_WARNINGS, type CacheKey, type CachedCollection, type CacheWrite, type StoragePort,
} from './storagePort.js';

export const PERSIST_THROTTLE_MS = 1_000;
/**
 * Entities written per second at most, on average: after a write of n entities the next waits
 * n / this seconds (at least the throttle). Under a heavy live load nearly every sensor changes
 * each second, and writing them all every second would cost the worker more than the load itself;
 * a cache a few seconds older shows the same floor, and the live reload replaces it anyway.
 */
export const PERSIST_MAX_ENTITIES_PER_S = 5_000;
export const PERSIST_RETRY_MIN_MS = 2_000;
export const PERSIST_RETRY_MAX_MS = 60_000;
/** A write touching at least this many entities and half the location is written as a full rewrite instead. */
export const PERSIST_FULL_MIN_ENTITIES = 1_000;
/**
 * Entities read and placed in their parts per task before a write; then the event loop gets a turn
 * (a full rewrite places ~30,000: in one task that was 30–55 ms of the worker under load, issue 14).
 * The storage then serializes its records a task each.
 */
export const PERSIST_PLACE_SLICE = 2_000;
/** How soon a full rewrite that waits for the store to be filled looks again. */
const READY_POLL_MS = 100;

export interface PersistSource {
  key: CacheKey;
  meta(): CacheWrite['meta'];
  /** current value, or null when gone (or not to be cached, e.g. derived local entities) */
  read(collection: CachedCollection, id: Id): unknown | null;
  /** every entity to cache, for a full rewrite; read in slices, so it may be lazy (the store's own maps) */
  all(): Iterable<{ collection: CachedCollection; id: Id; value: unknown }>;
  /** about how many entities all() returns (cheap), so a write touching most of them becomes a full rewrite */
  size?(): number;
  /** where an entity is kept: a floor's part or SHARED_PART (the default) */
  part?(collection: CachedCollection, id: Id, value: unknown): string;
  /** false while the store is still being filled (a reopen reading the cache in parts): a full rewrite waits */
  ready?(): boolean;
}

export interface Persister {
  /** where writes go; null stops persisting (signed out, no location) and drops the queue */
  setSource(source: PersistSource | null): void;
  note(entries: Iterable<[CachedCollection, Id]>): void;
  /** queues a batch's marks as they are (per collection, the ids); the live path's note */
  noteMarks(marks: ReadonlyMap<CachedCollection, ReadonlySet<Id>>): void;
  /**
   * The queue itself (per collection, the ids), for a batch to mark its entities in directly: a live
   * reading's mark is then one set insertion, with no set of the batch's own to copy from (issue 14).
   * `noteMarks` of this very map arms the write. Null while nothing is persisted (no source).
   */
  queue(): Map<CachedCollection, Set<Id>> | null;
  /** the next write replaces everything stored for the key */
  requestFull(): void;
  /** writes what is queued now (tests, sign-out, page hide) */
  flush(): Promise<void>;
  /** resolves once a write already in flight has landed (or failed); queues nothing */
  settled(): Promise<void>;
  dispose(): void;
}

export interface PersisterOptions {
  storage: StoragePort;
  clock: Clock;
  logger: Logger;
  /** a write failed: shown once per failure streak in the feed */
  onWriteError(message: string): void;
  throttleMs?: number;
}

export function createPersister(options: PersisterOptions): Persister {
  const { storage, clock, logger } = options;
  const throttle = options.throttleMs ?? PERSIST_THROTTLE_MS;
  let source: PersistSource | null = null;
  /** queued entities per collection (no key text per change: issue 14); a live batch marks into it directly (`queue`) */
  let pending = new Map<CachedCollection, Set<Id>>();
  /** how many entities are queued: counted when asked, since batches add to the sets themselves */
  const pendingCount = (): number => {
    let n = 0;
    for (const ids of pending.values()) n += ids.size;
    return n;
  };
  let full = false;
  let timer: TimerHandle | null = null;
  let writing: Promise<void> | null = null;
  /** aborts the write in flight when its source goes (sign-out, another location): it then lands nothing */
  let inFlight: AbortController | null = null;
  let failures = 0;
  /** the wait before the next write: the throttle, or longer after a large write */
  let delay = throttle;
  /** per collection, entity id → the part it was last written to, for entities outside the shared part (no key text per entity) */
  const placed = new Map<CachedCollection, Map<Id, string>>();
  const placedIn = (collection: CachedCollection): Map<Id, string> => {
    let ids = placed.get(collection);
    if (!ids) placed.set(collection, (ids = new Map()));
    return ids;
  };

  function queue(collection: CachedCollection, id: Id) {
    let ids = pending.get(collection);
    if (!ids) pending.set(collection, (ids = new Set()));
    ids.add(id);
  }

  function arm(ms: number) {
    if (timer !== null || !source) return;
    timer = clock.setTimeout(() => { timer = null; void write(); }, ms);
  }

  async function write(): Promise<void> {
    if (writing) { await writing; if (pendingCount() || full) arm(throttle); return; }
    const src = source;
    const count = pendingCount();
    if (!src || (count === 0 && !full)) return;
    const batch = pending;
    // an initial (re)load touches everything: one full rewrite stores it compactly instead of as one huge delta
    const isFull = full || (count >= PERSIST_FULL_MIN_ENTITIES && !!src.size && count * 2 >= src.size());
    // half a store would replace the whole cache: wait until it is filled
    if (isFull && src.ready && !src.ready()) { arm(Math.min(throttle, READY_POLL_MS)); return; }
    pending = new Map();
    full = false;
    const controller = new AbortController();
    inFlight = controller;
    const run = (async () => {
      try {
        const changes = isFull ? await placeAll(src, controller.signal) : await placeChanges(src, batch, controller.signal);
        delay = Math.max(throttle, Math.round((changes.length * 1_000) / PERSIST_MAX_ENTITIES_PER_S));
        const result = await storage.write(src.key, { meta: src.meta(), full: isFull, changes }, { signal: controller.signal });
        failures = 0;
        // the storage's incremental records have piled up: fold them into one full rewrite, later
        if (result && result.compact && source === src) full = true;
      } catch (error) {
        // stopped on purpose (its source went): nothing landed, and nothing is to be retried for it
        if (controller.signal.aborted) return;
        failures += 1;
        if (source === src) full = true;
        logger.warn(STORAGE_WARNINGS.WRITE_FAILED, error);
        if (failures === 1) options.onWriteError(STORAGE_WARNINGS.WRITE_FAILED);
      }
    })();
    writing = run;
    await run;
    writing = null;
    inFlight = null;
    if (source !== src) return;
    if (failures > 0) arm(Math.min(PERSIST_RETRY_MAX_MS, PERSIST_RETRY_MIN_MS * 2 ** (failures - 1)));
    else if (pendingCount() || full) arm(delay);
  }

  /** A turn of the event loop between slices of placing, so live work runs between them. */
  function pause(signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => { clock.setTimeout(resolve, 0); }).then(() => signal.throwIfAborted());
  }

  /** Every entity with its part, for a full rewrite, PERSIST_PLACE_SLICE entities a task. */
  async function placeAll(src: PersistSource, signal: AbortSignal): Promise<CacheWrite['changes']> {
    placed.clear();
    const out: CacheWrite['changes'] = [];
    let n = 0;
    for (const { collection, id, value } of src.all()) {
      if (n > 0 && n % PERSIST_PLACE_SLICE === 0) await pause(signal);
      n += 1;
      const part = src.part?.(collection, id, value) ?? SHARED_PART;
      if (part !== SHARED_PART) placedIn(collection).set(id, part);
      out.push({ collection, id, value, part });
    }
    return out;
  }

  /** The queued entities with their parts (and a delete where one moved part), PERSIST_PLACE_SLICE a task. */
  async function placeChanges(src: PersistSource, batch: Map<CachedCollection, Set<Id>>, signal: AbortSignal): Promise<CacheWrite['changes']> {
    const out: CacheWrite['changes'] = [];
    let n = 0;
    for (const [collection, ids] of batch) {
      const parts = placedIn(collection);
      for (const id of ids) {
        if (n > 0 && n % PERSIST_PLACE_SLICE === 0) await pause(signal);
        n += 1;
        const value = src.read(collection, id);
        const was = parts.get(id) ?? SHARED_PART;
        const part = value === null ? was : src.part?.(collection, id, value) ?? SHARED_PART;
        // moved to another part (a desk to another floor): gone from the old one
        if (part !== was && value !== null) out.push({ collection, id, value: null, part: was });
        out.push({ collection, id, value, part });
        if (value === null || part === SHARED_PART) parts.delete(id);
        else parts.set(id, part);
      }
    }
    return out;
  }

  /** the write in flight lands nothing more (a large one stops between its slices) */
  function stopWriting() {
    inFlight?.abort();
    inFlight = null;
  }

  return {
    setSource(next) {
      if (timer !== null) { clock.clearTimeout(timer); timer = null; }
      if (next !== source) stopWriting();
      source = next;
      pending = new Map();
      full = false;
      failures = 0;
      delay = throttle;
      placed.clear();
    },
    note(entries) {
      if (!source) return;
      for (const [collection, id] of entries) queue(collection, id);
      if (pending.size) arm(delay);
    },
    noteMarks(marks) {
      if (!source) return;
      // the queue itself (a live batch marked into it): nothing to copy
      if (marks !== pending) {
        for (const [collection, ids] of marks) {
          if (ids.size === 0) continue;
          const queued = pending.get(collection);
          if (!queued) pending.set(collection, new Set(ids));
          else for (const id of ids) queued.add(id);
        }
      }
      if (pending.size) arm(delay);
    },
    queue: () => (source ? pending : null),
    requestFull() {
      if (!source) return;
      full = true;
      arm(throttle);
    },
    async flush() {
      if (timer !== null) { clock.clearTimeout(timer); timer = null; }
      if (writing) await writing;
      await write();
    },
    async settled() {
      while (writing) await writing;
    },
    dispose() {
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
      stopWriting();
      source = null;
    },
  };
}
