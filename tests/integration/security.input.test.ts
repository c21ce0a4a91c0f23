// Issue 12 §3 — input limits that protect everyone else, played as an edit
// user (the attacker) against the real reference server: over-deep and
// overflowing JSON, Object.prototype names in paths, and URLs that are not
// http(s) or safe relative paths. Each refusal is shown to have changed nothing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_MAX_DEPTH, restPaths, type WireAsset, type WireOrganization } from '../../src/shared/rest.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { messageOf, nested, nestedText, rawRequest, storeFingerprint } from './support/attack.js';

describe('security: input limits', () => {
  let t: TestServer;
  let tokens: Record<'admin' | 'edit' | 'service' | 'regular' | 'otherOrg', string>;
  let org: string;
  let loc: string;
  let desk: WireAsset;
  let floor: WireAsset;

  beforeAll(async () => {
    t = await startTestServer();
    tokens = await t.signInAll();
    org = t.accounts.edit.organizationId;
    loc = t.server.seed.locationIds[0]!;
    const assets = [...t.server.store.assets.values()].filter((a) => a.location_id === loc);
    floor = assets.find((a) => a.type === 'floor' && !a.hidden)!;
    desk = assets.find((a) => a.subtype === 'desk' && !a.unpublished)!;
  });
  afterAll(async () => { await t?.close(); });

  describe('JSON nesting', () => {
    it(`refuses a 10,000-deep config with 400 before storing it, and every list keeps answering`, async () => {
      const before = storeFingerprint(t);
      const deep = nestedText(10_000);
      const patch = await rawRequest(t, restPaths.organization(org), { method: 'PATCH', token: tokens.edit, body: `{"config":${deep}}` });
      expect(patch.status).toBe(400);
      expect(await messageOf(patch)).toBe(`body is nested deeper than ${JSON_MAX_DEPTH} levels`);
      const create = await rawRequest(t, restPaths.assets(org, loc), {
        method: 'POST', token: tokens.edit, body: `{"type":"shape","name":"deep desk","parent_id":"${floor.id}","config":${deep}}`,
      });
      expect(create.status).toBe(400);
      const location = await t.api(restPaths.location(org, loc), { method: 'PATCH', token: tokens.edit, json: { config: nested(40) } });
      expect(location.status).toBe(400);
      expect(storeFingerprint(t)).toBe(before);
      for (const token of Object.values(tokens).slice(0, 4)) {
        expect((await t.api(restPaths.organizations(), { token })).status).toBe(200);
        expect((await t.api(restPaths.locations(org), { token })).status).toBe(200);
        expect((await t.api(restPaths.assets(org, loc), { token })).status).toBe(200);
      }
    });

    it(`accepts ${JSON_MAX_DEPTH} levels and refuses ${JSON_MAX_DEPTH + 1}, counting the body itself`, async () => {
      const fits = await t.api(restPaths.asset(org, loc, desk.id), { method: 'PATCH', token: tokens.edit, json: { config: nested(JSON_MAX_DEPTH - 1) } });
      expect(fits.status).toBe(200);
      const before = storeFingerprint(t);
      const over = await t.api(restPaths.asset(org, loc, desk.id), { method: 'PATCH', token: tokens.edit, json: { config: nested(JSON_MAX_DEPTH) } });
      expect(over.status).toBe(400);
      expect(storeFingerprint(t)).toBe(before);
      // deep arrays count the same as deep objects
      let list: unknown = [];
      for (let i = 0; i < 100; i += 1) list = [list];
      expect((await t.api(restPaths.asset(org, loc, desk.id), { method: 'PATCH', token: tokens.edit, json: { history: list } })).status).toBe(400);
      expect(storeFingerprint(t)).toBe(before);
    });
  });

  describe('numbers that overflow', () => {
    it('refuses 1e999 anywhere in a body with 400 naming where it is, storing nothing', async () => {
      const before = storeFingerprint(t);
      const x = await rawRequest(t, restPaths.asset(org, loc, desk.id), { method: 'PATCH', token: tokens.edit, body: '{"x": 1e999}' });
      expect(x.status).toBe(400);
      expect(await messageOf(x)).toBe('body/x is a number out of range');
      const config = await rawRequest(t, restPaths.organization(org), { method: 'PATCH', token: tokens.edit, body: '{"config": {"scale": [1, -1e400]}}' });
      expect(config.status).toBe(400);
      expect(await messageOf(config)).toBe('body/config/scale/1 is a number out of range');
      const sensor = [...t.server.store.sensors.values()].find((s) => s.location_id === loc && s.type === 'co2')!;
      // POST /measurements lives under v2
      const v2 = await fetch(`${t.url}/v2/measurements`, {
        method: 'POST', headers: { authorization: `Bearer ${tokens.edit}`, 'content-type': 'application/json' },
        body: `{"measurements": [{"sensor_id": "${sensor.id}", "value": {"time": ${Date.now()}, "valid_for": 60000, "value": 1e999}}]}`,
      });
      expect(v2.status).toBe(400);
      expect(storeFingerprint(t)).toBe(before);
    });

    it('stores nothing of a batch whose last item is bad', async () => {
      const sensors = [...t.server.store.sensors.values()].filter((s) => s.location_id === loc && s.type === 'co2').slice(0, 2);
      const before = storeFingerprint(t);
      const res = await fetch(`${t.url}/v2/measurements`, {
        method: 'POST', headers: { authorization: `Bearer ${tokens.edit}`, 'content-type': 'application/json' },
        body: JSON.stringify({ measurements: [
          { sensor_id: sensors[0]!.id, value: { time: Date.now(), valid_for: 60_000, value: 500 } },
          { sensor_id: sensors[1]!.id, value: { time: Date.now(), valid_for: 60_000, value: 510 } },
          { sensor_id: '999999', value: { time: Date.now(), valid_for: 60_000, value: 520 } },
        ] }),
      });
      expect(res.status).toBe(400);
      expect(storeFingerprint(t)).toBe(before);
    });
  });

  describe('names of Object.prototype', () => {
    it('answers 400, never 500, for measurement types like __proto__ and constructor', async () => {
      for (const type of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype%2F..']) {
        const res = await t.api(restPaths.measurements(org, loc, type), { token: tokens.regular });
        expect.soft(res.status, type).toBe(400);
      }
      expect((await t.api(restPaths.measurements(org, loc, 'co2'), { token: tokens.regular })).status).toBe(200);
      expect((await t.api(restPaths.measurements(org, loc, 'prototype'), { token: tokens.regular })).status).toBe(200);
    });

    it('refuses __proto__ and constructor keys in a body with 400, changing nothing', async () => {
      const before = storeFingerprint(t);
      for (const body of ['{"__proto__": {"unpublished": true}}', '{"config": {"constructor": {"prototype": {"x": 1}}}}']) {
        const res = await rawRequest(t, restPaths.asset(org, loc, desk.id), { method: 'PATCH', token: tokens.edit, body });
        expect(res.status).toBe(400);
      }
      expect(storeFingerprint(t)).toBe(before);
      expect(({} as Record<string, unknown>).unpublished).toBeUndefined();
    });
  });

  describe('stored URLs', () => {
    const bad = ['javascript:alert(document.cookie)', 'data:text/html,<script>alert(1)</script>', '//evil.example/x.svg',
      '../../v1/organizations', 'floorplans/../../secret', '%2e%2e/x', 'a%2f..%2fb', '/v1/files/x', 'vbscript:x', 'file:///etc/passwd', 'https://'];

    it('refuses a notification link that is not http(s) or a safe relative path', async () => {
      const before = storeFingerprint(t);
      for (const link of bad) {
        const res = await t.api(restPaths.notifications(), {
          method: 'POST', token: tokens.edit, json: { user_id: t.accounts.regular.userId, title: 'Click me', body: 'x', link },
        });
        expect.soft(res.status, link).toBe(400);
      }
      expect(storeFingerprint(t)).toBe(before);
      for (const link of ['https://intranet.example/desks?floor=2', 'http://example.com', '#/floor?id=3', 'reports/weekly.pdf']) {
        const res = await t.api(restPaths.notifications(), {
          method: 'POST', token: tokens.edit, json: { user_id: t.accounts.regular.userId, title: 'Fine', body: 'x', link },
        });
        expect.soft(res.status, link).toBe(201);
      }
    });

    it('refuses image and model paths of assets and floors that could leave their base', async () => {
      const before = storeFingerprint(t);
      for (const field of ['texture_path', 'model_path', 'floor_texture']) {
        for (const value of bad) {
          const res = await t.api(restPaths.asset(org, loc, desk.id), { method: 'PATCH', token: tokens.edit, json: { [field]: value } });
          expect.soft(res.status, `${field} ${value}`).toBe(400);
        }
      }
      for (const field of ['floor_plan_img_path', 'zones_img_path']) {
        for (const value of bad) {
          const res = await t.api(restPaths.asset(org, loc, floor.id), { method: 'PATCH', token: tokens.edit, json: { [field]: value } });
          expect.soft(res.status, `${field} ${value}`).toBe(400);
        }
      }
      expect(storeFingerprint(t)).toBe(before);
      const ok = await t.api(restPaths.asset(org, loc, desk.id), { method: 'PATCH', token: tokens.edit, json: { texture_path: 'assets/desk/texture', model_path: 'https://cdn.example/desk.glb' } });
      expect(ok.status).toBe(200);
    });

    it('refuses an avatar_url or an organization SSO URI that is not http(s)', async () => {
      const before = storeFingerprint(t);
      const me = restPaths.user(org, t.accounts.regular.userId);
      expect((await t.api(me, { method: 'PATCH', token: tokens.regular, json: { avatar_url: 'javascript:alert(1)' } })).status).toBe(400);
      expect((await t.api(me, { method: 'PATCH', token: tokens.admin, json: { avatar_url: 'https://evil.example/a.svg' } })).status).toBe(400);
      for (const uri of ['javascript:alert(1)', '//evil.example/sso']) {
        const res = await t.api(restPaths.organization(org), { method: 'PATCH', token: tokens.admin, json: { sso_uri: uri } });
        expect.soft(res.status, uri).toBe(400);
      }
      expect(storeFingerprint(t)).toBe(before);
      expect(((await (await t.api(restPaths.organization(org), { token: tokens.regular })).json()) as WireOrganization).sso_uri).toBeNull();
    });
  });
});
