// Issue 12 §5 — a user's position is no way around a hidden floor. Played as
// an attacker with a regular account against the real reference server, over
// its own Pusher endpoint (pusher-js) and over the real Mosquitto (mqtt.js):
// the attacker listens to everything its account may join (on MQTT the whole
// organization, `eb/changes/{org}/#`), tries the edit streams, and reads the
// users over REST while an edit user walks onto a hidden floor, and while a
// tracked colleague's tag reports from one. It learns nothing of that floor;
// the edit user's own streams carry it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  STREAM_ID_HEADER, mqttTopicFilter, pusherChannel, type StreamScope,
} from '../../src/shared/protocol.js';
import { restPaths, type MeasurementsResponse, type WireAsset, type WireUser } from '../../src/shared/rest.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { until } from './support/attack.js';
import { NOT_AUTHORIZED, listenMqtt, listenPusher, settingsOf, settle, type Ear } from './support/listen.js';

describe.each(['pusher', 'mqtt'] as const)('security: positions on hidden floors over %s', (transport) => {
  let t: TestServer;
  let tokens: Awaited<ReturnType<TestServer['signInAll']>>;
  let org: string;
  let loc: string;
  let hiddenFloor: WireAsset;
  let publicFloor: WireAsset;
  let attacker: Ear;
  let editor: Ear;

  const scopes = () => ({
    shared: { kind: 'organization', organizationId: org } as StreamScope,
    edit: { kind: 'organization', organizationId: org, audience: 'edit' } as StreamScope,
    location: { kind: 'location', organizationId: org, locationId: loc } as StreamScope,
    locationEdit: { kind: 'location', organizationId: org, locationId: loc, audience: 'edit' } as StreamScope,
  });
  const usersOf = async (token: string) => {
    const res = await t.api(restPaths.users(org), { token });
    expect(res.status).toBe(200);
    return { users: (await res.json()) as WireUser[], streamId: res.headers.get(STREAM_ID_HEADER) };
  };
  const moveTo = async (token: string, userId: string, floor: WireAsset) => {
    const res = await t.api(restPaths.user(org, userId), { method: 'PATCH', token, json: { location: { location_id: loc, floor_id: floor.id, time: t.server.store.clock.now(), x: 2, y: 3 } } });
    expect(res.status).toBe(200);
    return (await res.json()) as WireUser;
  };
  const mentions = (value: unknown, id: string) => JSON.stringify(value).includes(`"${id}"`);
  const userChange = (e: Ear, userId: string, from = 0) =>
    e.changes().slice(from).filter((c) => c.collection === 'users' && c.id === userId).at(-1);

  beforeAll(async () => {
    t = await startTestServer({ transport });
    tokens = await t.signInAll();
    org = t.accounts.edit.organizationId;
    loc = t.server.seed.locationIds[0]!;
    const assets = [...t.server.store.assets.values()].filter((a) => a.location_id === loc && a.type === 'floor');
    hiddenFloor = assets.find((a) => a.hidden)!;
    publicFloor = assets.find((a) => !a.hidden && !a.unpublished)!;
    expect(hiddenFloor).toBeDefined();
    const s = scopes();
    if (transport === 'pusher') {
      const a = await listenPusher(t, tokens.regular, [s.shared, s.location, s.edit]);
      // the edit stream is not the attacker's to join
      expect(a.refused).toEqual([pusherChannel(s.edit)]);
      attacker = a;
      const e = await listenPusher(t, tokens.edit, [s.edit, s.locationEdit]);
      expect(e.refused).toEqual([]);
      editor = e;
    } else {
      // the widest filter the account may use, then the edit topic by name
      const a = await listenMqtt(t, tokens.regular, [`eb/changes/${org}/#`, mqttTopicFilter(s.edit)]);
      expect(a.granted).toEqual([1, NOT_AUTHORIZED]);
      attacker = a;
      const e = await listenMqtt(t, tokens.edit, [mqttTopicFilter(s.edit), mqttTopicFilter(s.locationEdit)]);
      expect(e.granted).toEqual([1, 1]);
      editor = e;
    }
  }, 30_000);
  afterAll(async () => {
    await attacker?.close();
    await editor?.close();
    await t?.close();
  });

  it('an edit user walking onto a hidden floor shows it to edit users only, live and over REST', async () => {
    const editUserId = t.accounts.edit.userId;
    const heard = attacker.changes().length;
    const answer = await moveTo(tokens.edit, editUserId, hiddenFloor);
    expect(answer.location?.floor_id).toBe(hiddenFloor.id);

    await until(() => userChange(editor, editUserId)?.data, 'the edit stream to carry the move');
    expect((userChange(editor, editUserId)!.data as WireUser).location).toMatchObject({ floor_id: hiddenFloor.id, x: 2, y: 3 });
    // the shared stream does carry the change, with the position withheld
    await until(() => userChange(attacker, editUserId, heard), 'the shared stream to carry the change');
    expect((userChange(attacker, editUserId, heard)!.data as WireUser).location).toBeNull();
    await settle();
    expect(attacker.packets.every((p) => p.frame === undefined)).toBe(true);
    expect(mentions(attacker.packets, hiddenFloor.id)).toBe(false);

    const regular = await usersOf(tokens.regular);
    expect(regular.users.find((u) => u.id === editUserId)!.location).toBeNull();
    expect(mentions(regular.users, hiddenFloor.id)).toBe(false);
    const one = await t.api(restPaths.user(org, editUserId), { token: tokens.regular });
    expect(mentions(await one.json(), hiddenFloor.id)).toBe(false);
    const edit = await usersOf(tokens.edit);
    expect(edit.users.find((u) => u.id === editUserId)!.location).toMatchObject({ floor_id: hiddenFloor.id });
    // each load names the stream its reader follows, so the live packets line up with it
    const positions = t.server.publisher;
    expect(regular.streamId).toBe(positions.position(scopes().shared).stream_id);
    expect(edit.streamId).toBe(positions.position(scopes().edit).stream_id);
    expect(edit.streamId).not.toBe(regular.streamId);
  });

  it('hiding the floor a user stands on withdraws their position from the shared stream, and showing it brings it back', async () => {
    const walker = t.accounts.service.userId;
    await moveTo(tokens.service, walker, publicFloor);
    await until(() => (userChange(attacker, walker)?.data as WireUser | undefined)?.location?.floor_id === publicFloor.id, 'the walker on the public floor');
    const heard = attacker.changes().length;
    const heardEdit = editor.changes().length;

    expect((await t.api(restPaths.asset(org, loc, publicFloor.id), { method: 'PATCH', token: tokens.edit, json: { hidden: true } })).status).toBe(200);
    await until(() => userChange(attacker, walker, heard), 'the shared stream to withdraw the position');
    expect((userChange(attacker, walker, heard)!.data as WireUser).location).toBeNull();
    expect((await usersOf(tokens.regular)).users.find((u) => u.id === walker)!.location).toBeNull();
    expect((await usersOf(tokens.edit)).users.find((u) => u.id === walker)!.location).toMatchObject({ floor_id: publicFloor.id });
    // the edit stream's users did not change: their loads always had the position
    await settle();
    expect(userChange(editor, walker, heardEdit)).toBeUndefined();

    const back = attacker.changes().length;
    expect((await t.api(restPaths.asset(org, loc, publicFloor.id), { method: 'PATCH', token: tokens.edit, json: { hidden: false } })).status).toBe(200);
    await until(() => userChange(attacker, walker, back), 'the shared stream to show the position again');
    expect((userChange(attacker, walker, back)!.data as WireUser).location).toMatchObject({ floor_id: publicFloor.id });
    expect((await usersOf(tokens.regular)).users.find((u) => u.id === walker)!.location).toMatchObject({ floor_id: publicFloor.id });
  });

  it('a tag reporting from a hidden floor tells the public when, never where; the edit role sees where', async () => {
    const s = t.server.store;
    const employee = [...s.assets.values()].find((a) => a.location_id === loc && a.type === 'employee' && s.isAssetPublic(a) && a.data_provider_refs.location)!;
    const tag = employee.data_provider_refs.location!;
    const ingest = async (floor: WireAsset, time: number) => {
      const value = { time, valid_for: 600_000, x: 7.5, y: 8.5, floor_id: floor.id, floor: 0, zones: [] };
      const res = await t.api(`${t.url}/v2/measurements`, { method: 'POST', token: tokens.edit, json: { measurements: [{ sensor_id: tag, value }] } });
      expect(res.status).toBe(200);
    };
    const readingOf = (e: Ear, from: number) => e.changes().slice(from)
      .filter((c) => c.collection === 'measurements' && c.id === tag).map((c) => (c.data as { value: { floor_id?: string } }).value.floor_id);
    const heard = attacker.changes().length;
    const heardEdit = editor.changes().length;
    const at = s.clock.now();
    await ingest(hiddenFloor, at);
    await ingest(publicFloor, at + 1);
    // the reading from the public floor came after; the one from the hidden floor never did
    await until(() => readingOf(attacker, heard).length > 0, 'the public floor reading on the shared stream');
    await until(() => readingOf(editor, heardEdit).length === 2, 'both readings on the edit stream');
    expect(readingOf(attacker, heard)).toEqual([publicFloor.id]);
    expect(readingOf(editor, heardEdit)).toEqual([hiddenFloor.id, publicFloor.id]);
    expect(mentions(attacker.packets, hiddenFloor.id)).toBe(false);

    await ingest(hiddenFloor, at + 2);
    await settle();
    const sensors = await t.api(restPaths.sensors(org, loc), { token: tokens.regular });
    const listed = ((await sensors.json()) as Array<{ id: string; last_measurement: { time: number; floor_id?: string } }>).find((x) => x.id === tag)!;
    expect(listed.last_measurement.time).toBe(at + 2);
    expect(listed.last_measurement.floor_id).toBeUndefined();
    const one = await t.api(restPaths.sensor(org, loc, tag), { token: tokens.regular });
    expect(mentions(await one.json(), hiddenFloor.id)).toBe(false);
    const page = async (token: string) => {
      const res = await t.api(restPaths.measurements(org, loc, 'location', { start: at, sensor_id: [tag], ignore_previous_validity: true }), { token });
      expect(res.status).toBe(200);
      const body = (await res.json()) as MeasurementsResponse;
      return body.rows.map((r) => r[body.columns.indexOf('floor_id')]);
    };
    // every reading is in the page, so paging advances; the public page says nothing of where
    expect(await page(tokens.regular)).toEqual([null, publicFloor.id, null]);
    expect(await page(tokens.edit)).toEqual([hiddenFloor.id, publicFloor.id, hiddenFloor.id]);
    const edit = ((await (await t.api(restPaths.sensor(org, loc, tag), { token: tokens.edit })).json()) as { last_measurement: { floor_id: string } });
    expect(edit.last_measurement.floor_id).toBe(hiddenFloor.id);
  });

  it('a tag in an unpublished privacy zone tells the public when, never where, until the zone is published', async () => {
    const s = t.server.store;
    const employee = [...s.assets.values()].find((a) => a.location_id === loc && a.type === 'employee' && s.isAssetPublic(a) && a.data_provider_refs.location)!;
    const tag = employee.data_provider_refs.location!;
    const made = await t.api(restPaths.assets(org, loc), {
      method: 'POST', token: tokens.edit,
      json: { type: 'zone', subtype: 'privacy', name: 'Quiet corner', parent_id: publicFloor.id, x: 1, y: 1, outline: [[0, 0], [3, 0], [3, 3], [0, 3]], unpublished: true },
    });
    expect(made.status).toBe(201);
    const zone = (await made.json()) as WireAsset;
    const ingest = async (zones: string[], time: number) => {
      const value = { time, valid_for: 600_000, x: 1.5, y: 1.5, floor_id: publicFloor.id, floor: 0, zones };
      const res = await t.api(`${t.url}/v2/measurements`, { method: 'POST', token: tokens.edit, json: { measurements: [{ sensor_id: tag, value }] } });
      expect(res.status).toBe(200);
    };
    const readingsOf = (e: Ear, from: number) => e.changes().slice(from)
      .filter((c) => c.collection === 'measurements' && c.id === tag).map((c) => (c.data as { value: { zones?: string[] } }).value.zones);
    const heard = attacker.changes().length;
    const heardEdit = editor.changes().length;
    const at = s.clock.now() + 60_000;
    await ingest([zone.id], at);
    await ingest([], at + 1);
    await until(() => readingsOf(attacker, heard).length > 0, 'the reading outside the zone on the shared stream');
    await until(() => readingsOf(editor, heardEdit).length === 2, 'both readings on the edit stream');
    expect(readingsOf(attacker, heard), 'only the reading outside the zone').toEqual([[]]);
    expect(readingsOf(editor, heardEdit)).toEqual([[zone.id], []]);

    await ingest([zone.id], at + 2);
    await settle();
    expect(mentions(attacker.packets, zone.id), 'the zone on the attacker’s streams').toBe(false);
    const listed = ((await (await t.api(restPaths.sensor(org, loc, tag), { token: tokens.regular })).json()) as { last_measurement: Record<string, unknown> });
    expect(listed.last_measurement.time).toBe(at + 2);
    expect([listed.last_measurement.x, listed.last_measurement.floor_id, listed.last_measurement.zones], 'where, in the sensor look-up').toEqual([undefined, undefined, undefined]);
    const page = async (token: string) => {
      const res = await t.api(restPaths.measurements(org, loc, 'location', { start: at, end: at + 10, sensor_id: [tag], ignore_previous_validity: true }), { token });
      expect(res.status).toBe(200);
      const body = (await res.json()) as MeasurementsResponse;
      return body.rows.map((r) => [r[body.columns.indexOf('x')], r[body.columns.indexOf('zones')]]);
    };
    expect(await page(tokens.regular)).toEqual([[null, null], [1.5, []], [null, null]]);
    expect(await page(tokens.edit)).toEqual([[1.5, [zone.id]], [1.5, []], [1.5, [zone.id]]]);

    // published: the zone, and the tag's position in it, reach the public
    const back = attacker.changes().length;
    expect((await t.api(restPaths.asset(org, loc, zone.id), { method: 'PATCH', token: tokens.edit, json: { unpublished: false } })).status).toBe(200);
    const sensorBack = () => attacker.changes().slice(back).find((c) => c.collection === 'sensors' && c.id === tag && c.kind === 'modified');
    await until(() => sensorBack(), 'the tag’s position back on the public stream');
    expect((sensorBack()!.data as { last_measurement: { zones?: string[] } }).last_measurement.zones).toEqual([zone.id]);
    expect((await t.api(restPaths.asset(org, loc, zone.id), { method: 'DELETE', token: tokens.edit })).status).toBe(204);
  });

  it('deleting an unpublished privacy zone tells the public where its tag now is, never the deleted zone’s id', async () => {
    const s = t.server.store;
    const employee = [...s.assets.values()].find((a) => a.location_id === loc && a.type === 'employee' && s.isAssetPublic(a) && a.data_provider_refs.location)!;
    const tag = employee.data_provider_refs.location!;
    const made = await t.api(restPaths.assets(org, loc), {
      method: 'POST', token: tokens.edit,
      json: { type: 'zone', subtype: 'privacy', name: 'Hidden nook', parent_id: publicFloor.id, x: 4, y: 4, outline: [[4, 4], [6, 4], [6, 6], [4, 6]], unpublished: true },
    });
    expect(made.status).toBe(201);
    const zone = (await made.json()) as WireAsset;
    const ingest = async (zones: string[], time: number) => {
      const value = { time, valid_for: 600_000, x: 5.5, y: 5.5, floor_id: publicFloor.id, floor: 0, zones };
      const res = await t.api(`${t.url}/v2/measurements`, { method: 'POST', token: tokens.edit, json: { measurements: [{ sensor_id: tag, value }] } });
      expect(res.status).toBe(200);
    };
    const at = s.clock.now() + 600_000;
    await ingest([zone.id], at);
    const heard = attacker.changes().length;
    expect((await t.api(restPaths.asset(org, loc, zone.id), { method: 'DELETE', token: tokens.edit })).status).toBe(204);
    // the zone is gone, the tag stands on a public floor: where it is reaches the public, without the zone
    const sensorNow = () => attacker.changes().slice(heard).find((c) => c.collection === 'sensors' && c.id === tag && c.kind === 'modified');
    await until(() => sensorNow(), 'the tag’s position on the public stream');
    const shown = (sensorNow()!.data as { last_measurement: Record<string, unknown> }).last_measurement;
    expect([shown.x, shown.floor_id, shown.zones], 'where, on the public stream').toEqual([5.5, publicFloor.id, []]);
    // a tag still reporting the deleted zone names it to the edit role only
    const heardReading = attacker.changes().length;
    await ingest([zone.id], at + 1);
    const readingNow = () => attacker.changes().slice(heardReading).find((c) => c.collection === 'measurements' && c.id === tag);
    await until(() => readingNow(), 'the later reading on the public stream');
    expect((readingNow()!.data as { value: { x: number; zones: string[] } }).value).toMatchObject({ x: 5.5, zones: [] });
    await settle();
    expect(mentions(attacker.packets, zone.id), 'the deleted zone on the attacker’s streams').toBe(false);
    expect(mentions(editor.changes().filter((c) => c.collection === 'measurements'), zone.id), 'the editor hears the reading as it came').toBe(true);

    const lookUp = await (await t.api(restPaths.sensor(org, loc, tag), { token: tokens.regular })).text();
    const list = await (await t.api(restPaths.sensors(org, loc), { token: tokens.regular })).text();
    expect(lookUp.includes(`"${zone.id}"`) || list.includes(`"${zone.id}"`), 'the deleted zone in the sensor list or look-up').toBe(false);
    expect((JSON.parse(lookUp) as { last_measurement: Record<string, unknown> }).last_measurement).toMatchObject({ x: 5.5, floor_id: publicFloor.id, zones: [] });
    const page = async (token: string) => {
      const res = await t.api(restPaths.measurements(org, loc, 'location', { start: at, end: at + 10, sensor_id: [tag], ignore_previous_validity: true }), { token });
      expect(res.status).toBe(200);
      const body = (await res.json()) as MeasurementsResponse;
      return body.rows.map((r) => [r[body.columns.indexOf('x')], r[body.columns.indexOf('zones')]]);
    };
    expect(await page(tokens.regular), 'the measurement pages of the public').toEqual([[5.5, []], [5.5, []]]);
    expect(await page(tokens.edit)).toEqual([[5.5, [zone.id]], [5.5, [zone.id]]]);
  });

  it('what stands in an unpublished room or building stays off the attacker’s streams, the room deleted or not', async () => {
    const api = async (method: string, path: string, json?: unknown) => {
      const res = await t.api(path, { method, token: tokens.edit, json });
      expect(res.status, `${method} ${path}`).toBeLessThan(300);
      return res.status === 204 ? null : (await res.json()) as WireAsset;
    };
    const editorHeard = (id: string, kind: string) => until(() => editor.changes().some((c) => c.collection === 'assets' && c.id === id && c.kind === kind), `the edit stream to carry ${kind} ${id}`);
    const room = (await api('POST', restPaths.assets(org, loc), { type: 'room', name: 'Closed room', parent_id: publicFloor.id, x: 4, y: 4, unpublished: true }))!;
    const desk = (await api('POST', restPaths.assets(org, loc), { type: 'shape', subtype: 'desk', name: 'Desk in the closed room', parent_id: room.id, x: 4, y: 4 }))!;
    await editorHeard(desk.id, 'created');
    await api('DELETE', restPaths.asset(org, loc, room.id));
    await editorHeard(room.id, 'deleted');
    await settle();
    expect(mentions(attacker.packets, room.id), 'the room').toBe(false);
    expect(mentions(attacker.packets, desk.id), 'the desk, in the room or after it').toBe(false);
    expect((await t.api(restPaths.asset(org, loc, desk.id), { token: tokens.regular })).status).toBe(404);
    await api('DELETE', restPaths.asset(org, loc, desk.id));

    // a whole building unpublished: its floors leave the public stream, and so does the position of whoever stands on one
    const walker = t.accounts.service.userId;
    // the walker may already stand there: wait for this move's own change, so the next one heard is the building's
    const moved = attacker.changes().length;
    await moveTo(tokens.service, walker, publicFloor);
    await until(() => (userChange(attacker, walker, moved)?.data as WireUser | undefined)?.location?.floor_id === publicFloor.id, 'the walker on the public floor');
    const heard = attacker.changes().length;
    await api('PATCH', restPaths.asset(org, loc, publicFloor.parent_id!), { unpublished: true });
    await until(() => userChange(attacker, walker, heard), 'the shared stream to withdraw the position');
    expect((userChange(attacker, walker, heard)!.data as WireUser).location).toBeNull();
    expect(attacker.changes().slice(heard).some((c) => c.collection === 'assets' && c.id === publicFloor.id && c.kind === 'deleted'), 'the floor leaves').toBe(true);
    expect((await usersOf(tokens.regular)).users.find((u) => u.id === walker)!.location).toBeNull();
    expect((await t.api(restPaths.asset(org, loc, publicFloor.id), { token: tokens.regular })).status).toBe(404);
    // the location lists the building to the edit role only, over REST and on the shared stream
    const building = publicFloor.parent_id!;
    const locationChange = (from: number) => attacker.changes().slice(from).filter((c) => c.collection === 'locations' && c.id === loc).at(-1);
    await until(() => locationChange(heard), 'the location without the building on the shared stream');
    expect((locationChange(heard)!.data as { buildings: string[] }).buildings).not.toContain(building);
    const listed = async (token: string) => ((await (await t.api(restPaths.location(org, loc), { token })).json()) as { buildings: string[] }).buildings;
    expect(await listed(tokens.regular)).not.toContain(building);
    expect(await listed(tokens.edit)).toContain(building);
    const back = attacker.changes().length;
    await api('PATCH', restPaths.asset(org, loc, building), { unpublished: false });
    await until(() => userChange(attacker, walker, back), 'the shared stream to show the position again');
    expect((userChange(attacker, walker, back)!.data as WireUser).location).toMatchObject({ floor_id: publicFloor.id });
    await until(() => locationChange(back), 'the location with the building again');
    expect((locationChange(back)!.data as { buildings: string[] }).buildings).toContain(building);
    expect(await listed(tokens.regular)).toContain(building);
  });

  it('a regular user cannot read the edit stream’s position or settle on the hidden floor', async () => {
    const before = (await usersOf(tokens.regular)).users;
    const res = await t.api(restPaths.user(org, t.accounts.regular.userId), {
      method: 'PATCH', token: tokens.regular, json: { location: { location_id: loc, floor_id: hiddenFloor.id, time: t.server.store.clock.now(), x: 1, y: 1 } },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe('body/location must name a floor of a location of this organization');
    expect((await usersOf(tokens.regular)).users).toEqual(before);
    const settings = await settingsOf(t, tokens.regular);
    expect(mentions(settings, hiddenFloor.id)).toBe(false);
  });
});
