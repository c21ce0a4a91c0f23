// Chooses the live transport the settings describe (spec §3 Settings): the
// message queue when mqtt_config is present, else Pusher. Adapters load their
// library lazily, so a session pulls in only the one it uses.

import type { TransportFactory } from '../ports.js';
import { createMqttTransport } from './mqttTransport.js';
import { createPusherTransport } from './pusherTransport.js';
import { NO_TRANSPORT_CONFIG_MESSAGE, TransportConfigError } from './transportError.js';

export const createTransport: TransportFactory = (settings, context) => {
  if (settings.mqtt_config) return createMqttTransport({ config: settings.mqtt_config, logger: context.logger });
  if (settings.pusher_config) {
    return createPusherTransport({
      config: settings.pusher_config,
      baseUrl: context.baseUrl,
      token: context.token,
      fetch: context.fetch,
      logger: context.logger,
    });
  }
  throw new TransportConfigError(NO_TRANSPORT_CONFIG_MESSAGE);
};

export { createMqttTransport, mqttBrokerUrl, mqttClientOptions } from './mqttTransport.js';
export { createPusherTransport } from './pusherTransport.js';
export { TransportConfigError, PUSHER_CONFIG_MESSAGE } from './transportError.js';
