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
