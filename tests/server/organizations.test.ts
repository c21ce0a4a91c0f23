import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_ID_HEADER, STREAM_SEQUENCE_HEADER } from '../../src/shared/protocol.js';
import type { WireLocation, WireOrganization } from '../../src/shared/rest.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('server organizations and locations', () => {
  let t: TestServer;
  let admin: string;
  let edit: string;
  let regular: string;
  let other: string;
  let org: string;
  let otherOrg: string;
  beforeAll(async () => {
    t = await startTestServer();
    ({ admin, edit, regular, otherOrg: other } = await t.signInAll());
    org = t.accounts.regular.organizationId;
    otherOrg = t.accounts.otherOrg.organizationId;
  });
  afterAll(async () => { await t?.close(); });

  describe('GET /organizations', () => {
    it('lists only the own organization, and every one for the admin', async () => {
      const mine = (await (await t.api('/organizations', { token: regular })).json()) as WireOrganization[];
      expect(mine.map((o) => o.id)).toEqual([org]);
      const all = (await (await t.api('/organizations', { token: admin })).json()) as WireOrganization[];
      expect(all.map((o) => o.id)).toEqual(expect.arrayContaining([org, otherOrg]));
    });
    it('answers 401 without a token', async () => {
      expect((await t.api('/organizations')).status).toBe(401);
    });
  });

  describe('GET /organizations/{id}', () => {
    it('answers the organization with its locations and the organization stream position', async () => {
      const res = await t.api(`/organizations/${org}`, { token: regular });
      expect(res.status).toBe(200);
      const body = (await res.json()) as WireOrganization;
      expect(body.locations).toEqual(t.server.seed.locationIds);
      expect(Object.values(body.locations_map).map((l) => l.name)).toEqual(['Helsinki HQ', 'New York']);
      expect(res.headers.get(STREAM_ID_HEADER)).toBe(t.server.publisher.position({ kind: 'organization', organizationId: org }).stream_id);
      expect(res.headers.get(STREAM_SEQUENCE_HEADER)).toMatch(/^\d+$/);
    });
    it('exposes the stream headers to other origins through CORS', async () => {
      const res = await t.api(`/organizations/${org}`, { token: regular, headers: { origin: 'http://localhost:5173' } });
      expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect(res.headers.get('access-control-expose-headers')).toContain(STREAM_SEQUENCE_HEADER);
    });
    it('refuses another organization with 403, except for the admin', async () => {
      expect((await t.api(`/organizations/${otherOrg}`, { token: edit })).status).toBe(403);
      expect((await t.api(`/organizations/${org}`, { token: other })).status).toBe(403);
      expect((await t.api(`/organizations/${otherOrg}`, { token: admin })).status).toBe(200);
    });
    it('answers 404 for an unknown organization and 400 for a malformed id', async () => {
      expect((await t.api('/organizations/987654', { token: admin })).status).toBe(404);
      expect((await t.api('/organizations/abc', { token: admin })).status).toBe(400);
    });
  });

  describe('POST, PATCH, DELETE /organizations', () => {
    it('lets the admin create, rename and delete an organization', async () => {
      const created = await t.api('/organizations', { method: 'POST', token: admin, json: { name: 'Temp Org' } });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as WireOrganization;
      const renamed = await t.api(`/organizations/${id}`, { method: 'PATCH', token: admin, json: { name: 'Renamed Org' } });
      expect(((await renamed.json()) as WireOrganization).name).toBe('Renamed Org');
      expect((await t.api(`/organizations/${id}`, { method: 'DELETE', token: admin })).status).toBe(204);
      expect((await t.api(`/organizations/${id}`, { token: admin })).status).toBe(404);
    });
    it('refuses the edit role creating or deleting organizations with 403', async () => {
      expect((await t.api('/organizations', { method: 'POST', token: edit, json: { name: 'Nope' } })).status).toBe(403);
      expect((await t.api(`/organizations/${org}`, { method: 'DELETE', token: edit })).status).toBe(403);
    });
    it('lets the edit role rename its own organization but not the regular role', async () => {
      expect((await t.api(`/organizations/${org}`, { method: 'PATCH', token: regular, json: { name: 'X' } })).status).toBe(403);
      const res = await t.api(`/organizations/${org}`, { method: 'PATCH', token: edit, json: { name: 'Storey Demo' } });
      expect(res.status).toBe(200);
    });
    it('refuses malformed bodies with 400 and leaves the data unchanged', async () => {
      const before = JSON.stringify(t.server.store.organizations.get(org));
      expect((await t.api(`/organizations/${org}`, { method: 'PATCH', token: edit, json: { name: 42 } })).status).toBe(400);
      expect((await t.api(`/organizations/${org}`, { method: 'PATCH', token: edit, json: { unknown_field: 1 } })).status).toBe(400);
      expect((await t.api('/organizations', { method: 'POST', token: admin, json: {} })).status).toBe(400);
      const broken = await fetch(`${t.baseUrl}/organizations/${org}`, {
        method: 'PATCH', headers: { authorization: `Bearer ${edit}`, 'content-type': 'application/json' }, body: '{"name": ',
      });
      expect(broken.status).toBe(400);
      expect(JSON.stringify(t.server.store.organizations.get(org))).toBe(before);
    });
  });

  describe('locations', () => {
    const loc = () => t.server.seed.locationIds[0]!;
    it('lists the locations with their timezones and ordered buildings', async () => {
      const res = await t.api(`/organizations/${org}/locations`, { token: regular });
      expect(res.status).toBe(200);
      expect(res.headers.get(STREAM_SEQUENCE_HEADER)).toMatch(/^\d+$/);
      const list = (await res.json()) as WireLocation[];
      expect(list.map((l) => l.timezone)).toEqual(['Europe/Helsinki', 'America/New_York']);
      expect(list[0]!.buildings.length).toBe(2);
    });
    it('answers one location, 404 for a location of another organization, 403 for another organization', async () => {
      expect((await t.api(`/organizations/${org}/locations/${loc()}`, { token: regular })).status).toBe(200);
      expect((await t.api(`/organizations/${org}/locations/${t.server.seed.otherLocationId}`, { token: admin })).status).toBe(404);
      expect((await t.api(`/organizations/${otherOrg}/locations/${t.server.seed.otherLocationId}`, { token: regular })).status).toBe(403);
    });
    it('lets the edit role create, update and delete a location', async () => {
      const created = await t.api(`/organizations/${org}/locations`, {
        method: 'POST', token: edit, json: { name: 'Lab', timezone: 'Asia/Tokyo', latitude: 35.6, longitude: 139.7 },
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as WireLocation;
      expect((await t.api(`/organizations/${org}`, { token: edit }).then((r) => r.json()) as WireOrganization).locations).toContain(id);
      const patched = await t.api(`/organizations/${org}/locations/${id}`, { method: 'PATCH', token: edit, json: { name: 'Lab 2' } });
      expect(((await patched.json()) as WireLocation).name).toBe('Lab 2');
      expect((await t.api(`/organizations/${org}/locations/${id}`, { method: 'DELETE', token: edit })).status).toBe(204);
      expect((await t.api(`/organizations/${org}/locations/${id}`, { token: edit })).status).toBe(404);
    });
    it('refuses the regular role with 403 and bad bodies with 400', async () => {
      const body = { name: 'Lab', timezone: 'Asia/Tokyo', latitude: 35.6, longitude: 139.7 };
      expect((await t.api(`/organizations/${org}/locations`, { method: 'POST', token: regular, json: body })).status).toBe(403);
      expect((await t.api(`/organizations/${org}/locations`, { method: 'POST', token: edit, json: { ...body, timezone: 'Mars/Olympus' } })).status).toBe(400);
      expect((await t.api(`/organizations/${org}/locations`, { method: 'POST', token: edit, json: { ...body, latitude: 300 } })).status).toBe(400);
      expect((await t.api(`/organizations/${org}/locations/${loc()}`, { method: 'PATCH', token: edit, json: { buildings: ['1'] } })).status).toBe(400);
      expect((await t.api(`/organizations/${org}/locations/${loc()}`, { method: 'DELETE', token: regular })).status).toBe(403);
    });
  });
});
