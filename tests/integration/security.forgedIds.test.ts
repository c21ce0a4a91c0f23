// Forged ids in bodies, played against the real reference server: an edit
// user of one organization (the seed's "Other Corp") works only in its own
// organization's URLs, which it may, and names the other organization's ids
// in the bodies — a parent, a sensor, a reservation sensor, a floor to stand
// on, a tag, a user to notify, a location for an external object, a room to
// book. Every such request is refused, nothing stored changes and nothing is
// published on the victim organization's streams. Until 2026-11-25 a room's
// `data_provider_refs` could name any sensor, so booking one's own room wrote
// reservations into another organization's sensor and its 409 told when that
// organization's room was busy. Last, mass assignment: fields no caller sets
// (owner, organization, location, id, version, votes, a user's role or
// avatar_url) are refused by name in every body.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restPaths, type BookingResponse, type WireAsset, type WireExternalObject, type WireSensor } from '../../src/shared/rest.js';
import type { StreamScope } from '../../src/shared/protocol.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { messageOf, storeFingerprint } from './support/attack.js';

describe('security: ids of another organization forged into bodies', () => {
  let t: TestServer;
  let tokens: Awaited<ReturnType<TestServer['signInAll']>>;
  /** the victim organization and the attacker's (whose edit user `tokens.otherOrg` is) */
  let orgA: string;
  let locA: string;
  let orgB: string;
  let locB: string;
  let floorA: WireAsset;
  let buildingA: WireAsset;
  let roomA: WireAsset;
  let reservationA: WireSensor;
  let sensorA: WireSensor;
  let floorB: WireAsset;
  let buildingB: WireAsset;
  let deskB: WireAsset;

  const assetsOf = (loc: string) => [...t.server.store.assets.values()].filter((a) => a.location_id === loc && t.server.store.isAssetPublic(a));
  const asB = (path: string, method: string, json?: unknown) => t.api(path, { method, token: tokens.otherOrg, json });

  /** runs `attack`, then shows that nothing stored changed and nothing reached the victim organization's streams */
  async function refused(attack: () => Promise<Response>, status: number, message?: string | RegExp) {
    const before = storeFingerprint(t);
    const published: StreamScope[] = [];
    const stop = t.server.publisher.onPublish((scope) => { published.push(scope); });
    const res = await attack();
    await t.server.publisher.flush();
    stop();
    const body = await res.text();
    expect(res.status, body).toBe(status);
    if (message !== undefined) expect((JSON.parse(body) as { message: string }).message).toMatch(message);
    expect(storeFingerprint(t)).toBe(before);
    expect(published.filter((s) => s.kind !== 'user' && s.organizationId === orgA)).toEqual([]);
  }

  beforeAll(async () => {
    t = await startTestServer();
    tokens = await t.signInAll();
    const { seed, store } = t.server;
    orgA = seed.organizationId;
    locA = seed.locationIds[0]!;
    orgB = seed.otherOrganizationId;
    locB = seed.otherLocationId;
    floorA = assetsOf(locA).find((a) => a.type === 'floor')!;
    buildingA = assetsOf(locA).find((a) => a.type === 'building')!;
    roomA = assetsOf(locA).find((a) => a.type === 'room' && a.data_provider_refs.reservation)!;
    reservationA = store.sensors.get(roomA.data_provider_refs.reservation!)!;
    sensorA = [...store.sensors.values()].find((s) => s.location_id === locA && s.type !== 'reservation')!;
    floorB = assetsOf(locB).find((a) => a.type === 'floor')!;
    buildingB = assetsOf(locB).find((a) => a.type === 'building')!;
    deskB = assetsOf(locB).find((a) => a.subtype === 'desk')!;
    for (const x of [floorA, buildingA, roomA, reservationA, sensorA, floorB, buildingB, deskB]) expect(x).toBeDefined();
    // the attacker holds the edit role in its own organization
    expect(t.accounts.otherOrg.organizationId).toBe(orgB);
    expect((await asB(restPaths.asset(orgB, locB, deskB.id), 'PATCH', { name: 'Own desk' })).status).toBe(200);
  });
  afterAll(async () => { await t?.close(); });

  it('refuses the other organization’s sensor as a room’s reservation sensor, on create and on update', async () => {
    const room = { type: 'room', name: 'Borrowed room', parent_id: floorB.id, config: { assetBookingFeature: true } };
    await refused(() => asB(restPaths.assets(orgB, locB), 'POST', { ...room, data_provider_refs: { reservation: reservationA.id } }), 400,
      `body/data_provider_refs/reservation: ${reservationA.id} is not a sensor of this location`);
    await refused(() => asB(restPaths.asset(orgB, locB, deskB.id), 'PATCH', { data_provider_refs: { occupancy: sensorA.id } }), 400,
      `body/data_provider_refs/occupancy: ${sensorA.id} is not a sensor of this location`);
    // an id that is no sensor at all, the same answer
    await refused(() => asB(restPaths.asset(orgB, locB, deskB.id), 'PATCH', { data_provider_refs: { occupancy: '999999999' } }), 400,
      'body/data_provider_refs/occupancy: 999999999 is not a sensor of this location');
    // a sensor of the attacker's own location is still taken
    const own = (await (await asB(restPaths.sensors(orgB, locB), 'POST', { type: 'reservation' })).json()) as WireSensor;
    const made = await asB(restPaths.assets(orgB, locB), 'POST', { ...room, data_provider_refs: { reservation: own.id } });
    expect(made.status).toBe(201);
    expect(((await made.json()) as WireAsset).data_provider_refs).toEqual({ reservation: own.id });
  });

  it('never books into another organization’s sensor through a room that names it, nor tells when that room is busy', async () => {
    // such a room may already be stored (made before the check above, or imported): booking it must not reach the sensor
    const { store } = t.server;
    const planted = store.createAsset(locB, {
      type: 'room', name: 'Planted room', parent_id: floorB.id, data_provider_refs: { reservation: reservationA.id }, config: { assetBookingFeature: true },
    }, t.accounts.otherOrg.userId);
    // a slot the victim's room is booked in: a 409 would tell the attacker so
    const busy = store.clock.now() + 50 * 86_400_000;
    const victim = await t.api(restPaths.booking(), {
      method: 'POST', token: tokens.regular, json: { room_id: roomA.id, start: busy, end: busy + 1_800_000, subject: 'Board meeting' },
    });
    expect(victim.status).toBe(201);
    const { booking_ref: ref } = (await victim.json()) as BookingResponse;
    for (const start of [busy, busy + 86_400_000]) {
      await refused(() => asB(restPaths.booking(), 'POST', { room_id: planted.id, start, end: start + 1_800_000, subject: 'Squat' }), 400,
        'This asset has no reservation sensor');
    }
    await refused(() => t.api(restPaths.booking(), { method: 'DELETE', token: tokens.otherOrg, json: { room_id: planted.id, booking_ref: ref } }), 400,
      'This asset has no reservation sensor');
    expect((store.sensors.get(reservationA.id)!.last_measurement!.events as Array<{ booking_ref: string }>).map((e) => e.booking_ref)).toContain(ref);
  });

  it('refuses the other organization’s assets and sensors as parents, providers, floors, tickets and lists', async () => {
    const assets = restPaths.assets(orgB, locB);
    await refused(() => asB(assets, 'POST', { type: 'shape', subtype: 'desk', name: 'Desk', parent_id: floorA.id }), 400, 'body/parent_id is not an asset of this location');
    await refused(() => asB(restPaths.asset(orgB, locB, deskB.id), 'PATCH', { parent_id: roomA.id }), 400, 'body/parent_id is not an asset of this location');
    await refused(() => asB(assets, 'POST', { type: 'shape', name: 'Desk', parent_id: floorB.id, data_providers: [sensorA.id] }), 400, /is not a sensor of this location/);
    await refused(() => asB(assets, 'POST', { type: 'ticket', subtype: 'cleaning', name: 'Ticket', parent_id: floorA.id, value: { text: 'Spill' } }), 400,
      'body/parent_id must be a floor of this location');
    await refused(() => asB(restPaths.asset(orgB, locB, buildingB.id), 'PATCH', { floors: [...(buildingB.floors ?? []), floorA.id] }), 400, /body\/floors must be a reordering/);
    await refused(() => asB(restPaths.location(orgB, locB), 'PATCH', { buildings: [buildingA.id] }), 400, /body\/buildings must be a reordering/);
    await refused(() => asB(restPaths.sensors(orgB, locB), 'POST', { type: 'occupancy', asset_id: roomA.id }), 400, 'body/asset_id is not an asset of this location');
    const ownSensor = [...t.server.store.sensors.values()].find((s) => s.location_id === locB)!;
    await refused(() => asB(restPaths.sensor(orgB, locB, ownSensor.id), 'PATCH', { asset_id: floorA.id }), 400, 'body/asset_id is not an asset of this location');
    // reading the other organization's sensors through one's own location's pages: none of their rows
    for (const type of [sensorA.type, reservationA.type]) {
      const page = await asB(`${restPaths.measurements(orgB, locB, type, { start: 0, limit: 500 })}&sensor_id=${sensorA.id}&sensor_id=${reservationA.id}`, 'GET');
      expect(page.status).toBe(200);
      const { rows, columns } = (await page.json()) as { rows: unknown[][]; columns: string[] };
      const at = columns.indexOf('sensor_id');
      expect(rows.filter((r) => r[at] === sensorA.id || r[at] === reservationA.id)).toEqual([]);
      expect((await t.api(`${restPaths.measurements(orgA, locA, type, { start: 0, limit: 5 })}&sensor_id=${sensorA.id}`, { token: tokens.regular })).status).toBe(200);
    }
    await refused(() => asB(`${t.url}/v2${restPaths.ingestMeasurements()}`, 'POST', {
      measurements: [{ sensor_id: ownSensor.id, value: { time: Date.now(), value: 1 } }, { sensor_id: sensorA.id, value: { time: Date.now(), value: 1 } }],
    }), 400, `body/measurements/1/sensor_id: unknown sensor ${sensorA.id}`);
  });

  it('refuses the other organization’s floor to stand on, its tag, its users and its locations', async () => {
    const { store } = t.server;
    const me = restPaths.user(orgB, t.accounts.otherOrg.userId);
    await refused(() => asB(me, 'PATCH', { location: { location_id: locA, floor_id: floorA.id, time: Date.now() } }), 400, 'body/location must name a floor of a location of this organization');
    await refused(() => asB(me, 'PATCH', { location: { location_id: locB, floor_id: floorA.id, time: Date.now() } }), 400, 'body/location must name a floor of a location of this organization');
    const tagA = [...store.locationTags.values()].find((tag) => tag.organization_id === orgA)!;
    await refused(() => asB(me, 'PATCH', { location_tag_id: tagA.id }), 400, 'body/location_tag_id is not a tag of this organization');
    await refused(() => asB(restPaths.locationTag(tagA.id), 'DELETE'), 404, 'Location tag not found');
    await refused(() => asB(restPaths.notifications(), 'POST', { user_id: t.accounts.admin.userId, title: 'Reset your password', body: 'Click' }), 400,
      'body/user_id is not a user of your organization');
    await refused(() => asB(restPaths.externalObjects(), 'POST', { name: 'Planted', type: 'directory', organization_id: orgA }), 403, 'No access to this organization');
    await refused(() => asB(restPaths.externalObjects(), 'POST', { name: 'Planted', type: 'directory', location_id: locA }), 400,
      'body/location_id is not a location of this organization');
    const ownObject = [...store.externalObjects.values()].find((o) => o.organization_id === orgB)!;
    await refused(() => asB(restPaths.externalObject(ownObject.id), 'PATCH', { organization_id: orgA }), 400, 'body/organization_id cannot change');
    await refused(() => asB(restPaths.externalObject(ownObject.id), 'PATCH', { location_id: locA }), 400, 'body/location_id is not a location of this organization');
    const objectA = [...store.externalObjects.values()].find((o) => o.organization_id === orgA) as WireExternalObject;
    await refused(() => asB(restPaths.externalObjects({ organization_id: orgB, location_id: locA }), 'GET'), 404, 'Location not found');
    await refused(() => asB(restPaths.externalObject(objectA.id), 'DELETE'), 404, 'External object not found');
  });

  it('refuses to book or cancel the other organization’s rooms, answering as for an unknown room', async () => {
    const start = t.server.store.clock.now() + 60 * 86_400_000;
    const booked = await t.api(restPaths.booking(), { method: 'POST', token: tokens.regular, json: { room_id: roomA.id, start, end: start + 1_800_000, subject: 'Ours' } });
    const { booking_ref: ref } = (await booked.json()) as BookingResponse;
    await refused(() => asB(restPaths.booking(), 'POST', { room_id: roomA.id, start: start + 3_600_000, end: start + 5_400_000, subject: 'Theirs' }), 404, 'Room not found');
    await refused(() => asB(restPaths.booking(), 'DELETE', { room_id: roomA.id, booking_ref: ref }), 404, 'Room not found');
    expect(await messageOf(await asB(restPaths.booking(), 'POST', { room_id: '987654321', start, end: start + 1_800_000, subject: 'x' }))).toBe('Room not found');
  });
});

describe('security: mass assignment of fields no caller sets', () => {
  let t: TestServer;
  let tokens: Awaited<ReturnType<TestServer['signInAll']>>;

  beforeAll(async () => {
    t = await startTestServer();
    tokens = await t.signInAll();
  });
  afterAll(async () => { await t?.close(); });

  it('refuses ownership, organization, identity and role fields in every body with 400 naming the field, changing nothing', async () => {
    const { seed, store } = t.server;
    const org = seed.organizationId;
    const loc = seed.locationIds[0]!;
    const other = seed.otherOrganizationId;
    const desk = [...store.assets.values()].find((a) => a.location_id === loc && a.subtype === 'desk' && store.isAssetPublic(a))!;
    const sensor = [...store.sensors.values()].find((s) => s.location_id === loc)!;
    const note = [...store.notifications.values()].find((n) => n.user_id === t.accounts.regular.userId)!;
    const me = restPaths.user(org, t.accounts.regular.userId);
    const attempts: Array<[string, string, string, unknown, string]> = [
      ['regular', 'PATCH', me, { organization_id: other }, 'organization_id'],
      ['regular', 'PATCH', me, { id: t.accounts.admin.userId }, 'id'],
      ['regular', 'PATCH', me, { uuid: 'x' }, 'uuid'],
      ['regular', 'PATCH', me, { avatar_url: 'avatars/someone-else.png' }, 'avatar_url'],
      ['regular', 'PATCH', me, { role: 'admin' }, 'role'],
      ['regular', 'PATCH', me, { password: 'new-password-1' }, 'password'],
      ['regular', 'PATCH', restPaths.notification(note.id), { read: true, user_id: t.accounts.admin.userId }, 'user_id'],
      ['regular', 'POST', restPaths.booking(), { room_id: desk.id, start: Date.now() + 1e9, end: Date.now() + 1e9 + 60_000, subject: 'x', user_id: t.accounts.admin.userId }, 'user_id'],
      ['edit', 'PATCH', restPaths.asset(org, loc, desk.id), { owner_id: t.accounts.edit.userId }, 'owner_id'],
      ['edit', 'PATCH', restPaths.asset(org, loc, desk.id), { location_id: seed.otherLocationId }, 'location_id'],
      ['edit', 'PATCH', restPaths.asset(org, loc, desk.id), { version: 999 }, 'version'],
      ['edit', 'PATCH', restPaths.asset(org, loc, desk.id), { votes: { up: 1000, down: 0 } }, 'votes'],
      ['edit', 'POST', restPaths.assets(org, loc), { type: 'shape', name: 'x', location_id: seed.otherLocationId }, 'location_id'],
      ['edit', 'PATCH', restPaths.sensor(org, loc, sensor.id), { location_id: seed.otherLocationId }, 'location_id'],
      ['edit', 'PATCH', restPaths.sensor(org, loc, sensor.id), { last_measurement: { time: 1 } }, 'last_measurement'],
      ['edit', 'PATCH', restPaths.organization(org), { locations: [seed.otherLocationId] }, 'locations'],
      ['edit', 'PATCH', restPaths.organization(org), { id: other }, 'id'],
      ['edit', 'PATCH', restPaths.location(org, loc), { organization_id: other }, 'organization_id'],
      ['edit', 'POST', restPaths.users(org), { email: 'mass@storey.test', organization_id: other }, 'organization_id'],
      ['edit', 'POST', restPaths.inviteUser(org), { email: 'mass2@storey.test', location_tag_id: '1' }, 'location_tag_id'],
      ['edit', 'POST', restPaths.notifications(), { user_id: t.accounts.regular.userId, title: 'x', body: 'y', read: true, created: 1 }, 'read'],
    ];
    for (const [who, method, path, json, field] of attempts) {
      const before = storeFingerprint(t);
      const res = await t.api(path, { method, token: tokens[who as 'regular' | 'edit'], json });
      expect.soft(res.status, `${method} ${path} ${field}`).toBe(400);
      expect.soft(await messageOf(res), `${method} ${path}`).toBe(`body must NOT have additional property '${field}'`);
      expect.soft(storeFingerprint(t), `${method} ${path} ${field}`).toBe(before);
    }
  });
});
