// The actions of the engine's API (api.ts): typed results instead of thrown errors (Comlink passes only message
// and name of those, DESIGN §6), and the requests the UI sends, built and checked in the worker.

import type { Asset, Id } from '../types.js';

/**
 * What kind of failure it was, where the caller acts on the kind rather than the words:
 * `serverUnreachable`: a write refused before anything was sent, because the server cannot be
 * reached now (the browser offline, or the session not connected); nothing was drafted or changed.
 */
export type ApiFailureCode = 'serverUnreachable';

/** Non-OK responses reach the caller as data (status and parsed body). */
export type ApiResult<T> =
  | { ok: true; value: T }
  | { ok: false; status: number; body: unknown; message: string; code?: ApiFailureCode };

/**
 * Why a write is not available (docs/ui.md "Writes wait for the server"): the words the UI says
 * beside a disabled action, and the message of a write the worker refuses with `serverUnreachable`.
 * The spec has no message for this (its §8 errors are the engine's connection errors).
 */
export const NEEDS_SERVER = 'Not available while the server cannot be reached.';

export interface EngineInit {
  /** e.g. http://127.0.0.1:8080 */
  host: string;
  /** API version of the unversioned paths; default 1 */
  version?: number;
}

/** What a password link of a reset or invite mail names: `#/set-password?organization=…&user=…&code=…`. */
export interface PasswordLink {
  organizationId: Id;
  userId: Id;
  code: string;
}

/** A signup the mailed code confirmed: the new account and its address, to sign in with. */
export interface SignUpConfirmed {
  userId: Id;
  organizationId: Id;
  email: string;
}

/** How long a booking made now lasts: minutes, or the rest of the location's local day. */
/**
 * How long a booking made now lasts: a number of minutes, up to an instant (the next booking's start, so
 * a room free for less than the shortest length can still be booked until then), or the rest of the day.
 */
export type BookingLength = { minutes: number } | { endsAt: number } | 'restOfDay';

export interface BookRoomRequest {
  roomId: Id;
  until: BookingLength;
  subject?: string;
}

/** Asset fields an update may carry: spec §3 excludes the server-owned ones, and client-derived ones are never sent. */
export type AssetChanges = Partial<Pick<Asset,
  'name' | 'subtype' | 'parent_id' | 'x' | 'y' | 'z' | 'angles' | 'outline' | 'width' | 'height' | 'depth'
  | 'shade' | 'overriding_color' | 'speech_bubble' | 'unpublished' | 'timeout_action' | 'alert_on_activity'
  | 'config' | 'popup_width' | 'popup_height' | 'popup_type' | 'data_providers' | 'default_sensor_type'>>;

export interface TicketRequest {
  kind: 'ticket' | 'voice';
  floorId: Id;
  x: number;
  y: number;
  label: string;
  text: string;
  email?: string;
}

/** How this device signs in. */
export interface SignInOptions {
  /**
   * 'display': a room display signing in once; the server issues a token kept
   * alive by use that may only read and book (docs/security.md "Room displays").
   */
  device?: 'display';
}
