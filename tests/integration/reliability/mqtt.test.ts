import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MQTT_PROTOCOL_VERSION } from '../../../src/shared/constants.js';
import { MSG } from '../../../src/shared/messages.js';
import { mqttPublishTopic } from '../../../src/shared/protocol.js';
import { createRng, hostilePayload, PACKET_FAMILIES } from '../../helpers/fuzz.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { createScenario, reconnect, signInLive, waitPosted, type Scenario } from './setup.js';

// Issue 11 over MQTT against the reference server and a private Mosquitto:
// the transport's own steps that never finish, a sign-out while a connect
// finishes (the broker credentials are per user), and hostile payloads
// published through the real broker onto the location's topic. Each
// scenario ends on the oracle (tests/helpers/oracle.ts).

const WAIT = { timeout: 15_000, interval: 20 };
const SEED = 11;
/** payloads through the broker: every family, ten times each (a broken stream costs a reconnect) */
const HOSTILE = PACKET_FAMILIES.length * 10;

let test: TestServer;
let s: Scenario | null = null;
beforeAll(async () => { test = await startTestServer({ transport: 'mqtt' }); });
afterAll(async () => { await test?.close(); });
afterEach(async () => { await s?.dispose(); s = null; });

describe('stuck over MQTT', () => {
  it('times out a broker connect and a topic subscribe that never finish, and recovers by itself', async () => {
    s = await createScenario(test);
    await signInLive(s, test.accounts.regular);
    expect(s.raw.internals.session()!.transport()?.name).toBe('mqtt');
    s.transports.hangConnects(1);
    await reconnect(s);
    await waitPosted(s, MSG.FAILED_RECONNECT_ATTEMPT);
    await s.settle();
    s.transports.hangSubscribes(1);
    await reconnect(s);
    await waitPosted(s, MSG.FAILED_TRYING_TO_LOAD);
    await s.settle();
  });
});

describe('never another user\'s data over MQTT', () => {
  it('signs out while a broker connect finishes; the next user subscribes only their own topics', async () => {
    s = await createScenario(test);
    const held = s.transports.holdConnects();
    const first = s.engine.signIn(test.accounts.edit.email, test.accounts.edit.password);
    await vi.waitFor(() => { expect(s!.transports.made()).toBe(1); }, WAIT);
    await first;
    await s.engine.signOut();
    const second = s.engine.signIn(test.accounts.regular.email, test.accounts.regular.password);
    await vi.waitFor(() => { expect(s!.transports.made()).toBe(2); }, WAIT);
    held.release();
    expect((await second).ok).toBe(true);
    await s.settle();
    expect(s.transports.subscribed.filter((x) => x.userId !== test.accounts.regular.userId)).toEqual([]);
    expect(s.posted()).not.toContain(MSG.FAILED_TRYING_TO_LOAD);
  });
});

describe('hostile packets through the broker', () => {
  it(`takes ${HOSTILE} seeded hostile payloads on the location topic without an escape, stays live, and ends on the server's truth`, async () => {
    s = await createScenario(test);
    await signInLive(s, test.accounts.edit);
    const store = s.raw.internals.store;
    const session = s.raw.internals.session()!;
    const { organizationId, locationId } = session.state().ctx;
    // the location's stream as this user follows it (an editor follows the edit audience's topic)
    const scope = s.transports.subscribed.map((x) => x.scope).findLast((x) => x.kind === 'location' && x.locationId === locationId)!;
    expect(scope).toBeDefined();
    const broker = test.server.broker!;
    const publisher = await mqtt.connectAsync(broker.mqttUrl, {
      protocolVersion: MQTT_PROTOCOL_VERSION, username: broker.adminUsername, password: broker.adminPassword, reconnectPeriod: 0,
    });
    try {
      const rng = createRng(SEED);
      let reconnects = 0;
      for (let i = 0; i < HOSTILE; i++) {
        // a payload that breaks the stream makes the engine reconnect, and a broker drops what it sends
        // to a client that is away (clean session): the next one goes out once the engine is live again
        await vi.waitFor(() => { expect(session.state().phase.name).toBe('live'); }, WAIT);
        const position = session.position(scope);
        const payload = hostilePayload(rng, PACKET_FAMILIES[i % PACKET_FAMILIES.length]!, {
          streamId: position?.stream_id ?? 'none', sequence: (position?.stream_sequence ?? 0) + 1,
          assetIds: [...store.assets.values()].filter((a) => !a.local).map((a) => a.id),
          sensorIds: [...store.sensors.values()].filter((x) => !x.local).map((x) => x.id),
          floorIds: [...store.floors.keys()], buildingIds: [...store.buildings.keys()],
        });
        const made = s.transports.made();
        const received = s.transports.received();
        // the wire carries text: a payload that is not a string goes as its JSON
        await publisher.publishAsync(mqttPublishTopic(scope), typeof payload === 'string' ? payload : JSON.stringify(payload), { qos: 1 });
        // through the broker into the engine's decode path
        await vi.waitFor(() => { expect(s!.transports.received()).toBeGreaterThan(received); }, WAIT);
        if (s.transports.made() > made || session.state().phase.name !== 'live') reconnects += 1;
      }
      // some payloads broke the stream and the engine reloaded; most did not
      expect(reconnects).toBeGreaterThan(0);
      expect(reconnects).toBeLessThan(HOSTILE / 2);
    } finally {
      await publisher.endAsync();
    }
    // the store's invariants hold: one collection per id, finite positions, no polluted prototype
    for (const id of store.assets.keys()) expect(store.buildings.has(id) || store.floors.has(id), id).toBe(false);
    for (const a of store.assets.values()) expect([a.x, a.y, a.z].every(Number.isFinite), a.id).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    // still live: a change made now reaches the engine, by the stream or by the reload a broken stream forced
    const token = await test.signIn('edit');
    const floorId = [...store.floors.keys()][0]!;
    const res = await test.api(`/organizations/${organizationId}/locations/${locationId}/assets`, { method: 'POST', token, json: { type: 'shape', subtype: 'desk', name: 'After the storm', parent_id: floorId } });
    expect(res.status).toBe(201);
    const made = (await res.json()) as { id: string };
    await vi.waitFor(() => { expect(store.assets.get(made.id)?.name).toBe('After the storm'); }, WAIT);
    // what hostile packets with a valid stream position changed lasts until the next load, which restores the truth
    await reconnect(s);
    await s.settle();
  });
});
