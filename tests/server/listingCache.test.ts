// The location listings' bodies are serialized once per version of what they
// show (server/listingCache.ts): a repeated initial load is served from the
// cache, and every change of what it lists (an asset, a floor hidden, a
// sensor, a reading, a heartbeat) is in the next answer.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createListingCache } from '../../server/listingCache.js';
import { STREAM_SEQUENCE_HEADER } from '../../src/shared/protocol.js';
import type { WireAsset, WireSensor } from '../../src/shared/rest.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('createListingCache', () => {
  it('serializes a key once per version and answers the same bytes until the version moves', () => {
    const cache = createListingCache(1_000);
    let made = 0;
    const make = (v: number) => () => { made += 1; return [{ id: 'a', v }]; };
    const first = cache.body('k', '1', make(1));
    expect(JSON.parse(first.toString())).toEqual([{ id: 'a', v: 1 }]);
    expect(cache.body('k', '1', make(99))).toBe(first);
    expect(made).toBe(1);
    expect(JSON.parse(cache.body('k', '2', make(2)).toString())).toEqual([{ id: 'a', v: 2 }]);
    expect(made).toBe(2);
    expect(cache.stats).toMatchObject({ hits: 1, misses: 2, entries: 1, bytes: first.length });
  });
  it('keeps at most its budget, dropping the least recently served body first', () => {
    const body = (n: number) => () => 'x'.repeat(n - 2); // JSON adds the two quotes
    const cache = createListingCache(300);
    cache.body('a', '1', body(100));
    cache.body('b', '1', body(100));
    cache.body('a', '1', body(100)); // a served again: b is now the oldest
    cache.body('c', '1', body(150));
    expect(cache.stats).toMatchObject({ entries: 2, bytes: 250 });
    let remade = 0;
    cache.body('a', '1', () => { remade += 1; return ''; });
    expect(remade).toBe(0);
    cache.body('b', '1', () => { remade += 1; return 'x'.repeat(98); });
    expect(remade).toBe(1);
  });
  it('answers a body larger than its budget without keeping it; a budget of 0 keeps nothing', () => {
    const big = createListingCache(10);
    expect(big.body('k', '1', () => 'x'.repeat(20)).toString()).toBe(JSON.stringify('x'.repeat(20)));
    expect(big.stats).toMatchObject({ entries: 0, bytes: 0 });
    const none = createListingCache(0);
    none.body('k', '1', () => []);
    none.body('k', '1', () => []);
    expect(none.stats).toMatchObject({ hits: 0, misses: 2, entries: 0 });
  });
});

describe('server listings served from the cache', () => {
  let t: TestServer;
  let tokens: Record<'admin' | 'edit' | 'service' | 'regular' | 'otherOrg', string>;
  let org: string;
  let loc: string;
  beforeAll(async () => {
    t = await startTestServer();
    tokens = await t.signInAll();
    org = t.accounts.edit.organizationId;
    loc = t.server.seed.locationIds[0]!;
  });
  afterAll(async () => { await t?.close(); });
  const assetsPath = () => `/organizations/${org}/locations/${loc}/assets`;
  const sensorsPath = () => `/organizations/${org}/locations/${loc}/sensors`;
  const get = async <T>(path: string, token: string) => {
    const res = await t.api(path, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    return { sequence: Number(res.headers.get(STREAM_SEQUENCE_HEADER)), items: (await res.json()) as T[] };
  };
  const ingest = (sensorId: string, value: number) => fetch(`${t.url}/v2/measurements`, {
    method: 'POST', headers: { authorization: `Bearer ${tokens.edit}`, 'content-type': 'application/json' },
    body: JSON.stringify({ measurements: [{ sensor_id: sensorId, value: { time: Date.now(), valid_for: 600_000, value } }] }),
  });

  it('answers a repeated load from the cache with the same listing', async () => {
    const first = await get<WireAsset>(assetsPath(), tokens.regular);
    const hits = t.server.listings.stats.hits;
    const again = await get<WireAsset>(assetsPath(), tokens.regular);
    expect(t.server.listings.stats.hits).toBe(hits + 1);
    expect(again.items).toEqual(first.items);
  });

  it('gives each role its own listing: the edit role sees hidden floors, a regular user never', async () => {
    const edit = await get<WireAsset>(assetsPath(), tokens.edit);
    const regular = await get<WireAsset>(assetsPath(), tokens.regular);
    expect(edit.items.some((a) => a.type === 'floor' && a.hidden)).toBe(true);
    expect(regular.items.some((a) => a.type === 'floor' && a.hidden)).toBe(false);
    expect((await get<WireAsset>(assetsPath(), tokens.edit)).items).toEqual(edit.items);
  });

  it('shows a renamed asset at once, and a reading keeps the assets listing but moves its stream position', async () => {
    const room = [...t.server.store.assets.values()].find((a) => a.location_id === loc && a.type === 'room' && !a.unpublished && t.server.store.isAssetPublic(a))!;
    await get<WireAsset>(assetsPath(), tokens.regular);
    const renamed = await t.api(`${assetsPath()}/${room.id}`, { method: 'PATCH', token: tokens.edit, json: { name: 'Window room' } });
    expect(renamed.status).toBe(200);
    const after = await get<WireAsset>(assetsPath(), tokens.regular);
    expect(after.items.find((a) => a.id === room.id)?.name).toBe('Window room');
    const sensor = [...t.server.store.sensors.values()].find((s) => s.location_id === loc && s.type === 'co2')!;
    expect((await ingest(sensor.id, 612)).status).toBe(200);
    const hits = t.server.listings.stats.hits;
    const later = await get<WireAsset>(assetsPath(), tokens.regular);
    expect(t.server.listings.stats.hits).toBe(hits + 1);
    expect(later.items).toEqual(after.items);
    expect(later.sequence).toBeGreaterThan(after.sequence);
  });

  it('shows a reading and a heartbeat in the next sensors listing', async () => {
    const sensor = [...t.server.store.sensors.values()].find((s) => s.location_id === loc && s.type === 'co2' && s.active)!;
    await get<WireSensor>(sensorsPath(), tokens.regular);
    expect((await ingest(sensor.id, 1_234)).status).toBe(200);
    const read = await get<WireSensor>(sensorsPath(), tokens.regular);
    expect(read.items.find((s) => s.id === sensor.id)?.last_measurement?.value).toBe(1_234);
    t.server.store.heartbeat(sensor.id, Date.now(), 42);
    const beat = await get<WireSensor>(sensorsPath(), tokens.regular);
    expect(beat.items.find((s) => s.id === sensor.id)?.last_status).toEqual({ battery_level: 42 });
  });

  it('drops a floor hidden just now, its assets and the sensors serving them from the public listings', async () => {
    const floor = [...t.server.store.assets.values()].find((a) => a.location_id === loc && a.type === 'floor' && t.server.store.isAssetPublic(a) && [...t.server.store.assets.values()].some((b) => b.parent_id === a.id && (b.data_providers?.length ?? 0) > 0))!;
    const onIt = [...t.server.store.assets.values()].find((a) => a.parent_id === floor.id && (a.data_providers?.length ?? 0) > 0 && t.server.store.isAssetPublic(a))!;
    const served = onIt.data_providers![0]!;
    const before = await get<WireAsset>(assetsPath(), tokens.regular);
    const sensorsBefore = await get<WireSensor>(sensorsPath(), tokens.regular);
    expect(before.items.some((a) => a.id === onIt.id)).toBe(true);
    expect(sensorsBefore.items.some((s) => s.id === served)).toBe(true);
    const hidden = await t.api(`${assetsPath()}/${floor.id}`, { method: 'PATCH', token: tokens.edit, json: { hidden: true } });
    expect(hidden.status).toBe(200);
    const after = await get<WireAsset>(assetsPath(), tokens.regular);
    expect(after.items.some((a) => a.id === floor.id || a.id === onIt.id)).toBe(false);
    expect((await get<WireSensor>(sensorsPath(), tokens.regular)).items.some((s) => s.id === served)).toBe(false);
    // the edit role still sees all of it
    expect((await get<WireAsset>(assetsPath(), tokens.edit)).items.some((a) => a.id === onIt.id)).toBe(true);
    expect((await t.api(`${assetsPath()}/${floor.id}`, { method: 'PATCH', token: tokens.edit, json: { hidden: false } })).status).toBe(200);
    expect((await get<WireAsset>(assetsPath(), tokens.regular)).items.some((a) => a.id === onIt.id)).toBe(true);
  });

  it('shows a created and a deleted sensor in the next listing', async () => {
    await get<WireSensor>(sensorsPath(), tokens.edit);
    const created = await t.api(sensorsPath(), { method: 'POST', token: tokens.edit, json: { type: 'co2', vendor_id: 'cache-test' } });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as WireSensor).id;
    expect((await get<WireSensor>(sensorsPath(), tokens.edit)).items.some((s) => s.id === id)).toBe(true);
    expect((await t.api(`${sensorsPath()}/${id}`, { method: 'DELETE', token: tokens.edit })).status).toBeLessThan(300);
    expect((await get<WireSensor>(sensorsPath(), tokens.edit)).items.some((s) => s.id === id)).toBe(false);
  });
});
