// Organizations and their locations (spec §7). Loads that start a client's
// organization stream carry its position in the response headers.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { WireLocation, WireOrganization } from '../../src/shared/rest.js';
import { Params } from '../../src/shared/schemas/common.js';
import {
  CreateLocationRequest, CreateOrganizationRequest, UpdateLocationRequest, UpdateOrganizationRequest,
} from '../../src/shared/schemas/organizations.js';
import { hasRole } from '../auth.js';
import { isReordering } from '../store/buildingFloors.js';
import type { RouteContext } from './context.js';
import { HttpError, currentUser, locationFor, organizationFor, organizationScopeFor, requireRole, setStreamHeaders, listValidity } from './guard.js';

function validTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export async function organizationRoutes(fastify: FastifyInstance, { store, validators }: RouteContext): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/v1/organizations', async (req): Promise<WireOrganization[]> => {
    const user = currentUser(req);
    const all = [...store.organizations.values()];
    return hasRole(user.permissions, 'admin') ? all : all.filter((o) => o.id === user.organization_id);
  });

  app.post('/v1/organizations', { schema: { body: CreateOrganizationRequest } }, async (req, reply) => {
    requireRole(currentUser(req), 'admin');
    return reply.code(201).send(store.createOrganization(req.body));
  });

  app.get('/v1/organizations/:orgId', { schema: { params: Params('orgId') } }, async (req, reply) => {
    const { orgId } = req.params;
    const org = organizationFor(store, currentUser(req), orgId);
    setStreamHeaders(store, reply, organizationScopeFor(currentUser(req), orgId));
    return org;
  });

  app.patch('/v1/organizations/:orgId', { schema: { params: Params('orgId'), body: UpdateOrganizationRequest } }, async (req) => {
    const { orgId } = req.params;
    const user = currentUser(req);
    organizationFor(store, user, orgId);
    requireRole(user, 'edit');
    const body = req.body;
    if ((body.email_domains !== undefined || body.sso_uri !== undefined)) requireRole(user, 'admin');
    return store.updateOrganization(orgId, body);
  });

  app.delete('/v1/organizations/:orgId', { schema: { params: Params('orgId') } }, async (req, reply) => {
    const { orgId } = req.params;
    const user = currentUser(req);
    organizationFor(store, user, orgId);
    requireRole(user, 'admin');
    if (user.organization_id === orgId) throw new HttpError(409, 'Cannot delete your own organization');
    store.deleteOrganization(orgId);
    return reply.code(204).send();
  });

  app.get('/v1/organizations/:orgId/locations', { schema: { params: Params('orgId') } }, async (req, reply) => {
    const { orgId } = req.params;
    const org = organizationFor(store, currentUser(req), orgId);
    const scope = organizationScopeFor(currentUser(req), orgId);
    setStreamHeaders(store, reply, scope);
    if (validators.revalidate(req, reply, listValidity(store, scope))) return reply;
    const all = hasRole(currentUser(req).permissions, 'edit');
    // a hidden (unpublished) building is named to the edit role only
    return org.locations.map((id) => store.locations.get(id)!).map((l) => (all ? l : store.publicLocation(l))) satisfies WireLocation[];
  });

  app.post('/v1/organizations/:orgId/locations', {
    schema: { params: Params('orgId'), body: CreateLocationRequest },
  }, async (req, reply) => {
    const { orgId } = req.params;
    const user = currentUser(req);
    organizationFor(store, user, orgId);
    requireRole(user, 'edit');
    const body = req.body;
    if (!validTimezone(body.timezone)) throw new HttpError(400, `body/timezone is not a known timezone: ${body.timezone}`);
    if (body.buildings?.length) throw new HttpError(400, 'body/buildings must be empty for a new location');
    return reply.code(201).send(store.createLocation(orgId, body));
  });

  app.get('/v1/organizations/:orgId/locations/:locId', { schema: { params: Params('orgId', 'locId') } }, async (req, reply) => {
    const { orgId, locId } = req.params;
    const loc = locationFor(store, currentUser(req), orgId, locId);
    setStreamHeaders(store, reply, organizationScopeFor(currentUser(req), orgId));
    return hasRole(currentUser(req).permissions, 'edit') ? loc : store.publicLocation(loc);
  });

  app.patch('/v1/organizations/:orgId/locations/:locId', {
    schema: { params: Params('orgId', 'locId'), body: UpdateLocationRequest },
  }, async (req) => {
    const { orgId, locId } = req.params;
    const user = currentUser(req);
    const loc = locationFor(store, user, orgId, locId);
    requireRole(user, 'edit');
    const body = req.body;
    if (body.timezone !== undefined && !validTimezone(body.timezone)) throw new HttpError(400, `body/timezone is not a known timezone: ${body.timezone}`);
    if (body.buildings !== undefined) {
      // only a reordering of the location's own buildings
      // (each once: a building named twice would crowd out another, which then stood in no list)
      if (!isReordering(body.buildings, loc.buildings)) throw new HttpError(400, 'body/buildings must be a reordering of the location\'s buildings');
    }
    return store.updateLocation(locId, body);
  });

  app.delete('/v1/organizations/:orgId/locations/:locId', { schema: { params: Params('orgId', 'locId') } }, async (req, reply) => {
    const { orgId, locId } = req.params;
    const user = currentUser(req);
    locationFor(store, user, orgId, locId);
    requireRole(user, 'edit');
    store.deleteLocation(locId);
    return reply.code(204).send();
  });
}
