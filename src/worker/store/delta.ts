// What one applied batch changed, so views, the scheduler and the persister
// touch only that: changed asset ids (including moves and sensor-driven
// changes), structure, users, notifications and the entities to persist.

import type { Asset, Id } from '../../shared/types.js';
import type { CachedCollection } from '../storage/storagePort.js';

export interface ActivityAlert {
  assetId: Id;
  sensorType: string;
}

export interface StoreDelta {
  /** assets whose data, position, floor or sensors changed (or that were removed) */
  assets: Set<Id>;
  /** assets of which only sensor readings changed (their standing facts hold) */
  values: Set<Id>;
  /** assets of which only heartbeats arrived (battery, last communication) */
  beats: Set<Id>;
  /** sensors whose records or location values changed: their assets are placed by them after the batch */
  sensors: Set<Id>;
  /** buildings, floors, locations or organizations changed */
  structure: boolean;
  /**
   * an asset (a ticket, a voice, a desk…), a building or a floor was deleted: what a reopen draws from
   * this device must lose it at once, not a throttle later (engine/writePath.ts)
   */
  removed: boolean;
  users: Set<Id>;
  notifications: Set<Id>;
  /** indexes were rebuilt: every asset may have changed */
  all: boolean;
  /**
   * entities to write, per collection: a live reading marks its sensor here, so the mark is one set
   * insertion of the id it already holds (no key text or pair per change, issue 14)
   */
  persist: PersistMarks;
  /** alert-on-activity watches that fired (and were cleared) */
  activity: ActivityAlert[];
  /** floors whose privacy zones were created, moved, re-typed or deleted: their employees are re-filtered */
  privacyFloors: Set<Id>;
  /**
   * assets whose record a change replaced, with the record and floor they had before the batch first
   * touched them (an id some other change of the batch touched first is not here): what the finder
   * indexes may be compared with them instead of being read and re-worded again (issue 14). Null until a
   * batch replaces one: most batches are readings, and a map each is garbage a small packet pays for
   */
  replaced: Map<Id, ReplacedAsset> | null;
}

export interface ReplacedAsset {
  record: Asset;
  floorId: Id | null;
}

/**
 * A delta for one batch. The live path passes the sets its marks end up in anyway, so a batch of readings
 * marks each asset and sensor once, with no sets of its own per packet to copy from (issue 14): `values`, the
 * view hub's set of assets with new readings for its next flush (viewHub.ts `pending`), and `persist`, the
 * persister's queue (persister.ts `queue`). Their sizes then count what earlier batches marked too.
 */
export function createDelta(values?: Set<Id> | null, persist?: PersistMarks | null): StoreDelta {
  return {
    assets: new Set(), values: values ?? new Set(), beats: new Set(), sensors: new Set(), structure: false, removed: false, users: new Set(), notifications: new Set(),
    all: false, persist: persist ?? new Map(), activity: [], privacyFloors: new Set(), replaced: null,
  };
}

/** Entities to write, per collection. */
export type PersistMarks = Map<CachedCollection, Set<Id>>;

export function markPersist(delta: StoreDelta, collection: CachedCollection, id: Id): void {
  let ids = delta.persist.get(collection);
  if (!ids) delta.persist.set(collection, (ids = new Set()));
  ids.add(id);
}

export function isEmptyDelta(delta: StoreDelta): boolean {
  return delta.assets.size === 0 && delta.values.size === 0 && delta.beats.size === 0 && delta.sensors.size === 0 && !delta.structure && delta.users.size === 0
    && delta.notifications.size === 0 && !delta.all && delta.persist.size === 0;
}
