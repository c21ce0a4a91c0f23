import Pusher from 'pusher-js';
import PusherServerSdk from 'pusher';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSHER_MESSAGE_LIMIT_BYTES } from '../../src/shared/constants.js';
import { PUSHER_EVENT, STREAM_ID_HEADER, STREAM_SEQUENCE_HEADER, pusherChannel, type LivePacket } from '../../src/shared/protocol.js';
import { restPaths, type WireAsset } from '../../src/shared/rest.js';
import type { Settings } from '../../src/shared/types.js';
import { decodePacket } from '../../server/live/packetCodec.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const until = async (cond: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('live over the Pusher protocol', () => {
  let t: TestServer;
  let edit: string;
  let settings: Settings;
  const clients: Pusher[] = [];
  const connect = (token: string) => {
    const pc = settings.pusher_config!;
    const client = new Pusher(pc.app_key, {
      cluster: pc.cluster, wsHost: pc.ws_host, wsPort: pc.ws_port, forceTLS: false, enabledTransports: ['ws'],
      channelAuthorization: { endpoint: `${t.baseUrl}/pusher/auth`, transport: 'ajax', headers: { Authorization: `Bearer ${token}` } },
    });
    clients.push(client);
    return client;
  };
  const subscribe = (client: Pusher, channel: string) => new Promise<{ ok: boolean; status?: number; packets: LivePacket[]; raw: string[] }>((resolve) => {
    const ch = client.subscribe(channel);
    const result = { ok: false, status: undefined as number | undefined, packets: [] as LivePacket[], raw: [] as string[] };
    ch.bind(PUSHER_EVENT, (data: string) => { result.raw.push(data); result.packets.push(decodePacket(data)); });
    ch.bind('pusher:subscription_succeeded', () => { result.ok = true; resolve(result); });
    ch.bind('pusher:subscription_error', (e: { status: number }) => { result.status = e.status; resolve(result); });
  });

  beforeAll(async () => {
    t = await startTestServer();
    edit = await t.signIn('edit');
    settings = (await (await fetch(`${t.url}/v2/settings`, { headers: { authorization: `Bearer ${edit}` } })).json()) as Settings;
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await t?.close();
  });

  it('delivers decodable packets with contiguous sequences after a change made through the API', async () => {
    const org = t.accounts.edit.organizationId;
    const loc = t.server.seed.locationIds[0]!;
    const regular = await t.signIn('regular');
    const sub = await subscribe(connect(regular), pusherChannel({ kind: 'location', organizationId: org, locationId: loc }));
    expect(sub.ok).toBe(true);
    const load = await t.api(restPaths.assets(org, loc), { token: regular });
    const position = Number(load.headers.get(STREAM_SEQUENCE_HEADER));
    const floor = ((await load.json()) as WireAsset[]).find((a) => a.type === 'floor')!;
    const created = await t.api(restPaths.assets(org, loc), { method: 'POST', token: edit, json: { type: 'shape', subtype: 'desk', name: 'Live desk', parent_id: floor.id } });
    const desk = (await created.json()) as WireAsset;
    await t.api(restPaths.asset(org, loc, desk.id), { method: 'PATCH', token: edit, json: { name: 'Live desk 2' } });
    await t.api(restPaths.asset(org, loc, desk.id), { method: 'DELETE', token: edit });
    await until(() => sub.packets.length >= 3);
    expect(sub.packets.map((p) => p.stream_sequence)).toEqual([position + 1, position + 2, position + 3]);
    expect(new Set(sub.packets.map((p) => p.stream_id))).toEqual(new Set([load.headers.get('x-stream-id')]));
    expect(sub.packets.map((p) => p.changes[0]!.kind)).toEqual(['created', 'modified', 'deleted']);
    expect(sub.packets[1]!.changes[0]).toMatchObject({ collection: 'assets', id: desk.id, data: { name: 'Live desk 2' } });
  });

  it('carries an asset an edit user unpublishes to the edit channel as an unpublished modification, and as deleted to the public one', async () => {
    const org = t.accounts.edit.organizationId;
    const loc = t.server.seed.locationIds[0]!;
    const regular = await t.signIn('regular');
    const editSub = await subscribe(connect(edit), pusherChannel({ kind: 'location', organizationId: org, locationId: loc, audience: 'edit' }));
    const publicSub = await subscribe(connect(regular), pusherChannel({ kind: 'location', organizationId: org, locationId: loc }));
    expect([editSub.ok, publicSub.ok]).toEqual([true, true]);
    const editLoad = await t.api(restPaths.assets(org, loc), { token: edit });
    const publicLoad = await t.api(restPaths.assets(org, loc), { token: regular });
    expect(editLoad.headers.get(STREAM_ID_HEADER)).not.toBe(publicLoad.headers.get(STREAM_ID_HEADER));
    const editPosition = Number(editLoad.headers.get(STREAM_SEQUENCE_HEADER));
    const publicPosition = Number(publicLoad.headers.get(STREAM_SEQUENCE_HEADER));
    const floor = ((await editLoad.json()) as WireAsset[]).find((a) => a.type === 'floor' && !a.hidden && !a.unpublished)!;
    const desk = (await (await t.api(restPaths.assets(org, loc), { method: 'POST', token: edit, json: { type: 'shape', subtype: 'desk', name: 'Soon hidden', parent_id: floor.id } })).json()) as WireAsset;
    await t.api(restPaths.asset(org, loc, desk.id), { method: 'PATCH', token: edit, json: { unpublished: true } });
    await t.api(restPaths.asset(org, loc, desk.id), { method: 'PATCH', token: edit, json: { name: 'Still hidden' } });
    await until(() => editSub.packets.length >= 3 && publicSub.packets.length >= 2);
    await t.server.publisher.flush();
    expect(editSub.packets.map((p) => p.stream_sequence)).toEqual([editPosition + 1, editPosition + 2, editPosition + 3]);
    expect(editSub.packets.every((p) => p.stream_id === editLoad.headers.get(STREAM_ID_HEADER))).toBe(true);
    expect(editSub.packets[1]!.changes).toEqual([expect.objectContaining({ collection: 'assets', kind: 'modified', id: desk.id, data: expect.objectContaining({ unpublished: true }) })]);
    expect(editSub.packets[2]!.changes[0]).toMatchObject({ kind: 'modified', data: { name: 'Still hidden', unpublished: true } });
    // the public stream: created, then deleted when unpublished; the later rename never reaches it
    expect(publicSub.packets.map((p) => p.stream_sequence)).toEqual([publicPosition + 1, publicPosition + 2]);
    expect(publicSub.packets.map((p) => p.changes)).toEqual([
      [expect.objectContaining({ collection: 'assets', kind: 'created', id: desk.id })],
      [{ collection: 'assets', kind: 'deleted', id: desk.id }],
    ]);
  });

  it('refuses the edit channel to a user without the edit role with 403, and grants it to the edit role', async () => {
    const org = t.accounts.edit.organizationId;
    const loc = t.server.seed.locationIds[0]!;
    const channel = pusherChannel({ kind: 'location', organizationId: org, locationId: loc, audience: 'edit' });
    expect(channel).toBe(`private-eb-edit-${org}-${loc}`);
    const regular = await t.signIn('regular');
    expect(await subscribe(connect(regular), channel)).toMatchObject({ ok: false, status: 403 });
    const refused = await t.api('/pusher/auth', { method: 'POST', token: regular, form: { socket_id: '1.2', channel_name: channel } });
    expect(refused.status).toBe(403);
    const otherOrgEdit = await t.signIn('otherOrg');
    expect((await t.api('/pusher/auth', { method: 'POST', token: otherOrgEdit, form: { socket_id: '1.2', channel_name: channel } })).status).toBe(403);
    expect((await t.api('/pusher/auth', { method: 'POST', token: edit, form: { socket_id: '1.2', channel_name: channel } })).status).toBe(200);
  });

  it('splits a large batch into messages below 10 KB, each with its own sequence', async () => {
    const org = t.accounts.edit.organizationId;
    const loc = t.server.seed.locationIds[1]!;
    const sub = await subscribe(connect(edit), pusherChannel({ kind: 'location', organizationId: org, locationId: loc }));
    const sensors = [...t.server.store.sensors.values()].filter((s) => s.location_id === loc && s.type === 'temperature');
    const start = t.server.publisher.position({ kind: 'location', organizationId: org, locationId: loc }).stream_sequence;
    const measurements = Array.from({ length: 3000 }, (_, i) => ({ sensor_id: sensors[i % sensors.length]!.id, value: { time: Date.now() + i * 7919, valid_for: 60_000 + i, value: Math.round(Math.sin(i) * 1e6) / 1e3 } }));
    const res = await fetch(`${t.url}/v2/measurements`, { method: 'POST', headers: { authorization: `Bearer ${edit}`, 'content-type': 'application/json' }, body: JSON.stringify({ measurements }) });
    expect(res.status).toBe(200);
    const end = t.server.publisher.position({ kind: 'location', organizationId: org, locationId: loc }).stream_sequence;
    expect(end - start).toBeGreaterThan(1);
    await until(() => sub.packets.length >= end - start);
    expect(sub.packets.map((p) => p.stream_sequence)).toEqual(Array.from({ length: end - start }, (_, i) => start + 1 + i));
    expect(sub.raw.every((m) => m.length < PUSHER_MESSAGE_LIMIT_BYTES)).toBe(true);
    expect(sub.packets.flatMap((p) => p.changes).length).toBe(3000);
  });

  it('refuses a subscription to another organization, and to another user’s channel, with 403', async () => {
    const client = connect(edit);
    const otherOrg = await subscribe(client, pusherChannel({ kind: 'organization', organizationId: t.accounts.otherOrg.organizationId }));
    expect(otherOrg).toMatchObject({ ok: false, status: 403 });
    const otherLoc = await subscribe(client, pusherChannel({ kind: 'location', organizationId: t.accounts.otherOrg.organizationId, locationId: t.server.seed.otherLocationId }));
    expect(otherLoc).toMatchObject({ ok: false, status: 403 });
    const otherUser = await subscribe(client, pusherChannel({ kind: 'user', userId: t.accounts.regular.userId }));
    expect(otherUser).toMatchObject({ ok: false, status: 403 });
    const mine = await subscribe(client, pusherChannel({ kind: 'user', userId: t.accounts.edit.userId }));
    expect(mine.ok).toBe(true);
  });

  it('delivers nothing to a raw socket that forges the channel signature', async () => {
    const pc = settings.pusher_config!;
    const ws = new WebSocket(`ws://${pc.ws_host}:${pc.ws_port}/app/${pc.app_key}?protocol=7&client=test`);
    const frames: Array<{ event: string; data: unknown }> = [];
    ws.on('message', (m) => frames.push(JSON.parse(m.toString())));
    await until(() => frames.length > 0);
    expect(frames[0]!.event).toBe('pusher:connection_established');
    const { socket_id: socketId } = JSON.parse(frames[0]!.data as string) as { socket_id: string };
    const channel = pusherChannel({ kind: 'organization', organizationId: t.accounts.otherOrg.organizationId });
    ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel, auth: `${pc.app_key}:${'0'.repeat(64)}` } }));
    ws.send(JSON.stringify({ event: 'pusher:ping', data: {} }));
    await until(() => frames.some((f) => f.event === 'pusher:pong'));
    expect(frames.find((f) => f.event === 'pusher:error')!.data).toMatchObject({ message: expect.stringContaining(`${socketId}:${channel}`) });
    t.server.store.updateOrganization(t.accounts.otherOrg.organizationId, { name: 'Other Corp' });
    await t.server.publisher.flush();
    await new Promise((r) => setTimeout(r, 100));
    expect(frames.some((f) => f.event === PUSHER_EVENT)).toBe(false);
    ws.close();
  });

  it('refuses an events API call signed with the wrong secret', async () => {
    const { port } = new URL(t.url);
    const forger = new PusherServerSdk({ appId: t.server.pusher.appId, key: t.server.pusher.key, secret: 'not-the-secret', host: '127.0.0.1', port, useTLS: false });
    await expect(forger.trigger('private-eb-changes-1', PUSHER_EVENT, 'x')).rejects.toMatchObject({ status: 401 });
    const genuine = new PusherServerSdk({ appId: t.server.pusher.appId, key: t.server.pusher.key, secret: t.server.pusher.secret, host: '127.0.0.1', port, useTLS: false });
    await expect(genuine.trigger('private-eb-changes-1', PUSHER_EVENT, 'x')).resolves.toBeTruthy();
  });

  it('answers /pusher/auth 401 without a token and 400 for a malformed socket id', async () => {
    expect((await t.api('/pusher/auth', { method: 'POST', form: { socket_id: '1.2', channel_name: 'private-eb-changes-1' } })).status).toBe(401);
    expect((await t.api('/pusher/auth', { method: 'POST', token: edit, form: { socket_id: 'abc', channel_name: 'private-eb-changes-1' } })).status).toBe(400);
    const ok = await t.api('/pusher/auth', { method: 'POST', token: edit, form: { socket_id: '1.2', channel_name: `private-eb-changes-${t.accounts.edit.organizationId}`, extra: 'ignored' } });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { auth: string }).auth).toMatch(new RegExp(`^${t.server.pusher.key}:[0-9a-f]{64}$`));
  });
});
