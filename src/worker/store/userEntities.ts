// Each user gets a local-only employee asset and a manual-location sensor
// (spec §3). The user's stored location (manual, valid for
// manualLocationTimeout) feeds the sensor; the sensor places the asset like
// any other location sensor, privacy zones included.

import { manualLocationSensorId, userAssetId } from '../../shared/normalize/people.js';
import { deriveUserAssets } from '../../shared/rules/users.js';
import type { Id, User } from '../../shared/types.js';
import type { Logger } from '../ports.js';
import type { StoreDelta } from './delta.js';
import { latestLocationOf, placeAsset } from './located.js';
import { indexUserTag, personAssetIds } from './people.js';

import { indexAsset, indexSensor, unindexAsset, type Store } from './store.js';

export { userDisplayName } from '../../shared/rules/users.js';

export interface UserEntityOptions {
  logger: Logger;
  manualLocationTimeoutMs: number;
}

const USER_ASSET_PREFIX = userAssetId('');

/** The user a derived employee asset stands for, or null for any other asset. */
export function userIdOfAsset(assetId: Id): Id | null {
  return assetId.startsWith(USER_ASSET_PREFIX) ? assetId.slice(USER_ASSET_PREFIX.length) : null;
}

/** (Re)derives a user's local asset and sensor (shared deriveUserAssets); only a location of the loaded location places them. */
export function syncUserEntities(store: Store, user: User, delta: StoreDelta, options: UserEntityOptions): void {
  indexUserTag(store, user.id, user.location_tag_id);
  const here = user.location && user.location.location_id === store.locationId ? user : { ...user, location: null };
  const { asset, sensor } = deriveUserAssets(here, options.manualLocationTimeoutMs);
  const previousAsset = store.assets.get(asset.id);
  const previousSensor = store.sensors.get(sensor.id);
  store.sensors.set(sensor.id, sensor);
  indexSensor(store, sensor, previousSensor);
  store.assets.set(asset.id, asset);
  indexAsset(store, asset, previousAsset);
  const value = latestLocationOf(store, asset);
  if (value) placeAsset(store, asset, value);
  else { asset.parent_id = null; unindexAsset(store, asset); }
  delta.sensors.add(sensor.id);
  // every asset standing for the user re-derives: visibility, avatar and which one places them
  for (const id of personAssetIds(store, user.id)) delta.assets.add(id);
  delta.assets.add(asset.id);
}

export function removeUserEntities(store: Store, userId: Id, delta: StoreDelta): void {
  for (const id of personAssetIds(store, userId)) delta.assets.add(id);
  indexUserTag(store, userId, null);
  const assetId = userAssetId(userId);
  const asset = store.assets.get(assetId);
  if (asset) {
    unindexAsset(store, asset);
    store.assets.delete(assetId);
    delta.assets.add(assetId);
  }
  if (store.sensors.delete(manualLocationSensorId(userId))) delta.sensors.add(manualLocationSensorId(userId));
}

/** Re-derives every user's entities (after a location switch or a cache restore). */
export function syncAllUserEntities(store: Store, delta: StoreDelta, options: UserEntityOptions): void {
  for (const user of store.users.values()) syncUserEntities(store, user, delta, options);
}

