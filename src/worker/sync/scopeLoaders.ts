// The initial REST loads of each scope (docs/protocol.md §5): which calls fill
// which collections, each answering with the position of the scope's stream.

import { restPaths, type WireOrganization } from '../../shared/rest.js';
import { locationStreamScope, organizationStreamScope, type StreamAudience, type StreamScope } from '../../shared/protocol.js';
import { canSeeUnpublished, rolesFromPermissions } from '../../shared/roles.js';
import type { Id } from '../../shared/types.js';
import { isRecord, toId } from '../../shared/normalize/primitives.js';
import { query, type RestClient } from '../rest/restClient.js';
import type { CollectionLoad, ScopeLoader } from './subscriptions.js';

/** Without `audience`: the organization's shared stream; 'edit': the edit role's complete mirror. */
export const organizationScope = (organizationId: Id, audience?: StreamAudience | null): StreamScope =>
  organizationStreamScope(organizationId, audience);
/** Without `audience`: the public location stream; 'edit': the edit role's complete mirror. */
export const locationScope = (organizationId: Id, locationId: Id, audience?: StreamAudience | null): StreamScope =>
  locationStreamScope(organizationId, locationId, audience);
export const userScope = (userId: Id): StreamScope => ({ kind: 'user', userId });

/**
 * The audience of a signed-in user's organization and location streams:
 * 'edit' when their permissions give the edit role (they see unpublished
 * assets, hidden floors and positions on them, so they follow the streams
 * that carry them), otherwise the shared streams (null).
 */
export function streamAudienceOf(settings: { permissions?: unknown } | null): StreamAudience | null {
  if (!settings) return null;
  try {
    return canSeeUnpublished(rolesFromPermissions(settings)) ? 'edit' : null;
  } catch {
    // settings without a permission list: the engine reports that itself; follow the public stream
    return null;
  }
}

/**
 * An answer that is not what an initial load returns (an HTML error page of a
 * proxy, an object where a list belongs): a failed load, never an empty one,
 * since "objects missing from an initial load are deleted" (spec §4).
 */
export class UnexpectedAnswerError extends Error {
  constructor(path: string, expected: string) {
    super(`Unexpected answer to ${path}: expected ${expected}`);
    this.name = 'UnexpectedAnswerError';
  }
}

/**
 * Every initial load tells the stream position it reflects (docs/protocol.md
 * §5): without it, live packets cannot be checked against the load, so an
 * answer without it (a cache or proxy that strips headers) is no load either.
 */
function positioned<T>(path: string, r: { data: T; position: CollectionLoad['position'] }): CollectionLoad['position'] {
  if (!r.position) throw new UnexpectedAnswerError(path, 'x-stream-id and x-stream-sequence headers');
  return r.position;
}

async function list(rest: RestClient, path: string, signal?: AbortSignal): Promise<CollectionLoad> {
  const r = await rest.load<unknown>(path, signal);
  // a non-JSON body (an HTML page, another content type) reaches here as text
  if (!Array.isArray(r.data)) throw new UnexpectedAnswerError(path, 'a JSON list');
  return { items: r.data, position: positioned(path, r) };
}

/** Location ids of a listing or an organization's `locations` (ids or objects); anything else is skipped. */
function idsOf(items: unknown[]): Id[] {
  const out: Id[] = [];
  for (const item of items) {
    const id = toId(isRecord(item) ? item.id : item);
    if (id !== null) out.push(id);
  }
  return out;
}

/** `onLocations` learns the organization's location ids (a location loads only when it is one of them). */
export function scopeLoaders(rest: RestClient, scope: StreamScope, onLocations: (ids: Id[]) => void, signal?: AbortSignal): ScopeLoader[] {
  switch (scope.kind) {
    case 'organization': {
      const org = scope.organizationId;
      return [
        {
          collection: 'organizations',
          load: async () => {
            const path = restPaths.organization(org);
            const r = await rest.load<WireOrganization>(path, signal);
            if (!r.data || typeof r.data !== 'object' || Array.isArray(r.data)) throw new UnexpectedAnswerError(path, 'an organization');
            const position = positioned(path, r);
            if (Array.isArray(r.data.locations)) onLocations(idsOf(r.data.locations));
            return { items: [r.data], position };
          },
        },
        {
          collection: 'locations',
          load: async () => {
            const r = await list(rest, restPaths.locations(org), signal);
            onLocations(idsOf(r.items));
            return r;
          },
        },
        { collection: 'users', load: () => list(rest, restPaths.users(org), signal) },
        { collection: 'external_objects', load: () => list(rest, restPaths.externalObjects() + query({ organization_id: org }), signal) },
      ];
    }
    case 'location':
      return [
        { collection: 'assets', load: () => list(rest, restPaths.assets(scope.organizationId, scope.locationId), signal) },
        { collection: 'sensors', load: () => list(rest, restPaths.sensors(scope.organizationId, scope.locationId), signal) },
      ];
    case 'user':
      return [{ collection: 'notifications', load: () => list(rest, restPaths.notifications(), signal) }];
  }
}
