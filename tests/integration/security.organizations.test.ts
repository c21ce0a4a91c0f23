// Every route of the real reference server played by someone who must not
// reach it: anonymous, and the edit user of another organization (the seed's
// "Other Corp", the strongest role short of admin) aiming at the first
// organization's objects by their numeric ids. Each request is one that works
// for the right user of the first organization, which the test shows by
// sending it again as that user afterwards, so a refusal is the guard's and
// not a malformed body's. An admin's token that was signed out, ended by a
// password change, or whose user was deleted opens no route. A refusal says nothing about the target (the error
// body only), changes nothing stored and publishes nothing on the victim
// organization's streams. Inside one organization, a user's notifications and
// bookings are theirs (another user of the same organization meets 404 / 403).
//
// The route list comes from the server itself: a route added without a case
// here fails the coverage test, so no route escapes the matrix.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pusherChannel, type StreamScope } from '../../src/shared/protocol.js';
import { restPaths, type BookingResponse, type WireAsset } from '../../src/shared/rest.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { storeFingerprint } from './support/attack.js';

type Who = 'admin' | 'edit' | 'regular';
interface Request {
  path: string;
  json?: unknown;
  /** a raw PNG body instead of JSON */
  image?: boolean;
}
interface Case {
  /** the user of the victim organization for whom the same request works */
  control: Who;
  make(): Request | Promise<Request>;
}

/** Routes that name no organization's object: sign-in and account flows, the caller's own things, public files. */
const NOT_ORGANIZATION_SCOPED: Record<string, string> = {
  'POST /v1/login': 'public: sign-in',
  'POST /v1/openid_login': 'public: sign-in',
  'POST /v1/signup': 'public: answers 202 whatever the address (security.abuse)',
  'POST /v1/signup/confirm': 'public: a mailed code (security.abuse)',
  'POST /v1/recover_password': 'public: answers 202 whatever the address',
  'GET /v1/auth_uri': 'public: rate-limited (security.abuse)',
  'GET /v1/current_time': 'public: the clock',
  'GET /v1/dev/outbox': 'tests and --dev-routes only, never in production',
  'GET /v1/files/*': 'public: unguessable names (security.disclosure)',
  'POST /v1/logout': 'the caller’s own session',
  'GET /v2/settings': 'the caller’s own user and credentials',
  'GET /v1/notifications': 'the caller’s own notifications (below: nothing of another user’s)',
  'GET /v1/organizations': 'the caller’s own organization (below: the other one is not listed)',
};

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64',
);

describe('security: every route against another organization and anonymous callers', () => {
  let t: TestServer;
  let tokens: Awaited<ReturnType<TestServer['signInAll']>>;
  let orgA: string;
  let locA: string;
  let floorA: WireAsset;
  let serial = 0;
  const cases = new Map<string, Case>();

  const fresh = () => { serial += 1; return serial; };
  const send = (method: string, req: Request, token: string | null) => {
    const url = /^https?:/.test(req.path) ? req.path : `${t.baseUrl}${req.path}`;
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    if (req.image) return fetch(url, { method, headers: { ...headers, 'content-type': 'image/png' }, body: PNG });
    if (req.json !== undefined) return fetch(url, { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(req.json) });
    return fetch(url, { method, headers });
  };
  const aDesk = () => t.server.store.createAsset(locA, { type: 'shape', subtype: 'desk', name: `Target desk ${fresh()}`, parent_id: floorA.id }, t.accounts.edit.userId);
  const aUser = () => t.server.store.createUser(orgA, { email: `target.${fresh()}@storey.test`, first_name: 'Target', permissions: ['USER_UPDATE_SELF'] });
  const aSensor = () => t.server.store.createSensor(locA, { type: 'occupancy' });
  const aNotification = () => t.server.store.createNotification({
    user_id: t.accounts.regular.userId, title: `Private ${fresh()}`, body: 'For Rita only', level: 'info', link: null, created: Date.now(), read: false,
  });
  const aTicket = () => t.server.store.createAsset(locA, {
    type: 'ticket', subtype: 'cleaning', name: `Ticket ${fresh()}`, parent_id: floorA.id, votes: { up: 0, down: 0 },
    value: { text: 'Spill', label: 'cleaning', status: 'open', email: null, time: Date.now(), valid_for: 86_400_000, valid_to: Date.now() + 86_400_000 },
  }, t.accounts.regular.userId);
  const aRoom = () => [...t.server.store.assets.values()].find((a) => a.type === 'room' && a.location_id === locA && a.data_provider_refs.reservation
    && t.server.store.isAssetPublic(a))!;
  const aBooking = async () => {
    const start = Date.now() + (100 + fresh()) * 86_400_000;
    const res = await send('POST', { path: restPaths.booking(), json: { room_id: aRoom().id, start, end: start + 1_800_000, subject: 'Ours' } }, tokens.regular);
    expect(res.status).toBe(201);
    return ((await res.json()) as BookingResponse).booking_ref;
  };
  const define = (key: string, control: Who, make: Case['make']) => {
    cases.set(key, { control, make });
    // HEAD of a GET route answers as the GET does
    if (key.startsWith('GET ')) cases.set(key.replace(/^GET /, 'HEAD '), { control, make });
  };

  beforeAll(async () => {
    t = await startTestServer();
    tokens = await t.signInAll();
    orgA = t.server.seed.organizationId;
    locA = t.server.seed.locationIds[0]!;
    floorA = [...t.server.store.assets.values()].find((a) => a.type === 'floor' && a.location_id === locA && t.server.store.isAssetPublic(a))!;
    expect(t.accounts.otherOrg.organizationId).not.toBe(orgA);

    const o = '/v1/organizations/:orgId';
    const l = `${o}/locations/:locId`;
    define('POST /v1/organizations', 'admin', () => ({ path: restPaths.organizations(), json: { name: `Org ${fresh()}` } }));
    define(`GET ${o}`, 'regular', () => ({ path: restPaths.organization(orgA) }));
    define(`PATCH ${o}`, 'edit', () => ({ path: restPaths.organization(orgA), json: { config: { ...t.server.store.organizations.get(orgA)!.config, brand: `b${fresh()}` } } }));
    define(`DELETE ${o}`, 'admin', () => ({ path: restPaths.organization(t.server.store.createOrganization({ name: `Doomed ${fresh()}` }).id) }));
    define(`GET ${o}/locations`, 'regular', () => ({ path: restPaths.locations(orgA) }));
    define(`POST ${o}/locations`, 'edit', () => ({ path: restPaths.locations(orgA), json: { name: `Site ${fresh()}`, timezone: 'Europe/Helsinki', latitude: 60, longitude: 25 } }));
    const aLocation = () => t.server.store.createLocation(orgA, { name: `Annex ${fresh()}`, timezone: 'Europe/Helsinki' });
    define(`GET ${l}`, 'regular', () => ({ path: restPaths.location(orgA, locA) }));
    define(`PATCH ${l}`, 'edit', () => ({ path: restPaths.location(orgA, aLocation().id), json: { name: 'Renamed' } }));
    define(`DELETE ${l}`, 'edit', () => ({ path: restPaths.location(orgA, aLocation().id) }));
    define(`GET ${l}/assets`, 'regular', () => ({ path: restPaths.assets(orgA, locA) }));
    define(`POST ${l}/assets`, 'edit', () => ({ path: restPaths.assets(orgA, locA), json: { type: 'shape', subtype: 'desk', name: 'New desk', parent_id: floorA.id } }));
    define(`GET ${l}/assets/:assetId`, 'regular', () => ({ path: restPaths.asset(orgA, locA, aDesk().id) }));
    define(`PATCH ${l}/assets/:assetId`, 'edit', () => ({ path: restPaths.asset(orgA, locA, aDesk().id), json: { name: 'Renamed' } }));
    define(`DELETE ${l}/assets/:assetId`, 'edit', () => ({ path: restPaths.asset(orgA, locA, aDesk().id) }));
    define(`PUT ${l}/assets/:assetId/images/:name`, 'edit', () => ({ path: restPaths.assetImage(orgA, locA, aDesk().id, 'texture'), image: true }));
    define(`PUT ${l}/assets/:assetId/vote`, 'regular', () => ({ path: restPaths.assetVote(orgA, locA, aTicket().id), json: { direction: 1 } }));
    define(`DELETE ${l}/assets/:assetId/vote`, 'regular', () => ({ path: restPaths.assetVote(orgA, locA, aTicket().id) }));
    define(`GET ${l}/measurements/:type`, 'regular', () => ({ path: restPaths.measurements(orgA, locA, 'occupancy', { limit: 5 }) }));
    define(`GET ${l}/sensors`, 'regular', () => ({ path: restPaths.sensors(orgA, locA) }));
    define(`POST ${l}/sensors`, 'edit', () => ({ path: restPaths.sensors(orgA, locA), json: { type: 'co2' } }));
    define(`GET ${l}/sensors/:sensorId`, 'regular', () => ({ path: restPaths.sensor(orgA, locA, aSensor().id) }));
    define(`PATCH ${l}/sensors/:sensorId`, 'edit', () => ({ path: restPaths.sensor(orgA, locA, aSensor().id), json: { vendor_id: 'v-1' } }));
    define(`DELETE ${l}/sensors/:sensorId`, 'edit', () => ({ path: restPaths.sensor(orgA, locA, aSensor().id) }));
    define(`GET ${o}/users`, 'regular', () => ({ path: restPaths.users(orgA) }));
    define(`POST ${o}/users`, 'edit', () => ({ path: restPaths.users(orgA), json: { email: `made.${fresh()}@storey.test` } }));
    define(`GET ${o}/users/:id`, 'regular', () => ({ path: restPaths.user(orgA, aUser().id) }));
    define(`PATCH ${o}/users/:id`, 'edit', () => ({ path: restPaths.user(orgA, aUser().id), json: { first_name: 'Renamed' } }));
    define(`DELETE ${o}/users/:id`, 'edit', () => ({ path: restPaths.user(orgA, aUser().id) }));
    define(`PUT ${o}/users/:id/image`, 'edit', () => ({ path: restPaths.userImage(orgA, aUser().id), image: true }));
    define(`DELETE ${o}/users/:id/image`, 'edit', () => ({ path: restPaths.userImage(orgA, aUser().id) }));
    define(`POST ${o}/users/:id/password`, 'admin', () => ({ path: restPaths.userPassword(orgA, aUser().id), json: { password: 'taken-over-1' } }));
    define(`POST ${o}/invite_user`, 'edit', () => ({ path: restPaths.inviteUser(orgA), json: { email: `invited.${fresh()}@storey.test` } }));
    define('DELETE /v1/location_tags/:id', 'edit', () => {
      const sensor = aSensor();
      const tag = t.server.store.createLocationTag({ organization_id: orgA, location_id: locA, user_id: aUser().id, sensor_id: sensor.id });
      return { path: restPaths.locationTag(tag.id) };
    });
    define('GET /v1/external_objects', 'regular', () => ({ path: restPaths.externalObjects({ organization_id: orgA }) }));
    define('POST /v1/external_objects', 'edit', () => ({ path: restPaths.externalObjects(), json: { name: 'Planted', type: 'directory', organization_id: orgA } }));
    const anObject = () => t.server.store.createExternalObject({ organization_id: orgA, location_id: null, name: `Directory ${fresh()}`, type: 'directory', data: {} });
    define('GET /v1/external_objects/:id', 'regular', () => ({ path: restPaths.externalObject(anObject().id) }));
    define('PATCH /v1/external_objects/:id', 'edit', () => ({ path: restPaths.externalObject(anObject().id), json: { name: 'Renamed' } }));
    define('DELETE /v1/external_objects/:id', 'edit', () => ({ path: restPaths.externalObject(anObject().id) }));
    define('POST /v1/notifications', 'edit', () => ({ path: restPaths.notifications(), json: { user_id: t.accounts.regular.userId, title: 'Phish', body: 'Sign in again' } }));
    // the recipient reads, marks and deletes their own
    define('GET /v1/notifications/:id', 'regular', () => ({ path: restPaths.notification(aNotification().id) }));
    define('PATCH /v1/notifications/:id', 'regular', () => ({ path: restPaths.notification(aNotification().id), json: { read: true } }));
    define('DELETE /v1/notifications/:id', 'regular', () => ({ path: restPaths.notification(aNotification().id) }));
    define('POST /v1/booking', 'regular', () => {
      const start = Date.now() + (100 + fresh()) * 86_400_000;
      return { path: restPaths.booking(), json: { room_id: aRoom().id, start, end: start + 1_800_000, subject: 'Theirs' } };
    });
    define('DELETE /v1/booking', 'regular', async () => ({ path: restPaths.booking(), json: { room_id: aRoom().id, booking_ref: await aBooking() } }));
    define('POST /v2/measurements', 'edit', () => ({
      path: `${t.url}/v2${restPaths.ingestMeasurements()}`, json: { measurements: [{ sensor_id: aSensor().id, value: { time: Date.now(), value: 1 } }] },
    }));
    define('POST /v1/pusher/auth', 'regular', () => ({
      path: restPaths.pusherAuth(), json: { socket_id: '123.456', channel_name: pusherChannel({ kind: 'location', organizationId: orgA, locationId: locA }) },
    }));
  });
  afterAll(async () => { await t?.close(); });

  it('has a case for every route of the API, or a reason it names no organization’s object', () => {
    const api = t.server.routes.filter((r) => /^\/v[12]\//.test(r.url)).map((r) => `${r.method} ${r.url}`);
    const unscoped = new Set(Object.keys(NOT_ORGANIZATION_SCOPED).flatMap((k) => (k.startsWith('GET ') ? [k, k.replace(/^GET /, 'HEAD ')] : [k])));
    expect(api.filter((r) => !cases.has(r) && !unscoped.has(r)).sort()).toEqual([]);
    expect([...cases.keys(), ...unscoped].filter((k) => !api.includes(k)).sort()).toEqual([]);
  });

  it('refuses the other organization’s edit user on every route, then serves the same request to the right user', async () => {
    const failures: string[] = [];
    for (const [key, c] of cases) {
      const [method] = key.split(' ') as [string];
      const req = await c.make();
      const before = storeFingerprint(t);
      const published: StreamScope[] = [];
      const stop = t.server.publisher.onPublish((scope) => { published.push(scope); });
      const res = await send(method, req, tokens.otherOrg);
      await t.server.publisher.flush();
      stop();
      const text = await res.text();
      if (![400, 403, 404].includes(res.status)) failures.push(`${key}: ${res.status} ${text.slice(0, 200)}`);
      // the error shape and nothing else: no field of the target comes back
      if (method !== 'HEAD' && Object.keys(JSON.parse(text || '{}') as object).sort().join() !== 'error,message,statusCode') failures.push(`${key}: body ${text.slice(0, 200)}`);
      if (storeFingerprint(t) !== before) failures.push(`${key}: changed what is stored`);
      if (published.some((s) => s.kind !== 'user' && s.organizationId === orgA)) failures.push(`${key}: published on the victim's stream`);
      // the same request works for the victim organization's user: the refusal above was the guard's
      const control = await send(method, req, tokens[c.control]);
      if (control.status >= 300) failures.push(`${key}: control as ${c.control} answered ${control.status} ${(await control.text()).slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });

  it('answers 401 to a caller without a token on every route that needs one, changing nothing', async () => {
    const failures: string[] = [];
    const withToken = [...cases.keys(), 'POST /v1/logout', 'GET /v2/settings', 'HEAD /v2/settings', 'GET /v1/notifications', 'GET /v1/organizations'];
    for (const key of withToken) {
      const [method] = key.split(' ') as [string];
      const req = cases.get(key) ? await cases.get(key)!.make() : { path: key.split(' ')[1]!.replace(/^\/v1/, '').replace(/^\/v2\/settings$/, `${t.url}/v2/settings`) };
      const before = storeFingerprint(t);
      const res = await send(method, req, null);
      if (res.status !== 401) failures.push(`${key}: ${res.status}`);
      if (storeFingerprint(t) !== before) failures.push(`${key}: changed what is stored`);
    }
    expect(failures).toEqual([]);
  });

  it('answers 401 on every route to a signed-out token, one ended by a password change and a deleted user’s, changing nothing', async () => {
    const { store } = t.server;
    const { hashPassword, issueToken } = await import('../../server/auth.js');
    // an admin's tokens would pass every role check, so only the ended session can stop them
    const admin = store.createUser(orgA, { email: `ended.${fresh()}@storey.test`, permissions: ['FOREIGN_ORGANIZATION_ACCESS', 'ASSET_UPDATE', 'ASSET_UPDATE_SERVICE_TICKET', 'USER_UPDATE_SELF'] });
    store.credentials.set(admin.id, { passwordHash: hashPassword('ended-password-1') });
    const signedOut = issueToken(store, admin.id).token;
    const beforeChange = issueToken(store, admin.id).token;
    const changer = issueToken(store, admin.id).token;
    expect((await send('POST', { path: restPaths.logout() }, signedOut)).status).toBe(204);
    expect((await send('POST', { path: restPaths.userPassword(orgA, admin.id), json: { password: 'ended-password-2', old_password: 'ended-password-1' } }, changer)).status).toBe(204);
    const doomed = store.createUser(orgA, { email: `doomed.${fresh()}@storey.test`, permissions: admin.permissions });
    const deleted = issueToken(store, doomed.id).token;
    store.deleteUser(doomed.id);
    const failures: string[] = [];
    for (const [key, c] of cases) {
      const [method] = key.split(' ') as [string];
      const req = await c.make();
      for (const [what, token] of [['signed out', signedOut], ['password changed', beforeChange], ['deleted', deleted]] as const) {
        const before = storeFingerprint(t);
        const res = await send(method, req, token);
        if (res.status !== 401) failures.push(`${key} (${what}): ${res.status}`);
        if (storeFingerprint(t) !== before) failures.push(`${key} (${what}): changed what is stored`);
      }
    }
    expect(failures).toEqual([]);
    // the caller's own session survived its password change (the control)
    expect((await send('GET', { path: restPaths.organization(orgA) }, changer)).status).toBe(200);
  });

  it('lists neither the other organization nor another user’s notifications', async () => {
    const orgs = (await (await send('GET', { path: restPaths.organizations() }, tokens.otherOrg)).json()) as Array<{ id: string }>;
    expect(orgs.map((x) => x.id)).toEqual([t.accounts.otherOrg.organizationId]);
    const note = aNotification();
    for (const who of ['otherOrg', 'edit', 'admin'] as const) {
      const list = (await (await send('GET', { path: restPaths.notifications() }, tokens[who])).json()) as Array<{ id: string }>;
      expect(list.map((n) => n.id)).not.toContain(note.id);
    }
  });

  it('keeps a user’s notifications and bookings from another user of the same organization', async () => {
    const note = aNotification();
    const before = storeFingerprint(t);
    for (const who of ['edit', 'service', 'admin'] as const) {
      for (const [method, json] of [['GET', undefined], ['PATCH', { read: true }], ['DELETE', undefined]] as const) {
        const res = await send(method, { path: restPaths.notification(note.id), json }, tokens[who]);
        expect.soft(res.status, `${who} ${method}`).toBe(404);
      }
    }
    // another regular user of the organization may not cancel Rita's booking; the edit role may
    const ref = await aBooking();
    const peer = t.server.store.createUser(orgA, { email: `peer.${fresh()}@storey.test`, permissions: ['USER_UPDATE_SELF'] });
    const { issueToken } = await import('../../server/auth.js');
    const peerToken = issueToken(t.server.store, peer.id).token;
    const afterBooking = storeFingerprint(t);
    const cancel = await send('DELETE', { path: restPaths.booking(), json: { room_id: aRoom().id, booking_ref: ref } }, peerToken);
    expect(cancel.status).toBe(403);
    expect(storeFingerprint(t)).toBe(afterBooking);
    expect(before).not.toBe(afterBooking);
    expect((await send('DELETE', { path: restPaths.booking(), json: { room_id: aRoom().id, booking_ref: ref } }, tokens.edit)).status).toBe(204);
  });
});
