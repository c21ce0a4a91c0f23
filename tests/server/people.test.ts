import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_SEQUENCE_HEADER } from '../../src/shared/protocol.js';
import {
  restPaths, type BookingResponse, type WireExternalObject, type WireNotification, type WireUser,
} from '../../src/shared/rest.js';
import type { ReservationEvent } from '../../src/shared/types.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('server people, objects, notifications and booking', () => {
  let t: TestServer;
  let admin: string;
  let edit: string;
  let regular: string;
  let other: string;
  let org: string;
  beforeAll(async () => {
    t = await startTestServer();
    ({ admin, edit, regular, otherOrg: other } = await t.signInAll());
    org = t.accounts.edit.organizationId;
  });
  afterAll(async () => { await t?.close(); });

  describe('users', () => {
    it('lists the organization users with the organization stream position', async () => {
      const res = await t.api(restPaths.users(org), { token: regular });
      expect(res.status).toBe(200);
      expect(res.headers.get(STREAM_SEQUENCE_HEADER)).toMatch(/^\d+$/);
      const users = (await res.json()) as WireUser[];
      expect(users.every((u) => u.organization_id === org)).toBe(true);
      expect(users.some((u) => u.location_tag_id !== null)).toBe(true);
      expect((await t.api(restPaths.users(org), { token: other })).status).toBe(403);
    });
    it('lets a regular user update their own name, visibility and manual location, nothing else', async () => {
      const me = restPaths.user(org, t.accounts.regular.userId);
      const floor = [...t.server.store.assets.values()].find((a) => a.type === 'floor' && a.location_id === t.server.seed.locationIds[0])!;
      const ok = await t.api(me, { method: 'PATCH', token: regular, json: { first_name: 'Rita', visible: false, location: { location_id: floor.location_id, floor_id: floor.id, time: Date.now(), x: 4.5, y: 7 } } });
      expect(ok.status).toBe(200);
      expect((await ok.json()) as WireUser).toMatchObject({ visible: false, location: { floor_id: floor.id, x: 4.5, y: 7 } });
      expect((await t.api(me, { method: 'PATCH', token: regular, json: { permissions: ['ASSET_UPDATE'] } })).status).toBe(403);
      expect((await t.api(restPaths.user(org, t.accounts.edit.userId), { method: 'PATCH', token: regular, json: { first_name: 'x' } })).status).toBe(403);
      expect((await t.api(me, { method: 'PATCH', token: regular, json: { location: { location_id: '999999', floor_id: floor.id, time: 1 } } })).status).toBe(400);
      expect((await t.api(me, { method: 'PATCH', token: regular, json: { visible: 'yes' } })).status).toBe(400);
    });
    it('keeps a tagged user\'s location in step with their tag: the location and floor, cleared in a privacy zone', async () => {
      const { store } = t.server;
      const tag = [...store.locationTags.values()].find((x) => x.user_id && x.location_id === t.server.seed.locationIds[1])!;
      const user = store.users.get(tag.user_id!)!;
      const floors = [...store.assets.values()].filter((a) => a.type === 'floor' && a.location_id === tag.location_id && !a.hidden);
      const now = Date.now();
      store.addMeasurement(tag.sensor_id, { time: now, valid_for: 600_000, x: 2, y: 2, floor_id: floors[0]!.id, zones: [] });
      expect(user.location).toEqual({ location_id: tag.location_id, floor_id: floors[0]!.id, time: now });
      // the same floor a minute later is not written again; another floor is
      store.addMeasurement(tag.sensor_id, { time: now + 60_000, valid_for: 600_000, x: 3, y: 2, floor_id: floors[0]!.id, zones: [] });
      expect(user.location?.time).toBe(now);
      store.addMeasurement(tag.sensor_id, { time: now + 120_000, valid_for: 600_000, x: 3, y: 2, floor_id: floors[1]!.id, zones: [] });
      expect(user.location).toEqual({ location_id: tag.location_id, floor_id: floors[1]!.id, time: now + 120_000 });
      // an older reading arriving late changes nothing
      store.addMeasurement(tag.sensor_id, { time: now + 90_000, valid_for: 600_000, x: 3, y: 2, floor_id: floors[0]!.id, zones: [] });
      expect(user.location?.floor_id).toBe(floors[1]!.id);
      // in a privacy zone it is told to nobody
      const privacy = [...store.assets.values()].find((a) => a.type === 'zone' && a.subtype === 'privacy' && a.location_id === tag.location_id)!;
      store.addMeasurement(tag.sensor_id, { time: now + 180_000, valid_for: 600_000, x: 3, y: 2, floor_id: privacy.parent_id!, zones: [privacy.id] });
      expect(user.location).toBeNull();
      const listed = (await (await t.api(restPaths.users(org), { token: regular })).json()) as WireUser[];
      expect(listed.find((u) => u.id === user.id)?.location).toBeNull();
    });
    it('lets the edit role create and delete users below it; only the admin grants permissions', async () => {
      const created = await t.api(restPaths.users(org), { method: 'POST', token: edit, json: { email: 'temp.user@storey.test', first_name: 'Temp' } });
      expect(created.status).toBe(201);
      const user = (await created.json()) as WireUser;
      expect(user.permissions).toEqual(['USER_UPDATE_SELF']);
      expect((await t.api(restPaths.user(org, user.id), { method: 'PATCH', token: edit, json: { permissions: ['ASSET_UPDATE'] } })).status).toBe(403);
      expect((await t.api(restPaths.user(org, user.id), { method: 'PATCH', token: admin, json: { permissions: ['ASSET_UPDATE'] } })).status).toBe(200);
      expect((await t.api(restPaths.users(org), { method: 'POST', token: edit, json: { email: 'temp.user@storey.test' } })).status).toBe(409);
      expect((await t.api(restPaths.users(org), { method: 'POST', token: regular, json: { email: 'x@storey.test' } })).status).toBe(403);
      expect((await t.api(restPaths.user(org, user.id), { method: 'DELETE', token: regular })).status).toBe(403);
      // now an edit user: an equal role, so only the admin removes them (docs/security.md)
      expect((await t.api(restPaths.user(org, user.id), { method: 'DELETE', token: edit })).status).toBe(403);
      expect((await t.api(restPaths.user(org, user.id), { method: 'PATCH', token: admin, json: { permissions: ['USER_UPDATE_SELF'] } })).status).toBe(200);
      expect((await t.api(restPaths.user(org, user.id), { method: 'DELETE', token: edit })).status).toBe(204);
      expect((await t.api(restPaths.user(org, user.id), { token: edit })).status).toBe(404);
    });
    it('stores and removes the own avatar image', async () => {
      const path = restPaths.userImage(org, t.accounts.regular.userId);
      const put = await fetch(`${t.baseUrl}${path}`, { method: 'PUT', headers: { authorization: `Bearer ${regular}`, 'content-type': 'image/svg+xml' }, body: '<svg xmlns="http://www.w3.org/2000/svg"/>' });
      expect(put.status).toBe(200);
      const url = t.server.store.users.get(t.accounts.regular.userId)!.avatar_url!;
      expect((await fetch(`${t.url}/v1/files/${url}`)).status).toBe(200);
      expect((await fetch(`${t.baseUrl}${restPaths.userImage(org, t.accounts.edit.userId)}`, { method: 'PUT', headers: { authorization: `Bearer ${regular}`, 'content-type': 'image/svg+xml' }, body: '<svg xmlns="http://www.w3.org/2000/svg"/>' })).status).toBe(403);
      expect((await t.api(path, { method: 'DELETE', token: regular })).status).toBe(204);
      expect(t.server.store.users.get(t.accounts.regular.userId)!.avatar_url).toBeNull();
    });
  });

  describe('DELETE /location_tags/{id}', () => {
    it('unassigns a tag from its user; the regular role may not remove others’ tags', async () => {
      const tag = [...t.server.store.locationTags.values()].find((x) => x.user_id && x.organization_id === org)!;
      expect((await t.api(restPaths.locationTag(tag.id), { method: 'DELETE', token: regular })).status).toBe(403);
      expect((await t.api(restPaths.locationTag(tag.id), { method: 'DELETE', token: other })).status).toBe(404);
      expect((await t.api(restPaths.locationTag(tag.id), { method: 'DELETE' })).status).toBe(401);
      expect((await t.api(restPaths.locationTag(tag.id), { method: 'DELETE', token: edit })).status).toBe(204);
      expect(t.server.store.users.get(tag.user_id!)!.location_tag_id).toBeNull();
      expect((await t.api(restPaths.locationTag(tag.id), { method: 'DELETE', token: edit })).status).toBe(404);
    });
  });

  describe('external objects', () => {
    it('lists by organization_id or location_id with the organization stream position', async () => {
      const res = await t.api(restPaths.externalObjects({ organization_id: org }), { token: regular });
      expect(res.status).toBe(200);
      expect(res.headers.get(STREAM_SEQUENCE_HEADER)).toMatch(/^\d+$/);
      expect(((await res.json()) as WireExternalObject[]).some((o) => o.type === 'user')).toBe(true);
      expect((await t.api(restPaths.externalObjects({ location_id: t.server.seed.locationIds[0] }), { token: regular })).status).toBe(200);
      expect((await t.api(restPaths.externalObjects(), { token: regular })).status).toBe(400);
      expect((await t.api(restPaths.externalObjects({ organization_id: org }), { token: other })).status).toBe(403);
    });
    it('lets the edit role create, update and delete one; refuses the regular role with 403', async () => {
      expect((await t.api(restPaths.externalObjects(), { method: 'POST', token: regular, json: { name: 'Cal', type: 'calendar' } })).status).toBe(403);
      const created = await t.api(restPaths.externalObjects(), { method: 'POST', token: edit, json: { name: 'Cal', type: 'calendar', data: { id: 'c1' } } });
      expect(created.status).toBe(201);
      const obj = (await created.json()) as WireExternalObject;
      expect(obj.organization_id).toBe(org);
      expect((await t.api(restPaths.externalObject(obj.id), { token: other })).status).toBe(404);
      expect((await t.api(restPaths.externalObject(obj.id), { method: 'PATCH', token: edit, json: { name: 'Calendar' } })).status).toBe(200);
      expect((await t.api(restPaths.externalObject(obj.id), { method: 'PATCH', token: edit, json: { data: 'x' } })).status).toBe(400);
      expect((await t.api(restPaths.externalObject(obj.id), { method: 'DELETE', token: regular })).status).toBe(403);
      expect((await t.api(restPaths.externalObject(obj.id), { method: 'DELETE', token: edit })).status).toBe(204);
      expect((await t.api(restPaths.externalObject(obj.id), { token: edit })).status).toBe(404);
    });
  });

  describe('notifications', () => {
    it('lists the own notifications newest first with the user stream position', async () => {
      const res = await t.api(restPaths.notifications(), { token: regular });
      expect(res.status).toBe(200);
      expect(res.headers.get(STREAM_SEQUENCE_HEADER)).toMatch(/^\d+$/);
      const list = (await res.json()) as WireNotification[];
      expect(list.length).toBeGreaterThan(0);
      expect(list.every((n) => n.user_id === t.accounts.regular.userId)).toBe(true);
      expect(list.map((n) => n.created)).toEqual([...list.map((n) => n.created)].sort((a, b) => b - a));
    });
    it('lets the edit role notify a user, who reads, marks and deletes it; nobody else sees it', async () => {
      expect((await t.api(restPaths.notifications(), { method: 'POST', token: regular, json: { user_id: t.accounts.regular.userId, title: 'x', body: 'y' } })).status).toBe(403);
      expect((await t.api(restPaths.notifications(), { method: 'POST', token: edit, json: { user_id: t.accounts.otherOrg.userId, title: 'x', body: 'y' } })).status).toBe(400);
      const created = await t.api(restPaths.notifications(), { method: 'POST', token: edit, json: { user_id: t.accounts.regular.userId, title: 'Desk moved', body: 'Your desk moved.' } });
      expect(created.status).toBe(201);
      const n = (await created.json()) as WireNotification;
      expect((await t.api(restPaths.notification(n.id), { token: edit })).status).toBe(404);
      expect((await t.api(restPaths.notification(n.id), { token: regular })).status).toBe(200);
      const read = await t.api(restPaths.notification(n.id), { method: 'PATCH', token: regular, json: { read: true } });
      expect(((await read.json()) as WireNotification).read).toBe(true);
      expect((await t.api(restPaths.notification(n.id), { method: 'PATCH', token: regular, json: { read: 'yes' } })).status).toBe(400);
      expect((await t.api(restPaths.notification(n.id), { method: 'DELETE', token: regular })).status).toBe(204);
      expect((await t.api(restPaths.notification(n.id), { token: regular })).status).toBe(404);
      expect((await t.api(restPaths.notifications())).status).toBe(401);
    });
  });

  describe('POST and DELETE /booking', () => {
    const roomWithSensor = () => [...t.server.store.assets.values()].find((a) => a.type === 'room' && a.location_id === t.server.seed.locationIds[1])!;
    const eventsOf = (sensorId: string) => (t.server.store.sensors.get(sensorId)!.last_measurement!.events ?? []) as ReservationEvent[];

    it('books a free slot into the reservation sensor and cancels it again', async () => {
      const room = roomWithSensor();
      const start = Date.now() + 20 * 86_400_000;
      const res = await t.api(restPaths.booking(), { method: 'POST', token: regular, json: { room_id: room.id, start, end: start + 1_800_000, subject: 'Retro' } });
      expect(res.status).toBe(201);
      const booking = (await res.json()) as BookingResponse;
      expect(booking.event).toMatchObject({ start, subject: 'Retro', user_id: t.accounts.regular.userId });
      expect(eventsOf(booking.sensor_id).some((e) => e.booking_ref === booking.booking_ref)).toBe(true);
      const overlap = await t.api(restPaths.booking(), { method: 'POST', token: edit, json: { room_id: room.id, start: start + 60_000, end: start + 600_000, subject: 'Clash' } });
      expect(overlap.status).toBe(409);
      expect((await t.api(restPaths.booking(), { method: 'DELETE', token: await t.signIn('service'), json: { room_id: room.id, booking_ref: booking.booking_ref } })).status).toBe(403);
      const cancel = await t.api(restPaths.booking(), { method: 'DELETE', token: regular, json: { room_id: room.id, booking_ref: booking.booking_ref } });
      expect(cancel.status).toBe(204);
      expect(eventsOf(booking.sensor_id).some((e) => e.booking_ref === booking.booking_ref)).toBe(false);
      expect((await t.api(`${restPaths.booking()}?room_id=${room.id}&booking_ref=${booking.booking_ref}`, { method: 'DELETE', token: regular })).status).toBe(404);
    });
    it('refuses malformed bookings with 400, unknown rooms with 404 and no token with 401', async () => {
      const room = roomWithSensor();
      const start = Date.now() + 30 * 86_400_000;
      const before = JSON.stringify(eventsOf(room.data_provider_refs.reservation!));
      expect((await t.api(restPaths.booking(), { method: 'POST', token: regular, json: { room_id: room.id, start, end: start - 1, subject: 'x' } })).status).toBe(400);
      expect((await t.api(restPaths.booking(), { method: 'POST', token: regular, json: { room_id: room.id, start: 'soon', end: start, subject: 'x' } })).status).toBe(400);
      expect((await t.api(restPaths.booking(), { method: 'POST', token: regular, json: { room_id: room.id, start, end: start + 1000 } })).status).toBe(400);
      expect((await t.api(restPaths.booking(), { method: 'DELETE', token: regular, json: { room_id: room.id } })).status).toBe(400);
      expect((await t.api(restPaths.booking(), { method: 'POST', token: regular, json: { room_id: '999999', start, end: start + 1000, subject: 'x' } })).status).toBe(404);
      expect((await t.api(restPaths.booking(), { method: 'POST', token: other, json: { room_id: room.id, start, end: start + 1000, subject: 'x' } })).status).toBe(404);
      expect((await t.api(restPaths.booking(), { method: 'POST', json: { room_id: room.id, start, end: start + 1000, subject: 'x' } })).status).toBe(401);
      expect(JSON.stringify(eventsOf(room.data_provider_refs.reservation!))).toBe(before);
    });
  });
});
