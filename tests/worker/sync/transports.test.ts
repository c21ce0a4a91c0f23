import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createPusherTransport } from '../../../src/worker/transports/pusherTransport.js';
import { createMqttTransport, mqttBrokerUrl, mqttClientOptions } from '../../../src/worker/transports/mqttTransport.js';
import { createTransport } from '../../../src/worker/transports/index.js';
import type { Settings } from '../../../src/shared/types.js';
import { createFakeFetch, createRecordingLogger, LOC, ORG } from './fakes.js';

class FakeBindable {
  handlers = new Map<string, Array<(data: any) => void>>();
  bind(event: string, cb: (data: any) => void) { this.handlers.set(event, [...(this.handlers.get(event) ?? []), cb]); }
  unbind_all() { this.handlers.clear(); }
  fire(event: string, data?: unknown) { for (const cb of this.handlers.get(event) ?? []) cb(data); }
}
class FakePusher {
  static last: FakePusher;
  connection = Object.assign(new FakeBindable(), { state: 'initialized' });
  channels = new Map<string, FakeBindable & { subscribed: boolean }>();
  unsubscribed: string[] = [];
  disconnected = false;
  constructor(readonly key: string, readonly options: any) { FakePusher.last = this; }
  subscribe(name: string) {
    const ch = Object.assign(new FakeBindable(), { subscribed: false });
    this.channels.set(name, ch);
    return ch;
  }
  unsubscribe(name: string) { this.unsubscribed.push(name); }
  disconnect() { this.disconnected = true; }
  state(current: string) { this.connection.fire('state_change', { previous: '', current }); }
}

function pusherTransport(config: any = { app_key: 'key', cluster: 'eu', ws_host: '127.0.0.1', ws_port: 6001, force_tls: false }) {
  const api = createFakeFetch();
  const { logger } = createRecordingLogger();
  const t = createPusherTransport({
    config, baseUrl: 'http://api.test/v1', token: 'tok', fetch: api.fetch, logger,
    authParams: { app: 'storey' }, loadPusher: async () => FakePusher as any,
  });
  return { api, t };
}

describe('pusherTransport', () => {
  describe('createPusherTransport', () => {
    it('requires an app key and a cluster', () => {
      expect(() => pusherTransport({ app_key: 'key', cluster: '' })).toThrow('Real-time messaging needs an app key and a cluster option.');
      expect(() => pusherTransport({ app_key: '', cluster: 'eu' })).toThrow('Real-time messaging needs an app key and a cluster option.');
      expect(() => pusherTransport(null)).toThrow(/app key and a cluster/);
    });
  });

  describe('connect', () => {
    it('connects pusher-js to the self-hosted endpoint and resolves once connected', async () => {
      const { t } = pusherTransport();
      const states: string[] = [];
      t.onStateChange((s) => states.push(s));
      const connecting = t.connect();
      await Promise.resolve(); await Promise.resolve();
      expect(FakePusher.last.key).toBe('key');
      expect(FakePusher.last.options).toMatchObject({ cluster: 'eu', wsHost: '127.0.0.1', wsPort: 6001, forceTLS: false, enabledTransports: ['ws'] });
      FakePusher.last.state('connecting');
      FakePusher.last.state('connected');
      await connecting;
      FakePusher.last.state('unavailable');
      FakePusher.last.state('connecting');
      expect(states).toEqual(['connecting', 'connected', 'unavailable', 'disconnected', 'connecting']);
    });

    it('rejects when pusher-js reports the service unavailable', async () => {
      const { t } = pusherTransport();
      const connecting = t.connect();
      await Promise.resolve(); await Promise.resolve();
      FakePusher.last.state('unavailable');
      await expect(connecting).rejects.toThrow('Pusher connection unavailable');
    });
  });

  describe('channel authorization', () => {
    it('posts socket_id, channel_name and extra params to /pusher/auth with the bearer token', async () => {
      const { api, t } = pusherTransport();
      api.on('POST', '/v1/pusher/auth', () => ({ body: { auth: 'key:signature' } }));
      const connecting = t.connect();
      await Promise.resolve(); await Promise.resolve();
      FakePusher.last.state('connected');
      await connecting;
      const handler = FakePusher.last.options.channelAuthorization.customHandler;
      const result = await new Promise((resolve) => handler({ socketId: '1.2', channelName: 'private-eb-changes-1' }, (error: unknown, data: unknown) => resolve({ error, data })));
      expect(result).toEqual({ error: null, data: { auth: 'key:signature' } });
      expect(api.calls[0]!.headers.authorization).toBe('Bearer tok');
      expect(new URLSearchParams(String(api.calls[0]!.body))).toEqual(new URLSearchParams({ app: 'storey', socket_id: '1.2', channel_name: 'private-eb-changes-1' }));
      api.on('POST', '/v1/pusher/auth', () => ({ status: 403, body: { message: 'no' } }));
      const refused = await new Promise<any>((resolve) => handler({ socketId: '1.2', channelName: 'private-eb-changes-2' }, (error: unknown) => resolve(error)));
      expect(refused.message).toBe('Channel authorization refused (403)');
    });
  });

  describe('subscribe', () => {
    it('resolves on subscription_succeeded and passes payloads of the changes event with their scope', async () => {
      const { t } = pusherTransport();
      const got: unknown[] = [];
      t.onMessage((scope, payload) => got.push([scope, payload]));
      const connecting = t.connect();
      await Promise.resolve(); await Promise.resolve();
      FakePusher.last.state('connected');
      await connecting;
      const subscribing = t.subscribe(LOC);
      const channel = FakePusher.last.channels.get('private-eb-changes-1-10')!;
      channel.fire('pusher:subscription_succeeded');
      await subscribing;
      channel.fire('changes', 'eJwrSS0u0c0tAQAKhwLI');
      expect(got).toEqual([[LOC, 'eJwrSS0u0c0tAQAKhwLI']]);
      const refused = t.subscribe(ORG);
      FakePusher.last.channels.get('private-eb-changes-1')!.fire('pusher:subscription_error', { status: 403 });
      await expect(refused).rejects.toThrow('Subscription to private-eb-changes-1 refused: {"status":403}');
    });

    it('settles a subscription still waiting for the service when its scope is unsubscribed or the transport closes', async () => {
      const { t } = pusherTransport();
      const connecting = t.connect();
      await Promise.resolve(); await Promise.resolve();
      FakePusher.last.state('connected');
      await connecting;
      const dropped = t.subscribe(LOC);
      await t.unsubscribe(LOC);
      await expect(dropped).rejects.toThrow('Subscription to private-eb-changes-1-10 was cancelled before it was confirmed');
      const closed = t.subscribe(ORG);
      await t.disconnect();
      await expect(closed).rejects.toMatchObject({ name: 'SubscriptionCancelledError' });
    });
  });
});

class FakeMqttClient extends EventEmitter {
  subscriptions: Array<[string, unknown]> = [];
  ended = false;
  grantQos = 1;
  constructor(readonly url: string, readonly options: any) { super(); }
  async subscribeAsync(filter: string, opts: unknown) { this.subscriptions.push([filter, opts]); return [{ topic: filter, qos: this.grantQos }]; }
  async unsubscribeAsync() { return undefined; }
  async endAsync() { this.ended = true; }
  end() { this.ended = true; return this; }
}

function mqttTransport(config: any = { url: 'ws://127.0.0.1:9001', username: 'u7', password: 'pw' }) {
  let client!: FakeMqttClient;
  const { logger } = createRecordingLogger();
  const t = createMqttTransport({ config, logger, loadMqtt: async () => ((url: string, options: unknown) => (client = new FakeMqttClient(url, options))) as any });
  return { t, client: () => client };
}

describe('mqttTransport', () => {
  describe('mqttClientOptions', () => {
    it('uses protocol version 5, keepalive 30 s, reconnect period 2 s and connect timeout 15 s', () => {
      expect(mqttClientOptions({ username: 'u', password: 'p' })).toEqual({
        protocolVersion: 5, keepalive: 30, reconnectPeriod: 2000, connectTimeout: 15000, clean: true, username: 'u', password: 'p',
      });
    });
  });

  describe('mqttBrokerUrl', () => {
    it('takes url, else mqtt_url, else wss on the hostname, else fails clearly', () => {
      expect(mqttBrokerUrl({ url: 'ws://a', hostname: 'b' })).toBe('ws://a');
      expect(mqttBrokerUrl({ mqtt_url: 'mqtt://c' } as any)).toBe('mqtt://c');
      expect(mqttBrokerUrl({ hostname: 'broker.example.com' })).toBe('wss://broker.example.com/mqtt');
      expect(() => mqttBrokerUrl({})).toThrow('Message-queue settings need a url or a hostname.');
    });
  });

  describe('connect and subscribe', () => {
    it('subscribes to eb/changes/{org}/{location}/# and routes messages to their scope', async () => {
      const { t, client } = mqttTransport();
      const got: unknown[] = [];
      t.onMessage((scope, payload) => got.push([scope, payload]));
      const connecting = t.connect();
      await Promise.resolve(); await Promise.resolve();
      expect(client().url).toBe('ws://127.0.0.1:9001');
      expect(client().options).toMatchObject({ protocolVersion: 5, username: 'u7', password: 'pw' });
      client().emit('connect');
      await connecting;
      await t.subscribe(LOC);
      await t.subscribe(ORG);
      expect(client().subscriptions.map(([f]) => f)).toEqual(['eb/changes/1/10/#', 'eb/changes/1/_org/#']);
      client().emit('message', 'eb/changes/1/10/changes', Buffer.from('abc='));
      client().emit('message', 'eb/changes/1/_org/changes', Buffer.from('def='));
      expect(got).toEqual([[LOC, 'abc='], [ORG, 'def=']]);
    });

    it('settles a subscription still waiting for its SUBACK when the scope is unsubscribed or the transport closes, and routes nothing to it', async () => {
      const { t, client } = mqttTransport();
      const connecting = t.connect();
      await Promise.resolve(); await Promise.resolve();
      client().emit('connect');
      await connecting;
      let answer!: (granted: Array<{ topic: string; qos: number }>) => void;
      client().subscribeAsync = () => new Promise((resolve) => { answer = resolve; });
      const got: unknown[] = [];
      t.onMessage((scope) => got.push(scope));
      const dropped = t.subscribe(LOC);
      await t.unsubscribe(LOC);
      await expect(dropped).rejects.toMatchObject({ name: 'SubscriptionCancelledError' });
      // the late SUBACK does not bring the dropped scope back
      answer([{ topic: 'eb/changes/1/10/#', qos: 1 }]);
      await Promise.resolve();
      client().emit('message', 'eb/changes/1/10/changes', Buffer.from('abc='));
      expect(got).toEqual([]);
      const closed = t.subscribe(ORG);
      await t.disconnect();
      await expect(closed).rejects.toMatchObject({ name: 'SubscriptionCancelledError' });
    });

    it('rejects a subscription the broker refuses', async () => {
      const { t, client } = mqttTransport();
      const connecting = t.connect();
      await Promise.resolve(); await Promise.resolve();
      client().emit('connect');
      await connecting;
      client().grantQos = 135;
      await expect(t.subscribe(LOC)).rejects.toThrow('Subscription to eb/changes/1/10/# refused (reason 135)');
    });

    it('rejects when the first connection fails, and reports a later loss as disconnected once', async () => {
      const failing = mqttTransport();
      const attempt = failing.t.connect();
      await Promise.resolve(); await Promise.resolve();
      failing.client().emit('error', new Error('Connection refused: Not authorized'));
      await expect(attempt).rejects.toThrow('Not authorized');
      expect(failing.client().ended).toBe(true);

      const { t, client } = mqttTransport();
      const states: string[] = [];
      t.onStateChange((s) => states.push(s));
      const connecting = t.connect();
      await Promise.resolve(); await Promise.resolve();
      client().emit('connect');
      await connecting;
      client().emit('offline');
      client().emit('close');
      client().emit('reconnect');
      client().emit('close');
      expect(states).toEqual(['connected', 'offline', 'closed', 'disconnected', 'reconnecting', 'closed']);
    });
  });
});

describe('createTransport', () => {
  const base = { user: { id: '7' }, permissions: [], cdn_base_url: null } as unknown as Settings;
  const context = { baseUrl: 'http://api.test/v1', token: 't', fetch: createFakeFetch().fetch, logger: createRecordingLogger().logger };
  it('chooses MQTT when mqtt_config is present, else Pusher, else fails clearly', () => {
    expect(createTransport({ ...base, mqtt_config: { url: 'ws://x' } }, context).name).toBe('mqtt');
    expect(createTransport({ ...base, pusher_config: { app_key: 'k', cluster: 'eu' } }, context).name).toBe('pusher');
    expect(() => createTransport(base, context)).toThrow('Settings carry neither pusher_config nor mqtt_config.');
  });
});
