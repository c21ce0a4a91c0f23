// Issue 12 §5 — what the public may not see, played against the real
// reference server and its own Pusher endpoint: sensors of an unpublished
// asset are neither listed nor paged to a user who cannot see the asset, and
// their readings stay off the public stream (pusher-js clients of a regular
// and an edit user); a hidden floor answers a regular user exactly like an
// unknown floor, through every door: REST, building floor lists, files, the
// live stream.

import Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSHER_EVENT, pusherChannel, type LiveChange, type StreamScope } from '../../src/shared/protocol.js';
import { restPaths, type MeasurementsResponse, type WireAsset, type WireSensor } from '../../src/shared/rest.js';
import type { Settings } from '../../src/shared/types.js';
import { decodePacket } from '../../server/live/packetCodec.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { storeFingerprint, until } from './support/attack.js';

describe('security: what only the edit role sees', () => {
  let t: TestServer;
  let tokens: Awaited<ReturnType<TestServer['signInAll']>>;
  let org: string;
  let loc: string;
  const clients: Pusher[] = [];

  /** A pusher-js client of `token` on `scope`, collecting every change it receives. */
  async function follow(token: string, scope: StreamScope): Promise<LiveChange[]> {
    const settings = (await (await fetch(`${t.url}/v2/settings`, { headers: { authorization: `Bearer ${token}` } })).json()) as Settings;
    const pc = settings.pusher_config!;
    const client = new Pusher(pc.app_key, {
      cluster: pc.cluster, wsHost: pc.ws_host, wsPort: pc.ws_port, forceTLS: false, enabledTransports: ['ws'],
      channelAuthorization: { endpoint: `${t.baseUrl}/pusher/auth`, transport: 'ajax', headers: { Authorization: `Bearer ${token}` } },
    });
    clients.push(client);
    const received: LiveChange[] = [];
    const channel = client.subscribe(pusherChannel(scope));
    channel.bind(PUSHER_EVENT, (payload: string) => { received.push(...decodePacket(payload).changes); });
    await new Promise<void>((resolve, reject) => {
      channel.bind('pusher:subscription_succeeded', () => resolve());
      channel.bind('pusher:subscription_error', (e: { status: number }) => reject(new Error(`subscription refused: ${e.status}`)));
    });
    return received;
  }

  const get = async <T>(path: string, token: string): Promise<T> => {
    const res = await t.api(path, { token });
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };
  /** status and body of an answer, for comparing a hidden thing's with an unknown one's */
  const answer = async (res: Response) => ({ status: res.status, body: (await res.text()).replaceAll(/\d{3,}/g, 'ID') });
  const assetsOf = (token: string) => get<WireAsset[]>(restPaths.assets(org, loc), token);
  const sensorsOf = (token: string) => get<WireSensor[]>(restPaths.sensors(org, loc), token);
  const ingest = (sensorId: string, value: number) => fetch(`${t.url}/v2/measurements`, {
    method: 'POST', headers: { authorization: `Bearer ${tokens.edit}`, 'content-type': 'application/json' },
    body: JSON.stringify({ measurements: [{ sensor_id: sensorId, value: { time: t.server.store.clock.now(), value } }] }),
  });
  const seenSensor = (changes: LiveChange[], id: string) => changes.some((c) => (c.collection === 'sensors' && c.id === id)
    || (c.collection === 'measurements' && (c.data as { sensor_id?: string } | undefined)?.sensor_id === id));

  beforeAll(async () => {
    t = await startTestServer();
    tokens = await t.signInAll();
    org = t.accounts.edit.organizationId;
    loc = t.server.seed.locationIds[0]!;
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await t?.close();
  });

  describe('sensors of an unpublished asset', () => {
    let desk: WireAsset;
    let sensor: WireSensor;
    let publicStream: LiveChange[];
    let editStream: LiveChange[];

    beforeAll(async () => {
      const s = t.server.store;
      desk = [...s.assets.values()].find((a) => a.location_id === loc && a.subtype === 'desk' && s.isAssetPublic(a) && a.data_providers.length > 0)!;
      sensor = s.sensors.get(desk.data_providers[0]!)!;
      publicStream = await follow(tokens.regular, { kind: 'location', organizationId: org, locationId: loc });
      editStream = await follow(tokens.edit, { kind: 'location', organizationId: org, locationId: loc, audience: 'edit' });
      const res = await t.api(restPaths.asset(org, loc, desk.id), { method: 'PATCH', token: tokens.edit, json: { unpublished: true } });
      expect(res.status).toBe(200);
      await until(() => editStream.some((c) => c.collection === 'assets' && c.id === desk.id), 'the edit stream to see the change');
    });

    it('takes the asset and its sensors off the public stream when it is unpublished', async () => {
      await until(() => publicStream.some((c) => c.collection === 'sensors' && c.id === sensor.id && c.kind === 'deleted'), 'the sensor to leave the public stream');
      expect(publicStream.some((c) => c.collection === 'assets' && c.id === desk.id && c.kind === 'deleted')).toBe(true);
    });

    it('lists them to the edit role only, and answers a regular user’s look-up like an unknown sensor', async () => {
      expect((await sensorsOf(tokens.regular)).map((x) => x.id)).not.toContain(sensor.id);
      expect((await sensorsOf(tokens.edit)).map((x) => x.id)).toContain(sensor.id);
      const hidden = await answer(await t.api(restPaths.sensor(org, loc, sensor.id), { token: tokens.regular }));
      const unknown = await answer(await t.api(restPaths.sensor(org, loc, '987654321'), { token: tokens.regular }));
      expect(hidden).toEqual(unknown);
      expect(hidden.status).toBe(404);
      const before = storeFingerprint(t);
      const patch = await answer(await t.api(restPaths.sensor(org, loc, sensor.id), { method: 'PATCH', token: tokens.regular, json: { unit: 'x' } }));
      expect(patch).toEqual(await answer(await t.api(restPaths.sensor(org, loc, '987654321'), { method: 'PATCH', token: tokens.regular, json: { unit: 'x' } })));
      expect(storeFingerprint(t)).toBe(before);
      expect((await t.api(restPaths.sensor(org, loc, sensor.id), { token: tokens.edit })).status).toBe(200);
    });

    it('pages their history to the edit role only', async () => {
      expect((await ingest(sensor.id, 1)).status).toBe(200);
      const page = (token: string, query: Record<string, unknown> = {}) =>
        get<MeasurementsResponse>(restPaths.measurements(org, loc, sensor.type, { start: 0, ...query }), token);
      const ids = (p: MeasurementsResponse) => new Set(p.rows.map((r) => String(r[1])));
      expect(ids(await page(tokens.edit)).has(sensor.id)).toBe(true);
      expect(ids(await page(tokens.regular)).has(sensor.id)).toBe(false);
      expect((await page(tokens.regular, { sensor_id: [sensor.id] })).rows).toEqual([]);
      expect((await page(tokens.edit, { sensor_id: [sensor.id] })).rows.length).toBeGreaterThan(0);
    });

    it('sends their readings on the edit stream only; other readings still reach the public', async () => {
      const visible = [...t.server.store.sensors.values()].find((x) => x.location_id === loc && x.type === sensor.type
        && (t.server.store.assets.get(x.asset_id ?? '') ? t.server.store.isAssetPublic(t.server.store.assets.get(x.asset_id!)!) : false))!;
      const mark = publicStream.length;
      expect((await ingest(sensor.id, 1)).status).toBe(200);
      expect((await ingest(visible.id, 0)).status).toBe(200);
      await until(() => seenSensor(publicStream.slice(mark), visible.id), 'the visible reading on the public stream');
      await until(() => seenSensor(editStream, sensor.id) && editStream.some((c) => c.collection === 'measurements'), 'the hidden reading on the edit stream');
      expect(seenSensor(publicStream.slice(mark), sensor.id)).toBe(false);
    });

    it('brings the asset and its sensors back to the public when it is published again', async () => {
      const mark = publicStream.length;
      expect((await t.api(restPaths.asset(org, loc, desk.id), { method: 'PATCH', token: tokens.edit, json: { unpublished: false } })).status).toBe(200);
      await until(() => publicStream.slice(mark).some((c) => c.collection === 'sensors' && c.id === sensor.id && c.kind === 'created'), 'the sensor back on the public stream');
      expect((await sensorsOf(tokens.regular)).map((x) => x.id)).toContain(sensor.id);
    });
  });

  describe('a sensor shared by an unpublished and a public asset', () => {
    let desk: WireAsset;
    let sensor: WireSensor;
    let twin: WireAsset;
    let assetIdBefore: string | null;
    let publicStream: LiveChange[];
    let editStream: LiveChange[];
    const TWIN_NAME = 'Secret twin desk';
    const patchAs = async (path: string, json: unknown) => {
      const res = await t.api(path, { method: 'PATCH', token: tokens.edit, json });
      expect(res.status, path).toBe(200);
    };
    const namesTwin = (text: string) => text.includes(`"${twin.id}"`) || text.includes(TWIN_NAME);

    beforeAll(async () => {
      const s = t.server.store;
      desk = [...s.assets.values()].find((a) => a.location_id === loc && a.subtype === 'desk' && s.isAssetPublic(a) && a.data_providers.length === 1)!;
      sensor = s.sensors.get(desk.data_providers[0]!)!;
      assetIdBefore = sensor.asset_id;
      publicStream = await follow(tokens.regular, { kind: 'location', organizationId: org, locationId: loc });
      editStream = await follow(tokens.edit, { kind: 'location', organizationId: org, locationId: loc, audience: 'edit' });
      const made = await t.api(restPaths.assets(org, loc), {
        method: 'POST', token: tokens.edit,
        json: { type: 'shape', subtype: 'desk', name: TWIN_NAME, parent_id: desk.parent_id, x: 1, y: 1, unpublished: true, data_providers: [sensor.id] },
      });
      expect(made.status).toBe(201);
      twin = (await made.json()) as WireAsset;
      // the sensor even names the hidden desk as its own
      await patchAs(restPaths.sensor(org, loc, sensor.id), { asset_id: twin.id });
      await until(() => editStream.some((c) => c.collection === 'sensors' && c.id === sensor.id && (c.data as WireSensor).asset_id === twin.id), 'the edit stream to see the sensor');
    });
    afterAll(async () => {
      await patchAs(restPaths.sensor(org, loc, sensor.id), { asset_id: assetIdBefore });
      expect((await t.api(restPaths.asset(org, loc, twin.id), { method: 'DELETE', token: tokens.edit })).status).toBe(204);
    });

    it('is the public asset’s for a regular user: listed, looked up and paged, naming neither the hidden asset nor its name', async () => {
      const list = await (await t.api(restPaths.sensors(org, loc), { token: tokens.regular })).text();
      expect((JSON.parse(list) as WireSensor[]).map((x) => x.id)).toContain(sensor.id);
      const one = await t.api(restPaths.sensor(org, loc, sensor.id), { token: tokens.regular });
      expect(one.status).toBe(200);
      const text = await one.text();
      expect((JSON.parse(text) as WireSensor).asset_id, 'the hidden desk it names, withheld').toBeNull();
      expect(namesTwin(list) || namesTwin(text), 'the hidden desk in the sensor list or look-up').toBe(false);
      expect(namesTwin(await (await t.api(restPaths.assets(org, loc), { token: tokens.regular })).text()), 'the hidden desk in the asset list').toBe(false);
      expect((await get<WireSensor>(restPaths.sensor(org, loc, sensor.id), tokens.edit)).asset_id, 'the edit role sees it as it is').toBe(twin.id);

      expect((await ingest(sensor.id, 1)).status).toBe(200);
      const page = await get<MeasurementsResponse>(restPaths.measurements(org, loc, sensor.type, { start: 0, sensor_id: [sensor.id] }), tokens.regular);
      expect(page.rows.length, 'its history, paged for a regular user').toBeGreaterThan(0);
      expect(page.rows.at(-1)![page.columns.indexOf('value')]).toBe(1);
    });

    it('sends its readings on the public stream, and never the hidden asset', async () => {
      const mark = publicStream.length;
      expect((await ingest(sensor.id, 0)).status).toBe(200);
      await until(() => publicStream.slice(mark).some((c) => c.collection === 'measurements' && c.id === sensor.id), 'the reading on the public stream');
      expect(publicStream.some((c) => c.collection === 'sensors' && c.id === sensor.id && c.kind === 'deleted'), 'the sensor taken off the public stream').toBe(false);
      expect(namesTwin(JSON.stringify(publicStream)), 'the hidden desk on the public stream').toBe(false);
    });

    it('goes with the hidden asset once no public asset names it, and comes back when one does again', async () => {
      const mark = publicStream.length;
      const providers = structuredClone({ data_providers: desk.data_providers, data_provider_refs: desk.data_provider_refs });
      await patchAs(restPaths.asset(org, loc, desk.id), { data_providers: [], data_provider_refs: {} });
      await until(() => publicStream.slice(mark).some((c) => c.collection === 'sensors' && c.id === sensor.id && c.kind === 'deleted'), 'the sensor off the public stream');
      expect((await t.api(restPaths.sensor(org, loc, sensor.id), { token: tokens.regular })).status).toBe(404);
      const back = publicStream.length;
      await patchAs(restPaths.asset(org, loc, desk.id), providers);
      const created = () => publicStream.slice(back).find((c) => c.collection === 'sensors' && c.id === sensor.id && c.kind === 'created');
      await until(created, 'the sensor back on the public stream');
      expect((created()!.data as WireSensor).asset_id).toBeNull();
      expect(namesTwin(JSON.stringify(publicStream)), 'the hidden desk on the public stream').toBe(false);
    });
  });

  describe('a hidden floor', () => {
    let hiddenFloor: WireAsset;
    const unknownId = '987654320';

    beforeAll(() => {
      hiddenFloor = [...t.server.store.assets.values()].find((a) => a.location_id === loc && a.type === 'floor' && a.hidden)!;
      expect(hiddenFloor).toBeDefined();
    });

    it('answers reads, writes, votes and tickets exactly like an unknown floor, changing nothing', async () => {
      const before = storeFingerprint(t);
      const attempts: Array<[string, (id: string) => string, unknown]> = [
        ['GET', (id) => restPaths.asset(org, loc, id), undefined],
        ['PATCH', (id) => restPaths.asset(org, loc, id), { name: 'Found you' }],
        ['DELETE', (id) => restPaths.asset(org, loc, id), undefined],
        ['PUT', (id) => restPaths.assetVote(org, loc, id), { direction: 1 }],
        ['POST', () => restPaths.assets(org, loc), 'ticket'],
        ['PATCH', () => restPaths.user(org, t.accounts.regular.userId), 'location'],
      ];
      for (const [method, path, body] of attempts) {
        const json = (id: string) => body === 'ticket'
          ? { type: 'ticket', subtype: 'broken', name: 'x', parent_id: id, value: { text: 'hello' } }
          : body === 'location' ? { location: { location_id: loc, floor_id: id, x: 1, y: 1 } } : body;
        const hidden = await answer(await t.api(path(hiddenFloor.id), { method, token: tokens.regular, json: json(hiddenFloor.id) }));
        const unknown = await answer(await t.api(path(unknownId), { method, token: tokens.regular, json: json(unknownId) }));
        expect(hidden, `${method} ${path('{id}')}`).toEqual(unknown);
        expect(hidden.status).toBeGreaterThanOrEqual(400);
      }
      expect(storeFingerprint(t)).toBe(before);
    });

    it('keeps its rooms from being booked or cancelled by a regular user, answering exactly like an unknown room', async () => {
      const s = t.server.store;
      let room = [...s.assets.values()].find((a) => a.parent_id === hiddenFloor.id && a.type === 'room' && a.data_provider_refs.reservation);
      if (!room) {
        room = s.createAsset(loc, { type: 'room', subtype: 'meeting', name: 'Plant office', parent_id: hiddenFloor.id, x: 2, y: 2 }, null);
        const sensor = s.createSensor(loc, { type: 'reservation', asset_id: room.id });
        s.updateAsset(room.id, { data_providers: [sensor.id], data_provider_refs: { reservation: sensor.id } });
      }
      const start = s.clock.now() + 50 * 86_400_000;
      const before = storeFingerprint(t);
      for (const [method, json] of [
        ['POST', (id: string) => ({ room_id: id, start, end: start + 1_800_000, subject: 'Found you' })],
        ['DELETE', (id: string) => ({ room_id: id, booking_ref: 'bk-0000000000000000' })],
      ] as const) {
        const hidden = await answer(await t.api(restPaths.booking(), { method, token: tokens.regular, json: json(room.id) }));
        const unknown = await answer(await t.api(restPaths.booking(), { method, token: tokens.regular, json: json(unknownId) }));
        expect(hidden, `${method} /booking`).toEqual(unknown);
        expect(hidden.status).toBe(404);
      }
      expect(storeFingerprint(t)).toBe(before);
      // the edit role may book it
      const res = await t.api(restPaths.booking(), { method: 'POST', token: tokens.edit, json: { room_id: room.id, start, end: start + 1_800_000, subject: 'Plant review' } });
      expect(res.status).toBe(201);
    });

        it('is left out of lists and of its building’s floor list for a regular user, not for the edit role', async () => {
      const regular = await assetsOf(tokens.regular);
      expect(regular.map((a) => a.id)).not.toContain(hiddenFloor.id);
      const building = regular.find((a) => a.id === hiddenFloor.parent_id)!;
      expect(building.floors).not.toContain(hiddenFloor.id);
      expect(building.default_floor).toBeLessThan(building.floors!.length);
      expect(JSON.stringify(regular)).not.toContain(`"${hiddenFloor.id}"`);
      const single = await get<WireAsset>(restPaths.asset(org, loc, building.id), tokens.regular);
      expect(single.floors).toEqual(building.floors);
      const edit = await assetsOf(tokens.edit);
      expect(edit.find((a) => a.id === building.id)!.floors).toContain(hiddenFloor.id);
    });

    it('has a floor plan whose address cannot be guessed, served to whoever was given it', async () => {
      const guess = await fetch(`${t.url}/v1/files/floorplans/${hiddenFloor.id}.svg`);
      const unknown = await fetch(`${t.url}/v1/files/floorplans/${unknownId}.svg`);
      expect(await answer(guess)).toEqual(await answer(unknown));
      const path = (await get<WireAsset>(restPaths.asset(org, loc, hiddenFloor.id), tokens.edit)).floor_plan_img_path!;
      expect(path).toMatch(new RegExp(`^floorplans/${hiddenFloor.id}-[0-9a-f]{24}\\.svg$`));
      expect((await fetch(`${t.url}/v1/files/${path}`)).status).toBe(200);
    });

    it('hiding a floor takes it, what stands on it and its sensors off the public stream, and out of its building', async () => {
      const publicStream = await follow(tokens.service, { kind: 'location', organizationId: org, locationId: loc });
      const s = t.server.store;
      const floor = [...s.assets.values()].find((a) => a.location_id === loc && a.type === 'floor' && !a.hidden && !a.unpublished)!;
      const onIt = [...s.assets.values()].filter((a) => a.parent_id === floor.id && s.isAssetPublic(a));
      const sensorIds = onIt.flatMap((a) => a.data_providers);
      expect(onIt.length).toBeGreaterThan(0);
      expect((await t.api(restPaths.asset(org, loc, floor.id), { method: 'PATCH', token: tokens.edit, json: { hidden: true } })).status).toBe(200);
      const building = () => publicStream.find((c) => c.collection === 'assets' && c.id === floor.parent_id && c.kind === 'modified');
      await until(() => building(), 'the building’s public floor list to change');
      expect((building()!.data as WireAsset).floors).not.toContain(floor.id);
      const deleted = new Set(publicStream.filter((c) => c.kind === 'deleted').map((c) => `${c.collection}:${c.id}`));
      expect(deleted.has(`assets:${floor.id}`)).toBe(true);
      for (const a of onIt) expect(deleted.has(`assets:${a.id}`), a.name).toBe(true);
      for (const id of sensorIds) expect(deleted.has(`sensors:${id}`), id).toBe(true);
      // what the public stream said matches what a regular user now reads
      const regular = await assetsOf(tokens.service);
      expect(regular.map((a) => a.id)).not.toContain(floor.id);
      expect(regular.find((a) => a.id === floor.parent_id)!.floors).not.toContain(floor.id);
      expect((await t.api(restPaths.asset(org, loc, floor.id), { method: 'PATCH', token: tokens.edit, json: { hidden: false } })).status).toBe(200);
    });
  });

  describe('a ticket or voice awaiting moderation (ticketsVoicesRequireModeration)', () => {
    let floorId: string;
    let publicStream: LiveChange[];
    let editStream: LiveChange[];
    let config: unknown;

    beforeAll(async () => {
      const s = t.server.store;
      floorId = [...s.assets.values()].find((a) => a.location_id === loc && a.type === 'floor' && s.isAssetPublic(a))!.id;
      config = s.locations.get(loc)!.config;
      const on = await t.api(restPaths.location(org, loc), { method: 'PATCH', token: tokens.edit, json: { config: { ...(config as object), ticketsVoicesRequireModeration: true } } });
      expect(on.status).toBe(200);
      publicStream = await follow(tokens.regular, { kind: 'location', organizationId: org, locationId: loc });
      editStream = await follow(tokens.edit, { kind: 'location', organizationId: org, locationId: loc, audience: 'edit' });
    });
    afterAll(async () => {
      expect((await t.api(restPaths.location(org, loc), { method: 'PATCH', token: tokens.edit, json: { config } })).status).toBe(200);
    });

    /** a reading of a public sensor, heard on the public stream: what was published before it has arrived too */
    async function publicStreamCaughtUp() {
      const s = t.server.store;
      const visible = [...s.sensors.values()].find((x) => x.location_id === loc && x.type === 'occupancy' && !s.hiddenIn(loc).sensors.has(x.id)
        && (x.asset_id === null || !s.hiddenIn(loc).assets.has(x.asset_id)))!;
      const mark = publicStream.length;
      expect((await ingest(visible.id, 1)).status).toBe(200);
      await until(() => seenSensor(publicStream.slice(mark), visible.id), 'a public reading on the public stream');
    }

    it('keeps what a regular user posts unpublished, whether the request leaves the flag out or sets it false', async () => {
      const posted: WireAsset[] = [];
      for (const body of [
        { type: 'ticket', subtype: 'cleaning', name: 'Spill', value: { text: 'Coffee on the carpet' } },
        { type: 'voice', subtype: 'culture', name: 'Loud', value: { text: 'Too loud here' }, unpublished: false },
      ]) {
        const res = await t.api(restPaths.assets(org, loc), { method: 'POST', token: tokens.regular, json: { ...body, parent_id: floorId, x: 4, y: 4 } });
        expect(res.status, body.type).toBe(201);
        posted.push((await res.json()) as WireAsset);
      }
      for (const a of posted) expect(a.unpublished, `${a.type} as answered to its author`).toBe(true);
      await until(() => posted.every((a) => editStream.some((c) => c.collection === 'assets' && c.id === a.id)), 'the edit stream to carry them');
      await publicStreamCaughtUp();
      for (const a of posted) {
        expect(publicStream.some((c) => c.id === a.id), `${a.type} on the public stream`).toBe(false);
        for (const token of [tokens.regular, tokens.service]) {
          expect((await assetsOf(token)).map((x) => x.id), `${a.type} listed`).not.toContain(a.id);
          expect((await t.api(restPaths.asset(org, loc, a.id), { token })).status, `${a.type} looked up`).toBe(404);
          expect((await t.api(restPaths.assetVote(org, loc, a.id), { method: 'PUT', token, json: { direction: 1 } })).status, `${a.type} voted on`).toBe(404);
        }
        expect((await assetsOf(tokens.edit)).map((x) => x.id), `${a.type} for the moderator`).toContain(a.id);
      }
      // the moderator publishes the ticket: now everyone sees it
      const ticket = posted[0]!;
      expect((await t.api(restPaths.asset(org, loc, ticket.id), { method: 'PATCH', token: tokens.edit, json: { unpublished: false } })).status).toBe(200);
      await until(() => publicStream.some((c) => c.id === ticket.id && c.kind === 'created'), 'the published ticket on the public stream');
      expect((await t.api(restPaths.asset(org, loc, ticket.id), { token: tokens.regular })).status).toBe(200);
    });
  });
});
