import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStoreyServer, type StoreyServer } from '../../server/app.js';
import { MSG, type PostedError } from '../../src/shared/messages.js';
import type { ConnectionView } from '../../src/shared/api.js';
import type { StreamScope } from '../../src/shared/protocol.js';
import type { WireAsset, WireLocation } from '../../src/shared/rest.js';
import { systemClock } from '../../src/worker/systemClock.js';
import { createScheduler } from '../../src/worker/scheduler.js';
import { buildConnectionView } from '../../src/worker/engine/sessionView.js';
import { createSession } from '../../src/worker/session/createSession.js';
import { DEFAULT_SESSION_TIMEOUTS } from '../../src/worker/session/timeouts.js';
import type { Session } from '../../src/worker/session/types.js';
import { createCorrectedClock } from '../../src/worker/sync/timeSync.js';
import { createTransport } from '../../src/worker/transports/index.js';
import { TIME_SYNC_INTERVAL_MS } from '../../src/shared/constants.js';
import { startTestServer, TEST_SEED, type TestAccount, type TestServer } from '../helpers/server.js';
import { createRecordingLogger } from '../worker/sync/fakes.js';
import { byId, createMirror } from './support/mirror.js';
import { startRestartableBroker, type RestartableBroker } from './support/mosquitto.js';

/** test-only back-off step; the default (5 s) is asserted by the unit tests */
const STEP_MS = 250;
const WAIT = { timeout: 20_000, interval: 25 };

async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = WAIT.timeout): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try { return await check(); } catch (error) { last = error; }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${String(last)}`);
    await new Promise((r) => setTimeout(r, WAIT.interval));
  }
}

describe.each(['pusher', 'mqtt'] as const)('the session against the reference server over %s', (transport) => {
  let broker: RestartableBroker | null = null;
  let test: TestServer;
  let current: StoreyServer;
  let account: TestAccount;
  let token: string;
  let session: Session;
  const state = () => buildConnectionView(session.state(), session.transport(), { fromCache: false, serverOffsetMs: corrected.offsetMs });
  let locationId: string;
  let floorId: string;
  const mirror = createMirror();
  const log = createRecordingLogger();
  const views: Array<ConnectionView & { at: number }> = [];
  const errors: PostedError[] = [];
  const corrected = createCorrectedClock(systemClock);
  const scheduler = createScheduler(systemClock, () => corrected.now());

  const brokerOptions = () => broker
    ? { url: broker.mqttUrl, wsUrl: broker.wsUrl, username: broker.adminUsername, password: broker.adminPassword, dynsec: true }
    : undefined;
  const api = (path: string, init: { method?: string; json?: unknown } = {}) => test.api(path, { ...init, token });
  const locScope = (): StreamScope => ({ kind: 'location', organizationId: account.organizationId, locationId });
  const assetsPath = () => `/organizations/${account.organizationId}/locations/${locationId}/assets`;
  const serverAssets = async () => byId((await (await api(assetsPath())).json()) as WireAsset[]);
  const serverSensors = async () => byId((await (await api(`/organizations/${account.organizationId}/locations/${locationId}/sensors`)).json()) as Array<{ id: string }>);

  async function expectMirrorEqualsServer() {
    await waitFor(async () => expect(mirror.list('assets')).toEqual(await serverAssets()), 'assets to match the server');
    expect(mirror.list('sensors')).toEqual(await serverSensors());
    const locations = (await (await api(`/organizations/${account.organizationId}/locations`)).json()) as WireLocation[];
    expect(mirror.list('locations')).toEqual(byId(locations));
    const users = (await (await api(`/organizations/${account.organizationId}/users`)).json()) as Array<{ id: string }>;
    expect(mirror.list('users')).toEqual(byId(users));
  }

  /** the back-off of the views since `from`: every scheduled retry waited STEP × attempts, attempts counting up from 1 */
  function expectBackOffSince(from: number) {
    // the first view that shows each newly scheduled retry
    const unique = views.filter((v, i) => i >= from && v.nextRetryAt !== null && v.nextRetryAt !== views[i - 1]?.nextRetryAt);
    expect(unique.length).toBeGreaterThan(0);
    // A view reaches this test some time after the retry was scheduled (later
    // still on a loaded machine), so from the view's arrival the wait can only
    // look shorter: that bounds it from above. From below, attempt k+1 is
    // scheduled after attempt k ran and failed, so it comes at least
    // STEP × (k+1) after attempt k was due; delays only widen that gap.
    unique.forEach((v, i) => {
      expect(v.attempts).toBe(i + 1);
      expect(v.nextRetryAt! - v.at).toBeLessThanOrEqual(STEP_MS * v.attempts + 5);
      const before = unique[i - 1];
      if (before) expect(v.nextRetryAt! - before.nextRetryAt!).toBeGreaterThanOrEqual(STEP_MS * v.attempts - 5);
    });
    const last = views.at(-1)!;
    expect(last).toMatchObject({ state: 'connected', attempts: 0, nextRetryAt: null });
  }

  async function createAsset(name: string): Promise<WireAsset> {
    const res = await api(assetsPath(), { method: 'POST', json: { type: 'shape', subtype: 'desk', name, parent_id: floorId, x: 1, y: 2, categories: { shape: 'desk' } } });
    expect(res.status).toBe(201);
    return (await res.json()) as WireAsset;
  }

  beforeAll(async () => {
    if (transport === 'mqtt') broker = await startRestartableBroker();
    test = await startTestServer({ transport, mqtt: brokerOptions() });
    current = test.server;
    account = test.accounts.edit;
    session = createSession({
      host: test.url, clock: systemClock, corrected, scheduler, fetch: globalThis.fetch, transportFactory: createTransport,
      logger: log.logger,
      timeouts: { ...DEFAULT_SESSION_TIMEOUTS, timeSyncIntervalMs: TIME_SYNC_INTERVAL_MS },
      port: { sink: mirror.sink, settings() {}, enterOrganization() {}, enterLocation() {}, endSession() {} },
      onChange: () => views.push({ ...state(), at: corrected.now() }),
      onError: (error) => errors.push(error),
      reconnectStepMs: STEP_MS, reconnectMaxDelayMs: STEP_MS * 12,
    });
  });

  afterAll(async () => {
    session?.dispose();
    scheduler.clear();
    await current?.close();
    await broker?.close();
  });

  it('signs in, connects and delivers the initial load of organization and location', async () => {
    const settings = await session.signIn(account.email, account.password);
    token = session.token()!;
    expect(settings.user.id).toBe(account.userId);
    expect(transport === 'mqtt' ? settings.mqtt_config : settings.pusher_config).toBeTruthy();
    // the user's own organization and its first location load by default
    await waitFor(() => expect(session.state().phase.name).toBe('live'), 'the session to go live');
    expect(state()).toMatchObject({ state: 'connected', transport, attempts: 0 });
    expect(session.state().ctx.organizationId).toBe(account.organizationId);
    locationId = session.state().ctx.locationId!;
    expect(locationId).toBe(mirror.list('locations')[0]!.id);
    await expect(session.selectLocation(locationId)).resolves.toEqual({ ok: true, value: undefined });
    // assets on hidden floors are never published live (docs/protocol.md §5), so changes are made on a visible one
    floorId = mirror.list('assets').find((a) => a.type === 'floor' && a.hidden !== true && a.unpublished !== true)!.id;
    expect(mirror.list('assets').length).toBeGreaterThan(10);
    await expectMirrorEqualsServer();
    expect(errors).toEqual([]);
  });

  it('receives changes made through the API, each applied once and in order', async () => {
    const created = await createAsset(`IT desk ${transport}`);
    for (const x of [3, 4]) {
      const res = await api(`${assetsPath()}/${created.id}`, { method: 'PATCH', json: { x } });
      expect(res.status).toBe(200);
    }
    const victim = mirror.list('assets').find((a) => a.type === 'shape' && a.parent_id === floorId && a.unpublished !== true && a.id !== created.id)!;
    expect((await api(`${assetsPath()}/${victim.id}`, { method: 'DELETE' })).status).toBe(204);
    await waitFor(() => {
      expect(mirror.get('assets').get(created.id)).toMatchObject({ x: 4 });
      expect(mirror.get('assets').has(victim.id)).toBe(false);
    }, 'live changes');
    const versions = mirror.liveVersions.get(created.id)!;
    expect(versions).toHaveLength(3);
    expect([...versions].sort((a, b) => a - b)).toEqual(versions);
    expect(new Set(versions).size).toBe(versions.length);
    await expectMirrorEqualsServer();
  });

  // over Pusher the reference server is the broker: its restart is the next test
  if (transport === 'mqtt') it('survives a broker restart on the back-off schedule, catching up on changes made meanwhile', async () => {
    const from = views.length;
    const failedBefore = errors.filter((e) => e.message === MSG.FAILED_RECONNECT_ATTEMPT).length;
    await broker!.stop();
    await waitFor(() => expect(state().state).not.toBe('connected'), 'the loss to be noticed');
    const made = await createAsset('made while the broker was down');
    await waitFor(() => expect(errors.filter((e) => e.message === MSG.FAILED_RECONNECT_ATTEMPT).length).toBeGreaterThanOrEqual(failedBefore + 2), 'failed attempts');
    await broker!.start();
    await waitFor(() => expect(state()).toMatchObject({ state: 'connected', attempts: 0 }), 'reconnection');
    expect(errors.every((e) => e.level === 'error' && e.type === 'network')).toBe(true);
    expectBackOffSince(from);
    await waitFor(() => expect(mirror.get('assets').has(made.id)).toBe(true), 'the change made while down');
    await expectMirrorEqualsServer();
  });

  it('survives a server restart with a new stream id, replacing the data with the new server\'s', async () => {
    const before = session.position(locScope());
    expect(before).not.toBeNull();
    const from = views.length;
    const failedBefore = errors.filter((e) => e.message === MSG.FAILED_RECONNECT_ATTEMPT).length;
    const port = Number(new URL(test.url).port);
    const tokens = [...current.store.tokens];
    // our broker outlives the server, which deletes the broker clients it provisioned as it stops
    await current.close();
    await waitFor(() => expect(state().state).not.toBe('connected'), 'the loss to be noticed');
    await waitFor(() => expect(errors.filter((e) => e.message === MSG.FAILED_RECONNECT_ATTEMPT).length).toBeGreaterThanOrEqual(failedBefore + 1), 'a failed attempt');
    current = await startStoreyServer({
      // sessions outlive a restart, as with a real database (in place before the first request)
      sessions: tokens,
      host: '127.0.0.1', port, transport, seed: TEST_SEED, simulate: false, devRoutes: true,
      pusher: test.server.pusher, mqtt: brokerOptions(),
    });
    await waitFor(() => expect(state()).toMatchObject({ state: 'connected', attempts: 0 }), 'reconnection');
    expectBackOffSince(from);
    const after = session.position(locScope());
    expect(after!.stream_id).not.toBe(before!.stream_id);
    // the reseeded server lacks what was created before; the reload removed it
    await expectMirrorEqualsServer();
    expect(mirror.list('assets').some((a) => a.name === `IT desk ${transport}`)).toBe(false);
    const fresh = await createAsset('after the restart');
    await waitFor(() => expect(mirror.get('assets').has(fresh.id)).toBe(true), 'a change on the new server');
    await expectMirrorEqualsServer();
    expect(log.messages('warn')).not.toContain(MSG.RECONNECTING_STREAM_INVALID);
  });
});
