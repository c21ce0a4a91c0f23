// Facts per asset, computed on demand and cached until the asset, its sensors
// or time changes them. Each computation hands its next change instant to the
// one scheduler (keyed per asset, one platform timer for all), and assets that
// change continuously join the set the real-time timeline re-derives. When
// only an asset's readings changed, its standing facts (kind, floor, user,
// reachability, configuration, layers) are kept and only what follows from
// the readings is derived again (issue 14: incremental derivation).

import type { Id } from '../../shared/types.js';
import type { Scheduler } from '../scheduler.js';
import type { AssetSlot } from '../store/assetMap.js';
import type { Store } from '../store/store.js';
import { computeFacts, refreshFacts, type AssetFacts, type DeriveContext } from './assetFacts.js';

export interface FactsCache {
  get(id: Id): AssetFacts | null;
  /**
   * the assets changed (record, floor, user, structure…): derived afresh. Readings alone need no call: they
   * move the asset's slot's version (`AssetSlot.version`), and facts derived at another version are
   * refreshed from their standing facts on the next get (from scratch when the record was replaced)
   */
  invalidate(ids: Iterable<Id>): void;
  /**
   * `facts` themselves when they are what the cache holds for `id`, not expired by time since, and nothing but
   * repeated occupancy readings reached the asset after they were derived (`AssetSlot.looks`): a fresh desk
   * drawn from them looks the same, so a view keeps what it drew without deriving them again (issue 14; the
   * next get refreshes them). Otherwise what get gives, found with the same lookup.
   */
  heldOrGet(id: Id, facts: AssetFacts): AssetFacts | null;
  /** only heartbeats (battery, last communication) reached these assets; returns those whose facts may change (devices) */
  beat(ids: Iterable<Id>): Id[];
  invalidateAll(): void;
  /** ids whose facts change continuously (fading, clean-desk colour, heat) */
  continuous(): Id[];
  /**
   * A minute of the real-time timeline passed: the continuous ones are due again. A thing keeps its standing
   * facts and has only its readings' part derived again on the next get; a person (heat) is derived afresh,
   * as people always are. Returns their ids; they leave the set until a derivation finds them continuous again.
   */
  timePassed(): Id[];
  size(): number;
}

export interface FactsCacheOptions {
  store: Store;
  scheduler: Scheduler;
  /** the context at this instant (now, viewer, roles, time zone, config) */
  context(): Omit<DeriveContext, 'store'>;
  /** an asset's facts expired by time: re-derive and re-send it */
  onExpired(id: Id): void;
}

export const RECHECK_KEY_PREFIX = 'asset:';
/** Kinds whose facts depend on their person's other assets (one position per person): never refreshed in part. */
const PEOPLE: ReadonlySet<string> = new Set(['employee', 'auto_tag']);

/** One asset's cached facts, with what a refresh needs at hand (issue 14: a live load refreshes thousands a flush). */
interface Entry {
  facts: AssetFacts | null;
  /** time or a heartbeat changed its readings' part since: re-derived from its standing facts on the next get */
  stale: boolean;
  /** the asset's slot: its current record without a lookup among thousands, and its version */
  slot: AssetSlot;
  /** the slot's version the facts were derived at: another means new readings, or a record replaced or gone */
  version: number;
  /** the slot's look count they were derived at (`holds`) */
  looks: number;
  /** its re-check's scheduler key, made once rather than per derivation */
  readonly key: string;
  /** when its re-check is due as this cache scheduled it (null: none), or undefined when not known here */
  due: number | null | undefined;
  /** whether the id is in the continuous set */
  continuous: boolean;
}

export function createFactsCache(options: FactsCacheOptions): FactsCache {
  const { store, scheduler } = options;
  const cache = new Map<Id, Entry>();
  const continuous = new Set<Id>();

  function forget(id: Id) {
    cache.delete(id);
    continuous.delete(id);
  }

  function expire(id: Id) {
    // time alone moved on: a thing's standing facts still hold; a person's position choice may not
    const entry = cache.get(id);
    if (entry?.facts && !PEOPLE.has(entry.facts.kind)) {
      entry.stale = true;
      // the scheduler ran (and dropped) this very task
      entry.due = null;
      entry.continuous = false;
      continuous.delete(id);
    } else forget(id);
    options.onExpired(id);
  }

  /** the facts of `id` now, its cache entry (if any) given: served, refreshed, or derived afresh */
  function derive(id: Id, found: Entry | undefined): AssetFacts | null {
    let entry = found;
    if (entry !== undefined && !entry.stale && entry.version === entry.slot.version) return entry.facts;
    let asset = entry?.slot.record;
    if (!asset) {
      asset = store.assets.get(id);
      if (!asset) { forget(id); return null; }
      // a slot handed out before the store was cleared holds nothing any more: take the id's current one
      if (entry) entry.slot = store.assets.slot(id);
    }
    // one plain object literal: spreading the context into a new object with the store cost a quarter of a
    // refreshed desk's derivation (issue 14)
    const c = options.context();
    const ctx: DeriveContext = { store, now: c.now, viewerUserId: c.viewerUserId, roles: c.roles, config: c.config, timeZone: c.timeZone };
    // only the readings' part is derived again, from the same record (one replaced leaves nothing of the old
    // facts standing), and never for people, whose position choice depends on their other assets
    const hit = entry?.facts;
    const facts = hit && hit.asset === asset && !PEOPLE.has(hit.kind) ? refreshFacts(hit, ctx) : computeFacts(asset, ctx);
    if (entry) { entry.facts = facts; entry.stale = false; } else {
      const slot = store.assets.slot(id);
      cache.set(id, (entry = { facts, stale: false, slot, version: 0, looks: 0, key: RECHECK_KEY_PREFIX + id, due: undefined, continuous: false }));
    }
    entry.version = entry.slot.version;
    entry.looks = entry.slot.looks;
    const key = entry.key;
    if (facts?.nextChangeAt != null) {
      // a thing's re-check already due sooner stays: it refreshes the readings' part then (sending
      // nothing when nothing changed) and schedules the next one. Every new reading moves a desk's
      // change instant later (its validity), and rescheduling per reading churned the scheduler's
      // heap under a live load (issue 14). People re-derive with their other assets, so theirs moves.
      // The due time this cache set is kept in the entry: no lookup in the scheduler per refresh.
      const due = entry.due !== undefined ? entry.due : scheduler.dueAt(key);
      if (due === null || due > facts.nextChangeAt || (due !== facts.nextChangeAt && PEOPLE.has(facts.kind))) {
        // one task for every asset's re-check, handed the id: no closure held per asset (issue 14)
        scheduler.scheduleAt(key, facts.nextChangeAt, expire, id);
        entry.due = facts.nextChangeAt;
      } else entry.due = due;
    } else if (entry.due !== null) {
      if (scheduler.has(key)) scheduler.cancel(key);
      entry.due = null;
    }
    const changesContinuously = !!facts?.continuous;
    if (entry.continuous !== changesContinuously) {
      entry.continuous = changesContinuously;
      if (changesContinuously) continuous.add(id); else continuous.delete(id);
    }
    return facts;
  }

  return {
    get(id) {
      return derive(id, cache.get(id));
    },
    heldOrGet(id, facts) {
      const entry = cache.get(id);
      if (entry !== undefined && entry.facts === facts && !entry.stale && entry.looks === entry.slot.looks) return facts;
      return derive(id, entry);
    },
    invalidate(ids) {
      for (const id of ids) forget(id);
    },
    beat(ids) {
      // battery and last communication are facts of sensor assets only (devices, monitoring); facts not
      // derived yet will be derived with them, so those count as changed
      const out: Id[] = [];
      for (const id of ids) {
        const entry = cache.get(id);
        if (entry?.facts && entry.facts.kind !== 'sensor') continue;
        if (entry?.facts) entry.stale = true;
        out.push(id);
      }
      return out;
    },
    invalidateAll() { cache.clear(); continuous.clear(); },
    continuous: () => [...continuous],
    timePassed() {
      const ids = [...continuous];
      continuous.clear();
      for (const id of ids) {
        const entry = cache.get(id);
        if (!entry) continue;
        entry.continuous = false;
        if (entry.facts && !PEOPLE.has(entry.facts.kind)) entry.stale = true; else cache.delete(id);
      }
      return ids;
    },
    size: () => cache.size,
  };
}
