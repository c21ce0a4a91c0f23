import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MQTT_PROTOCOL_VERSION } from '../../src/shared/constants.js';
import { STREAM_ID_HEADER, STREAM_SEQUENCE_HEADER, mqttTopicFilter, type LivePacket } from '../../src/shared/protocol.js';
import { restPaths, type WireAsset } from '../../src/shared/rest.js';
import type { Settings } from '../../src/shared/types.js';
import { decodePacket } from '../../server/live/packetCodec.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const NOT_AUTHORIZED = 135;
const until = async (cond: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};
/** SUBACK reason codes, whether mqtt.js resolves or rejects */
const suback = (client: MqttClient, filter: string) =>
  client.subscribeAsync(filter, { qos: 1 }).then(
    (granted) => granted.map((g) => g.qos),
    (err: { packet?: { granted?: number[] } }) => err.packet?.granted ?? [-1],
  );

describe('live over MQTT v5 (Mosquitto)', () => {
  let t: TestServer;
  let edit: string;
  let settings: Settings;
  const clients: MqttClient[] = [];
  const connect = async (url: string, s: Settings = settings) => {
    const client = await mqtt.connectAsync(url, {
      protocolVersion: MQTT_PROTOCOL_VERSION, username: s.mqtt_config!.username, password: s.mqtt_config!.password,
      clientId: s.mqtt_config!.client_id, reconnectPeriod: 0,
    });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    t = await startTestServer({ transport: 'mqtt' });
    edit = await t.signIn('edit');
    settings = (await (await fetch(`${t.url}/v2/settings`, { headers: { authorization: `Bearer ${edit}` } })).json()) as Settings;
  }, 30_000);
  afterAll(async () => {
    for (const c of clients) await c.endAsync(true);
    await t?.close();
  });

  it('gives each session its own broker credentials, bound to a client id, in mqtt_config', async () => {
    expect(settings.pusher_config).toBeUndefined();
    expect(settings.mqtt_config).toMatchObject({
      url: expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+$/), mqtt_url: expect.stringMatching(/^mqtt:\/\/127\.0\.0\.1:\d+$/),
      username: expect.stringMatching(new RegExp(`^u${t.accounts.edit.userId}-[0-9a-f]{12}$`)),
    });
    expect(settings.mqtt_config!.client_id).toBe(settings.mqtt_config!.username);
    const regular = await t.signIn('regular');
    const theirs = (await (await fetch(`${t.url}/v2/settings`, { headers: { authorization: `Bearer ${regular}` } })).json()) as Settings;
    expect(theirs.mqtt_config!.username).not.toBe(settings.mqtt_config!.username);
    await expect(mqtt.connectAsync(settings.mqtt_config!.mqtt_url!, { protocolVersion: 5, username: settings.mqtt_config!.username, password: 'wrong', reconnectPeriod: 0 })).rejects.toThrow();
  });

  it('delivers decodable packets with contiguous sequences after a change made through the API', async () => {
    const org = t.accounts.edit.organizationId;
    const loc = t.server.seed.locationIds[0]!;
    const client = await connect(settings.mqtt_config!.mqtt_url!);
    const packets: LivePacket[] = [];
    client.on('message', (_topic, payload) => packets.push(decodePacket(payload.toString())));
    // an edit user's loads report the edit stream, which they follow
    expect(await suback(client, mqttTopicFilter({ kind: 'location', organizationId: org, locationId: loc, audience: 'edit' }))).toEqual([1]);
    const load = await t.api(restPaths.assets(org, loc), { token: edit });
    const position = Number(load.headers.get(STREAM_SEQUENCE_HEADER));
    const floor = ((await load.json()) as WireAsset[]).find((a) => a.type === 'floor')!;
    const created = (await (await t.api(restPaths.assets(org, loc), { method: 'POST', token: edit, json: { type: 'shape', name: 'MQTT desk', parent_id: floor.id } })).json()) as WireAsset;
    await t.api(restPaths.asset(org, loc, created.id), { method: 'PATCH', token: edit, json: { x: 4 } });
    const sensor = [...t.server.store.sensors.values()].find((x) => x.location_id === loc && x.type === 'occupancy')!;
    await fetch(`${t.url}/v2/measurements`, {
      method: 'POST', headers: { authorization: `Bearer ${edit}`, 'content-type': 'application/json' },
      body: JSON.stringify({ measurements: [{ sensor_id: sensor.id, value: { time: Date.now(), valid_for: 60_000, value: 1 } }] }),
    });
    await until(() => packets.length >= 3);
    expect(packets.map((p) => p.stream_sequence)).toEqual([position + 1, position + 2, position + 3]);
    expect(packets.every((p) => p.stream_id === load.headers.get(STREAM_ID_HEADER))).toBe(true);
    expect(packets[2]!.changes[0]!.collection).toBe('measurements');
  });

  it('delivers an unpublished asset to the edit role on _edit, and to a regular user only as deleted, even on a # filter', async () => {
    const org = t.accounts.edit.organizationId;
    const loc = t.server.seed.locationIds[1]!;
    const editScope = { kind: 'location', organizationId: org, locationId: loc, audience: 'edit' } as const;
    expect(mqttTopicFilter(editScope)).toBe(`eb/changes/${org}/${loc}/_edit/#`);
    const editClient = await connect(settings.mqtt_config!.mqtt_url!);
    const editPackets: LivePacket[] = [];
    editClient.on('message', (_topic, payload) => editPackets.push(decodePacket(payload.toString())));
    expect(await suback(editClient, mqttTopicFilter(editScope))).toEqual([1]);

    const regular = await t.signIn('regular');
    const theirs = (await (await fetch(`${t.url}/v2/settings`, { headers: { authorization: `Bearer ${regular}` } })).json()) as Settings;
    const regularClient = await connect(theirs.mqtt_config!.mqtt_url!, theirs);
    const seen: Array<{ topic: string; packet: LivePacket }> = [];
    regularClient.on('message', (topic, payload) => seen.push({ topic, packet: decodePacket(payload.toString()) }));
    expect(await suback(regularClient, mqttTopicFilter(editScope))).toEqual([NOT_AUTHORIZED]);
    // the widest filter the organization's ACL allows; it matches the _edit topics too
    expect(await suback(regularClient, `eb/changes/${org}/#`)).toEqual([1]);

    const editLoad = await t.api(restPaths.assets(org, loc), { token: edit });
    const publicLoad = await t.api(restPaths.assets(org, loc), { token: regular });
    const editPosition = Number(editLoad.headers.get(STREAM_SEQUENCE_HEADER));
    const publicPosition = Number(publicLoad.headers.get(STREAM_SEQUENCE_HEADER));
    const floor = ((await editLoad.json()) as WireAsset[]).find((a) => a.type === 'floor' && !a.hidden && !a.unpublished)!;
    const desk = (await (await t.api(restPaths.assets(org, loc), { method: 'POST', token: edit, json: { type: 'shape', name: 'MQTT hidden desk', parent_id: floor.id } })).json()) as WireAsset;
    await t.api(restPaths.asset(org, loc, desk.id), { method: 'PATCH', token: edit, json: { unpublished: true } });
    await t.api(restPaths.asset(org, loc, desk.id), { method: 'PATCH', token: edit, json: { name: 'MQTT hidden desk 2' } });
    await until(() => editPackets.length >= 3 && seen.filter((m) => m.topic === `eb/changes/${org}/${loc}/changes`).length >= 2);
    await t.server.publisher.flush();
    await new Promise((r) => setTimeout(r, 150));

    expect(editPackets.map((p) => p.stream_sequence)).toEqual([editPosition + 1, editPosition + 2, editPosition + 3]);
    expect(editPackets.every((p) => p.stream_id === editLoad.headers.get(STREAM_ID_HEADER))).toBe(true);
    expect(editPackets[1]!.changes[0]).toMatchObject({ collection: 'assets', kind: 'modified', id: desk.id, data: { unpublished: true } });
    expect(seen.filter((m) => m.topic.includes('/_edit'))).toEqual([]);
    const publicPackets = seen.filter((m) => m.topic === `eb/changes/${org}/${loc}/changes`).map((m) => m.packet);
    expect(publicPackets.map((p) => p.stream_sequence)).toEqual([publicPosition + 1, publicPosition + 2]);
    expect(publicPackets[1]!.changes).toEqual([{ collection: 'assets', kind: 'deleted', id: desk.id }]);
  });

  it('also serves browsers over the websocket listener', async () => {
    const client = await connect(settings.mqtt_config!.url!);
    expect(await suback(client, mqttTopicFilter({ kind: 'organization', organizationId: t.accounts.edit.organizationId }))).toEqual([1]);
    const got: LivePacket[] = [];
    client.on('message', (_topic, payload) => got.push(decodePacket(payload.toString())));
    await t.api(restPaths.organization(t.accounts.edit.organizationId), { method: 'PATCH', token: edit, json: { name: 'Storey Demo' } });
    await until(() => got.length >= 1);
    expect(got[0]!.changes[0]).toMatchObject({ collection: 'organizations', kind: 'modified' });
  });

  it('refuses subscriptions to another organization, to wildcards above it and to another user’s topics', async () => {
    const client = await connect(settings.mqtt_config!.mqtt_url!);
    const leaked: string[] = [];
    client.on('message', (topic) => leaked.push(topic));
    const otherOrg = t.accounts.otherOrg.organizationId;
    expect(await suback(client, mqttTopicFilter({ kind: 'location', organizationId: otherOrg, locationId: t.server.seed.otherLocationId }))).toEqual([NOT_AUTHORIZED]);
    expect(await suback(client, `eb/changes/${otherOrg}/#`)).toEqual([NOT_AUTHORIZED]);
    expect(await suback(client, 'eb/#')).toEqual([NOT_AUTHORIZED]);
    expect(await suback(client, '#')).toEqual([NOT_AUTHORIZED]);
    expect(await suback(client, mqttTopicFilter({ kind: 'user', userId: t.accounts.regular.userId }))).toEqual([NOT_AUTHORIZED]);
    t.server.store.updateOrganization(otherOrg, { name: 'Other Corp' });
    await t.server.publisher.flush();
    await new Promise((r) => setTimeout(r, 150));
    expect(leaked).toEqual([]);
  });

  it('lets the other organization’s user read only their own organization', async () => {
    const token = await t.signIn('otherOrg');
    const theirs = (await (await fetch(`${t.url}/v2/settings`, { headers: { authorization: `Bearer ${token}` } })).json()) as Settings;
    const client = await connect(theirs.mqtt_config!.mqtt_url!, theirs);
    expect(await suback(client, mqttTopicFilter({ kind: 'organization', organizationId: t.accounts.otherOrg.organizationId }))).toEqual([1]);
    expect(await suback(client, mqttTopicFilter({ kind: 'organization', organizationId: t.accounts.edit.organizationId }))).toEqual([NOT_AUTHORIZED]);
  });
});

describe('live over an external MQTT broker', () => {
  it('provisions users again after a server restart against the same broker', async () => {
    const { startMosquitto } = await import('../../server/live/mosquitto.js');
    const broker = await startMosquitto();
    const external = { url: broker.mqttUrl, wsUrl: broker.wsUrl, username: broker.adminUsername, password: broker.adminPassword, dynsec: true };
    try {
      for (let run = 0; run < 2; run += 1) {
        const t = await startTestServer({ transport: 'mqtt', mqtt: external });
        try {
          const token = await t.signIn('regular');
          const s = (await (await fetch(`${t.url}/v2/settings`, { headers: { authorization: `Bearer ${token}` } })).json()) as Settings;
          expect(s.mqtt_config!.url).toBe(broker.wsUrl);
          const client = await mqtt.connectAsync(s.mqtt_config!.mqtt_url!, {
            protocolVersion: 5, username: s.mqtt_config!.username, password: s.mqtt_config!.password, clientId: s.mqtt_config!.client_id, reconnectPeriod: 0,
          });
          expect(await suback(client, mqttTopicFilter({ kind: 'user', userId: t.accounts.regular.userId }))).toEqual([1]);
          expect(await suback(client, mqttTopicFilter({ kind: 'organization', organizationId: t.accounts.otherOrg.organizationId }))).toEqual([NOT_AUTHORIZED]);
          await client.endAsync(true);
        } finally {
          await t.close();
        }
      }
    } finally {
      await broker.close();
    }
  }, 30_000);
});
