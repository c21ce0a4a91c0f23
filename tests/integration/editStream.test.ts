import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SELF_KEY, type ConnectionView, type DrawState, type SessionView, type StructureEntry } from '../../src/shared/api.js';
import { MAP_LAYERS } from '../../src/shared/constants.js';
import { createEngine, type Engine } from '../../src/worker/engine.js';
import { systemClock } from '../../src/worker/systemClock.js';
import { createIdbStorage } from '../../src/worker/storage/idbStorage.js';
import { createTransport } from '../../src/worker/transports/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collect, createTestLogger, type Collected } from '../worker/engine/harness.js';

// Unpublished assets reach the edit role only (spec §5/§6): the edit user's
// engine follows the location's edit stream, so an asset it unpublishes stays
// on its floor, while a regular user's engine, on the public stream, sees it
// go — and come back when it is published again. Likewise it follows the
// organization's edit stream, which alone carries positions on hidden floors.

const WAIT = { timeout: 20_000, interval: 25 };

interface Viewer {
  engine: Engine;
  floor: Collected<DrawState>;
}

describe.each(['pusher', 'mqtt'] as const)('edit stream against the reference server over %s', (transport) => {
  let test: TestServer;
  let editToken: string;
  let orgId: string;
  let locationId: string;
  let floorId: string;
  let editor: Viewer;
  let regular: Viewer;
  const logger = createTestLogger();

  async function open(role: 'edit' | 'regular'): Promise<Viewer> {
    const engine = createEngine({
      clock: systemClock,
      fetch: (input, init) => globalThis.fetch(input, init),
      transportFactory: createTransport,
      storage: createIdbStorage({ name: `storey-it-edit-stream-${transport}-${role}` }),
      logger,
    });
    await engine.init({ host: test.url });
    const connection = await collect<ConnectionView>(engine, { view: 'connection' });
    const session = await collect<SessionView>(engine, { view: 'session' });
    const account = test.accounts[role];
    expect((await engine.signIn(account.email, account.password)).ok).toBe(true);
    await vi.waitFor(() => { expect(connection.entries.get(SELF_KEY)).toMatchObject({ state: 'connected', transport }); }, WAIT);
    orgId = session.entries.get(SELF_KEY)!.user!.organization_id;
    expect((await engine.selectOrganization(orgId)).ok).toBe(true);
    await vi.waitFor(() => { expect(session.entries.get(SELF_KEY)!.locations.length).toBeGreaterThan(0); }, WAIT);
    locationId = session.entries.get(SELF_KEY)!.locations[0]!.id;
    expect((await engine.selectLocation(locationId)).ok).toBe(true);
    const structure = await collect<StructureEntry>(engine, { view: 'structure' });
    floorId = [...structure.entries.values()][0]!.defaultFloorId!;
    await engine.selectFloor(floorId);
    const floor = await collect<DrawState>(engine, { view: 'floor', floorId, layers: [...MAP_LAYERS] });
    return { engine, floor };
  }

  beforeAll(async () => {
    test = await startTestServer({ transport });
    editToken = await test.signIn('edit');
    editor = await open('edit');
    regular = await open('regular');
  });

  afterAll(async () => {
    await editor?.engine.dispose();
    await regular?.engine.dispose();
    await test?.close();
  });

  it('follows the edit streams as the edit user and the shared streams as a regular user', () => {
    expect(editor.engine.internals.session()!.locationScope()).toEqual({ kind: 'location', organizationId: orgId, locationId, audience: 'edit' });
    expect(regular.engine.internals.session()!.locationScope()).toEqual({ kind: 'location', organizationId: orgId, locationId });
    const org = { kind: 'organization', organizationId: orgId } as const;
    expect(editor.engine.internals.session()!.subscriptionState({ ...org, audience: 'edit' })).toBe('loaded');
    expect(editor.engine.internals.session()!.subscriptionState(org)).toBe('loaded');
    expect(regular.engine.internals.session()!.subscriptionState(org)).toBe('loaded');
    expect(regular.engine.internals.session()!.subscriptionState({ ...org, audience: 'edit' })).toBe('inactive');
  });

  it('shows the edit user standing on a hidden floor to the edit user\'s engine only', async () => {
    const hidden = [...test.server.store.assets.values()].find((a) => a.location_id === locationId && a.type === 'floor' && a.hidden)!;
    const me = test.accounts.edit.userId;
    const path = `/organizations/${orgId}/users/${me}`;
    const at = { location_id: locationId, floor_id: hidden.id, time: test.server.store.clock.now(), x: 4, y: 5 };
    expect((await test.api(path, { method: 'PATCH', token: editToken, json: { location: at, speech_bubble: `Upstairs over ${transport}` } })).status).toBe(200);
    await vi.waitFor(() => { expect(editor.engine.internals.store.users.get(me)?.location).toMatchObject({ floor_id: hidden.id }); }, WAIT);
    await vi.waitFor(() => { expect(regular.engine.internals.store.users.get(me)?.speech_bubble).toBe(`Upstairs over ${transport}`); }, WAIT);
    expect(regular.engine.internals.store.users.get(me)!.location).toBeNull();
    expect(JSON.stringify([...regular.engine.internals.store.users.values()])).not.toContain(`"${hidden.id}"`);
  });

  it('keeps an asset the edit user unpublishes on the edit user\'s floor, unpublished, and removes it from the regular user\'s', async () => {
    const desk = [...regular.floor.entries.values()].find((d) => d.kind === 'desk' && editor.floor.entries.has(d.id))!;
    expect(desk).toBeDefined();
    const path = `/organizations/${orgId}/locations/${locationId}/assets/${desk.id}`;
    expect((await test.api(path, { method: 'PATCH', token: editToken, json: { unpublished: true, name: `Draft over ${transport}` } })).status).toBe(200);

    await vi.waitFor(() => { expect(regular.floor.entries.has(desk.id)).toBe(false); }, WAIT);
    expect(regular.engine.internals.store.assets.has(desk.id)).toBe(false);
    await vi.waitFor(() => {
      expect(editor.engine.internals.store.assets.get(desk.id)).toMatchObject({ unpublished: true });
      expect(editor.floor.entries.get(desk.id)).toMatchObject({ name: `Draft over ${transport}` });
    }, WAIT);

    expect((await test.api(path, { method: 'PATCH', token: editToken, json: { unpublished: false } })).status).toBe(200);
    await vi.waitFor(() => { expect(regular.floor.entries.get(desk.id)).toMatchObject({ name: `Draft over ${transport}` }); }, WAIT);
    expect(editor.engine.internals.store.assets.get(desk.id)).toMatchObject({ unpublished: false });
    expect(editor.floor.entries.has(desk.id)).toBe(true);
    expect(logger.errors).toEqual([]);
  });
});
