import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { STREAM_SEQUENCE_HEADER } from '../../src/shared/protocol.js';
import { restPaths, type WireAsset } from '../../src/shared/rest.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// A viewer reopened on an unchanged location revalidates its lists: weak
// ETags (of the JSON, whichever coding carries it) and If-None-Match → 304,
// per body as each caller gets it, so no role is ever told "unchanged" about a
// body it would not be sent; a revalidation does not even build the body.

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
      expect(tag, `${name}: a weak tag`).toMatch(/^W\/"[^"]+"$/);
      expect(first.headers.get('cache-control'), name).toBe('private, no-cache');
      expect((await first.arrayBuffer()).byteLength, name).toBeGreaterThan(0);
      const again = await get(path, tokens.regular, tag);
      expect(again.status, `${name}: unchanged`).toBe(304);
      expect((await again.arrayBuffer()).byteLength, `${name}: no body`).toBe(0);
      expect(again.headers.get('etag'), name).toBe(tag);
      const vary = (res: Response) => (res.headers.get('vary') ?? '').toLowerCase().split(/,\s*/).filter(Boolean);
      expect(vary(again), `${name}: the Vary of its 200 (RFC 9110 §15.4.5)`).toEqual(expect.arrayContaining(vary(first)));
      if (name !== 'locations') expect(again.headers.get(STREAM_SEQUENCE_HEADER), `${name}: where the stream stands`).toBe(first.headers.get(STREAM_SEQUENCE_HEADER));
    }
  });

  it('gives the JSON one weak tag whichever coding carries it, and revalidates it under any coding', async () => {
    const { assets } = lists();
    const under = async (coding: string, etag?: string) =>
      t.api(assets, { token: tokens.regular, headers: { 'accept-encoding': coding, ...(etag ? { 'if-none-match': etag } : {}) } });
    const tags: Record<string, string> = {};
    for (const coding of ['br', 'gzip', 'identity']) {
      const res = await under(coding);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding') ?? 'identity', coding).toBe(coding);
      await res.arrayBuffer();
      tags[coding] = res.headers.get('etag')!;
    }
    // one JSON, one tag; weak, because the bytes of each coding differ (a strong tag names the bytes: RFC 9110 §8.8.3)
    expect(new Set(Object.values(tags)).size).toBe(1);
    expect(tags.br).toMatch(/^W\//);
    expect((await under('identity', tags.br)).status, 'a tag got with br, revalidated without').toBe(304);
    expect((await under('gzip', `"elsewhere", ${tags.br}`)).status, 'a list of tags naming it').toBe(304);
    expect((await under('br', tags.br!.slice(2))).status, 'its strong form, compared weakly').toBe(304);
    expect((await under('br', '"elsewhere"')).status, 'another tag').toBe(200);
  });

  it('revalidates the large lists without serializing them', async () => {
    for (const [name, path] of Object.entries(lists())) {
      const tag = await tagOf(path, tokens.regular);
      const longest = { length: 0 };
      const stringify = JSON.stringify.bind(JSON);
      const spy = vi.spyOn(JSON, 'stringify').mockImplementation((...args: Parameters<typeof JSON.stringify>) => {
        const text = stringify(...args);
        if (typeof text === 'string') longest.length = Math.max(longest.length, text.length);
        return text;
      });
      try {
        expect((await get(path, tokens.regular, tag)).status, name).toBe(304);
      } finally {
        spy.mockRestore();
      }
      const body = (await (await get(path, tokens.regular)).text()).length;
      expect(longest.length, `${name}: the longest JSON written for a 304 (the body is ${body} characters)`).toBeLessThan(Math.min(body, 200));
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

  it('answers 200 when the public list changed though the public stream did not: a tag reading on a hidden floor', async () => {
    const s = t.server.store;
    const { sensors } = lists();
    const hiddenFloor = [...s.assets.values()].find((a) => a.location_id === loc && a.type === 'floor' && a.hidden)!;
    const employee = [...s.assets.values()].find((a) => a.location_id === loc && a.type === 'employee' && s.isAssetPublic(a) && a.data_provider_refs.location)!;
    const tagId = employee.data_provider_refs.location!;
    const publicStream = { kind: 'location', organizationId: org, locationId: loc } as const;
    const tag = await tagOf(sensors, tokens.regular);
    expect((await get(sensors, tokens.regular, tag)).status, 'kept').toBe(304);
    const before = s.publisher.position(publicStream).stream_sequence;
    const time = s.clock.now() + 1_000;
    const value = { time, valid_for: 600_000, x: 1.5, y: 2.5, floor_id: hiddenFloor.id, floor: 0, zones: [] };
    expect((await t.api(`${t.url}/v2/measurements`, { method: 'POST', token: tokens.edit, json: { measurements: [{ sensor_id: tagId, value }] } })).status).toBe(200);
    expect(s.publisher.position(publicStream).stream_sequence, 'the public stream says nothing of it').toBe(before);
    // the public's list says when (not where): a body the old tag does not name
    const res = await get(sensors, tokens.regular, tag);
    expect(res.status).toBe(200);
    const sensor = ((await res.json()) as Array<{ id: string; last_measurement: { time: number; floor_id?: string } | null }>).find((x) => x.id === tagId)!;
    expect(sensor.last_measurement).toMatchObject({ time });
    expect(sensor.last_measurement!.floor_id).toBeUndefined();
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
