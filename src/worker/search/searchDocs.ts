// What the finder indexes and shows for each findable thing: assets the
// viewer may see (by role, on a floor they may open) and the organization's
// people. Indexing reads the store only (no derived facts, so a build is
// cheap); words are the stable ones (name, kind, subtype, sensor types,
// ticket text, e-mail). Live status and freshness are read at query time.

import type { PersonEntry, SearchResult } from '../../shared/api.js';
import { MAP_LAYERS, type MapLayer } from '../../shared/constants.js';
import type { StatusKind } from '../../shared/kinds.js';
import { assetVisibleToRoles, floorVisibleToRoles } from '../../shared/roles.js';
import { searchGroupOf } from '../../shared/search.js';
import type { Asset, Id, Role } from '../../shared/types.js';
import type { AssetFacts } from '../derive/assetFacts.js';
import { assetKind } from '../derive/classify.js';
import { lookOf, statusKindOf } from '../derive/drawState.js';
import type { FactsCache } from '../derive/factsCache.js';
import { linkedUserId } from '../store/people.js';
import { sameSensorIds, sensorIdsOf, sensorsOf, type Store } from '../store/store.js';
import type { StoreDelta } from '../store/delta.js';
import type { SearchDoc, SearchDocSource, SearchIndex } from './searchIndex.js';

const ALL_LAYERS: ReadonlySet<MapLayer> = new Set(MAP_LAYERS);
export const ASSET_PREFIX = 'a:';
export const PERSON_PREFIX = 'p:';

export interface SearchDocsContext {
  store: Store;
  facts: FactsCache;
  roles(): readonly Role[];
  /** the people view's entry of a user (position only where the viewer may see it) */
  person(userId: Id): PersonEntry | undefined;
}

/** Shown now: reachable (people's objects too), on a floor, not timed out or faded. */
function findable(facts: AssetFacts | null): facts is AssetFacts {
  return !!facts && facts.reachable && facts.floorId !== null && facts.freshness.visible && searchGroupOf(facts.kind) !== null;
}

/** Kinds whose speech bubble is one of their words. */
const WORDED_BUBBLES: ReadonlySet<string> = new Set(['ticket', 'voice']);

function assetWords(store: Store, asset: Asset, kind: string): string {
  const words = new Set<string>([asset.type, kind.replace('_', ' ')]);
  if (asset.subtype) words.add(asset.subtype);
  for (const s of sensorsOf(store, asset)) words.add(s.type);
  if (WORDED_BUBBLES.has(kind) && asset.speech_bubble) words.add(asset.speech_bubble);
  return [...words].join(' ');
}

export function createSearchDocs(ctx: SearchDocsContext): SearchDocSource & {
  status(key: string): StatusKind;
  result(key: string, rank: number): SearchResult | undefined;
  /** the results an asset's change may alter: the asset's own, and its person's (a move places them) */
  resultKeysOf(assetId: Id): string[];
  /** where a result is: its floor, and the floor's building */
  floorOf(key: string): Id | null;
  buildingOf(floorId: Id): Id | null;
} {
  const { store, facts } = ctx;

  function assetDoc(id: Id): SearchDoc | null {
    const asset = store.assets.get(id);
    const kind = asset ? assetKind(asset) : null;
    const group = kind ? searchGroupOf(kind) : null;
    const floor = store.floors.get(store.floorOf.get(id) ?? '');
    const roles = ctx.roles();
    if (!asset || !kind || !group || !floor || !assetVisibleToRoles(asset, roles) || !floorVisibleToRoles(floor, roles)) return null;
    return { key: ASSET_PREFIX + id, group, name: asset.name || kind, words: assetWords(store, asset, kind), ref: id };
  }

  function personDoc(id: Id): SearchDoc | null {
    const p = ctx.person(id);
    if (!p) return null;
    return { key: PERSON_PREFIX + id, group: 'person', name: p.name || p.email, words: p.email, ref: id };
  }

  function floorNames(floorId: Id | null): { floorName: string | null; buildingName: string | null; buildingId: Id | null } {
    const floor = floorId ? store.floors.get(floorId) : undefined;
    const building = floor ? store.buildings.get(floor.parent_id) : undefined;
    return { floorName: floor?.name ?? null, buildingName: building?.name ?? null, buildingId: building?.id ?? null };
  }

  return {
    *keys() {
      for (const id of store.assets.keys()) yield ASSET_PREFIX + id;
      for (const id of store.users.keys()) yield PERSON_PREFIX + id;
    },
    get(key) {
      if (key.startsWith(ASSET_PREFIX)) return assetDoc(key.slice(ASSET_PREFIX.length));
      if (key.startsWith(PERSON_PREFIX)) return personDoc(key.slice(PERSON_PREFIX.length));
      return null;
    },
    resultKeysOf(assetId) {
      const asset = store.assets.get(assetId);
      const user = asset ? linkedUserId(store, asset) : null;
      return user ? [ASSET_PREFIX + assetId, PERSON_PREFIX + user] : [ASSET_PREFIX + assetId];
    },
    floorOf(key) {
      if (key.startsWith(PERSON_PREFIX)) return ctx.person(key.slice(PERSON_PREFIX.length))?.floorId ?? null;
      return store.floorOf.get(key.slice(ASSET_PREFIX.length)) ?? null;
    },
    buildingOf: (floorId) => store.floors.get(floorId)?.parent_id ?? null,
    status(key) {
      if (!key.startsWith(ASSET_PREFIX)) return 'none';
      const f = facts.get(key.slice(ASSET_PREFIX.length));
      return f ? statusKindOf(f) : 'unknown';
    },
    result(key, rank) {
      if (key.startsWith(PERSON_PREFIX)) {
        const p = ctx.person(key.slice(PERSON_PREFIX.length));
        if (!p) return undefined;
        return {
          key, id: p.id, target: 'person', group: 'person', kind: 'employee', name: p.name || p.email, rank,
          // at another location of the organization: where, as the People panel says it
          status: p.elsewhere ? `at ${p.elsewhere.locationName}` : p.visible ? null : 'not on site', statusKind: 'none', layers: ['co-workers'],
          floorId: p.floorId, x: p.x, y: p.y, ...floorNames(p.floorId),
        };
      }
      const f = facts.get(key.slice(ASSET_PREFIX.length));
      if (!findable(f)) return undefined;
      const look = lookOf(f, ALL_LAYERS);
      const value = look.text && look.text !== f.asset.name ? look.text : null;
      return {
        key, id: f.asset.id, target: 'asset', group: searchGroupOf(f.kind)!, kind: f.kind, name: f.asset.name || f.kind, rank,
        status: [look.status, value].filter(Boolean).join(', ') || null, statusKind: look.statusKind, layers: f.layers,
        floorId: f.floorId, x: f.asset.x, y: f.asset.y, ...floorNames(f.floorId),
      };
    },
  };
}

const shapeOf = (asset: Asset) => asset.categories?.shape;

/**
 * Whether the asset's document reads the same as before the batch: its record was replaced (a modified
 * desk) by one equal in everything `assetDoc` and `assetWords` read — kind, name, visibility, ticket
 * text, the same sensors, none of whose records the batch changed — on the same floor. Such a record is
 * not read and re-worded at the next search (issue 14: most live edits change a colour or a bubble).
 */
function keepsDoc(store: Store, delta: StoreDelta, id: Id): boolean {
  const was = delta.replaced?.get(id);
  const now = was && store.assets.get(id);
  if (!was || !now || (store.floorOf.get(id) ?? null) !== was.floorId) return false;
  const before = was.record;
  if (before.name !== now.name || before.type !== now.type || before.subtype !== now.subtype || shapeOf(before) !== shapeOf(now)
    || before.unpublished !== now.unpublished || !sameSensorIds(before, now)) return false;
  // the bubble is a word of tickets and voices only (assetWords); the kind is the same as before here
  if (before.speech_bubble !== now.speech_bubble && WORDED_BUBBLES.has(assetKind(now) ?? '')) return false;
  for (const sensorId of sensorIdsOf(now)) if (delta.sensors.has(sensorId)) return false;
  return true;
}

/** What a batch changed, told to the index: only keys are noted (the work waits for the next search). */
export function noteForSearch(index: SearchIndex, delta: StoreDelta, store: Store): void {
  if (!index.built) return;
  if (delta.all || delta.structure) { index.reset(); return; }
  if (delta.assets.size) {
    const keys: string[] = [];
    for (const id of delta.assets) if (!delta.replaced || !keepsDoc(store, delta, id)) keys.push(ASSET_PREFIX + id);
    if (keys.length) index.invalidate(keys);
  }
  if (delta.users.size) index.invalidate([...delta.users].map((id) => PERSON_PREFIX + id));
}
