// Resolved configuration per asset (spec §3: asset → parents → location →
// organization → base) with caching: merging the chain for each of 10,000
// assets per batch would dominate, and almost all assets have no config.

import { resolveConfig, type ResolvedConfig } from '../../shared/config.js';
import type { Asset, Id } from '../../shared/types.js';
import type { Store } from '../store/store.js';

export interface ConfigResolver {
  location(): ResolvedConfig;
  forAsset(asset: Asset): ResolvedConfig;
  /** after structure, location or organization changes */
  invalidate(): void;
  /** an asset changed: children resolved through it must resolve again */
  forget(id: Id): void;
}

const isEmpty = (config: object | null | undefined) => !config || Object.keys(config).length === 0;

export function createConfigResolver(store: Store): ConfigResolver {
  let locationConfig: ResolvedConfig | null = null;
  const byParent = new Map<Id, ResolvedConfig>();

  const lookup = (id: Id) => store.assets.get(id) ?? store.floors.get(id) ?? store.buildings.get(id) ?? null;

  function location(): ResolvedConfig {
    if (!locationConfig) {
      const loc = store.locationId ? store.locations.get(store.locationId) : null;
      const org = store.organizationId ? store.organizations.get(store.organizationId) : null;
      locationConfig = resolveConfig(null, { location: loc, organization: org });
    }
    return locationConfig;
  }

  function forParent(parentId: Id | null): ResolvedConfig {
    if (!parentId) return location();
    let c = byParent.get(parentId);
    if (!c) {
      const parent = lookup(parentId);
      c = parent ? resolveConfig({ config: null, parent_id: parentId }, { lookup, base: location() }) : location();
      byParent.set(parentId, c);
    }
    return c;
  }

  return {
    location,
    forAsset(asset) {
      if (isEmpty(asset.config)) return forParent(asset.parent_id);
      return resolveConfig(asset, { lookup, base: location() });
    },
    invalidate() { locationConfig = null; byParent.clear(); },
    forget(id) { if (byParent.has(id)) byParent.clear(); },
  };
}
