// Publishes live packets through the official `pusher` server SDK, either to
// the server's own Pusher-protocol endpoint or to hosted Pusher; switching is
// configuration only. Ended sessions lose their sockets at once: the SDK's
// user termination for a deleted user or one who lost a permission, and
// (own endpoint) the sockets a single ended session authorized.

import Pusher from 'pusher';
import { PUSHER_EVENT, pusherChannel } from '../../src/shared/protocol.js';
import type { PusherServer } from './pusherServer.js';
import type { LiveTransport } from './transport.js';

/** Pusher's HTTP API accepts at most 10 events per batch. */
export const PUSHER_BATCH_MAX_EVENTS = 10;

export interface PusherTransportOptions {
  appId: string;
  key: string;
  secret: string;
  cluster: string;
  /** self-hosted endpoint: where the SDK posts events (our own server) */
  selfHosted?: { host: string; port: number };
  /** our own endpoint in this process, which also closes the sockets of single ended sessions */
  endpoint?: PusherServer;
}

export function createPusherTransport(options: PusherTransportOptions): LiveTransport {
  const sdk = options.selfHosted
    ? new Pusher({
      appId: options.appId, key: options.key, secret: options.secret,
      host: options.selfHosted.host, port: String(options.selfHosted.port), useTLS: false, timeout: 10_000,
    })
    : new Pusher({ appId: options.appId, key: options.key, secret: options.secret, cluster: options.cluster, useTLS: true, timeout: 10_000 });

  return {
    name: 'pusher',
    async send(scope, payloads) {
      const channel = pusherChannel(scope);
      for (let i = 0; i < payloads.length; i += PUSHER_BATCH_MAX_EVENTS) {
        const batch = payloads.slice(i, i + PUSHER_BATCH_MAX_EVENTS).map((data) => ({ channel, name: PUSHER_EVENT, data }));
        if (batch.length === 1) await sdk.trigger(channel, PUSHER_EVENT, batch[0]!.data);
        else await sdk.triggerBatch(batch);
      }
    },
    async settingsFor(_user, origin) {
      if (!options.selfHosted) return { pusher_config: { app_key: options.key, cluster: options.cluster } };
      return {
        pusher_config: {
          app_key: options.key, cluster: options.cluster, ws_host: origin.hostname, ws_port: origin.port, force_tls: false,
        },
      };
    },
    authorizeChannel(socketId, channel, session) {
      options.endpoint?.bindSession(socketId, session.userId, session.sessionId);
      return { auth: sdk.authorizeChannel(socketId, channel).auth };
    },
    async revoke({ userId, sessionIds, reason, wholeUser }) {
      const endpoint = options.endpoint;
      if (endpoint) endpoint.terminate({ sessionIds });
      // hosted Pusher closes connections per user only (those signed in as the user): used unless one
      // session merely signed out, so a password change also drops the caller's own socket, which reconnects
      if (wholeUser || (!endpoint && reason === 'password')) await sdk.terminateUserConnections(userId);
    },
    async close() {},
  };
}
