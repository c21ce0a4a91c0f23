// The engine's actions, named by intent (EngineApi): book a room until a
// time the worker computes in the location's zone, close a ticket, typed
// asset updates, tickets and voices, votes, manual location, notifications.
// Payloads are built and role-checked here; answers go back into the store
// through the batch applier (the one write path); a 401 ends the session.

import type { ApiResult, AssetChanges, BookRoomRequest, TicketRequest } from '../../shared/api.js';
import { assetUpdatePayload } from '../../shared/assetUpdate.js';
import { defaultTicketLabel, type ResolvedConfig } from '../../shared/config.js';
import { RESERVATION_SENSOR_TYPE } from '../../shared/kinds.js';
import { MSG } from '../../shared/messages.js';
import { organizationScope, userScope } from '../sync/scopeLoaders.js';
import type { CreateAssetRequest, TicketValue } from '../../shared/rest.js';
import { hasRole, NoPermissionsError, NoRoleError } from '../../shared/roles.js';
import { bookingStart, overlappingBooking } from '../../shared/rules/bookingLengths.js';
import { endOfLocalDayAt, formatLocalTime, isSameLocalDay } from '../../shared/time.js';
import type { Id, ReservationEvent, Role } from '../../shared/types.js';
import type { ChangeBatch } from '../ports.js';
import type { RestClient } from '../rest/restClient.js';
import { sensorsOf, type Store } from '../store/store.js';
import { failure, serverUnreachable, toResult } from './results.js';
import type { FactsCache } from '../derive/factsCache.js';
import type { OptimisticOverlay, OptimisticEdit } from '../views/optimistic.js';
import { bookingEdits, closeTicketEdits, createTicketEdits, manualLocationEdits, renameEdits, voteEdits } from './optimisticEdits.js';

/** How long a voice is shown (it fades out over the last 75 %); config.voiceValidFor overrides. */
export const VOICE_VALID_FOR_MS = 24 * 3600 * 1000;
/** How long an open ticket is shown; config.ticketValidFor overrides. */
export const TICKET_VALID_FOR_MS = 30 * 24 * 3600 * 1000;
const MINUTE_MS = 60_000;
/** A booking made now lasts at most this long. */
export const MAX_BOOKING_MINUTES = 24 * 60;

export const ACTION_MESSAGES = {
  EDIT_ROLE_NEEDED: 'Updating assets needs the edit role.',
  CLOSE_ROLE_NEEDED: 'Closing tickets needs the service or edit role.',
  NOT_SIGNED_IN: 'Not signed in.',
  NO_LOCATION: 'No location loaded.',
  CATEGORY_REQUIRED: 'Choose a category.',
  UNKNOWN_LABEL: 'Unknown category.',
  EMAIL_REQUIRED: 'An email address is required.',
  TEXT_REQUIRED: 'Write something first.',
  UNKNOWN_ASSET: 'Unknown asset.',
  NOT_A_TICKET: 'Only tickets can be closed.',
  NOT_BOOKABLE: 'This room cannot be booked.',
  BOOKING_OFF: 'Booking rooms is not turned on for this location.',
  BAD_LENGTH: `A booking lasts from 1 minute to ${MAX_BOOKING_MINUTES / 60} hours.`,
  DAY_OVER: 'The day is over; choose a length instead.',
  EMPTY_NAME: 'A name cannot be empty.',
  NOTHING_TO_CHANGE: 'Nothing to change.',
} as const;

/** The fields AssetChanges may carry (src/shared/api.ts); anything else is dropped before sending. */
const ASSET_CHANGE_FIELDS: ReadonlyArray<keyof AssetChanges> = [
  'name', 'subtype', 'parent_id', 'x', 'y', 'z', 'angles', 'outline', 'width', 'height', 'depth', 'shade',
  'overriding_color', 'speech_bubble', 'unpublished', 'timeout_action', 'alert_on_activity', 'config',
  'popup_width', 'popup_height', 'popup_type', 'data_providers', 'default_sensor_type',
];

export interface ActionContext {
  store: Store;
  config(): ResolvedConfig;
  /** corrected-clock now */
  now(): number;
  timeZone(): string;
  rest(): RestClient | null;
  /** the permission list of the settings (undefined when the settings had none) */
  permissions(): unknown;
  roles(): readonly Role[];
  userId(): Id | null;
  /**
   * whether the server can be reached now (the session connected: loading or live, and the browser online):
   * every write is refused before anything is drafted or sent while it cannot
   */
  reachable(): boolean;
  /** the one write path: the batch applier */
  apply(batch: ChangeBatch): void;
  /** an authenticated call answered 401 */
  unauthorized(): void;
  /** drafts an intent's expected result onto the views until the server answers */
  optimistic: OptimisticOverlay;
  facts: FactsCache;
}

/**
 * Why a booking of [start, end) is refused without sending it: it overlaps a booking the room's reservation
 * sensor lists (the server answers 409 to an overlap), said with the time the person can act on.
 */
export function bookingOverlapMessage(other: ReservationEvent, start: number, restOfDay: boolean, timeZone: string): string {
  const at = formatLocalTime(other.start, timeZone);
  if (other.start <= start) return `The room is booked until ${formatLocalTime(other.end, timeZone)}.`;
  if (restOfDay) return `The room is booked again at ${at} today: book it until then instead.`;
  return `The room is booked ${isSameLocalDay(other.start, start, timeZone) ? '' : 'tomorrow '}from ${at}: choose a shorter booking.`;
}

const conflict = (message: string) => failure(409, { statusCode: 409, error: 'Conflict', message }, message);
const forbidden = (message: string) => failure(403, { statusCode: 403, error: 'Forbidden', message }, message);
const badRequest = (message: string) => failure(400, { statusCode: 400, error: 'Bad Request', message }, message);

function validFor(config: ResolvedConfig, kind: 'ticket' | 'voice'): number {
  const v = kind === 'voice' ? config.voiceValidFor : config.ticketValidFor;
  return typeof v === 'number' && v > 0 ? v : kind === 'voice' ? VOICE_VALID_FOR_MS : TICKET_VALID_FOR_MS;
}

export function createActions(ctx: ActionContext) {
  const { store } = ctx;
  /** keys of tickets drafted while being created */
  let ticketSeq = 0;

  /** Why a write cannot be sent now: not signed in, or the server cannot be reached (fail fast, nothing sent). */
  function cannotSend(): ApiResult<never> | null {
    if (!ctx.rest() || !ctx.userId()) return failure(401, null, ACTION_MESSAGES.NOT_SIGNED_IN);
    if (!ctx.reachable()) return serverUnreachable();
    return null;
  }

  /** A REST call as an ApiResult; a 401 ends the session. */
  async function call<T>(run: (rest: RestClient) => Promise<T>): Promise<ApiResult<T>> {
    const refused = cannotSend();
    if (refused) return refused;
    const rest = ctx.rest()!;
    const result = await toResult(() => run(rest));
    if (!result.ok && result.status === 401) ctx.unauthorized();
    return result;
  }

  /** spec §5: the role check, with 'No permissions' and 'No role' as the spec words them. */
  function roleFailure(message: string, anyOf: ReadonlyArray<Role | null | undefined>): ApiResult<never> | null {
    try {
      const source = { permissions: ctx.permissions() };
      if (anyOf.length === 0) hasRole(source, null);
      return anyOf.some((role) => hasRole(source, role)) ? null : forbidden(message);
    } catch (error) {
      if (error instanceof NoPermissionsError) return forbidden(MSG.NO_PERMISSIONS);
      if (error instanceof NoRoleError) return forbidden(MSG.NO_ROLE);
      throw error;
    }
  }

  /** Runs a call with its expected result drafted onto the views; a refusal rolls the draft back. */
  async function optimistically<T>(edits: OptimisticEdit[], run: () => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
    // nothing is drafted for a write that cannot be sent: no flash of a booking that was never made
    const refused = cannotSend();
    if (refused) return refused;
    const pending = ctx.optimistic.begin(edits);
    const result = await run();
    if (result.ok) pending.accept(); else pending.refuse();
    return result;
  }

  function place(): { org: Id; loc: Id } | ApiResult<never> {
    if (!store.organizationId || !store.locationId) return failure(409, null, ACTION_MESSAGES.NO_LOCATION);
    return { org: store.organizationId, loc: store.locationId };
  }
  const isFailure = (s: ReturnType<typeof place>): s is ApiResult<never> => 'ok' in s;

  /** Applies the server's answer; `ownCreate`: the answer to our create, whose live 'created' follows (not a duplicate). */
  function applyAsset(loc: Id, org: Id, data: unknown, ownCreate = false) {
    const change = { collection: 'assets' as const, kind: 'modified' as const, data, ...(ownCreate ? { ownCreate: true as const } : {}) };
    ctx.apply({ scope: { kind: 'location', organizationId: org, locationId: loc }, changes: [change] });
  }

  return {
    async bookRoom(request: BookRoomRequest): Promise<ApiResult<ReservationEvent>> {
      const room = store.assets.get(request.roomId);
      if (!room || room.type !== 'room' || !sensorsOf(store, room).some((s) => s.type === RESERVATION_SENSOR_TYPE)) {
        return badRequest(ACTION_MESSAGES.NOT_BOOKABLE);
      }
      // the location's asset booking feature (spec §9, default off) decides whether the viewer books at all
      if (!ctx.config().assetBookingFeature) return forbidden(ACTION_MESSAGES.BOOKING_OFF);
      const now = ctx.now();
      const start = bookingStart(now);
      let end: number;
      if (request.until === 'restOfDay') {
        end = endOfLocalDayAt(now, ctx.timeZone());
        if (end - start < MINUTE_MS) return badRequest(ACTION_MESSAGES.DAY_OVER);
      } else if (request.until && 'endsAt' in request.until) {
        // up to an instant (the next booking's start): at least a minute from the current one, at most the longest length
        const endsAt = request.until.endsAt;
        if (typeof endsAt !== 'number' || !Number.isInteger(endsAt) || endsAt - start < MINUTE_MS || endsAt - start > MAX_BOOKING_MINUTES * MINUTE_MS) {
          return badRequest(ACTION_MESSAGES.BAD_LENGTH);
        }
        end = endsAt;
      } else {
        const minutes = request.until?.minutes;
        if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 1 || minutes > MAX_BOOKING_MINUTES) {
          return badRequest(ACTION_MESSAGES.BAD_LENGTH);
        }
        end = start + minutes * MINUTE_MS;
      }
      // the server refuses an overlap (409): a length that runs into a booking the room lists is refused here, unsent
      const events = sensorsOf(store, room).find((s) => s.type === RESERVATION_SENSOR_TYPE)?.last_measurement?.events ?? [];
      const other = overlappingBooking(events, start, end);
      if (other) return conflict(bookingOverlapMessage(other, start, request.until === 'restOfDay', ctx.timeZone()));
      const subject = typeof request.subject === 'string' && request.subject.trim() ? request.subject.trim().slice(0, 200) : 'Meeting';
      const expected: ReservationEvent = { start, end, subject, user_id: ctx.userId() ?? '', booking_ref: `pending-${start}` };
      const result = await optimistically(
        bookingEdits(request.roomId, ctx.facts.get(request.roomId), ctx.config(), expected),
        () => call((rest) => rest.book({ room_id: request.roomId, start, end, subject })),
      );
      return result.ok ? { ok: true, value: result.value.event } : result;
    },

    cancelBooking: (roomId: Id, bookingRef: string) =>
      call((rest) => rest.cancelBooking({ room_id: roomId, booking_ref: bookingRef })),

    async createTicket(request: TicketRequest): Promise<ApiResult<unknown>> {
      const s = place();
      if (isFailure(s)) return s;
      const config = ctx.config();
      const kind = request.kind === 'voice' ? 'voice' : 'ticket';
      const labels = kind === 'ticket' ? Object.keys(config.ticketLabels) : config.voiceLabels;
      const text = typeof request.text === 'string' ? request.text.trim() : '';
      // no choice made: the location's default category, unless it requires a choice
      const label = (typeof request.label === 'string' && request.label) || (defaultTicketLabel(config, kind) ?? '');
      if (!text) return badRequest(ACTION_MESSAGES.TEXT_REQUIRED);
      if (!label && config.ticketsRequireCategory) return badRequest(ACTION_MESSAGES.CATEGORY_REQUIRED);
      if (label && !labels.includes(label)) return badRequest(ACTION_MESSAGES.UNKNOWN_LABEL);
      if (kind === 'ticket' && config.ticketsAskForEmail && !request.email) return badRequest(ACTION_MESSAGES.EMAIL_REQUIRED);
      const time = ctx.now();
      const span = validFor(config, kind);
      const value: TicketValue = { text, label, status: 'open', time, valid_for: span, valid_to: time + span };
      if (kind === 'ticket' && request.email) value.email = request.email;
      const body: CreateAssetRequest = {
        type: kind,
        // a ticket is titled by what it says, not by its category
        name: text.length > 60 ? `${text.slice(0, 59)}…` : text,
        subtype: label || null,
        parent_id: request.floorId,
        x: request.x,
        y: request.y,
        speech_bubble: text,
        value,
        // moderation: the ticket or voice waits unpublished until an editor publishes it
        unpublished: config.ticketsVoicesRequireModeration,
      };
      const edits = createTicketEdits({ kind, floorId: request.floorId, x: request.x, y: request.y, name: body.name!, text, unpublished: !!body.unpublished }, ++ticketSeq);
      const result = await optimistically(edits, () => call((rest) => rest.createAsset(s.org, s.loc, body)));
      if (result.ok) applyAsset(s.loc, s.org, result.value, true);
      return result;
    },

    async closeTicket(ticketId: Id): Promise<ApiResult<unknown>> {
      const s = place();
      if (isFailure(s)) return s;
      const ticket = store.assets.get(ticketId);
      if (!ticket) return failure(404, null, ACTION_MESSAGES.UNKNOWN_ASSET);
      if (ticket.type !== 'ticket') return badRequest(ACTION_MESSAGES.NOT_A_TICKET);
      const refused = roleFailure(ACTION_MESSAGES.CLOSE_ROLE_NEEDED, ['service', 'edit']);
      if (refused) return refused;
      const value = ticket.value && typeof ticket.value === 'object' ? ticket.value as Record<string, unknown> : {};
      // the service role may set only the ticket's status (the server checks the same)
      const result = await optimistically(closeTicketEdits(ticketId),
        () => call((rest) => rest.updateAsset(s.org, s.loc, ticketId, { value: { ...value, status: 'closed' } })));
      if (result.ok) applyAsset(s.loc, s.org, result.value);
      return result;
    },

    async vote(assetId: Id, direction: 1 | -1 | 0): Promise<ApiResult<unknown>> {
      const s = place();
      if (isFailure(s)) return s;
      const result = await optimistically(voteEdits(assetId, direction),
        () => call((rest) => (direction === 0 ? rest.deleteVote(s.org, s.loc, assetId) : rest.vote(s.org, s.loc, assetId, direction))));
      if (result.ok && result.value && typeof result.value === 'object') {
        const v = result.value as { up?: unknown; down?: unknown; mine?: unknown };
        const mine = v.mine === 1 || v.mine === -1 || v.mine === 0 ? v.mine : direction;
        ctx.apply({
          scope: { kind: 'location', organizationId: s.org, locationId: s.loc },
          changes: [{ collection: 'votes', kind: 'modified', id: assetId, data: { up: Number(v.up) || 0, down: Number(v.down) || 0, mine } }],
        });
      }
      return result;
    },

    async updateAsset(assetId: Id, changes: AssetChanges): Promise<ApiResult<unknown>> {
      const s = place();
      if (isFailure(s)) return s;
      if (!store.assets.has(assetId) && !store.buildings.has(assetId) && !store.floors.has(assetId)) return failure(404, null, ACTION_MESSAGES.UNKNOWN_ASSET);
      const refused = roleFailure(ACTION_MESSAGES.EDIT_ROLE_NEEDED, ['edit']);
      if (refused) return refused;
      if (!changes || typeof changes !== 'object') return badRequest(ACTION_MESSAGES.NOTHING_TO_CHANGE);
      const picked: Record<string, unknown> = {};
      for (const key of ASSET_CHANGE_FIELDS) if (changes[key] !== undefined) picked[key] = changes[key];
      if ('name' in picked) {
        const name = typeof picked.name === 'string' ? picked.name.trim() : '';
        if (!name) return badRequest(ACTION_MESSAGES.EMPTY_NAME);
        picked.name = name;
      }
      const payload = assetUpdatePayload(picked);
      if (Object.keys(payload).length === 0) return badRequest(ACTION_MESSAGES.NOTHING_TO_CHANGE);
      const previous = store.assets.get(assetId)?.name ?? '';
      const edits = typeof payload.name === 'string' ? renameEdits(assetId, previous, payload.name) : [];
      const result = await optimistically(edits, () => call((rest) => rest.updateAsset(s.org, s.loc, assetId, payload)));
      if (result.ok) applyAsset(s.loc, s.org, result.value);
      return result;
    },

    async setManualLocation(location: { floorId: Id; x: number; y: number } | null): Promise<ApiResult<unknown>> {
      const uid = ctx.userId();
      const org = store.organizationId ?? store.users.get(uid ?? '')?.organization_id;
      if (!uid || !org) return failure(401, null, ACTION_MESSAGES.NOT_SIGNED_IN);
      if (location && !store.locationId) return failure(409, null, ACTION_MESSAGES.NO_LOCATION);
      const body = {
        location: location
          ? { location_id: store.locationId!, floor_id: location.floorId, x: location.x, y: location.y, time: ctx.now() }
          : null,
      };
      const edits = location ? manualLocationEdits(uid, store.locationId!, location, ctx.now()) : [];
      const result = await optimistically(edits, () => call((rest) => rest.updateUser(org, uid, body as never)));
      if (result.ok) ctx.apply({ scope: organizationScope(org), changes: [{ collection: 'users', kind: 'modified', data: result.value }] });
      return result;
    },

    async markNotificationRead(notificationId: Id): Promise<ApiResult<unknown>> {
      const uid = ctx.userId();
      const result = await call((rest) => rest.updateNotification(notificationId, { read: true }));
      if (result.ok && uid) ctx.apply({ scope: userScope(uid), changes: [{ collection: 'notifications', kind: 'modified', data: result.value }] });
      return result;
    },
  };
}

export type Actions = ReturnType<typeof createActions>;
