// MQTT v5 transport (spec §7, §9): mqtt.js with protocol version 5, keepalive
// 30 s, reconnect period 2 s, connect timeout 15 s, one topic filter per scope.
// The only file that imports mqtt; payloads are base64 text.

import type { IClientOptions, MqttClient } from 'mqtt';
import {
  MQTT_CONNECT_TIMEOUT_MS, MQTT_KEEPALIVE_S, MQTT_PROTOCOL_VERSION, MQTT_RECONNECT_PERIOD_MS,
} from '../../shared/constants.js';
import { mqttTopicFilter, type StreamScope } from '../../shared/protocol.js';
import type { MqttConfig } from '../../shared/types.js';
import type { Logger, Transport } from '../ports.js';
import { MQTT_CONFIG_MESSAGE, SubscriptionCancelledError, TransportConfigError } from './transportError.js';

type MqttConnect = (url: string, options: IClientOptions) => MqttClient;

export interface MqttTransportOptions {
  config: MqttConfig | undefined;
  logger: Logger;
  /** tests may inject mqtt.connect; default loads mqtt */
  loadMqtt?: () => Promise<MqttConnect>;
}

async function loadMqttJs(): Promise<MqttConnect> {
  // CJS interop: connect is on the module or on its default
  const mod = (await import('mqtt')) as unknown as { connect?: MqttConnect; default?: { connect?: MqttConnect } };
  return (mod.connect ?? mod.default?.connect)!;
}

/** Broker URL: `url` (ws/wss in browsers, any scheme mqtt.js knows in Node), else wss on the hostname. */
export function mqttBrokerUrl(config: MqttConfig | undefined): string {
  const extra = config as (MqttConfig & { mqtt_url?: string }) | undefined;
  if (extra?.url) return extra.url;
  if (extra?.mqtt_url) return extra.mqtt_url;
  if (extra?.hostname) return `wss://${extra.hostname}/mqtt`;
  throw new TransportConfigError(MQTT_CONFIG_MESSAGE);
}

/** The client options of spec §9. */
export function mqttClientOptions(config: MqttConfig | undefined): IClientOptions {
  return {
    protocolVersion: MQTT_PROTOCOL_VERSION,
    keepalive: MQTT_KEEPALIVE_S,
    reconnectPeriod: MQTT_RECONNECT_PERIOD_MS,
    connectTimeout: MQTT_CONNECT_TIMEOUT_MS,
    clean: true,
    ...(config?.username ? { username: config.username } : {}),
    ...(config?.password ? { password: config.password } : {}),
    ...(config?.client_id ? { clientId: config.client_id } : {}),
  };
}

export function createMqttTransport(options: MqttTransportOptions): Transport {
  const url = mqttBrokerUrl(options.config);
  const { logger } = options;
  const messageListeners = new Set<(scope: StreamScope, payload: string) => void>();
  const stateListeners = new Set<(state: string) => void>();
  /** topic prefix (filter without '#') → scope */
  const prefixes = new Map<string, StreamScope>();
  /** filter → cancels its subscription still waiting for the SUBACK */
  const pending = new Map<string, () => void>();
  const decoder = new TextDecoder();
  let client: MqttClient | null = null;
  let lost = false;

  const emitState = (state: string) => { for (const l of stateListeners) l(state); };

  function scopeOf(topic: string): StreamScope | null {
    for (const [prefix, scope] of prefixes) if (topic.startsWith(prefix)) return scope;
    return null;
  }

  return {
    name: 'mqtt',
    async connect() {
      const connect = await (options.loadMqtt ?? loadMqttJs)();
      const c = connect(url, mqttClientOptions(options.config));
      client = c;
      let connected = false;
      c.on('message', (topic, payload) => {
        if (client !== c) return;
        const scope = scopeOf(topic);
        if (!scope) { logger.warn('Ignoring data for an inactive subscription', topic); return; }
        const text = typeof payload === 'string' ? payload : decoder.decode(payload);
        for (const l of messageListeners) l(scope, text);
      });
      c.on('reconnect', () => { if (client === c) emitState('reconnecting'); });
      c.on('offline', () => { if (client === c) emitState('offline'); });
      c.on('error', (error) => { if (client === c) logger.debug('MQTT error', error.message); });
      c.on('close', () => {
        if (client !== c) return;
        emitState('closed');
        // messages sent while away are gone (clean session): report the loss once
        if (connected && !lost) { lost = true; emitState('disconnected'); }
      });
      await new Promise<void>((resolve, reject) => {
        const fail = (error: Error) => { cleanup(); c.end(true); reject(error); };
        const onConnect = () => { cleanup(); connected = true; emitState('connected'); resolve(); };
        const onError = (error: Error) => fail(error);
        const onClose = () => fail(new Error('MQTT connection closed before it was established'));
        const cleanup = () => { c.off('connect', onConnect); c.off('error', onError); c.off('close', onClose); };
        c.once('connect', onConnect);
        c.once('error', onError);
        c.once('close', onClose);
      });
    },
    async disconnect() {
      const c = client;
      client = null;
      prefixes.clear();
      for (const cancel of [...pending.values()]) cancel();
      if (c) await c.endAsync(true).catch(() => undefined);
    },
    async subscribe(scope) {
      const c = client;
      if (!c) throw new Error('MQTT transport is not connected');
      const filter = mqttTopicFilter(scope);
      pending.get(filter)?.();
      // settles when the SUBACK comes, or at once when the scope is dropped or the transport closes first
      const cancelled = new Promise<never>((_, reject) => {
        pending.set(filter, () => { pending.delete(filter); reject(new SubscriptionCancelledError(filter)); });
      });
      cancelled.catch(() => undefined);
      const mine = pending.get(filter);
      try {
        const granted = await Promise.race([c.subscribeAsync(filter, { qos: 1 }), cancelled]);
        const refused = granted.find((g) => g.qos >= 128);
        if (refused) throw new Error(`Subscription to ${filter} refused (reason ${refused.qos})`);
        prefixes.set(filter.slice(0, -1), scope);
      } finally {
        if (pending.get(filter) === mine) pending.delete(filter);
      }
    },
    async unsubscribe(scope) {
      const filter = mqttTopicFilter(scope);
      pending.get(filter)?.();
      prefixes.delete(filter.slice(0, -1));
      await client?.unsubscribeAsync(filter);
    },
    onMessage(listener) {
      messageListeners.add(listener);
      return () => { messageListeners.delete(listener); };
    },
    onStateChange(listener) {
      stateListeners.add(listener);
      return () => { stateListeners.delete(listener); };
    },
  };
}
