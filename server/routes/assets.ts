// Assets of a location (spec §7), including tickets and voices, their images,
// votes, and the public file area (floor plans, avatars, uploaded images)
// that settings.cdn_base_url points at.

import { randomBytes } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  IMAGE_MAX_BYTES, TICKET_LABELS, VOICE_LABELS, type TicketStatus, type TicketValue, type WireAsset,
} from '../../src/shared/rest.js';
import {
  AssetImageParams, AssetsQuery, CreateAssetRequest, ImageResponse, UpdateAssetRequest, VoteRequest, VoteResponse,
} from '../../src/shared/schemas/assets.js';
import { Params } from '../../src/shared/schemas/common.js';
import { resolveConfig } from '../../src/shared/config.js';
import { hasRole } from '../auth.js';
import { IMAGE_TYPES, contentTypeOf, looksLikeImage } from '../images.js';
import type { RouteContext } from './context.js';
import { VISIBILITY_MAX_DEPTH, publicAsset } from '../store/visibility.js';
import { isReordering, keepDefault } from '../store/buildingFloors.js';
import { HttpError, assetFor, canSeeAsset, currentUser, hiddenFor, locationFor, requireRole, setStreamHeaders, listValidity, locationScopeFor } from './guard.js';

const TICKET_VALIDITY_MS = 30 * 86_400_000;

/**
 * A ticket's value as it is stored after a change of its status (`next`, from `before`): a ticket stays until it
 * is closed (TicketValue), so closing it ends its validity now, and every client stops drawing, finding and routing
 * to it by the spec's freshness (§4: a timed-out ticket is skipped), while a replay of an earlier instant still
 * shows it open; opened again, it is valid for a ticket's time from now. docs/layers.md "service".
 */
function ticketValidity(before: unknown, next: object, t: number): TicketValue {
  const was = (before ?? {}) as Partial<TicketValue>;
  const value = { ...next } as TicketValue;
  const time = typeof value.time === 'number' ? value.time : t;
  if (value.status === 'closed' && was.status !== 'closed') {
    value.valid_to = Math.min(typeof value.valid_to === 'number' ? value.valid_to : t, t);
    value.valid_for = Math.max(0, value.valid_to - time);
  } else if ((value.status === 'open' || value.status === 'in_progress') && was.status === 'closed') {
    value.valid_to = t + TICKET_VALIDITY_MS;
    value.valid_for = value.valid_to - time;
  }
  return value;
}
const VOICE_VALIDITY_MS = 3 * 86_400_000;
const TICKET_STATUSES: TicketStatus[] = ['open', 'in_progress', 'closed'];

function expiredAt(asset: WireAsset): number | null {
  const v = asset.value as { valid_to?: unknown; time?: unknown; valid_for?: unknown } | null;
  if (!v || typeof v !== 'object') return null;
  if (typeof v.valid_to === 'number') return v.valid_to;
  if (typeof v.time === 'number' && typeof v.valid_for === 'number') return v.time + v.valid_for;
  return null;
}

export async function assetRoutes(fastify: FastifyInstance, { store, validators, limits }: RouteContext): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const now = () => store.clock.now();
  const base = '/v1/organizations/:orgId/locations/:locId/assets';

  function checkReferences(locId: string, body: UpdateAssetRequest, self: WireAsset | null): void {
    if (body.parent_id) {
      const parent = store.assets.get(body.parent_id);
      if (!parent || parent.location_id !== locId || parent === self) throw new HttpError(400, 'body/parent_id is not an asset of this location');
      // a loop of parents would stand on nothing; deeper than the walk goes would be hidden from all but editors
      let depth = 0;
      for (let cur: WireAsset | undefined = parent; cur; cur = cur.parent_id ? store.assets.get(cur.parent_id) : undefined) {
        if (cur === self) throw new HttpError(400, 'body/parent_id would place the asset inside itself');
        if (++depth >= VISIBILITY_MAX_DEPTH) throw new HttpError(400, `body/parent_id would nest the asset deeper than ${VISIBILITY_MAX_DEPTH} levels`);
      }
    }
    checkBuildingLists(body, self);
    for (const id of body.data_providers ?? []) {
      if (store.sensors.get(id)?.location_id !== locId) throw new HttpError(400, `body/data_providers: ${id} is not a sensor of this location`);
    }
    // a room's reservation sensor is where POST /booking writes: never another location's (docs/security.md "Forged ids")
    for (const [type, id] of Object.entries(body.data_provider_refs ?? {})) {
      if (store.sensors.get(id)?.location_id !== locId) throw new HttpError(400, `body/data_provider_refs/${type}: ${id} is not a sensor of this location`);
    }
  }

  /**
   * A building's `floors` follow its floors' `parent_id` (spec §3: a floor's
   * parent is its building), so a client may only reorder them: a new
   * building has none, and a floor joins or leaves by its own `parent_id`.
   * Anything else would name a floor in two buildings or an id that is none.
   */
  function checkBuildingLists(body: UpdateAssetRequest, self: WireAsset | null): void {
    if (body.floors === undefined && body.default_floor === undefined) return;
    if ((self?.type ?? body.type) !== 'building') {
      throw new HttpError(400, `body/${body.floors !== undefined ? 'floors' : 'default_floor'} is a building's field`);
    }
    const stored = self?.floors ?? [];
    if (body.floors !== undefined && !isReordering(body.floors, stored)) {
      throw new HttpError(400, self
        ? 'body/floors must be a reordering of the building\'s floors; a floor joins or leaves it by its parent_id'
        : 'body/floors must be empty for a new building; a floor joins it by its parent_id');
    }
    const count = (body.floors ?? stored).length;
    if (body.default_floor !== undefined && (body.default_floor < 0 || body.default_floor >= Math.max(1, count))) {
      throw new HttpError(400, `body/default_floor must index the building's floors (0 to ${Math.max(0, count - 1)})`);
    }
  }

  app.get(base, {
    schema: { params: Params('orgId', 'locId'), querystring: AssetsQuery },
  }, async (req, reply) => {
    const { orgId, locId } = req.params;
    const { type, filter_expired: filterExpired } = req.query;
    const user = currentUser(req);
    locationFor(store, user, orgId, locId);
    const scope = locationScopeFor(store, user, locId);
    setStreamHeaders(store, reply, scope);
    // with filter_expired the body changes with the clock, not only with the store
    if (!filterExpired && validators.revalidate(req, reply, listValidity(store, scope))) return reply;
    const types = type ? new Set(type.split(',').map((t) => t.trim()).filter(Boolean)) : null;
    const t = now();
    const out: WireAsset[] = [];
    const hidden = hiddenFor(store, user, locId);
    for (const a of store.assets.values()) {
      if (a.location_id !== locId || (types && !types.has(a.type)) || !canSeeAsset(store, user, a)) continue;
      if (filterExpired) {
        const end = expiredAt(a);
        if (end !== null && end < t) continue;
      }
      out.push(publicAsset(a, hidden));
    }
    return out;
  });

  app.post(base, {
    schema: { params: Params('orgId', 'locId'), body: CreateAssetRequest },
  }, async (req, reply) => {
    const { orgId, locId } = req.params;
    const user = currentUser(req);
    locationFor(store, user, orgId, locId);
    const body = req.body;
    if (body.type === 'ticket' || body.type === 'voice') {
      requireRole(user, 'regular');
      const labels: readonly string[] = body.type === 'ticket' ? TICKET_LABELS : VOICE_LABELS;
      if (!body.subtype || !labels.includes(body.subtype)) throw new HttpError(400, `body/subtype must be one of ${labels.join(', ')}`);
      const parent = body.parent_id ? store.assets.get(body.parent_id) : undefined;
      if (!parent || parent.type !== 'floor' || parent.location_id !== locId || !canSeeAsset(store, user, parent)) {
        throw new HttpError(400, 'body/parent_id must be a floor of this location');
      }
      const given = (body.value ?? {}) as { text?: unknown; email?: unknown };
      await limits.account('userWrites', req, reply, user.id);
      if (typeof given.text !== 'string' || !given.text.trim() || given.text.length > 2_000) throw new HttpError(400, 'body/value/text must be a non-empty string');
      // moderation is the server's to enforce: a client that leaves `unpublished` out does not publish past it
      const loc = store.locations.get(locId);
      const config = resolveConfig(parent, {
        lookup: (id) => store.assets.get(id), location: loc, organization: loc ? store.organizations.get(loc.organization_id) : null,
      });
      const unpublished = config.ticketsVoicesRequireModeration || body.unpublished === true;
      const validFor = body.type === 'ticket' ? TICKET_VALIDITY_MS : VOICE_VALIDITY_MS;
      const value: TicketValue = {
        text: given.text, label: body.subtype, status: 'open', email: typeof given.email === 'string' ? given.email : null,
        time: now(), valid_for: validFor, valid_to: now() + validFor,
      };
      const asset = store.createAsset(locId, {
        type: body.type, subtype: body.subtype, name: body.name, parent_id: parent.id, x: body.x ?? 0, y: body.y ?? 0,
        value, speech_bubble: given.text, votes: { up: 0, down: 0 }, timeout_action: body.type === 'voice' ? 'fade_out' : null, unpublished,
      }, user.id);
      return reply.code(201).send(asset);
    }
    requireRole(user, 'edit');
    checkReferences(locId, body, null);
    return reply.code(201).send(store.createAsset(locId, body as Partial<WireAsset>, user.id));
  });

  app.get(`${base}/:assetId`, { schema: { params: Params('orgId', 'locId', 'assetId') } }, async (req) => {
    const { orgId, locId, assetId } = req.params;
    const user = currentUser(req);
    return publicAsset(assetFor(store, user, orgId, locId, assetId), hiddenFor(store, user, locId));
  });

  app.patch(`${base}/:assetId`, {
    schema: { params: Params('orgId', 'locId', 'assetId'), body: UpdateAssetRequest },
  }, async (req) => {
    const { orgId, locId, assetId } = req.params;
    const user = currentUser(req);
    const asset = assetFor(store, user, orgId, locId, assetId);
    const body = req.body;
    if (hasRole(user.permissions, 'edit')) {
      if (body.type !== undefined && body.type !== asset.type) throw new HttpError(400, 'body/type cannot change');
      checkReferences(locId, body, asset);
      // reordered floors keep the default on the same floor unless the body moves it
      const patch = (body.floors && body.default_floor === undefined ? { ...body, ...keepDefault(asset, body.floors) } : body) as Partial<WireAsset>;
      if (asset.type === 'ticket' && patch.value && typeof patch.value === 'object') patch.value = ticketValidity(asset.value, patch.value, now());
      return store.updateAsset(assetId, patch);
    }
    if (asset.type !== 'ticket' || !hasRole(user.permissions, 'service')) requireRole(user, 'edit');
    // the service role moves a ticket through its statuses, nothing else
    const keys = Object.keys(body);
    const status = (body.value as { status?: unknown } | undefined)?.status;
    if (keys.length !== 1 || keys[0] !== 'value' || !TICKET_STATUSES.includes(status as TicketStatus)) {
      throw new HttpError(400, `the service role may only set body/value/status to one of ${TICKET_STATUSES.join(', ')}`);
    }
    const updated = store.updateAsset(assetId, { value: ticketValidity(asset.value, { ...(asset.value as TicketValue), status: status as TicketStatus }, now()) });
    // answered as this caller sees it, as a GET would (its version the public's)
    return publicAsset(updated, hiddenFor(store, user, locId));
  });

  app.delete(`${base}/:assetId`, { schema: { params: Params('orgId', 'locId', 'assetId') } }, async (req, reply) => {
    const { orgId, locId, assetId } = req.params;
    const user = currentUser(req);
    const asset = assetFor(store, user, orgId, locId, assetId);
    requireRole(user, 'edit');
    if (asset.type === 'building' || asset.type === 'floor') {
      const children = [...store.assets.values()].some((a) => a.parent_id === assetId);
      if (children) throw new HttpError(409, `Delete what stands on this ${asset.type} first`);
    }
    store.deleteAsset(assetId);
    return reply.code(204).send();
  });

  app.put(`${base}/:assetId/images/:name`, {
    bodyLimit: IMAGE_MAX_BYTES,
    schema: { params: AssetImageParams, response: { 200: ImageResponse } },
  }, async (req) => {
    const { orgId, locId, assetId, name } = req.params;
    const user = currentUser(req);
    const asset = assetFor(store, user, orgId, locId, assetId);
    requireRole(user, 'edit');
    const contentType = contentTypeOf(req.headers['content-type']);
    if (!looksLikeImage(contentType, req.body)) {
      throw new HttpError(400, `body must be a non-empty image (${IMAGE_TYPES.join(', ')})`);
    }
    // files are served without a token (image elements), so the path is the secret: unguessable, known to who may see the asset
    const path = `assets/${assetId}/${randomBytes(12).toString('hex')}/${name}`;
    // a new upload replaces the asset's earlier image of that name
    for (const key of [...store.files.keys()]) if (key.startsWith(`assets/${assetId}/`) && key.endsWith(`/${name}`)) store.files.delete(key);
    store.files.set(path, { contentType, data: req.body });
    if (name === 'texture') store.updateAsset(asset.id, { texture_path: path });
    return { name, path, content_type: contentType, size: req.body.length };
  });

  const voteTarget = (req: FastifyRequest) => {
    const { orgId, locId, assetId } = req.params as { orgId: string; locId: string; assetId: string };
    const user = currentUser(req);
    const asset = assetFor(store, user, orgId, locId, assetId);
    requireRole(user, 'regular');
    if (asset.type !== 'ticket' && asset.type !== 'voice') throw new HttpError(400, 'Only tickets and voices take votes');
    return { user, asset };
  };
  const tally = (assetId: string, userId: string): VoteResponse => {
    const votes = store.votes.get(assetId) ?? new Map<string, 1 | -1>();
    store.votes.set(assetId, votes);
    let up = 0; let down = 0;
    for (const v of votes.values()) if (v === 1) up += 1; else down += 1;
    store.updateAsset(assetId, { votes: { up, down } });
    return { up, down, mine: votes.get(userId) ?? 0 };
  };

  app.put(`${base}/:assetId/vote`, {
    schema: { params: Params('orgId', 'locId', 'assetId'), body: VoteRequest, response: { 200: VoteResponse } },
  }, async (req, reply) => {
    const { user, asset } = voteTarget(req);
    await limits.account('userWrites', req, reply, user.id);
    const votes = store.votes.get(asset.id) ?? new Map<string, 1 | -1>();
    store.votes.set(asset.id, votes);
    votes.set(user.id, req.body.direction);
    return tally(asset.id, user.id);
  });

  app.delete(`${base}/:assetId/vote`, { schema: { params: Params('orgId', 'locId', 'assetId'), response: { 200: VoteResponse } } }, async (req, reply) => {
    const { user, asset } = voteTarget(req);
    await limits.account('userWrites', req, reply, user.id);
    store.votes.get(asset.id)?.delete(user.id);
    return tally(asset.id, user.id);
  });

  app.get('/v1/files/*', { config: { public: true } }, async (req, reply) => {
    const path = (req.params as { '*': string })['*'];
    const file = store.files.get(path);
    if (!file) throw new HttpError(404, 'File not found');
    // uploaded SVGs must not run scripts in our origin
    reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
    reply.header('x-content-type-options', 'nosniff');
    reply.header('cache-control', 'public, max-age=300');
    reply.header('cross-origin-resource-policy', 'cross-origin');
    return reply.type(file.contentType).send(file.data);
  });
}
