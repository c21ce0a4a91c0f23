import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../../src/shared/messages.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { createScenario, reconnect, signInLive, waitPosted, type Scenario } from './setup.js';

// Issue 11 §1 and §2 against the reference server over Pusher: a request
// that never answers, an odd status on a reload, a bad answer to an initial
// load. Each scenario ends on the oracle (tests/helpers/oracle.ts): the
// engine live again by itself and equal to the server's truth, every call
// settled, nothing escaped, the spec's message posted.

let test: TestServer;
let s: Scenario | null = null;
beforeAll(async () => { test = await startTestServer(); });
afterAll(async () => { await test?.close(); });
afterEach(async () => { await s?.dispose(); s = null; });

const LOCATION_LOAD = /\/locations\/[^/]+\/(assets|sensors)$/;

describe('stuck: a request that never answers, an odd status', () => {
  it('times out a /current_time that never answers on the first connect and recovers by itself', async () => {
    s = await createScenario(test);
    s.faults.add({ path: /\/current_time$/, action: { kind: 'hang' } });
    await signInLive(s, test.accounts.regular);
    expect(s.posted()).toContain(MSG.COULD_NOT_SYNC_TIME);
    await s.settle();
  });

  it('times out a /v2/settings that never answers on a reconnect and recovers by itself', async () => {
    s = await createScenario(test);
    await signInLive(s, test.accounts.regular);
    s.faults.add({ path: /\/v2\/settings$/, action: { kind: 'hang' } });
    await reconnect(s);
    await waitPosted(s, MSG.FAILED_RECONNECT_ATTEMPT);
    await s.settle();
  });

  it('times out an initial load that never answers and reloads on the back-off', async () => {
    s = await createScenario(test);
    await signInLive(s, test.accounts.regular);
    const before = s.raw.internals.store.assets.size;
    s.faults.add({ path: /\/assets$/, action: { kind: 'hang' } });
    await reconnect(s);
    await waitPosted(s, MSG.FAILED_TRYING_TO_LOAD);
    // nothing was wiped meanwhile
    expect(s.raw.internals.store.assets.size).toBe(before);
    await s.settle();
  });

  it('times out a transport connect and a scope subscribe that never finish', async () => {
    s = await createScenario(test);
    await signInLive(s, test.accounts.regular);
    s.transports.hangConnects(1);
    await reconnect(s);
    await waitPosted(s, MSG.FAILED_RECONNECT_ATTEMPT);
    await s.settle();
    s.transports.hangSubscribes(1);
    await reconnect(s);
    await waitPosted(s, MSG.FAILED_TRYING_TO_LOAD);
    await s.settle();
  });

  it.each([
    [404, /\/assets$/], [403, /\/users$/], [500, /\/sensors$/], [429, /\/notifications$/],
  ])('posts a %s answered once to a reload, keeps the data and reloads on the back-off', async (status, path) => {
    s = await createScenario(test);
    await signInLive(s, test.accounts.regular);
    const store = s.raw.internals.store;
    const counts = () => [store.assets.size, store.sensors.size, store.users.size];
    const before = counts();
    s.faults.add({ path, action: { kind: 'answer', status, body: JSON.stringify({ statusCode: status, error: 'Nope', message: 'once' }) } });
    await reconnect(s);
    await waitPosted(s, MSG.FAILED_TRYING_TO_LOAD);
    expect(counts()).toEqual(before);
    expect(s.raw.internals.session()!.state().phase.name).toBe('retrying');
    await s.settle();
  });

  it('settles every call of ten rapid organization and location switches as admin, and ends on the last choice', async () => {
    s = await createScenario(test);
    await signInLive(s, test.accounts.admin);
    const own = test.accounts.admin.organizationId;
    const other = test.accounts.otherOrg.organizationId;
    const token = await test.signIn('admin');
    const locationsOf = async (org: string) => ((await (await test.api(`/organizations/${org}/locations`, { token })).json()) as Array<{ id: string }>).map((l) => l.id);
    const where = { [own]: await locationsOf(own), [other]: await locationsOf(other) };
    const calls: Array<Promise<unknown>> = [];
    let last = { org: own, loc: where[own]![0]! };
    for (let i = 0; i < 10; i++) {
      const org = i % 2 ? own : other;
      const loc = where[org]![i % where[org]!.length]!;
      calls.push(s.engine.selectOrganization(org));
      calls.push(s.engine.selectLocation(loc));
      last = { org, loc };
      if (i % 3 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`unsettled: ${s!.unsettled().join('; ')}`)), 10_000));
    const results = (await Promise.race([Promise.all(calls), timeout])) as Array<{ ok: boolean; message?: string }>;
    expect(results.length).toBe(20);
    // superseded work says so; nothing is left hanging
    for (const r of results.filter((x) => !x.ok)) expect(typeof r.message).toBe('string');
    await vi.waitFor(() => { expect(s!.raw.internals.session()!.state().ctx.organizationId).toBe(last.org); }, { timeout: 10_000 });
    expect(await s.engine.selectLocation(last.loc)).toMatchObject({ ok: true });
    await s.settle();
    expect(s.raw.internals.store.locationId).toBe(last.loc);
  });

  it('keeps responding when one location sensor feeds two assets and its value names no floor', async () => {
    s = await createScenario(test);
    await signInLive(s, test.accounts.edit);
    const { organizationId, locationId } = s.raw.internals.session()!.state().ctx;
    const floorId = [...s.raw.internals.store.floors.keys()][0]!;
    const token = await test.signIn('edit');
    const base = `/organizations/${organizationId}/locations/${locationId}`;
    const sensor = await (await test.api(`${base}/sensors`, { method: 'POST', token, json: { type: 'location' } })).json() as { id: string };
    for (const name of ['Cart A', 'Cart B']) {
      const res = await test.api(`${base}/assets`, { method: 'POST', token, json: { type: 'auto_tag', name, parent_id: floorId, data_providers: [sensor.id] } });
      expect(res.status).toBe(201);
    }
    const res = await test.api(`${test.url}/v2/measurements`, { method: 'POST', token, json: { measurements: [{ sensor_id: sensor.id, value: { time: Date.now(), valid_for: 600_000, x: 3, y: 4 } }] } });
    expect(res.status).toBe(200);
    await s.settle();
    const carts = [...s.raw.internals.store.assets.values()].filter((a) => a.name.startsWith('Cart '));
    expect(carts.map((a) => [a.x, a.y])).toEqual([[3, 4], [3, 4]]);
  });
});

describe('a bad answer is a failed load, never an empty one', () => {
  it.each([
    ['an HTML page answered 200 to the assets', /\/assets$/, { kind: 'answer', status: 200, body: '<html><body>Captive portal</body></html>', contentType: 'text/html' }],
    ['an object where the users list belongs', /\/users$/, { kind: 'rewrite', body: (list: unknown) => ({ items: list }) }],
    ['the sensors without stream position headers', /\/sensors$/, { kind: 'stripPosition' }],
    ['a list in another content type', LOCATION_LOAD, { kind: 'answer', status: 200, body: '[]', contentType: 'text/plain' }],
  ] as const)('takes %s as a failed load: warns, keeps the data, reloads on the back-off', async (_, path, action) => {
    s = await createScenario(test);
    await signInLive(s, test.accounts.regular);
    const store = s.raw.internals.store;
    const counts = () => [store.assets.size, store.buildings.size, store.floors.size, store.sensors.size, store.users.size];
    const before = counts();
    s.faults.add({ path, action: action as never });
    await reconnect(s);
    await waitPosted(s, MSG.FAILED_TRYING_TO_LOAD);
    expect(counts()).toEqual(before);
    expect(s.logger.warnings.some((w) => w.startsWith('Loading '))).toBe(true);
    await s.settle();
  });
});
