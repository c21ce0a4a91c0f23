// Assets of a location (spec §7), including tickets and voices, their images,
// votes, and the public file area (floor plans, avatars, uploaded images)
// that settings.cdn_base_url points at.

import type { FastifyInstance } from 'fastify';
import {
  ASSET_READ_ONLY_FIELDS, IMAGE_MAX_BYTES, TICKET_LABELS, VOICE_LABELS,
  type CreateAssetRequest, type ImageResponse, type TicketStatus, type TicketValue, type UpdateAssetRequest, type VoteResponse, type WireAsset,
} from '../../src/shared/rest.js';
import { ASSET_TYPES } from '../../src/shared/types.js';
import { hasRole } from '../auth.js';
import { IMAGE_TYPES, contentTypeOf, looksLikeImage } from '../images.js';
import type { RouteContext } from './context.js';
import { HttpError, assetFor, canSeeAsset, currentUser, locationFor, requireRole, setStreamHeaders, locationScopeFor, rejectFields } from './guard.js';
import {
  configSchema, idList, idParam, nullableString, objectSchema, params, rgb, stringList, vec2, vec3,
} from './schemas.js';

const TICKET_VALIDITY_MS = 30 * 86_400_000;
const VOICE_VALIDITY_MS = 3 * 86_400_000;
const TICKET_STATUSES: TicketStatus[] = ['open', 'in_progress', 'closed'];

const num = { type: 'number' } as const;
const assetProps: Record<string, unknown> = {
  name: { type: 'string', maxLength: 500 }, type: { type: 'string', enum: [...ASSET_TYPES] }, subtype: nullableString,
  parent_id: { anyOf: [idParam, { type: 'null' }] }, x: num, y: num, z: num, coords: { anyOf: [vec3, { type: 'null' }] }, angles: vec3,
  outline: { anyOf: [{ type: 'array', items: vec2, maxItems: 10_000 }, { type: 'null' }] },
  wgs84_coords: { anyOf: [vec3, { type: 'null' }] }, wgs84_outline: { anyOf: [{ type: 'array', items: vec2 }, { type: 'null' }] },
  texture_path: nullableString, model_path: nullableString, value: {}, prev_value: {}, unit: nullableString,
  width: num, height: num, depth: num, shade: rgb, overriding_color: rgb, data_providers: idList,
  data_provider_refs: { type: 'object', additionalProperties: idParam }, default_sensor_type: nullableString,
  capabilities: stringList, external_objects: idList, targets: idList, speech_bubble: nullableString, unpublished: { type: 'boolean' },
  travelling_asset_floor_index: { type: ['integer', 'null'] }, tag_zones: idList, config: configSchema, timeout_action: nullableString,
  popup_type: nullableString, popup_content_type: nullableString, popup_width: num, popup_height: num, alert_on_activity: stringList,
  privacy_filtered: { type: 'boolean' }, categories: { type: 'object' }, floor_shade: rgb, history: { type: 'array', maxItems: 10_000 },
  floor_texture: nullableString, floor_texture_repeat: { type: ['number', 'null'] }, openings: { type: 'array' }, wall_shade: rgb, edge_shade: rgb,
  floors: idList, default_floor: { type: 'integer' }, ground_level: num, ground_floor_adjust: num, latitude: { type: ['number', 'null'] },
  longitude: { type: ['number', 'null'] }, north_vector: num, location_offset: vec2, hidden: { type: 'boolean' },
  building_relative_z: num, building_relative_index: { type: 'integer' }, floor_plan_img_path: nullableString, zones_img_path: nullableString,
  floor_plan_img_offset_x: num, floor_plan_img_offset_y: num,
  // accepted by the schema only so the answer can name them
  ...Object.fromEntries(ASSET_READ_ONLY_FIELDS.map((f) => [f, {}])), location_id: {}, votes: {},
};

function expiredAt(asset: WireAsset): number | null {
  const v = asset.value as { valid_to?: unknown; time?: unknown; valid_for?: unknown } | null;
  if (!v || typeof v !== 'object') return null;
  if (typeof v.valid_to === 'number') return v.valid_to;
  if (typeof v.time === 'number' && typeof v.valid_for === 'number') return v.time + v.valid_for;
  return null;
}

export async function assetRoutes(app: FastifyInstance, { store }: RouteContext): Promise<void> {
  const now = () => store.clock.now();
  const base = '/v1/organizations/:orgId/locations/:locId/assets';

  function checkReferences(locId: string, body: UpdateAssetRequest, self: WireAsset | null): void {
    if (body.parent_id) {
      const parent = store.assets.get(body.parent_id);
      if (!parent || parent.location_id !== locId || parent === self) throw new HttpError(400, 'body/parent_id is not an asset of this location');
    }
    for (const id of body.data_providers ?? []) {
      if (store.sensors.get(id)?.location_id !== locId) throw new HttpError(400, `body/data_providers: ${id} is not a sensor of this location`);
    }
  }

  app.get(base, {
    schema: {
      params: params('orgId', 'locId'),
      querystring: objectSchema({ type: { type: 'string', maxLength: 500 }, filter_expired: { type: 'boolean' } }),
    },
  }, async (req, reply) => {
    const { orgId, locId } = req.params as { orgId: string; locId: string };
    const { type, filter_expired: filterExpired } = req.query as { type?: string; filter_expired?: boolean };
    const user = currentUser(req);
    locationFor(store, user, orgId, locId);
    const types = type ? new Set(type.split(',').map((t) => t.trim()).filter(Boolean)) : null;
    const t = now();
    const out: WireAsset[] = [];
    for (const a of store.assets.values()) {
      if (a.location_id !== locId || (types && !types.has(a.type)) || !canSeeAsset(store, user, a)) continue;
      if (filterExpired) {
        const end = expiredAt(a);
        if (end !== null && end < t) continue;
      }
      out.push(a);
    }
    setStreamHeaders(store, reply, locationScopeFor(store, user, locId));
    return out;
  });

  app.post(base, {
    schema: { params: params('orgId', 'locId'), body: objectSchema(assetProps, ['type', 'name']) },
  }, async (req, reply) => {
    const { orgId, locId } = req.params as { orgId: string; locId: string };
    const user = currentUser(req);
    locationFor(store, user, orgId, locId);
    const body = req.body as CreateAssetRequest;
    rejectFields(body, [...ASSET_READ_ONLY_FIELDS, 'location_id', 'votes'], 'read-only fields');
    if (body.type === 'ticket' || body.type === 'voice') {
      requireRole(user, 'regular');
      const labels: readonly string[] = body.type === 'ticket' ? TICKET_LABELS : VOICE_LABELS;
      if (!body.subtype || !labels.includes(body.subtype)) throw new HttpError(400, `body/subtype must be one of ${labels.join(', ')}`);
      const parent = body.parent_id ? store.assets.get(body.parent_id) : undefined;
      if (!parent || parent.type !== 'floor' || parent.location_id !== locId || !canSeeAsset(store, user, parent)) {
        throw new HttpError(400, 'body/parent_id must be a floor of this location');
      }
      const given = (body.value ?? {}) as { text?: unknown; email?: unknown };
      if (typeof given.text !== 'string' || !given.text.trim() || given.text.length > 2_000) throw new HttpError(400, 'body/value/text must be a non-empty string');
      const validFor = body.type === 'ticket' ? TICKET_VALIDITY_MS : VOICE_VALIDITY_MS;
      const value: TicketValue = {
        text: given.text, label: body.subtype, status: 'open', email: typeof given.email === 'string' ? given.email : null,
        time: now(), valid_for: validFor, valid_to: now() + validFor,
      };
      const asset = store.createAsset(locId, {
        type: body.type, subtype: body.subtype, name: body.name, parent_id: parent.id, x: body.x ?? 0, y: body.y ?? 0,
        value, speech_bubble: given.text, votes: { up: 0, down: 0 }, timeout_action: body.type === 'voice' ? 'fade_out' : null,
      }, user.id);
      return reply.code(201).send(asset);
    }
    requireRole(user, 'edit');
    checkReferences(locId, body, null);
    return reply.code(201).send(store.createAsset(locId, body, user.id));
  });

  app.get(`${base}/:assetId`, { schema: { params: params('orgId', 'locId', 'assetId') } }, async (req) => {
    const { orgId, locId, assetId } = req.params as { orgId: string; locId: string; assetId: string };
    return assetFor(store, currentUser(req), orgId, locId, assetId);
  });

  app.patch(`${base}/:assetId`, {
    schema: { params: params('orgId', 'locId', 'assetId'), body: objectSchema(assetProps) },
  }, async (req) => {
    const { orgId, locId, assetId } = req.params as { orgId: string; locId: string; assetId: string };
    const user = currentUser(req);
    const asset = assetFor(store, user, orgId, locId, assetId);
    const body = req.body as UpdateAssetRequest;
    rejectFields(body, [...ASSET_READ_ONLY_FIELDS, 'location_id', 'votes'], 'read-only fields');
    if (hasRole(user.permissions, 'edit')) {
      if (body.type !== undefined && body.type !== asset.type) throw new HttpError(400, 'body/type cannot change');
      checkReferences(locId, body, asset);
      return store.updateAsset(assetId, body);
    }
    if (asset.type !== 'ticket' || !hasRole(user.permissions, 'service')) requireRole(user, 'edit');
    // the service role moves a ticket through its statuses, nothing else
    const keys = Object.keys(body);
    const status = (body.value as { status?: unknown } | undefined)?.status;
    if (keys.length !== 1 || keys[0] !== 'value' || !TICKET_STATUSES.includes(status as TicketStatus)) {
      throw new HttpError(400, `the service role may only set body/value/status to one of ${TICKET_STATUSES.join(', ')}`);
    }
    return store.updateAsset(assetId, { value: { ...(asset.value as TicketValue), status: status as TicketStatus } });
  });

  app.delete(`${base}/:assetId`, { schema: { params: params('orgId', 'locId', 'assetId') } }, async (req, reply) => {
    const { orgId, locId, assetId } = req.params as { orgId: string; locId: string; assetId: string };
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
    schema: { params: objectSchema({ orgId: idParam, locId: idParam, assetId: idParam, name: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$' } }, ['orgId', 'locId', 'assetId', 'name']) },
  }, async (req): Promise<ImageResponse> => {
    const { orgId, locId, assetId, name } = req.params as { orgId: string; locId: string; assetId: string; name: string };
    const user = currentUser(req);
    const asset = assetFor(store, user, orgId, locId, assetId);
    requireRole(user, 'edit');
    const contentType = contentTypeOf(req.headers['content-type']);
    if (!looksLikeImage(contentType, req.body)) {
      throw new HttpError(400, `body must be a non-empty image (${IMAGE_TYPES.join(', ')})`);
    }
    const path = `assets/${assetId}/${name}`;
    store.files.set(path, { contentType, data: req.body });
    if (name === 'texture') store.updateAsset(asset.id, { texture_path: path });
    return { name, path, content_type: contentType, size: req.body.length };
  });

  const voteTarget = (req: import('fastify').FastifyRequest) => {
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
    schema: { params: params('orgId', 'locId', 'assetId'), body: objectSchema({ direction: { type: 'integer', enum: [1, -1] } }, ['direction']) },
  }, async (req) => {
    const { user, asset } = voteTarget(req);
    const votes = store.votes.get(asset.id) ?? new Map<string, 1 | -1>();
    store.votes.set(asset.id, votes);
    votes.set(user.id, (req.body as { direction: 1 | -1 }).direction);
    return tally(asset.id, user.id);
  });

  app.delete(`${base}/:assetId/vote`, { schema: { params: params('orgId', 'locId', 'assetId') } }, async (req) => {
    const { user, asset } = voteTarget(req);
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
