// What the app needs from a live transport: a sink for encoded packets, the
// settings fragment a user connects with, and (Pusher) channel signing.

import type { MqttConfig, PusherConfig } from '../../src/shared/types.js';
import type { WireUser } from '../../src/shared/rest.js';
import type { LiveSink } from './publisher.js';

/** Host and port the client reached the API at; self-hosted endpoints live there too. */
export interface RequestOrigin {
  hostname: string;
  port: number;
}

export interface LiveTransport extends LiveSink {
  readonly name: 'pusher' | 'mqtt';
  settingsFor(user: WireUser, origin: RequestOrigin): Promise<{ pusher_config?: PusherConfig; mqtt_config?: MqttConfig }>;
  /** Pusher only: `{auth}` for a socket and channel the caller may join */
  authorizeChannel?(socketId: string, channel: string): { auth: string };
  close(): Promise<void>;
}
