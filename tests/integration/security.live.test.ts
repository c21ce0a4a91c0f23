// The live channels played by an attacker with a raw client instead of the
// engine: mqtt.js against the real Mosquitto with a regular user's own
// per-session credentials, and a raw WebSocket against our Pusher endpoint
// with signatures the attacker got from /pusher/auth for what it may follow.
// The attacker tries to hear what it may not (other organizations, other
// users, the edit audience, through wildcards and shared subscriptions), to
// speak where only the server speaks (forged packets on the streams viewers
// trust, a will message, a dynamic-security command to raise its own rights,
// Pusher client events), and to reuse a signature for another channel or
// another socket. Each attempt is refused, and the victims' clients, which
// are listening, receive nothing from it.

import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MQTT_PROTOCOL_VERSION } from '../../src/shared/constants.js';
import { PUSHER_EVENT, mqttPublishTopic, mqttTopicFilter, pusherChannel, type LivePacket, type StreamScope } from '../../src/shared/protocol.js';
import { restPaths, type WireAsset } from '../../src/shared/rest.js';
import type { Settings } from '../../src/shared/types.js';
import { decodePacket, encodePacket } from '../../server/live/packetCodec.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { NOT_AUTHORIZED, settingsOf, settle } from './support/listen.js';
import { until } from './support/attack.js';

/** A packet the attacker forges: "the admin's desk was deleted", to every viewer of the location. */
function forgedPacket(id: string): string {
  const packet: LivePacket = { stream_id: 'forged', stream_sequence: 1, changes: [{ collection: 'assets', kind: 'deleted', id }] } as unknown as LivePacket;
  return encodePacket(packet);
}

describe('security: raw MQTT clients against the real Mosquitto', () => {
  let t: TestServer;
  let orgA: string;
  let locA: string;
  let orgB: string;
  let locB: string;
  let attackerToken: string;
  let attacker: MqttClient;
  let attackerSettings: Settings;
  /** what the victims' clients heard: the edit user of A on everything of A, the user of B on everything of B */
  const heard: Array<{ who: string; topic: string; packet: LivePacket | string }> = [];
  const clients: MqttClient[] = [];

  const connect = async (settings: Settings, extra: mqtt.IClientOptions = {}) => {
    const c = settings.mqtt_config!;
    const client = await mqtt.connectAsync(c.mqtt_url!, {
      protocolVersion: MQTT_PROTOCOL_VERSION, username: c.username, password: c.password, clientId: c.client_id, reconnectPeriod: 0, ...extra,
    });
    clients.push(client);
    return client;
  };
  const suback = (client: MqttClient, filter: string) => client.subscribeAsync(filter, { qos: 1 }).then(
    (granted) => granted.map((g) => g.qos)[0],
    (err: { packet?: { granted?: number[] } }) => err.packet?.granted?.[0] ?? -1,
  );
  /** the PUBACK reason code of a QoS 1 publish (0: accepted) */
  const puback = (client: MqttClient, topic: string, payload: string, retain = false) => client.publishAsync(topic, payload, { qos: 1, retain }).then(
    (packet) => (packet as { reasonCode?: number } | undefined)?.reasonCode ?? 0,
    (err: { code?: number }) => err.code ?? -1,
  );
  const listen = async (who: string, token: string, filters: string[]) => {
    const client = await connect(await settingsOf(t, token));
    client.on('message', (topic, payload) => {
      let packet: LivePacket | string;
      try { packet = decodePacket(payload.toString()); } catch { packet = payload.toString(); }
      heard.push({ who, topic, packet });
    });
    for (const f of filters) expect(await suback(client, f), `${who} ${f}`).toBe(1);
    return client;
  };

  beforeAll(async () => {
    t = await startTestServer({ transport: 'mqtt' });
    orgA = t.server.seed.organizationId;
    locA = t.server.seed.locationIds[0]!;
    orgB = t.server.seed.otherOrganizationId;
    locB = t.server.seed.otherLocationId;
    const tokens = await t.signInAll();
    attackerToken = tokens.regular;
    attackerSettings = await settingsOf(t, attackerToken);
    attacker = await connect(attackerSettings);
    await listen('editor of A', tokens.edit, [`eb/changes/${orgA}/#`, mqttTopicFilter({ kind: 'user', userId: t.accounts.edit.userId })]);
    await listen('user of B', tokens.otherOrg, [`eb/changes/${orgB}/#`]);
  }, 60_000);
  afterAll(async () => {
    for (const c of clients) await c.endAsync(true).catch(() => undefined);
    await t?.close();
  });

  it('refuses every subscription outside the attacker’s organization, its own user topics and the edit audience', async () => {
    const user = (id: string) => mqttTopicFilter({ kind: 'user', userId: id });
    const refused = [
      `eb/changes/${orgB}/${locB}/changes`,
      `eb/changes/${orgB}/_org/#`,
      'eb/changes/+/#',
      `eb/changes/+/${locB}/changes`,
      'eb/changes/#',
      '+/changes/#',
      '+/+/+/+/+',
      `$share/attackers/eb/changes/${orgB}/#`,
      '$share/attackers/eb/#',
      'eb/users/+/#',
      user(t.accounts.admin.userId),
      user(t.accounts.otherOrg.userId),
      mqttTopicFilter({ kind: 'location', organizationId: orgA, locationId: locA, audience: 'edit' }),
      mqttTopicFilter({ kind: 'organization', organizationId: orgA, audience: 'edit' }),
      `eb/changes/${orgA}/+/_edit/#`,
      '$CONTROL/#',
      '$CONTROL/dynamic-security/v1/response',
      '$SYS/#',
    ];
    const answers = Object.fromEntries(await Promise.all(refused.map(async (f) => [f, await suback(attacker, f)] as const)));
    expect(answers).toEqual(Object.fromEntries(refused.map((f) => [f, NOT_AUTHORIZED])));
    // its own organization and user: granted (the control)
    expect(await suback(attacker, `eb/changes/${orgA}/#`)).toBe(1);
    expect(await suback(attacker, user(t.accounts.regular.userId))).toBe(1);
  });

  it('delivers nothing of the edit audience to a wildcard the attacker may hold, while the editor hears it', async () => {
    const got: string[] = [];
    const listener = (topic: string) => got.push(topic);
    attacker.on('message', listener);
    expect(await suback(attacker, `eb/changes/${orgA}/+/+/changes`)).toBe(1);
    const desk = [...t.server.store.assets.values()].find((a) => a.location_id === locA && a.subtype === 'desk' && t.server.store.isAssetPublic(a))!;
    const editToken = await t.signIn('edit');
    const hidden = (await (await t.api(restPaths.assets(orgA, locA), {
      method: 'POST', token: editToken, json: { type: 'shape', subtype: 'desk', name: 'Secret desk', parent_id: desk.parent_id, unpublished: true },
    })).json()) as WireAsset;
    await t.server.publisher.flush();
    await until(() => heard.some((h) => h.topic.includes('/_edit/') && JSON.stringify(h.packet).includes(hidden.id)), 'the editor to hear the hidden desk');
    await settle();
    attacker.off('message', listener);
    expect(got.filter((topic) => topic.includes('/_edit'))).toEqual([]);
  });

  it('lets the attacker publish nowhere: forged packets, retained messages and dynamic-security commands are refused and reach nobody', async () => {
    const before = heard.length;
    const desk = [...t.server.store.assets.values()].find((a) => a.location_id === locA && a.subtype === 'desk')!;
    const targets = [
      mqttPublishTopic({ kind: 'location', organizationId: orgA, locationId: locA }),
      mqttPublishTopic({ kind: 'location', organizationId: orgA, locationId: locA, audience: 'edit' }),
      mqttPublishTopic({ kind: 'organization', organizationId: orgA }),
      mqttPublishTopic({ kind: 'user', userId: t.accounts.edit.userId }),
      mqttPublishTopic({ kind: 'location', organizationId: orgB, locationId: locB }),
    ];
    for (const topic of targets) {
      expect(await puback(attacker, topic, forgedPacket(desk.id)), topic).toBe(NOT_AUTHORIZED);
      expect(await puback(attacker, topic, forgedPacket(desk.id), true), `${topic} retained`).toBe(NOT_AUTHORIZED);
    }
    // raise its own rights through the broker's admin API: give its client the all-organizations role
    const escalate = JSON.stringify({ commands: [
      { command: 'addClientRole', username: attackerSettings.mqtt_config!.username, rolename: 'storey-all-organizations' },
      { command: 'createClient', username: `u1-${randomBytes(6).toString('hex')}`, password: 'attacker', roles: [{ rolename: 'storey-all-organizations' }] },
    ] });
    expect(await puback(attacker, '$CONTROL/dynamic-security/v1', escalate)).toBe(NOT_AUTHORIZED);
    await settle();
    expect(heard.slice(before)).toEqual([]);
    // nothing changed: the other organization is still closed to it, on this and on a fresh connection
    expect(await suback(attacker, `eb/changes/${orgB}/#`)).toBe(NOT_AUTHORIZED);
    const fresh = await connect(await settingsOf(t, attackerToken));
    expect(await suback(fresh, `eb/changes/${orgB}/#`)).toBe(NOT_AUTHORIZED);
    // a retained forgery would reach whoever subscribes later: a new subscriber of A hears nothing at once
    const late: string[] = [];
    fresh.on('message', (topic) => late.push(topic));
    expect(await suback(fresh, `eb/changes/${orgA}/#`)).toBe(1);
    await settle();
    expect(late).toEqual([]);
  });

  it('delivers no will message an attacker leaves on a stream when its connection drops', async () => {
    const before = heard.length;
    const desk = [...t.server.store.assets.values()].find((a) => a.location_id === locA && a.subtype === 'desk')!;
    const settings = await settingsOf(t, attackerToken);
    const will = { topic: mqttPublishTopic({ kind: 'location', organizationId: orgA, locationId: locA }), payload: Buffer.from(forgedPacket(desk.id)), qos: 1 as const, retain: true };
    // Mosquitto either refuses the connection or drops the will; either way nobody hears it
    const client = await connect(settings, { will }).catch((err: { code?: number }) => err);
    if ('stream' in (client as object)) (client as MqttClient).stream.destroy();
    else expect((client as { code?: number }).code).toBe(NOT_AUTHORIZED);
    await settle();
    await settle();
    expect(heard.slice(before)).toEqual([]);
  });
});

describe('security: raw WebSockets against our Pusher endpoint', () => {
  let t: TestServer;
  let orgA: string;
  let locA: string;
  let orgB: string;
  let attackerToken: string;
  let pc: NonNullable<Settings['pusher_config']>;
  const sockets: WebSocket[] = [];

  interface RawSocket { id: string; frames: Array<{ event: string; channel?: string; data: unknown }>; ws: WebSocket }
  const open = async (): Promise<RawSocket> => {
    const ws = new WebSocket(`ws://${pc.ws_host}:${pc.ws_port}/app/${pc.app_key}?protocol=7&client=raw`);
    sockets.push(ws);
    const frames: RawSocket['frames'] = [];
    ws.on('message', (m) => frames.push(JSON.parse(m.toString()) as RawSocket['frames'][number]));
    await until(() => frames.length > 0, 'the connection');
    return { id: (JSON.parse(frames[0]!.data as string) as { socket_id: string }).socket_id, frames, ws };
  };
  /** a genuine signature from /pusher/auth for a channel the attacker may follow */
  const authFor = async (socketId: string, channel: string, token = attackerToken) => {
    const res = await t.api(restPaths.pusherAuth(), { method: 'POST', token, json: { socket_id: socketId, channel_name: channel } });
    expect(res.status, channel).toBe(200);
    return ((await res.json()) as { auth: string }).auth;
  };
  /** sends a subscribe and waits for its answer */
  const subscribe = async (s: RawSocket, channel: string, auth?: string) => {
    const from = s.frames.length;
    s.ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel, ...(auth ? { auth } : {}) } }));
    s.ws.send(JSON.stringify({ event: 'pusher:ping', data: {} }));
    await until(() => s.frames.slice(from).some((f) => f.event === 'pusher:pong'), 'the answer');
    const answer = s.frames.slice(from).find((f) => f.event !== 'pusher:pong')!;
    return answer.event === 'pusher_internal:subscription_succeeded' ? 'ok' : 'refused';
  };
  const events = (s: RawSocket) => s.frames.filter((f) => f.event === PUSHER_EVENT || f.event.startsWith('client-'));
  const channelOf = (scope: StreamScope) => pusherChannel(scope);

  beforeAll(async () => {
    t = await startTestServer();
    orgA = t.server.seed.organizationId;
    locA = t.server.seed.locationIds[0]!;
    orgB = t.server.seed.otherOrganizationId;
    attackerToken = await t.signIn('regular');
    pc = (await settingsOf(t, attackerToken)).pusher_config!;
  });
  afterAll(async () => {
    for (const ws of sockets) ws.close();
    await t?.close();
  });

  it('refuses a signature replayed for another channel, or on another socket, and delivers nothing there', async () => {
    const s = await open();
    const own = channelOf({ kind: 'organization', organizationId: orgA });
    const auth = await authFor(s.id, own);
    const targets = [
      channelOf({ kind: 'organization', organizationId: orgB }),
      channelOf({ kind: 'organization', organizationId: orgA, audience: 'edit' }),
      channelOf({ kind: 'location', organizationId: orgA, locationId: locA, audience: 'edit' }),
      channelOf({ kind: 'user', userId: t.accounts.admin.userId }),
    ];
    for (const channel of targets) expect(await subscribe(s, channel, auth), channel).toBe('refused');
    // the same signature on another socket, for the very channel it was made for
    const other = await open();
    expect(await subscribe(other, own, auth)).toBe('refused');
    // a signature of the attacker's own user channel does not open the admin's
    const mine = channelOf({ kind: 'user', userId: t.accounts.regular.userId });
    expect(await subscribe(s, channelOf({ kind: 'user', userId: t.accounts.admin.userId }), await authFor(s.id, mine))).toBe('refused');
    // what was signed works (the control)
    expect(await subscribe(s, own, auth)).toBe('ok');

    // changes on the refused channels reach neither socket
    t.server.store.updateOrganization(orgB, { name: 'Other Corp renamed' });
    t.server.store.createNotification({ user_id: t.accounts.admin.userId, title: 'For the admin', body: 'x', level: 'info', link: null, created: Date.now(), read: false });
    const desk = [...t.server.store.assets.values()].find((a) => a.location_id === locA && a.subtype === 'desk' && t.server.store.isAssetPublic(a))!;
    t.server.store.updateAsset(desk.id, { unpublished: true });
    t.server.store.updateOrganization(orgA, { name: 'Storey Demo' });
    await t.server.publisher.flush();
    await until(() => events(s).length > 0, 'the own organization change (control)');
    await settle();
    expect(events(s).map((f) => f.channel)).toEqual([own]);
    expect(events(other)).toEqual([]);
  });

  it('sends no client event on to the other subscribers, and never delivers on unsigned or presence channels', async () => {
    const victimToken = await t.signIn('edit');
    const victim = await open();
    const channel = channelOf({ kind: 'location', organizationId: orgA, locationId: locA });
    expect(await subscribe(victim, channel, await authFor(victim.id, channel, victimToken))).toBe('ok');
    const s = await open();
    expect(await subscribe(s, channel, await authFor(s.id, channel))).toBe('ok');
    const desk = [...t.server.store.assets.values()].find((a) => a.location_id === locA && a.subtype === 'desk' && t.server.store.isAssetPublic(a))!;
    s.ws.send(JSON.stringify({ event: 'client-changes', channel, data: forgedPacket(desk.id) }));
    s.ws.send(JSON.stringify({ event: PUSHER_EVENT, channel, data: forgedPacket(desk.id) }));
    s.ws.send(JSON.stringify({ event: 'pusher:ping', data: {} }));
    await until(() => s.frames.filter((f) => f.event === 'pusher:error').length >= 2, 'the refusals');
    expect(s.frames.filter((f) => f.event === 'pusher:error').map((f) => (f.data as { message: string }).message)).toEqual(['Client events are not enabled', 'Client events are not enabled']);
    // the same stream without its prefix is no way around the signature: refused, and nothing is ever sent there
    const bare = channel.replace(/^private-/, '');
    const unsigned = await open();
    expect(await subscribe(unsigned, bare)).toBe('refused');
    expect(await subscribe(unsigned, `presence-${bare}`, `${pc.app_key}:${'0'.repeat(64)}`)).toBe('refused');
    await t.api(restPaths.asset(orgA, locA, desk.id), { method: 'PATCH', token: victimToken, json: { name: 'Touched' } });
    await t.server.publisher.flush();
    await until(() => events(victim).length > 0, 'the victim to hear the genuine change');
    await settle();
    expect(events(victim).every((f) => f.event === PUSHER_EVENT && typeof f.data === 'string' && decodePacket(f.data).stream_id !== 'forged')).toBe(true);
    expect(events(unsigned)).toEqual([]);
  });

  it('keeps no subscription to a channel without a signature, so one socket cannot fill the server with channel names', async () => {
    // the app key is no secret (every signed-in user gets it); the socket needs no token
    const s = await open();
    const names = Array.from({ length: 2_000 }, (_, i) => `flood-${i}-${'x'.repeat(140)}`);
    for (const channel of names) s.ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel } }));
    s.ws.send(JSON.stringify({ event: 'pusher:ping', data: {} }));
    await until(() => s.frames.some((f) => f.event === 'pusher:pong'), 'the answers');
    expect(s.frames.filter((f) => f.event === 'pusher_internal:subscription_succeeded')).toEqual([]);
    expect(s.frames.filter((f) => f.event === 'pusher:error').length).toBe(names.length);
    expect(names.reduce((sum, channel) => sum + t.server.pusherServer!.subscribers(channel), 0)).toBe(0);
    // private channels with their signature still work on the same socket (the control)
    const own = channelOf({ kind: 'organization', organizationId: orgA });
    expect(await subscribe(s, own, await authFor(s.id, own))).toBe('ok');
    expect(t.server.pusherServer!.subscribers(own)).toBeGreaterThan(0);
  });
});
