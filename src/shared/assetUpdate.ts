// The asset update payload (spec §3, §7): everything but the fields the
// server owns. Client-derived fields are left out too, since the server
// neither stores nor expects them.

import type { Asset } from './types.js';

/** Fields the spec excludes from PATCH …/assets/{id}. */
export const ASSET_UPDATE_EXCLUDED_FIELDS = [
  'version', 'creation_timestamp', 'update_timestamp', 'owner_id', 'id', 'uuid',
] as const;

/** Computed on the client (shape geometry, the local flag of derived assets). */
export const ASSET_CLIENT_DERIVED_FIELDS = ['shape', 'local'] as const;

export type AssetUpdatePayload = Omit<Partial<Asset>, 'id' | 'uuid' | 'shape' | 'local'> & Record<string, unknown>;

export function assetUpdatePayload(asset: Partial<Asset> | Record<string, unknown>): AssetUpdatePayload {
  const out: Record<string, unknown> = { ...asset };
  for (const key of ASSET_UPDATE_EXCLUDED_FIELDS) delete out[key];
  for (const key of ASSET_CLIENT_DERIVED_FIELDS) delete out[key];
  return out as AssetUpdatePayload;
}
