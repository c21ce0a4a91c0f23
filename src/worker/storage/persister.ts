// Throttled persistence of the working store (DESIGN §5, tldraw-style): the
// entities a batch touched queue up and are written together in one
// transaction at most every PERSIST_THROTTLE_MS. A failed write (quota, a
// closed database) never stops the engine: it is retried later as a full
// rewrite, since we cannot know which part of the failed write landed.
// Each entity goes to the part its source names (a floor, or the shared
// part); an entity that moved parts is deleted from the part it was in.
// A large write never holds the worker long (issue 14). A full rewrite is
// placed and serialized (`StoragePort.prepare`) a slice a task, with pauses
// between slices so it takes a small share of the worker while live data
// flows, outside any transaction; then one transaction stores the records
// made, a put a task. A source that goes (sign-out) stops it: none of it lands.

import type { Id } from '../../shared/types.js';
import type { Clock, Logger, TimerHandle } from '../ports.js';
import {
  RECORD_CHANGES, SHARED_PART, STORAGE_WARNINGS, type CacheKey, type CachedCollection, type CacheWrite, type PreparedRecord,
  type StoragePort,
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
 * A full rewrite of more than this is also serialized ahead, a record (RECORD_CHANGES) a task.
 */
export const PERSIST_PLACE_SLICE = 2_000;
/**
 * The shortest pause after each slice of a large full rewrite (placing or serializing, a few ms each). The
 * first full write of a location (nothing of it stored yet) pauses this long: ~2 s for 30,000 entities.
 * Later ones (a compaction, a heavy load that touched half the location) spread their slices over the time
 * the rate limit would wait after them anyway (n / PERSIST_MAX_ENTITIES_PER_S): a few per cent of the worker
 * throughout instead of a tenth of it for 2 s or all of it for 0.2–0.4 s (issue 14: back to back, the slices
 * took half of every window of the ingest bench they overlapped).
 */
export const PERSIST_SLICE_GAP_MS = 25;
/** The longest pause between two slices of a spread rewrite. */
const SLICE_GAP_MAX_MS = 200;
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
  /** writes what is queued now (tests, page hide, dispose), a paced rewrite without its pauses */
  flush(): Promise<void>;
  /** writes what is queued at the next turn instead of after the throttle (a live removal); a write in flight keeps its pace */
  soon(): void;
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
  /** a write of the source has landed: later full rewrites are spread out */
  let landed = false;
  /** ends the pause in progress now (a flush asked for what is queued) */
  let hurry: (() => void) | null = null;
  /** a flush waits for the write in flight: it goes on without its pauses */
  let flushing = false;
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
        // a rewrite of a location already stored is spread over the time the rate limit gives it
        const gap = isFull && landed ? spreadGap(src.size?.() ?? 0) : PERSIST_SLICE_GAP_MS;
        const changes = isFull ? await placeAll(src, controller.signal, gap) : await placeChanges(src, batch, controller.signal);
        // a large rewrite is serialized ahead in paced slices; the write then only stores its records
        const prepared = isFull && changes.length > PERSIST_PLACE_SLICE ? await prepareAll(changes, controller.signal, gap) : undefined;
        // after n entities the next write waits n / PERSIST_MAX_ENTITIES_PER_S, less what pacing this one took
        const took = prepared ? gap * (prepared.length + Math.ceil(changes.length / PERSIST_PLACE_SLICE)) : 0;
        delay = Math.max(throttle, Math.round((changes.length * 1_000) / PERSIST_MAX_ENTITIES_PER_S) - took);
        const result = await storage.write(src.key, { meta: src.meta(), full: isFull, changes, prepared }, { signal: controller.signal });
        landed = true;
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

  /** The pause between slices that spreads a full rewrite of about n entities over n / PERSIST_MAX_ENTITIES_PER_S. */
  function spreadGap(n: number): number {
    const slices = Math.ceil(n / PERSIST_PLACE_SLICE) + Math.ceil(n / RECORD_CHANGES);
    const spreadMs = (n * 1_000) / PERSIST_MAX_ENTITIES_PER_S;
    return Math.min(SLICE_GAP_MAX_MS, Math.max(PERSIST_SLICE_GAP_MS, Math.round(spreadMs / Math.max(1, slices))));
  }

  /** A turn of the event loop (after `ms`) between slices, so live work runs between them; stops once aborted. */
  function pause(signal: AbortSignal, ms = 0): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let handle: TimerHandle | null = null;
      const done = () => {
        if (handle !== null) clock.clearTimeout(handle);
        handle = null;
        hurry = null;
        signal.removeEventListener('abort', done);
        if (signal.aborted) reject(signal.reason); else resolve();
      };
      // a sign-out stops it at once, a flush (page hide, dispose) ends the pause now
      signal.addEventListener('abort', done);
      hurry = ms > 0 ? done : null;
      handle = clock.setTimeout(done, flushing ? 0 : ms);
    });
  }

  /** Every entity with its part, for a full rewrite, PERSIST_PLACE_SLICE entities a task, paced. */
  async function placeAll(src: PersistSource, signal: AbortSignal, gap: number): Promise<CacheWrite['changes']> {
    placed.clear();
    const out: CacheWrite['changes'] = [];
    let n = 0;
    for (const { collection, id, value } of src.all()) {
      if (n > 0 && n % PERSIST_PLACE_SLICE === 0) await pause(signal, gap);
      n += 1;
      const part = src.part?.(collection, id, value) ?? SHARED_PART;
      if (part !== SHARED_PART) placedIn(collection).set(id, part);
      out.push({ collection, id, value, part });
    }
    return out;
  }

  /** A full rewrite's records, made by the storage a record a task, paced: the write then serializes nothing. */
  async function prepareAll(changes: CacheWrite['changes'], signal: AbortSignal, gap: number): Promise<PreparedRecord[]> {
    const byPart = new Map<string, CacheWrite['changes']>();
    for (const c of changes) {
      if (c.value === null) continue;
      const part = c.part ?? SHARED_PART;
      let list = byPart.get(part);
      if (!list) byPart.set(part, (list = []));
      list.push(c);
    }
    const out: PreparedRecord[] = [];
    for (const [part, list] of byPart) {
      for (let i = 0; i < list.length; i += RECORD_CHANGES) {
        await pause(signal, gap);
        out.push(storage.prepare(part, list.slice(i, i + RECORD_CHANGES)));
      }
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
      landed = false;
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
      // now: a paced rewrite (in flight, or the one this starts) goes on without its pauses
      flushing = true;
      hurry?.();
      try {
        if (writing) await writing;
        await write();
      } finally {
        flushing = false;
      }
    },
    soon() {
      if (!source || writing) return;
      if (timer !== null) { clock.clearTimeout(timer); timer = null; }
      arm(0);
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
