import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Every route of spec §7 as the server mounts it; ids are filled per test. */
function routes(ids: { org: string; loc: string; asset: string; sensor: string; user: string; ext: string; note: string; tag: string }) {
  const l = `/v1/organizations/${ids.org}/locations/${ids.loc}`;
  return [
    ['GET', '/v2/settings'], ['GET', '/v1/notifications'], ['POST', '/v1/notifications'], ['GET', `/v1/notifications/${ids.note}`],
    ['PATCH', `/v1/notifications/${ids.note}`], ['DELETE', `/v1/notifications/${ids.note}`], ['GET', '/v1/organizations'], ['POST', '/v1/organizations'],
    ['GET', `/v1/organizations/${ids.org}`], ['PATCH', `/v1/organizations/${ids.org}`], ['DELETE', `/v1/organizations/${ids.org}`],
    ['GET', `/v1/organizations/${ids.org}/locations`], ['POST', `/v1/organizations/${ids.org}/locations`], ['GET', l], ['PATCH', l], ['DELETE', l],
    ['GET', `${l}/assets`], ['POST', `${l}/assets`], ['GET', `${l}/assets/${ids.asset}`], ['PATCH', `${l}/assets/${ids.asset}`], ['DELETE', `${l}/assets/${ids.asset}`],
    ['PUT', `${l}/assets/${ids.asset}/images/photo`], ['PUT', `${l}/assets/${ids.asset}/vote`], ['DELETE', `${l}/assets/${ids.asset}/vote`],
    ['GET', `${l}/sensors`], ['POST', `${l}/sensors`], ['GET', `${l}/sensors/${ids.sensor}`], ['PATCH', `${l}/sensors/${ids.sensor}`], ['DELETE', `${l}/sensors/${ids.sensor}`],
    ['GET', `/v1/external_objects?organization_id=${ids.org}`], ['POST', '/v1/external_objects'], ['GET', `/v1/external_objects/${ids.ext}`],
    ['PATCH', `/v1/external_objects/${ids.ext}`], ['DELETE', `/v1/external_objects/${ids.ext}`], ['GET', `${l}/measurements/co2`], ['POST', '/v2/measurements'],
    ['GET', `/v1/organizations/${ids.org}/users`], ['POST', `/v1/organizations/${ids.org}/users`], ['GET', `/v1/organizations/${ids.org}/users/${ids.user}`],
    ['PATCH', `/v1/organizations/${ids.org}/users/${ids.user}`], ['DELETE', `/v1/organizations/${ids.org}/users/${ids.user}`],
    ['PUT', `/v1/organizations/${ids.org}/users/${ids.user}/image`], ['DELETE', `/v1/organizations/${ids.org}/users/${ids.user}/image`],
    ['POST', `/v1/organizations/${ids.org}/invite_user`], ['DELETE', `/v1/location_tags/${ids.tag}`], ['POST', '/v1/booking'], ['DELETE', '/v1/booking'],
    ['POST', '/v1/pusher/auth'],
  ] as const;
}

const snapshot = (t: TestServer) => {
  const s = t.server.store;
  return JSON.stringify([...s.organizations.values(), ...s.locations.values(), ...s.assets.values(), ...s.sensors.values(), ...s.users.values(),
    ...s.externalObjects.values(), ...s.notifications.values(), ...s.locationTags.values(), [...s.history.values()].map((h) => h.length)]);
};

describe('server robustness', () => {
  let t: TestServer;
  let ids: Parameters<typeof routes>[0];
  beforeAll(async () => {
    t = await startTestServer();
    const s = t.server.store;
    const org = t.accounts.regular.organizationId;
    const loc = t.server.seed.locationIds[0]!;
    ids = {
      org, loc,
      asset: [...s.assets.values()].find((a) => a.location_id === loc && a.type === 'voice')!.id,
      sensor: [...s.sensors.values()].find((x) => x.location_id === loc)!.id,
      user: t.accounts.regular.userId,
      ext: [...s.externalObjects.values()].find((o) => o.organization_id === org)!.id,
      note: [...s.notifications.values()].find((n) => n.user_id === t.accounts.regular.userId)!.id,
      tag: [...s.locationTags.values()].find((x) => x.organization_id === org)!.id,
    };
  });
  afterAll(async () => { await t?.close(); });

  it('answers 401 without a token on every route of spec §7 that needs one, changing nothing', async () => {
    const before = snapshot(t);
    for (const [method, path] of routes(ids)) {
      const res = await fetch(`${t.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: method === 'GET' ? undefined : '{}' });
      expect.soft(res.status, `${method} ${path}`).toBe(401);
      expect.soft(((await res.json()) as { message: string }).message).toBe('Missing or invalid bearer token');
    }
    expect(snapshot(t)).toBe(before);
  });

  it('answers 401 for a made-up token', async () => {
    const res = await t.api('/organizations', { token: 'x'.repeat(43) });
    expect(res.status).toBe(401);
  });

  it('survives garbage on every route as the edit user: only 4xx answers and no change to stored data', async () => {
    const token = await t.signIn('edit');
    const before = snapshot(t);
    const bodies = ['{', '[]', 'null', '"text"', '{"name": {"$ne": 1}}', JSON.stringify({ x: 'y'.repeat(2_000_000) }), '\u0000\u0001', '{"__proto__": {"admin": true}}'];
    const types = ['application/json', 'application/x-www-form-urlencoded', 'text/plain', 'image/png'];
    for (const [method, path] of routes(ids)) {
      if (method === 'GET' || method === 'DELETE') continue;
      for (const body of bodies) {
        for (const type of types) {
          const res = await fetch(`${t.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': type }, body });
          expect.soft(res.status, `${method} ${path} ${type} ${body.slice(0, 20)}`).toBeGreaterThanOrEqual(400);
          expect.soft(res.status, `${method} ${path} ${type} ${body.slice(0, 20)}`).toBeLessThan(500);
        }
      }
    }
    expect(snapshot(t)).toBe(before);
    expect([...t.server.store.files.keys()].some((k) => k.endsWith('/photo'))).toBe(false);
    expect((await t.api('/current_time')).status).toBe(200);
  }, 60_000);

  it('answers unknown routes with a JSON 404', async () => {
    const res = await t.api('/no/such/route');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });
});
