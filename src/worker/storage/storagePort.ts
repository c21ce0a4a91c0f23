// The engine's persistence port (DESIGN §5): what it keeps across reloads per
// (user, location) — normalized entities, stream positions, savedAt — and the
// session. idbStorage implements it on IndexedDB; memoryStorage in tests.

import type { StreamPosition } from '../../shared/protocol.js';
import type { Id } from '../../shared/types.js';

/** Bump when the shape of cached entities changes: older caches are dropped with a warning. */
export const STORAGE_SCHEMA_VERSION = 2;

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
}

export interface CachedLocation {
  meta: CachedLocationMeta;
  entities: Record<CachedCollection, unknown[]>;
}

/** One write: entity puts (value) and deletes (null), plus the new meta, in one transaction. */
export interface CacheWrite {
  /** the storage stamps `schema` itself */
  meta: Omit<CachedLocationMeta, 'schema'>;
  /** true: replace everything stored for the key (after a failed write, tldraw-style) */
  full: boolean;
  changes: Array<{ collection: CachedCollection; id: Id; value: unknown | null }>;
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
  loadLocation(key: CacheKey, onWarning: (message: string) => void): Promise<CachedLocation | null>;
  /** rejects on quota or write errors; the caller keeps running and retries */
  write(key: CacheKey, write: CacheWrite): Promise<CacheWriteResult | void>;
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
