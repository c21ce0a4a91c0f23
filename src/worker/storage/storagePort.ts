// The engine's persistence port (DESIGN §5): what it keeps across reloads per
// (user, location) — normalized entities, stream positions, savedAt — and the
// session. idbStorage implements it on IndexedDB; memoryStorage in tests.
// A location is stored in parts: one per floor (its assets and their
// sensors) and a shared part (structure, people, users…), so a reopen reads
// the shown floor first and the rest after its first frame (issue 14).

import type { StreamPosition } from '../../shared/protocol.js';
import type { Id } from '../../shared/types.js';

/** Bump when the shape of cached entities changes: older caches are dropped with a warning. */
export const STORAGE_SCHEMA_VERSION = 3;

/** The part of a location that is not one floor's: structure, users, people, sensors of no floor. */
export const SHARED_PART = '';

/** Collections cached per location; derived (local) entities are rebuilt, never stored. */
export const CACHED_COLLECTIONS = [
  'organizations', 'locations', 'users', 'external_objects', 'buildings', 'floors', 'assets', 'sensors',
  'notifications',
] as const;
export type CachedCollection = (typeof CACHED_COLLECTIONS)[number];

export interface CacheKey {
  userId: Id;
  locationId: Id;
}

export interface CachedLocationMeta extends CacheKey {
  organizationId: Id;
  schema: number;
  /** corrected-clock ms */
  savedAt: number;
  /** scopeKey → last applied stream position */
  streams: Record<string, StreamPosition>;
  /** the floor shown when this was saved: a reopen reads its part first */
  floorId?: Id | null;
  /** every part with stored entities (the storage keeps it) */
  parts?: string[];
}

export interface CachedLocation {
  meta: CachedLocationMeta;
  entities: Record<CachedCollection, unknown[]>;
  /** the parts these entities come from (every part unless the read asked for some) */
  parts: string[];
}

export interface LoadOptions {
  /** which parts to read, chosen once the meta is known; default every part */
  parts?(meta: CachedLocationMeta): readonly string[];
}

/** A floor view as last sent, stored ready to serve on a reopen before any entity is restored. */
export interface SavedView {
  floorId: Id;
  /** the view's layers, in the order the view was asked with */
  layers: string[];
  /** corrected-clock ms */
  savedAt: number;
  /** key → the entry as sent */
  entries: Record<string, unknown>;
}

/**
 * Changes in one stored record at most (a base chunk or a delta record): what one task of the worker
 * serializes. 500 desks are ~250 KB of JSON, a few ms to make and to hand to IndexedDB (issue 14).
 */
export const RECORD_CHANGES = 500;

/**
 * A record of a full rewrite made ahead of its write (`StoragePort.prepare`), in the storage's own form: the
 * persister makes them a slice at a time with pauses between, outside any transaction, so the write that
 * stores them serializes nothing (issue 14).
 */
export interface PreparedRecord {
  readonly part: string;
  readonly body: unknown;
}

/** One write: entity puts (value) and deletes (null), plus the new meta, in one transaction. */
export interface CacheWrite {
  /** the storage stamps `schema` itself */
  meta: Omit<CachedLocationMeta, 'schema'>;
  /** true: replace everything stored for the key (after a failed write, tldraw-style) */
  full: boolean;
  /** `part`: where the entity is kept (SHARED_PART when absent); a delete goes to the part the entity was in */
  changes: Array<{ collection: CachedCollection; id: Id; value: unknown | null; part?: string }>;
  /** a full write's records made ahead by `prepare` (of these very changes): stored as they are instead */
  prepared?: PreparedRecord[];
}

export interface WriteOptions {
  /** aborted: stop, and land nothing of this write */
  signal?: AbortSignal;
}

/** What a write tells the persister: `compact` asks for the next write to be a full rewrite. */
export interface CacheWriteResult {
  /** the storage has accumulated enough incremental records that a full rewrite would read back faster */
  compact?: boolean;
}

/** The signed-in session kept so a reopen resumes; the token never goes to a URL or a log. */
export interface StoredSession {
  host: string;
  version: number;
  token: string;
  userId: Id;
  /** permissions of the last settings, so a cached floor is filtered by role before the network answers */
  permissions: string[];
  expiresAt: number | null;
  organizationId: Id | null;
  locationId: Id | null;
  floorId: Id | null;
}

export interface StorageOpenResult {
  /** warnings to post (an older schema or unreadable data was dropped) */
  warnings: string[];
}

export interface StoragePort {
  open(): Promise<StorageOpenResult>;
  /** null when nothing is cached; an unreadable entry is dropped and reported through `onWarning` */
  loadLocation(key: CacheKey, onWarning: (message: string) => void, options?: LoadOptions): Promise<CachedLocation | null>;
  /** the saved floor view of a location, or null */
  loadView(key: CacheKey): Promise<SavedView | null>;
  saveView(key: CacheKey, view: SavedView): Promise<void>;
  /**
   * One transaction: all of it lands or none of it. Rejects on quota or write errors (the caller keeps
   * running and retries), and with the signal's reason once `signal` aborts before it landed (a sign-out
   * midway): nothing of it is then stored. A large write is serialized in slices, a task each (issue 14).
   */
  write(key: CacheKey, write: CacheWrite, options?: WriteOptions): Promise<CacheWriteResult | void>;
  /** one record of a full rewrite (at most RECORD_CHANGES changes of one part, deletes left out), made now */
  prepare(part: string, changes: CacheWrite['changes']): PreparedRecord;
  clearUser(userId: Id): Promise<void>;
  loadSession(): Promise<StoredSession | null>;
  saveSession(session: StoredSession | null): Promise<void>;
  close(): Promise<void>;
}

export const STORAGE_WARNINGS = {
  SCHEMA_DROPPED: 'Cached data from an older version was dropped.',
  UNREADABLE_DROPPED: 'Unreadable cached data was dropped.',
  WRITE_FAILED: 'Could not save data for offline use; retrying.',
} as const;

/** Checks the parts of a cached record the engine relies on before using it. */
export function isReadableMeta(value: unknown, key: CacheKey): value is CachedLocationMeta {
  if (!value || typeof value !== 'object') return false;
  const m = value as Partial<CachedLocationMeta>;
  return m.userId === key.userId && m.locationId === key.locationId
    && typeof m.organizationId === 'string' && typeof m.savedAt === 'number'
    && typeof m.schema === 'number' && !!m.streams && typeof m.streams === 'object';
}
