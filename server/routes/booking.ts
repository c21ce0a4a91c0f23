// Room booking (POST and DELETE /booking): a booking is an event in the
// room's reservation sensor, so every change is a new reservation measurement
// published on the location stream like any other reading. A room books only
// where its configuration (room → floor → building → location → organization
// → base, spec §3) turns `assetBookingFeature` on.

import { randomBytes } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { resolveConfig } from '../../src/shared/config.js';
import { BookingRequest, BookingResponse, CancelBookingRequest } from '../../src/shared/schemas/people.js';
import type { ReservationEvent } from '../../src/shared/types.js';
import { hasRole } from '../auth.js';
import { validityOf } from '../seed/sensorValues.js';
import type { RouteContext } from './context.js';
import { HttpError, canReachOrganization, canSeeAsset, currentUser, notFound, requireRole } from './guard.js';

export const BOOKING_MAX_LENGTH_MS = 7 * 86_400_000;
export const BOOKING_DISABLED_MESSAGE = 'Booking is not enabled for this room';
/** events that ended longer ago than this are dropped from the sensor value */
const KEEP_PAST_EVENTS_MS = 2 * 86_400_000;

export async function bookingRoutes(fastify: FastifyInstance, { store, limits }: RouteContext): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const roomFor = (req: FastifyRequest, roomId: string) => {
    const me = currentUser(req);
    const room = store.assets.get(roomId);
    const loc = room ? store.locations.get(room.location_id) : undefined;
    if (!room || !loc || !canReachOrganization(me, loc.organization_id) || !canSeeAsset(store, me, room)) throw notFound('Room');
    const sensorId = room.data_provider_refs.reservation;
    // only a sensor of the room's own location: a stored ref to another's would write (and tell) that one's bookings
    if (!sensorId || store.sensors.get(sensorId)?.location_id !== room.location_id) throw new HttpError(400, 'This asset has no reservation sensor');
    return { me, room, sensorId };
  };
  const eventsOf = (sensorId: string): ReservationEvent[] =>
    [...((store.sensors.get(sensorId)?.last_measurement?.events ?? []) as ReservationEvent[])];
  const publishEvents = (sensorId: string, events: ReservationEvent[]) => {
    const now = store.clock.now();
    const kept = events.filter((e) => e.end > now - KEEP_PAST_EVENTS_MS).sort((a, b) => a.start - b.start);
    store.addMeasurement(sensorId, { time: now, valid_for: validityOf('reservation'), events: kept });
  };

  app.post('/v1/booking', {
    schema: { body: BookingRequest, response: { 201: BookingResponse } },
  }, async (req, reply) => {
    const body = req.body;
    const { me, room, sensorId } = roomFor(req, body.room_id);
    requireRole(me, 'regular');
    const loc = store.locations.get(room.location_id);
    const config = resolveConfig(room, {
      lookup: (id) => store.assets.get(id), location: loc, organization: loc ? store.organizations.get(loc.organization_id) : null,
    });
    // cancelling stays open when the feature is turned off, so nobody is left with a booking they cannot undo
    if (!config.assetBookingFeature) throw new HttpError(403, BOOKING_DISABLED_MESSAGE);
    if (body.end <= body.start) throw new HttpError(400, 'body/end must be after body/start');
    if (body.end - body.start > BOOKING_MAX_LENGTH_MS) throw new HttpError(400, 'body: a booking may last at most 7 days');
    if (body.end <= store.clock.now()) throw new HttpError(400, 'body/end is in the past');
    const events = eventsOf(sensorId);
    if (events.some((e) => e.start < body.end && body.start < e.end)) throw new HttpError(409, 'The room is already booked at that time');
    await limits.account('userWrites', req, reply, me.id);
    const event: ReservationEvent = {
      start: body.start, end: body.end, subject: body.subject, user_id: me.id, booking_ref: `bk-${randomBytes(8).toString('hex')}`,
    };
    store.bookings.set(event.booking_ref, { bookingRef: event.booking_ref, sensorId, roomId: room.id, userId: me.id });
    publishEvents(sensorId, [...events, event]);
    return reply.code(201).send({ booking_ref: event.booking_ref, sensor_id: sensorId, event } satisfies BookingResponse);
  });

  app.delete('/v1/booking', {
    // the body (JSON) or the query string carries the booking; the handler merges them
    schema: { querystring: Type.Partial(CancelBookingRequest, { additionalProperties: false }) },
  }, async (req, reply) => {
    const fromBody = (req.body && typeof req.body === 'object' ? req.body : {}) as Partial<CancelBookingRequest>;
    const q = { ...(req.query as Partial<CancelBookingRequest>), ...fromBody };
    if (typeof q.room_id !== 'string' || !/^[0-9]{1,18}$/.test(q.room_id)) throw new HttpError(400, "body must have required property 'room_id'");
    if (typeof q.booking_ref !== 'string' || !q.booking_ref) throw new HttpError(400, "body must have required property 'booking_ref'");
    const { me, room, sensorId } = roomFor(req, q.room_id);
    const record = store.bookings.get(q.booking_ref);
    const events = eventsOf(sensorId);
    if (!record || record.roomId !== room.id || !events.some((e) => e.booking_ref === q.booking_ref)) throw notFound('Booking');
    if (record.userId !== me.id && !hasRole(me.permissions, 'edit')) requireRole(me, 'admin');
    await limits.account('userWrites', req, reply, me.id);
    store.bookings.delete(q.booking_ref);
    publishEvents(sensorId, events.filter((e) => e.booking_ref !== q.booking_ref));
    return reply.code(204).send();
  });
}
