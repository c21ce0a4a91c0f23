// Users, invites, external objects, notifications and booking (spec §7).
// Who may send which field is the server's business (docs/security.md);
// these say what a well-formed body is.

import { Type, type Static } from 'typebox';
import { CLOSED, Config, Email, Id, Nullable, NullableText, PermissionList, SafeUrl, Text, Time, WireId } from './common.js';
import { Password } from './accounts.js';

const UserLocation = Type.Object({
  location_id: Id,
  floor_id: Id,
  time: Type.Integer({ minimum: 0 }),
  x: Type.Optional(Type.Number()),
  y: Type.Optional(Type.Number()),
}, CLOSED);

const profileFields = {
  first_name: Type.Optional(Text(200)),
  last_name: Type.Optional(Text(200)),
  visible: Type.Optional(Type.Boolean()),
  speech_bubble: Type.Optional(NullableText),
  location: Type.Optional(Nullable(UserLocation)),
  decoration: Type.Optional(Nullable(Type.Object({ name: Text(64, 1) }, CLOSED))),
};

/** POST /organizations/{orgId}/users (edit; permissions above the caller's own role, and `password`: admin) */
export const CreateUserRequest = Type.Object({
  email: Email,
  first_name: Type.Optional(Text(200)),
  last_name: Type.Optional(Text(200)),
  permissions: Type.Optional(PermissionList),
  password: Type.Optional(Password),
}, CLOSED);
export type CreateUserRequest = Static<typeof CreateUserRequest>;

/**
 * PATCH users/{id}. Profile fields: the user themself, or a higher role.
 * `email`, `permissions`: admin for another user; one's own email needs
 * `current_password`. `location_tag_id`: edit. (docs/security.md)
 */
export const UpdateUserRequest = Type.Object({
  ...profileFields,
  email: Type.Optional(Email),
  permissions: Type.Optional(PermissionList),
  location_tag_id: Type.Optional(Nullable(Id)),
  /** the caller's current password, required to change their own email */
  current_password: Type.Optional(Text(1024)),
}, CLOSED);
export type UpdateUserRequest = Static<typeof UpdateUserRequest>;

/** POST /organizations/{orgId}/invite_user */
export const InviteUserRequest = Type.Object({
  email: Email,
  first_name: Type.Optional(Text(200)),
  last_name: Type.Optional(Text(200)),
  permissions: Type.Optional(PermissionList),
}, CLOSED);
export type InviteUserRequest = Static<typeof InviteUserRequest>;

/** POST /external_objects (edit) */
export const CreateExternalObjectRequest = Type.Object({
  name: Text(500, 1),
  type: Text(64, 1),
  organization_id: Type.Optional(Id),
  /** null: organization-wide */
  location_id: Type.Optional(Nullable(Id)),
  data: Type.Optional(Config),
}, CLOSED);
export type CreateExternalObjectRequest = Static<typeof CreateExternalObjectRequest>;
/** PATCH /external_objects/{id} (edit); organization_id cannot change */
export const UpdateExternalObjectRequest = Type.Partial(CreateExternalObjectRequest, CLOSED);
export type UpdateExternalObjectRequest = Static<typeof UpdateExternalObjectRequest>;
export const ExternalObjectsQuery = Type.Object({ location_id: Type.Optional(Id), organization_id: Type.Optional(Id) }, CLOSED);
export type ExternalObjectsQuery = Static<typeof ExternalObjectsQuery>;

export const NotificationLevel = Type.Enum(['info', 'warning', 'error']);
/** POST /notifications (edit or admin): to one user of the caller's organization. */
export const CreateNotificationRequest = Type.Object({
  user_id: Id,
  title: Text(200, 1),
  body: Text(5_000),
  level: Type.Optional(NotificationLevel),
  /** http(s) or a relative path (src/shared/safeUrl.ts) */
  link: Type.Optional(Nullable(SafeUrl)),
}, CLOSED);
export type CreateNotificationRequest = Static<typeof CreateNotificationRequest>;
/** PATCH /notifications/{id} (the recipient) */
export const UpdateNotificationRequest = Type.Object({ read: Type.Boolean() }, CLOSED);
export type UpdateNotificationRequest = Static<typeof UpdateNotificationRequest>;

/**
 * POST /booking: reserves a room (an asset with a 'reservation' data provider).
 * 409 if it overlaps an event; the reservation sensor gets a new measurement
 * with the updated event list, published live.
 */
export const BookingRequest = Type.Object({ room_id: Id, start: Time, end: Time, subject: Text(200, 1) }, CLOSED);
export type BookingRequest = Static<typeof BookingRequest>;
export const ReservationEvent = Type.Object({
  start: Type.Number(), end: Type.Number(), subject: Type.String(), user_id: Nullable(WireId), booking_ref: Type.String(),
});
export const BookingResponse = Type.Object({ booking_ref: Type.String(), sensor_id: WireId, event: ReservationEvent });
export type BookingResponse = Static<typeof BookingResponse>;
/** DELETE /booking with this JSON body (or the same fields as query). The booker, edit or admin. */
export const CancelBookingRequest = Type.Object({ room_id: Id, booking_ref: Text(100, 1) }, CLOSED);
export type CancelBookingRequest = Static<typeof CancelBookingRequest>;
