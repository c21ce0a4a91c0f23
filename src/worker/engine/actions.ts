// The engine's actions (EngineApi): booking, tickets and voices with the
// configured labels and flags, votes, asset updates (edit role), manual
// location, notifications. Each returns an ApiResult; role and input checks
// answer like the server would (403/400) without a round trip.

import type { ApiResult, BookingRequest, TicketRequest } from '../../shared/api.js';
import type { ResolvedConfig } from '../../shared/config.js';
import { normalizeNotification, normalizeUser } from '../../shared/normalize/people.js';
import type { CreateAssetRequest, TicketValue } from '../../shared/rest.js';
import type { Id, Role } from '../../shared/types.js';
import type { ConfigResolver } from '../derive/configResolver.js';
import type { Feed } from './feed.js';
import { failure, toResult } from './results.js';
import type { ApplyOptions } from '../store/applyBatch.js';
import { createDelta, markPersist, type StoreDelta } from '../store/delta.js';
import type { Store } from '../store/store.js';
import { syncUserEntities } from '../store/userEntities.js';
import type { CorrectedClock, Sync } from '../sync/index.js';

/** How long a voice is shown (it fades out over the last 75 %); config.voiceValidFor overrides. */
export const VOICE_VALID_FOR_MS = 24 * 3600 * 1000;
/** How long an open ticket is shown; config.ticketValidFor overrides. */
export const TICKET_VALID_FOR_MS = 30 * 24 * 3600 * 1000;

export const ACTION_MESSAGES = {
  EDIT_ROLE_NEEDED: 'Updating assets needs the edit role.',
  NOT_SIGNED_IN: 'Not signed in.',
  NO_LOCATION: 'No location loaded.',
  CATEGORY_REQUIRED: 'Choose a category.',
  UNKNOWN_LABEL: 'Unknown category.',
  EMAIL_REQUIRED: 'An email address is required.',
  TEXT_REQUIRED: 'Write something first.',
  UNKNOWN_ASSET: 'Unknown asset.',
} as const;

export interface ActionContext {
  store: Store;
  config: ConfigResolver;
  corrected: CorrectedClock;
  feed: Feed;
  sync(): Sync | null;
  roles(): readonly Role[];
  userId(): Id | null;
  afterDelta(delta: StoreDelta): void;
  applyOptions(): ApplyOptions;
}

const forbidden = (message: string) => failure(403, { statusCode: 403, error: 'Forbidden', message }, message);
const badRequest = (message: string) => failure(400, { statusCode: 400, error: 'Bad Request', message }, message);

function validFor(config: ResolvedConfig, kind: 'ticket' | 'voice'): number {
  const v = kind === 'voice' ? config.voiceValidFor : config.ticketValidFor;
  return typeof v === 'number' && v > 0 ? v : kind === 'voice' ? VOICE_VALID_FOR_MS : TICKET_VALID_FOR_MS;
}

export function createActions(ctx: ActionContext) {
  const { store } = ctx;

  /** The sync layer and the loaded organization/location, or the failure to return. */
  function scope(): { sync: Sync; org: Id; loc: Id } | ApiResult<never> {
    const sync = ctx.sync();
    if (!sync || !sync.token()) return failure(401, null, ACTION_MESSAGES.NOT_SIGNED_IN);
    if (!store.organizationId || !store.locationId) return failure(409, null, ACTION_MESSAGES.NO_LOCATION);
    return { sync, org: store.organizationId, loc: store.locationId };
  }
  const isFailure = (s: ReturnType<typeof scope>): s is ApiResult<never> => 'ok' in s;

  return {
    async book(request: BookingRequest): Promise<ApiResult<unknown>> {
      const s = ctx.sync();
      if (!s || !s.token()) return failure(401, null, ACTION_MESSAGES.NOT_SIGNED_IN);
      return toResult(() => s.rest.book({ room_id: request.roomId, start: request.start, end: request.end, subject: request.subject }));
    },

    async cancelBooking(roomId: Id, bookingRef: string): Promise<ApiResult<unknown>> {
      const s = ctx.sync();
      if (!s || !s.token()) return failure(401, null, ACTION_MESSAGES.NOT_SIGNED_IN);
      return toResult(() => s.rest.cancelBooking({ room_id: roomId, booking_ref: bookingRef }));
    },

    async createTicket(request: TicketRequest): Promise<ApiResult<unknown>> {
      const s = scope();
      if (isFailure(s)) return s;
      const config = ctx.config.location();
      const kind = request.kind === 'voice' ? 'voice' : 'ticket';
      const labels = kind === 'ticket' ? Object.keys(config.ticketLabels) : config.voiceLabels;
      const text = typeof request.text === 'string' ? request.text.trim() : '';
      const label = typeof request.label === 'string' ? request.label : '';
      if (!text) return badRequest(ACTION_MESSAGES.TEXT_REQUIRED);
      if (!label && config.ticketsRequireCategory) return badRequest(ACTION_MESSAGES.CATEGORY_REQUIRED);
      if (label && !labels.includes(label)) return badRequest(ACTION_MESSAGES.UNKNOWN_LABEL);
      if (kind === 'ticket' && config.ticketsAskForEmail && !request.email) return badRequest(ACTION_MESSAGES.EMAIL_REQUIRED);
      const time = ctx.corrected.now();
      const span = validFor(config, kind);
      const value: TicketValue = { text, label, status: 'open', time, valid_for: span, valid_to: time + span };
      if (kind === 'ticket' && request.email) value.email = request.email;
      const body: CreateAssetRequest = {
        type: kind,
        name: label || kind,
        subtype: label || null,
        parent_id: request.floorId,
        x: request.x,
        y: request.y,
        speech_bubble: text,
        value,
        // moderation: the ticket or voice waits unpublished until an editor publishes it
        unpublished: config.ticketsVoicesRequireModeration,
      };
      return toResult(() => s.sync.rest.createAsset(s.org, s.loc, body));
    },

    async vote(assetId: Id, direction: 1 | -1 | 0): Promise<ApiResult<unknown>> {
      const s = scope();
      if (isFailure(s)) return s;
      const result = await toResult(() => (direction === 0
        ? s.sync.rest.deleteVote(s.org, s.loc, assetId)
        : s.sync.rest.vote(s.org, s.loc, assetId, direction)));
      const asset = store.assets.get(assetId);
      if (result.ok && asset && result.value && typeof result.value === 'object') {
        const v = result.value as { up?: number; down?: number; mine?: 1 | -1 | 0 };
        const mine = v.mine === 1 || v.mine === -1 || v.mine === 0 ? v.mine : direction;
        asset.votes = { up: Number(v.up) || 0, down: Number(v.down) || 0, mine };
        // live asset updates carry only the tally: the engine remembers the viewer's own vote
        store.myVotes.set(assetId, mine);
        const delta = createDelta();
        delta.assets.add(assetId);
        markPersist(delta, 'assets', assetId);
        ctx.afterDelta(delta);
      }
      return result;
    },

    async updateAsset(assetId: Id, patch: Record<string, unknown>): Promise<ApiResult<unknown>> {
      const s = scope();
      if (isFailure(s)) return s;
      const roles = ctx.roles();
      const asset = store.assets.get(assetId);
      const serviceTicket = roles.includes('service') && asset?.type === 'ticket';
      if (!roles.includes('edit') && !serviceTicket) return forbidden(ACTION_MESSAGES.EDIT_ROLE_NEEDED);
      if (!patch || typeof patch !== 'object') return badRequest('The update must be an object.');
      return toResult(() => s.sync.rest.updateAsset(s.org, s.loc, assetId, patch));
    },

    async setManualLocation(location: { floorId: Id; x: number; y: number } | null): Promise<ApiResult<unknown>> {
      const sync = ctx.sync();
      const uid = ctx.userId();
      const org = store.organizationId ?? store.users.get(uid ?? '')?.organization_id;
      if (!sync || !sync.token() || !uid || !org) return failure(401, null, ACTION_MESSAGES.NOT_SIGNED_IN);
      if (location && !store.locationId) return failure(409, null, ACTION_MESSAGES.NO_LOCATION);
      const body = {
        location: location
          ? { location_id: store.locationId!, floor_id: location.floorId, x: location.x, y: location.y, time: ctx.corrected.now() }
          : null,
      };
      const result = await toResult(() => sync.rest.updateUser(org, uid, body as never));
      if (result.ok) {
        const user = normalizeUser(result.value, { logger: ctx.applyOptions().logger });
        if (user) {
          store.users.set(user.id, user);
          const delta = createDelta();
          delta.users.add(user.id);
          markPersist(delta, 'users', user.id);
          syncUserEntities(store, user, delta, ctx.applyOptions());
          ctx.afterDelta(delta);
        }
      }
      return result;
    },

    async markNotificationRead(notificationId: Id): Promise<ApiResult<unknown>> {
      const sync = ctx.sync();
      if (!sync || !sync.token()) return failure(401, null, ACTION_MESSAGES.NOT_SIGNED_IN);
      const result = await toResult(() => sync.rest.updateNotification(notificationId, { read: true }));
      if (result.ok) {
        const n = normalizeNotification(result.value, { logger: ctx.applyOptions().logger });
        if (n) {
          store.notifications.set(n.id, n);
          const delta = createDelta();
          delta.notifications.add(n.id);
          markPersist(delta, 'notifications', n.id);
          ctx.afterDelta(delta);
        }
      }
      return result;
    },
  };
}
