import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Asset } from '../../../src/shared/types.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { createScenario, reconnect, signInLive, type Scenario } from './setup.js';

// Issue 11 §4 against the reference server, over Pusher and over MQTT (a
// private Mosquitto): employees moved by location values keep the place and
// floor those values gave them when their asset records then change live —
// the server's record still holds the position it was created with — and
// through a reconnect's reload. Each scenario ends on the oracle.

const WAIT = { timeout: 10_000, interval: 20 };

describe.each(['pusher', 'mqtt'] as const)('positions survive record updates over %s', (transport) => {
  let test: TestServer;
  let s: Scenario | null = null;
  beforeAll(async () => { test = await startTestServer({ transport }); });
  afterAll(async () => { await test?.close(); });
  afterEach(async () => { await s?.dispose(); s = null; });

  it('keeps the moved employees where their location values put them when their records change, and through a reload', async () => {
    s = await createScenario(test);
    await signInLive(s, test.accounts.regular);
    const store = s.raw.internals.store;
    const { organizationId, locationId } = s.raw.internals.session()!.state().ctx;
    const base = `/organizations/${organizationId}/locations/${locationId}`;
    const token = await test.signIn('edit');
    const employees = [...store.assets.values()].filter((a) => a.type === 'employee' && !a.local && store.sensors.has(a.data_provider_refs.location ?? ''));
    expect(employees.length).toBeGreaterThanOrEqual(4);
    const floors = [...store.floors.values()].filter((f) => !f.hidden).map((f) => f.id);
    expect(floors.length).toBeGreaterThanOrEqual(2);

    // every other employee also changes floor; the spots are away from where the seed put anyone
    const now = Date.now();
    const moves = new Map(employees.map((e, i) => {
      const current = store.floorOf.get(e.id)!;
      const floorId = i % 2 ? floors.find((f) => f !== current)! : current;
      return [e.id, { sensorId: e.data_provider_refs!.location!, x: 2.5 + i, y: 3.5 + i / 2, floorId, from: { x: e.x, y: e.y, floorId: current } }];
    }));
    const measurements = [...moves.values()].map((m) => ({ sensor_id: m.sensorId, value: { time: now, valid_for: 600_000, x: m.x, y: m.y, floor_id: m.floorId } }));
    const posted = await test.api(`${test.url}/v2/measurements`, { method: 'POST', token, json: { measurements } });
    expect(posted.status, await posted.clone().text()).toBe(200);
    const where = (a: Asset) => ({ x: a.x, y: a.y, floorId: store.floorOf.get(a.id) });
    const expected = Object.fromEntries([...moves].map(([id, m]) => [id, { x: m.x, y: m.y, floorId: m.floorId }]));
    const positions = () => Object.fromEntries([...moves.keys()].map((id) => [id, where(store.assets.get(id)!)]));
    await vi.waitFor(() => { expect(positions()).toEqual(expected); }, WAIT);

    // the records change live: the server's copies still carry the old place and floor
    for (const e of employees) {
      const res = await test.api(`${base}/assets/${e.id}`, { method: 'PATCH', token, json: { name: `${e.name} (moved)` } });
      expect(res.status).toBe(200);
      const record = (await res.json()) as { x: number; y: number; parent_id: string };
      expect({ x: record.x, y: record.y, floorId: record.parent_id }).toEqual(moves.get(e.id)!.from);
    }
    await vi.waitFor(() => {
      expect(employees.map((e) => store.assets.get(e.id)!.name)).toEqual(employees.map((e) => `${e.name} (moved)`));
    }, WAIT);
    expect(positions()).toEqual(expected);
    // each floor's index agrees with where the employees are
    for (const [id, m] of moves) {
      expect(store.assetsByFloor.get(m.floorId)?.has(id)).toBe(true);
      if (m.from.floorId !== m.floorId) expect(store.assetsByFloor.get(m.from.floorId)?.has(id) ?? false).toBe(false);
    }
    await s.settle();

    // a reconnect reloads the same stale records: the values still win
    await reconnect(s);
    await s.settle();
    expect(positions()).toEqual(expected);
  });
});
