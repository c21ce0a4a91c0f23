// Errors of live transports that retrying cannot fix by itself (bad settings),
// kept apart from the adapters so the sync layer can name them without
// importing pusher-js or mqtt.

export class TransportConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransportConfigError';
  }
}

/** Spec §5: "Real-time messaging needs an app key and a cluster option". */
export const PUSHER_CONFIG_MESSAGE = 'Real-time messaging needs an app key and a cluster option.';
export const NO_TRANSPORT_CONFIG_MESSAGE = 'Settings carry neither pusher_config nor mqtt_config.';
export const MQTT_CONFIG_MESSAGE = 'Message-queue settings need a url or a hostname.';

/**
 * A subscription that was still waiting for the service's answer when its
 * scope was unsubscribed or the transport closed: it settles with this
 * instead of hanging (issue 11 §1, every engine call settles).
 */
export class SubscriptionCancelledError extends Error {
  constructor(channel: string) {
    super(`Subscription to ${channel} was cancelled before it was confirmed`);
    this.name = 'SubscriptionCancelledError';
  }
}
