import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_SEQUENCE_HEADER } from '../../src/shared/protocol.js';
import { restPaths, type WireAsset } from '../../src/shared/rest.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// A viewer reopened on an unchanged location revalidates its lists: strong
// ETags and If-None-Match → 304, per body as each caller gets it, so no role
// is ever told "unchanged" about a body it would not be sent.

describe('server ETags', () => {
  let t: TestServer;
  let tokens: Awaited<ReturnType<TestServer['signInAll']>>;
  let org: string;
  let loc: string;
  const lists = () => ({
    assets: restPaths.assets(org, loc),
    sensors: restPaths.sensors(org, loc),
    locations: restPaths.locations(org),
  });
  const get = (path: string, token: string, etag?: string | null) =>
    t.api(path, { token, headers: { 'accept-encoding': 'br, gzip', ...(etag ? { 'if-none-match': etag } : {}) } });
  const tagOf = async (path: string, token: string) => {
    const res = await get(path, token);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    return res.headers.get('etag')!;
  };
  const rename = async (asset: WireAsset, name: string) => {
    expect((await t.api(restPaths.asset(org, loc, asset.id), { method: 'PATCH', token: tokens.edit, json: { name } })).status).toBe(200);
  };
  const desk = (visible: boolean) => [...t.server.store.assets.values()]
    .find((a) => a.location_id === loc && a.subtype === 'desk' && t.server.store.isAssetPublic(a) === visible)!;

  beforeAll(async () => {
    t = await startTestServer();
    tokens = await t.signInAll();
    org = t.accounts.edit.organizationId;
    loc = t.server.seed.locationIds[0]!;
  });
  afterAll(async () => { await t?.close(); });

  it('answers an unchanged list 304 with no body, private and revalidated, with the stream position of now', async () => {
    for (const [name, path] of Object.entries(lists())) {
      const first = await get(path, tokens.regular);
      expect(first.status, name).toBe(200);
      const tag = first.headers.get('etag');
      expect(tag, `${name}: a strong tag`).toMatch(/^"[^"]+"$/);
      expect(first.headers.get('cache-control'), name).toBe('private, no-cache');
      expect((await first.arrayBuffer()).byteLength, name).toBeGreaterThan(0);
      const again = await get(path, tokens.regular, tag);
      expect(again.status, `${name}: unchanged`).toBe(304);
      expect((await again.arrayBuffer()).byteLength, `${name}: no body`).toBe(0);
      expect(again.headers.get('etag'), name).toBe(tag);
      if (name !== 'locations') expect(again.headers.get(STREAM_SEQUENCE_HEADER), `${name}: where the stream stands`).toBe(first.headers.get(STREAM_SEQUENCE_HEADER));
    }
  });

  it('answers 200 with a new tag once what the caller sees changed, and the new position with it', async () => {
    const path = lists().assets;
    const tag = await tagOf(path, tokens.regular);
    const before = Number((await get(path, tokens.regular, tag)).headers.get(STREAM_SEQUENCE_HEADER));
    await rename(desk(true), 'Renamed for the tag');
    const after = await get(path, tokens.regular, tag);
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(tag);
    expect(Number(after.headers.get(STREAM_SEQUENCE_HEADER))).toBeGreaterThan(before);
    expect(((await after.json()) as WireAsset[]).some((a) => a.name === 'Renamed for the tag')).toBe(true);
  });

  it('never reuses one role’s tag for another role’s body: each role revalidates only what it is sent', async () => {
    const { assets, sensors } = lists();
    for (const path of [assets, sensors]) {
      const regular = await tagOf(path, tokens.regular);
      const edit = await tagOf(path, tokens.edit);
      expect(edit, 'the edit role sees unpublished things: another body, another tag').not.toBe(regular);
      // whoever sends the other role's tag gets the whole body
      expect((await get(path, tokens.regular, edit)).status).toBe(200);
      expect((await get(path, tokens.edit, regular)).status).toBe(200);
    }
    // a change only the edit role sees: its tag moves, the public's stays
    const regular = await tagOf(assets, tokens.regular);
    const edit = await tagOf(assets, tokens.edit);
    await rename(desk(false), 'A hidden rename');
    expect((await get(assets, tokens.edit, edit)).status).toBe(200);
    expect((await get(assets, tokens.regular, regular)).status, 'nothing changed for a regular user').toBe(304);
    // and a user of another organization never gets a 304 for this location
    expect((await get(assets, tokens.otherOrg, regular)).status).toBe(403);
  });

  it('ignores If-None-Match on errors and writes', async () => {
    const missing = restPaths.asset(org, loc, '987654321');
    const first = await get(missing, tokens.regular);
    expect(first.status).toBe(404);
    const again = await get(missing, tokens.regular, first.headers.get('etag'));
    expect(again.status).toBe(404);
    const asset = desk(true);
    const patch = await t.api(restPaths.asset(org, loc, asset.id), {
      method: 'PATCH', token: tokens.edit, json: { name: asset.name }, headers: { 'if-none-match': '*' },
    });
    expect(patch.status).toBe(200);
  });
});
