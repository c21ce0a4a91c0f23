// A regular user's and an edit user's live clients as the security tests
// play them: pusher-js joining channels through /pusher/auth, mqtt.js
// subscribing with the per-session credentials of /v2/settings, every packet
// kept decoded, so a test can say what an account heard and what it did not.

import mqtt, { type MqttClient } from 'mqtt';
import Pusher from 'pusher-js';
import { expect } from 'vitest';
import { MQTT_PROTOCOL_VERSION } from '../../../src/shared/constants.js';
import { mqttTopicFilter, PUSHER_EVENT, pusherChannel, type LiveChange, type LivePacket, type StreamScope } from '../../../src/shared/protocol.js';
import type { Settings } from '../../../src/shared/types.js';
import { decodePacket } from '../../../server/live/packetCodec.js';
import type { TestServer } from '../../helpers/server.js';

export const NOT_AUTHORIZED = 135;
/** long enough for a packet published now to have arrived on loopback */
export const settle = () => new Promise((r) => setTimeout(r, 300));

/** Everything one account's live client received, decoded. */
export interface Ear {
  packets: LivePacket[];
  changes(): LiveChange[];
  close(): Promise<void>;
}

function ear(): Ear & { hear(payload: string): void; closers: Array<() => Promise<void>> } {
  const packets: LivePacket[] = [];
  const closers: Array<() => Promise<void>> = [];
  return {
    packets,
    closers,
    hear(payload) { packets.push(decodePacket(payload)); },
    changes: () => packets.flatMap((p) => p.changes),
    async close() { for (const c of closers) await c(); },
  };
}

export async function settingsOf(t: TestServer, token: string): Promise<Settings> {
  const res = await fetch(`${t.url}/v2/settings`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as Settings;
}

/**
 * A pusher-js client of `token` joining `scopes`; every event of every
 * channel is kept (bind_global). Resolves with the channels the server refused.
 */
export async function listenPusher(t: TestServer, token: string, scopes: StreamScope[]): Promise<Ear & { refused: string[] }> {
  const pc = (await settingsOf(t, token)).pusher_config!;
  const client = new Pusher(pc.app_key, {
    cluster: pc.cluster, wsHost: pc.ws_host, wsPort: pc.ws_port, forceTLS: false, enabledTransports: ['ws'],
    channelAuthorization: { endpoint: `${t.baseUrl}/pusher/auth`, transport: 'ajax', headers: { Authorization: `Bearer ${token}` } },
  });
  const out = ear();
  out.closers.push(async () => { client.disconnect(); });
  client.bind_global((event: string, data: unknown) => { if (event === PUSHER_EVENT && typeof data === 'string') out.hear(data); });
  const refused: string[] = [];
  await Promise.all(scopes.map((scope) => new Promise<void>((resolve) => {
    const channel = client.subscribe(pusherChannel(scope));
    channel.bind('pusher:subscription_succeeded', () => resolve());
    channel.bind('pusher:subscription_error', () => { refused.push(pusherChannel(scope)); resolve(); });
  })));
  return { ...out, refused };
}

/** An mqtt.js client of `token` subscribing `filters`; resolves with the granted QoS (or reason code) of each. */
export async function listenMqtt(t: TestServer, token: string, filters: string[]): Promise<Ear & { granted: number[] }> {
  const config = (await settingsOf(t, token)).mqtt_config!;
  const client: MqttClient = await mqtt.connectAsync(config.mqtt_url!, {
    protocolVersion: MQTT_PROTOCOL_VERSION, username: config.username, password: config.password, clientId: config.client_id, reconnectPeriod: 0,
  });
  const out = ear();
  out.closers.push(async () => { await client.endAsync(true); });
  client.on('message', (_topic, payload) => out.hear(payload.toString()));
  const granted: number[] = [];
  for (const filter of filters) {
    const answer = await client.subscribeAsync(filter, { qos: 1 })
      .then((g) => g.map((x) => x.qos), (err: { packet?: { granted?: number[] } }) => err.packet?.granted ?? [-1]);
    granted.push(...answer);
  }
  return { ...out, granted };
}

/**
 * The two live clients of the edit-visibility tests on `transport`: the regular user ("attacker") on every
 * channel or topic of the organization it may join, and the edit user on the organization's and the location's
 * edit audiences. Close both after.
 */
export async function listenAsRegularAndEditor(
  t: TestServer, tokens: { regular: string; edit: string }, transport: 'pusher' | 'mqtt', org: string, loc: string,
): Promise<{ attacker: Ear; editor: Ear }> {
  const scope = (s: Partial<StreamScope>) => ({ organizationId: org, ...s }) as StreamScope;
  const s = {
    shared: scope({ kind: 'organization' }),
    edit: scope({ kind: 'organization', audience: 'edit' }),
    location: scope({ kind: 'location', locationId: loc }),
    locationEdit: scope({ kind: 'location', locationId: loc, audience: 'edit' }),
  };
  if (transport === 'pusher') {
    return { attacker: await listenPusher(t, tokens.regular, [s.shared, s.location]), editor: await listenPusher(t, tokens.edit, [s.edit, s.locationEdit]) };
  }
  // the widest filter the account may use
  return {
    attacker: await listenMqtt(t, tokens.regular, [`eb/changes/${org}/#`]),
    editor: await listenMqtt(t, tokens.edit, [mqttTopicFilter(s.edit), mqttTopicFilter(s.locationEdit)]),
  };
}
