// What the app needs from a live transport: a sink for encoded packets, the
// settings fragment a session connects with, (Pusher) channel signing, and
// cutting the live access of ended sessions at once (docs/security.md).

import type { MqttConfig, PusherConfig } from '../../src/shared/types.js';
import type { WireUser } from '../../src/shared/rest.js';
import type { Revocation } from '../store/records.js';
import type { LiveSink } from './publisher.js';

/** The session a request came with: whose, and its public id (a hash of the token). */
export interface LiveSession {
  userId: string;
  sessionId: string;
}

/** Host and port the client reached the API at; self-hosted endpoints live there too. */
export interface RequestOrigin {
  hostname: string;
  port: number;
}

export interface LiveTransport extends LiveSink {
  readonly name: 'pusher' | 'mqtt';
  settingsFor(user: WireUser, origin: RequestOrigin, session: LiveSession): Promise<{ pusher_config?: PusherConfig; mqtt_config?: MqttConfig }>;
  /** Pusher only: `{auth}` for a socket and channel the caller may join; the socket is remembered as the session's */
  authorizeChannel?(socketId: string, channel: string, session: LiveSession): { auth: string };
  /** drops the live connections of ended sessions (and refuses their credentials from now on) */
  revoke(revocation: Revocation): Promise<void>;
  close(): Promise<void>;
}
