// What every part of the store shares: its maps, its id counter, the
// visibility index that every asset mutation keeps, and the look-ups the
// parts use to name a scope or refuse an unknown id (docs/server.md).

import type { StreamScope } from '../../src/shared/protocol.js';
import type { WireAsset } from '../../src/shared/rest.js';
import type { Id } from '../../src/shared/types.js';
import type { ServerClock } from '../clock.js';
import type { Publisher } from '../live/publisher.js';
import type { Store } from './store.js';
import { isPublicByWalk } from './visibility.js';
import { createVisibilityIndex, type VisibilityIndex } from './visibilityIndex.js';

/** The store's records: the maps of `Store`, shared by every part. */
export type StoreData = Pick<Store, 'clock' | 'publisher' | 'organizations' | 'locations' | 'assets' | 'sensors' | 'history' | 'histories'
  | 'users' | 'credentials' | 'tokens' | 'mailCodes' | 'externalObjects' | 'notifications' | 'locationTags'
  | 'bookings' | 'votes' | 'files'>;

export interface StoreContext {
  /** the whole store, for a step that goes through another mutation (a list patch is an asset update) */
  readonly store: Store;
  readonly s: StoreData;
  readonly publisher: Publisher;
  /** every asset mutation tells the index, in the same step as it changes `s.assets` */
  readonly index: VisibilityIndex;
  now(): number;
  nextId(): Id;
  mustGet<T>(map: Map<Id, T>, id: Id, what: string): T;
  assetById(id: Id): WireAsset | undefined;
  locationScope(locationId: Id): StreamScope;
  organizationScope(organizationId: Id): StreamScope;
  organizationOf(locationId: Id): Id;
  isAssetPublic(asset: WireAsset): boolean;
}

export function createStoreContext(store: Store, clock: ServerClock, publisher: Publisher): StoreContext {
  let lastId = 0;
  const s: StoreData = {
    clock, publisher,
    organizations: new Map(), locations: new Map(), assets: new Map(), sensors: new Map(), history: new Map(), histories: new Map(),
    users: new Map(), credentials: new Map(), tokens: new Map(), mailCodes: new Map(),
    externalObjects: new Map(), notifications: new Map(), locationTags: new Map(), bookings: new Map(),
    votes: new Map(), files: new Map(),
  };
  const assetById = (id: Id) => s.assets.get(id);
  const index = createVisibilityIndex(assetById);

  function mustGet<T>(map: Map<Id, T>, id: Id, what: string): T {
    const v = map.get(id);
    if (!v) throw new Error(`unknown ${what} ${id}`);
    return v;
  }
  return {
    store, s, publisher, index, assetById, mustGet,
    now: () => clock.now(),
    nextId: () => String(++lastId),
    locationScope(locationId) {
      const loc = mustGet(s.locations, locationId, 'location');
      return { kind: 'location', organizationId: loc.organization_id, locationId };
    },
    organizationScope: (organizationId) => ({ kind: 'organization', organizationId }),
    organizationOf: (locationId) => mustGet(s.locations, locationId, 'location').organization_id,
    isAssetPublic(asset) {
      // an asset the index has not seen is judged by the walk, never shown by default
      return index.has(asset.id) ? !index.isHidden(asset.id) : isPublicByWalk(asset, assetById);
    },
  };
}
