// Who stands where: the assets that position a person (their location-tag
// employee asset, an employee asset naming them in `config.user_id`, and the
// local asset derived from their manual location) and which one of them
// places the person now. The people view and the floor view share the choice,
// so a person has one position, never two.

import type { Asset, Id, MeasurementValue } from '../../shared/types.js';
import { PERSON_TYPES } from './assetMap.js';
import { latestLocationOf } from './located.js';
import { configUserId, sensorIdsOf, type Store } from './store.js';

/** Asset types that stand for a person (spec §3: employee; auto_tag when tagged to a user), kept with the slots. */
export { PERSON_TYPES };

export interface PositionSource {
  assetId: Id;
  floorId: Id;
  /** time of the location value that placed it; null for a statically placed asset */
  time: number | null;
  value: MeasurementValue | null;
  /** the user's own manual location (the derived local asset) */
  manual: boolean;
}

/** The user an asset stands for: `config.user_id` (derived local assets carry it too), or the user wearing its location tag. */
export function linkedUserId(store: Store, asset: Asset): Id | null {
  if (!PERSON_TYPES.has(asset.type)) return null;
  // derived local assets carry config.user_id too
  const named = configUserId(asset);
  if (named) return named;
  for (const sensorId of sensorIdsOf(asset)) {
    const user = store.userByTag.get(sensorId);
    if (user) return user;
  }
  return null;
}

/** Every asset that may position a user, the derived local one included. */
export function personAssetIds(store: Store, userId: Id): Id[] {
  const out = new Set<Id>();
  const user = store.users.get(userId);
  if (user?.local_user_asset && store.assets.has(user.local_user_asset)) out.add(user.local_user_asset);
  for (const id of store.assetsByUser.get(userId) ?? []) {
    const a = store.assets.get(id);
    if (a && PERSON_TYPES.has(a.type)) out.add(id);
  }
  const tag = store.tagOfUser.get(userId);
  for (const id of (tag && store.assetsBySensor.get(tag)) || []) {
    const a = store.assets.get(id);
    if (a && PERSON_TYPES.has(a.type)) out.add(id);
  }
  return [...out];
}

/**
 * The asset that places a user now: among the assets on a floor of the
 * loaded location whose location value has not timed out, the one with the
 * newest value. So a fresh tag reading newer than the manual location wins (the
 * person moved), a manual location set after the last reading overrides it,
 * and the manual location (valid 12 h) is the fallback once the tag goes
 * silent. Equal times prefer the tag. Null when nothing places the user.
 */
export function choosePosition(store: Store, userId: Id, now: number): PositionSource | null {
  let best: PositionSource | null = null;
  for (const id of personAssetIds(store, userId)) {
    const asset = store.assets.get(id)!;
    const floorId = store.floorOf.get(id);
    if (!floorId) continue;
    const value = latestLocationOf(store, asset);
    if (value && now > value.valid_to) continue;
    const manual = !!asset.local;
    const candidate: PositionSource = { assetId: id, floorId, time: value?.time ?? null, value, manual };
    if (!best || better(candidate, best)) best = candidate;
  }
  return best;
}

function better(a: PositionSource, b: PositionSource): boolean {
  const ta = a.time ?? -Infinity;
  const tb = b.time ?? -Infinity;
  if (ta !== tb) return ta > tb;
  return !a.manual && b.manual;
}

/** Keeps the tag → user index in step with a user's `location_tag_id`. */
export function indexUserTag(store: Store, userId: Id, tagId: Id | null): void {
  const previous = store.tagOfUser.get(userId);
  if (previous === tagId) return;
  if (previous !== undefined) {
    store.tagOfUser.delete(userId);
    if (store.userByTag.get(previous) === userId) store.userByTag.delete(previous);
  }
  if (tagId) {
    store.tagOfUser.set(userId, tagId);
    store.userByTag.set(tagId, userId);
  }
}

/**
 * The given asset ids plus every other asset standing for the same person:
 * when one of them changes or times out, which one places the person may
 * change, so all of them re-derive.
 */
export function withPersonSiblings(store: Store, ids: Iterable<Id>): Set<Id> {
  const out = new Set<Id>(ids);
  const users = new Set<Id>();
  for (const id of out) {
    const asset = store.assets.get(id);
    const user = asset ? linkedUserId(store, asset) : null;
    if (user) users.add(user);
  }
  for (const user of users) for (const id of personAssetIds(store, user)) out.add(id);
  return out;
}
