// Sign-in and account shapes (spec §7 /login, /openid_login, /signup,
// /auth_uri, /recover_password, /logout, users/{id}/password, /current_time,
// /pusher/auth) and the error body every non-OK answer carries.

import { Type, type Static } from 'typebox';
import { PASSWORD_MIN_LENGTH } from '../rest.js';
import { CLOSED, Email, Nullable, Text, WireId } from './common.js';

export const Password = Text(1024, PASSWORD_MIN_LENGTH);
/** one-time code of a signup, recovery or invite mail */
export const MailCode = Text(200, 1);

/** POST /login (form or JSON) */
export const LoginRequest = Type.Object({
  email: Email,
  password: Text(1024, 1),
  /** 'display': a room display signing in once (a token kept alive by use, read and book only; docs/security.md) */
  client: Type.Optional(Type.Literal('display')),
}, CLOSED);
export type LoginRequest = Static<typeof LoginRequest>;

/** POST /openid_login (form or JSON) */
export const OpenIdLoginRequest = Type.Object({ id_token: Text(16_384, 1) }, CLOSED);
export type OpenIdLoginRequest = Static<typeof OpenIdLoginRequest>;

/** Response of /login and /openid_login. The token goes in `Authorization: Bearer …`. */
export const LoginResponse = Type.Object({
  token: Type.String(),
  token_type: Type.Literal('Bearer'),
  /** ms epoch when the token stops working */
  expires_at: Type.Number(),
  user_id: WireId,
  organization_id: WireId,
});
export type LoginResponse = Static<typeof LoginResponse>;

/** POST /signup and POST /recover_password (form). Always 202, whether or not a mail was sent. */
export const EmailRequest = Type.Object({ email: Email }, CLOSED);
export type EmailRequest = Static<typeof EmailRequest>;

export const AcceptedResponse = Type.Object({ status: Type.Literal('accepted') });
export type AcceptedResponse = Static<typeof AcceptedResponse>;

/** POST /signup/confirm: the code of the signup mail and the new password; creates the user. */
export const SignupConfirmRequest = Type.Object({ code: MailCode, password: Password }, CLOSED);
export type SignupConfirmRequest = Static<typeof SignupConfirmRequest>;
/** The account made, and its address (the code named it), so the client can sign in at once. */
export const SignupConfirmResponse = Type.Object({ user_id: WireId, organization_id: WireId, email: Type.String() });
export type SignupConfirmResponse = Static<typeof SignupConfirmResponse>;

/** GET /auth_uri?email= */
export const AuthUriQuery = Type.Object({ email: Email }, CLOSED);
/** The single-sign-on start URI of the email's organization, or null for password sign-in. */
export const AuthUriResponse = Type.Object({ uri: Nullable(Type.String()) });
export type AuthUriResponse = Static<typeof AuthUriResponse>;

/** GET /current_time: server time, ms epoch */
export const CurrentTimeResponse = Type.Object({ time: Type.Number() });
export type CurrentTimeResponse = Static<typeof CurrentTimeResponse>;

/**
 * POST users/{id}/password. Either signed in as that user with old_password,
 * signed in as an admin (another user's password), or with the one-time
 * `code` of a recovery or invite mail (no token).
 */
export const SetPasswordRequest = Type.Object({
  password: Password,
  old_password: Type.Optional(Text(1024)),
  code: Type.Optional(MailCode),
}, CLOSED);
export type SetPasswordRequest = Static<typeof SetPasswordRequest>;

/** POST /pusher/auth (form or JSON); extra params are accepted and ignored. */
export const PusherAuthRequest = Type.Object({
  socket_id: Type.String({ pattern: '^\\d+\\.\\d+$', maxLength: 64 }),
  channel_name: Text(164, 1),
}, { additionalProperties: Text(1_000) });
export type PusherAuthRequest = Static<typeof PusherAuthRequest> & Record<string, string>;
export const PusherAuthResponse = Type.Object({ auth: Type.String() });
export type PusherAuthResponse = Static<typeof PusherAuthResponse>;

/** Body of every non-OK response. */
export const ErrorResponse = Type.Object({
  statusCode: Type.Integer(),
  /** HTTP reason phrase, e.g. 'Bad Request' */
  error: Type.String(),
  /** human-readable cause, e.g. "body must have required property 'email'" */
  message: Type.String(),
});
export type ErrorResponse = Static<typeof ErrorResponse>;
