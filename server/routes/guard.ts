// Request-level checks shared by the routes: who is calling, may they reach
// this organization and location, and do they hold the role a call needs.
// Everything here throws HttpError, which the app turns into a JSON answer.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { ROLE_PERMISSIONS } from '../../src/shared/constants.js';
import { STREAM_ID_HEADER, STREAM_SEQUENCE_HEADER, locationStreamScope, organizationStreamScope, scopeKey, type StreamScope } from '../../src/shared/protocol.js';
import type { WireAsset, WireLocation, WireOrganization, WireUser } from '../../src/shared/rest.js';
import type { Id, Role } from '../../src/shared/types.js';
import { hasRole } from '../auth.js';
import type { ListValidity } from '../etags.js';
import type { Store } from '../store/store.js';
import { NOTHING_HIDDEN, type Hidden } from '../store/visibility.js';

export class HttpError extends Error {
  override name = 'HttpError';
  constructor(readonly statusCode: number, message: string) {
    super(message);
  }
}

export const notFound = (what: string) => new HttpError(404, `${what} not found`);

declare module 'fastify' {
  interface FastifyRequest {
    user: WireUser | null;
    /** the bearer token is a room display's (read and book only) */
    displayToken: boolean;
    /** the caller's session: its token (never logged) and public id */
    session: { token: string; id: string } | null;
  }
  interface FastifyContextConfig {
    /** no bearer token needed */
    public?: boolean;
    /** the session cookie is accepted instead of a bearer token */
    cookieAuth?: boolean;
  }
}

export function currentUser(req: FastifyRequest): WireUser {
  if (!req.user) throw new HttpError(401, 'Missing or invalid bearer token');
  return req.user;
}

export function currentSession(req: FastifyRequest): { token: string; id: string } {
  if (!req.session) throw new HttpError(401, 'Missing or invalid bearer token');
  return req.session;
}

export function requireRole(user: WireUser, role: Role): void {
  if (!hasRole(user.permissions, role)) {
    throw new HttpError(403, `Requires the ${role} role (${ROLE_PERMISSIONS[role]})`);
  }
}

export function canReachOrganization(user: WireUser, orgId: Id): boolean {
  return user.organization_id === orgId || hasRole(user.permissions, 'admin');
}

export function organizationFor(store: Store, user: WireUser, orgId: Id): WireOrganization {
  const org = store.organizations.get(orgId);
  if (!org) throw notFound('Organization');
  if (!canReachOrganization(user, orgId)) throw new HttpError(403, 'No access to this organization');
  return org;
}

export function locationFor(store: Store, user: WireUser, orgId: Id, locId: Id): WireLocation {
  organizationFor(store, user, orgId);
  const loc = store.locations.get(locId);
  if (!loc || loc.organization_id !== orgId) throw notFound('Location');
  return loc;
}

/** What a user may see of the location's assets: unpublished ones and hidden floors only with the edit role. */
export function canSeeAsset(store: Store, user: WireUser, asset: WireAsset): boolean {
  return hasRole(user.permissions, 'edit') || store.isAssetPublic(asset);
}

/** What of the location the caller may not see: nothing for the edit role. */
export function hiddenFor(store: Store, user: WireUser, locId: Id): Hidden {
  return hasRole(user.permissions, 'edit') ? NOTHING_HIDDEN : store.hiddenIn(locId);
}

export function assetFor(store: Store, user: WireUser, orgId: Id, locId: Id, assetId: Id): WireAsset {
  locationFor(store, user, orgId, locId);
  const asset = store.assets.get(assetId);
  if (!asset || asset.location_id !== locId || !canSeeAsset(store, user, asset)) throw notFound('Asset');
  return asset;
}

/**
 * The location stream a user follows: the edit audience's complete mirror
 * with the edit role (their loads contain unpublished and hidden items),
 * otherwise the public one. Their REST loads report this stream's position.
 */
export function locationScopeFor(store: Store, user: WireUser, locId: Id): StreamScope {
  const scope = store.locationScope(locId);
  if (scope.kind !== 'location') return scope;
  return locationStreamScope(scope.organizationId, scope.locationId, hasRole(user.permissions, 'edit') ? 'edit' : null);
}

/**
 * The organization stream a user follows: the edit audience's complete
 * mirror with the edit role (users' positions on hidden floors included),
 * otherwise the shared one. Their REST loads report this stream's position.
 */
export function organizationScopeFor(user: WireUser, orgId: Id): StreamScope {
  return organizationStreamScope(orgId, hasRole(user.permissions, 'edit') ? 'edit' : null);
}

/** A user as `viewer` may see them: without the edit role, the shared version (no position on a hidden floor). */
export function userAsSeenBy(store: Store, viewer: WireUser, user: WireUser): WireUser {
  return hasRole(viewer.permissions, 'edit') ? user : store.publicUser(user);
}

/** Whether `user` may follow the stream of `scope` (Pusher channel auth, docs/server.md). */
export function canFollowScope(store: Store, user: WireUser, scope: StreamScope): boolean {
  if (scope.kind === 'user') return scope.userId === user.id;
  if (!canReachOrganization(user, scope.organizationId) || !store.organizations.has(scope.organizationId)) return false;
  if (scope.kind === 'location' && store.locations.get(scope.locationId)?.organization_id !== scope.organizationId) return false;
  return scope.audience !== 'edit' || hasRole(user.permissions, 'edit');
}

/**
 * Where both streams of the caller's scope stand (the public and the edit
 * audience's): every change of the location (or organization), whoever may
 * see it, moves at least one of them, so while this string stands a list's
 * body stands too (the validators of server/etags.ts), for `scope`'s audience.
 */
export function listValidity(store: Store, scope: StreamScope): ListValidity {
  if (scope.kind === 'user') throw new TypeError('a list of a user scope has no validator');
  const [shared, edit] = scope.kind === 'location'
    ? [locationStreamScope(scope.organizationId, scope.locationId), locationStreamScope(scope.organizationId, scope.locationId, 'edit')]
    : [organizationStreamScope(scope.organizationId), organizationStreamScope(scope.organizationId, 'edit')];
  const a = store.publisher.position(shared);
  const b = store.publisher.position(edit);
  return { audience: scopeKey(scope), version: `${a.stream_id}:${a.stream_sequence} ${b.stream_id}:${b.stream_sequence}` };
}

/** Stream position of the scope this response reflects (docs/protocol.md §5). */
export function setStreamHeaders(store: Store, reply: FastifyReply, scope: StreamScope): void {
  const position = store.publisher.position(scope);
  reply.header(STREAM_ID_HEADER, position.stream_id);
  reply.header(STREAM_SEQUENCE_HEADER, String(position.stream_sequence));
}
