import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NEEDS_SERVER, SELF_KEY, type ApiResult, type SessionView } from '../../../src/shared/api.js';
import type { ReservationEvent } from '../../../src/shared/types.js';
import type { Engine } from '../../../src/worker/engine.js';
import type { Transport, TransportFactory } from '../../../src/worker/ports.js';
import { createIdbStorage } from '../../../src/worker/storage/idbStorage.js';
import type { StoragePort } from '../../../src/worker/storage/storagePort.js';
import {
  collect, createFakeBackend, createTestEngine, LOCATION_ID, ORG_ID, wireDesk, wireUser, type Collected, type FakeBackend,
} from './harness.js';

// Every write the worker exposes fails fast, typed, while the server cannot be reached: the browser
// offline, the live connection lost with the network down, or a reopen from saved data before the
// session is back. Nothing is sent, no draft shows on a view, nothing saved on the device changes;
// once the server is back the same writes go through.

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const HOST = 'http://127.0.0.1:9';
const base = `/v1/organizations/${ORG_ID}/locations/${LOCATION_ID}`;
const engines: Engine[] = [];
let dbCount = 0;

beforeEach(() => { vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'Date'] }); });
afterEach(async () => { for (const e of engines.splice(0)) await e.dispose(); vi.useRealTimers(); });

/** the user's own booking tomorrow (cancellable; no limit on the rest of today) */
const mine: ReservationEvent = { start: T0 + 25 * 3_600_000, end: T0 + 26 * 3_600_000, subject: 'Mine', user_id: 'u1', booking_ref: 'mine' };
const room = { id: 'r1', type: 'room', subtype: 'meeting', name: 'Aurora', parent_id: 'f1', data_providers: ['res1'], outline: [[0, 0], [4, 0], [4, 4], [0, 4]] };
const reservation = { id: 'res1', type: 'reservation', asset_id: 'r1', last_measurement: { time: T0 - 60_000, valid_for: 86_400_000, events: [mine] } };
const ticket = { id: 't1', type: 'ticket', parent_id: 'f1', name: 'Printer', value: { text: 'Printer', label: 'it', status: 'open', time: T0, valid_for: 86_400_000, valid_to: T0 + 86_400_000 } };
const voice = { id: 'v1', type: 'voice', subtype: 'space', name: 'More plants', parent_id: 'f1', speech_bubble: 'More plants', value: { time: T0, valid_for: 3_600_000 } };
const desk = wireDesk('d1', 'f1', { unpublished: true });
const note = { id: 'n1', user_id: 'u1', title: 'Hi', body: 'Welcome', created: T0, read: false, level: 'info', link: null };

/** Every write intent of EngineApi, each as a person would send it. */
const WRITES: ReadonlyArray<[string, (engine: Engine) => Promise<ApiResult<unknown>>]> = [
  ['bookRoom for 30 minutes', (e) => e.bookRoom({ roomId: 'r1', until: { minutes: 30 }, subject: 'Sync' })],
  ['bookRoom until an instant', (e) => e.bookRoom({ roomId: 'r1', until: { endsAt: T0 + 45 * 60_000 } })],
  ['bookRoom for the rest of the day', (e) => e.bookRoom({ roomId: 'r1', until: 'restOfDay' })],
  ['cancelBooking', (e) => e.cancelBooking('r1', 'mine')],
  ['createTicket of a ticket', (e) => e.createTicket({ kind: 'ticket', floorId: 'f1', x: 2, y: 3, label: 'it', text: 'Lamp broken' })],
  ['createTicket of a voice', (e) => e.createTicket({ kind: 'voice', floorId: 'f1', x: 2, y: 3, label: 'space', text: 'Too warm' })],
  ['closeTicket', (e) => e.closeTicket('t1')],
  ['vote', (e) => e.vote('v1', 1)],
  ['vote taken back', (e) => e.vote('v1', 0)],
  ['updateAsset renaming', (e) => e.updateAsset('d1', { name: 'Window desk' })],
  ['updateAsset publishing', (e) => e.updateAsset('d1', { unpublished: false })],
  ['setManualLocation', (e) => e.setManualLocation({ floorId: 'f1', x: 12, y: 13 })],
  ['setManualLocation clearing', (e) => e.setManualLocation(null)],
  ['markNotificationRead', (e) => e.markNotificationRead('n1')],
];

const REFUSED = { ok: false, status: 0, body: null, message: NEEDS_SERVER, code: 'serverUnreachable' };

interface Rig {
  engine: Engine;
  backend: FakeBackend;
  /** every request the engine tried, answered or not */
  tried: string[];
  /** the network is down: every request fails as fetch fails offline */
  network: { down: boolean };
  /** the live connection reports a state (as pusher-js or mqtt.js would) */
  transportSays(word: string): void;
}

/** A backend that answers every write, a network that can go down and a transport that can drop. */
function createRig(storage?: StoragePort): Rig {
  const backend = createFakeBackend({
    permissions: ['ASSET_UPDATE', 'ASSET_UPDATE_SERVICE_TICKET', 'USER_UPDATE_SELF'],
    assets: [room, ticket, voice, desk], sensors: [reservation], notifications: [note],
    locationConfig: { assetBookingFeature: true, allDayBookingButton: true },
  });
  const echo = (extra: Record<string, unknown> = {}) => (init: RequestInit | undefined) => ({ body: { ...JSON.parse(String(init?.body ?? '{}')), ...extra } });
  backend.routes.set('POST /v1/booking', (init) => {
    const body = JSON.parse(String(init?.body)) as { start: number; end: number; subject: string };
    return { status: 201, body: { booking_ref: 'b-new', sensor_id: 'res1', event: { ...body, user_id: 'u1', booking_ref: 'b-new' } } };
  });
  backend.routes.set('DELETE /v1/booking', () => ({ body: {} }));
  backend.routes.set(`POST ${base}/assets`, echo({ id: 'new-1' }));
  backend.routes.set(`PATCH ${base}/assets/t1`, (init) => ({ body: { ...ticket, ...JSON.parse(String(init?.body)) } }));
  backend.routes.set(`PATCH ${base}/assets/d1`, (init) => ({ body: { ...desk, ...JSON.parse(String(init?.body)) } }));
  backend.routes.set(`PUT ${base}/assets/v1/vote`, () => ({ body: { up: 1, down: 0, mine: 1 } }));
  backend.routes.set(`DELETE ${base}/assets/v1/vote`, () => ({ body: { up: 0, down: 0, mine: 0 } }));
  backend.routes.set(`PATCH /v1/organizations/${ORG_ID}/users/u1`, (init) => ({ body: { ...wireUser('u1'), ...JSON.parse(String(init?.body)) } }));
  backend.routes.set('PATCH /v1/notifications/n1', () => ({ body: { ...note, read: true } }));

  const tried: string[] = [];
  const network = { down: false };
  const fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    tried.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
    return network.down ? Promise.reject(new TypeError('Failed to fetch')) : backend.fetch(input, init);
  }) as typeof globalThis.fetch;
  const listeners = new Set<(word: string) => void>();
  const plain = backend.transportFactory;
  const transportFactory: TransportFactory = (settings, context) => {
    const transport: Transport = plain(settings, context);
    return { ...transport, onStateChange: (listener) => { listeners.add(listener); return () => listeners.delete(listener); } };
  };
  const { engine } = createTestEngine({ fetch, transportFactory, ...(storage ? { storage } : {}) });
  engines.push(engine);
  return { engine, backend, tried, network, transportSays: (word) => { for (const l of [...listeners]) l(word); } };
}

async function signedInLive(rig: Rig): Promise<void> {
  await rig.engine.init({ host: HOST });
  expect((await rig.engine.signIn('ann@example.com', 'pw')).ok).toBe(true);
  expect((await rig.engine.selectOrganization(ORG_ID)).ok).toBe(true);
  expect((await rig.engine.selectLocation(LOCATION_ID)).ok).toBe(true);
  await untilPhase(rig.engine, 'live');
}

async function untilPhase(engine: Engine, phase: SessionView['phase']): Promise<void> {
  const session = await collect<SessionView>(engine, { view: 'session' });
  await vi.waitFor(async () => {
    await vi.advanceTimersByTimeAsync(100);
    engine.internals.hub.flush();
    expect(session.entries.get(SELF_KEY)?.phase).toBe(phase);
  }, { timeout: 10_000 });
  await engine.unsubscribe(session.id);
}

/** The views a person looks at while writing: the floor, the popups, the rooms and people lists, the notifications. */
async function openViews(engine: Engine): Promise<Array<Collected>> {
  return Promise.all([
    collect(engine, { view: 'floor', floorId: 'f1', layers: ['rooms', 'room_reservation', 'desks', 'service', 'co-workers'] }),
    collect(engine, { view: 'asset', assetId: 'r1' }),
    collect(engine, { view: 'asset', assetId: 'v1' }),
    collect(engine, { view: 'asset', assetId: 't1' }),
    collect(engine, { view: 'asset', assetId: 'd1' }),
    collect(engine, { view: 'rooms' }),
    collect(engine, { view: 'people' }),
    collect(engine, { view: 'notifications' }),
  ]);
}
const shown = (views: Collected[]) => JSON.stringify(views.map((v) => [...v.entries].sort(([a], [b]) => a.localeCompare(b))));
const writesTried = (tried: string[]) => tried.filter((r) => !r.startsWith('GET '));

/** Each write is refused with the typed failure, nothing is sent, no view shows a draft, the store keeps what it had. */
async function expectEveryWriteRefused(rig: Rig): Promise<void> {
  const views = await openViews(rig.engine);
  await vi.advanceTimersByTimeAsync(100);
  rig.engine.internals.hub.flush();
  const before = shown(views);
  const stored = JSON.stringify([...rig.engine.internals.store.assets.values()]);
  const sent = writesTried(rig.tried).length;
  for (const [name, write] of WRITES) {
    expect(await write(rig.engine), name).toEqual(REFUSED);
  }
  await vi.advanceTimersByTimeAsync(100);
  rig.engine.internals.hub.flush();
  expect(writesTried(rig.tried).length).toBe(sent);
  expect(shown(views)).toBe(before);
  expect(JSON.stringify([...rig.engine.internals.store.assets.values()])).toBe(stored);
}

async function expectEveryWriteSent(rig: Rig): Promise<void> {
  for (const [name, write] of WRITES) {
    const result = await write(rig.engine);
    expect(result.ok, `${name}: ${JSON.stringify(result)}`).toBe(true);
  }
  expect(writesTried(rig.tried)).toEqual(expect.arrayContaining(['POST /v1/booking', 'DELETE /v1/booking', `POST ${base}/assets`, `PATCH ${base}/assets/t1`,
    `PUT ${base}/assets/v1/vote`, `DELETE ${base}/assets/v1/vote`, `PATCH ${base}/assets/d1`, `PATCH /v1/organizations/${ORG_ID}/users/u1`, 'PATCH /v1/notifications/n1']));
}

describe('writes while the server cannot be reached', () => {
  it('refuses every write while the browser is offline, and sends them once it is back online', async () => {
    const rig = createRig();
    await signedInLive(rig);
    await rig.engine.setOnline(false);
    await expectEveryWriteRefused(rig);

    await rig.engine.setOnline(true);
    await untilPhase(rig.engine, 'live');
    await expectEveryWriteSent(rig);
  });

  it('refuses every write while the live connection is lost and the network down, retrying; sends them once reconnected', async () => {
    const rig = createRig();
    await signedInLive(rig);
    rig.network.down = true;
    rig.transportSays('disconnected');
    await untilPhase(rig.engine, 'retrying');
    await expectEveryWriteRefused(rig);

    // the next attempt of the back-off (5 s) finds the server again
    rig.network.down = false;
    await untilPhase(rig.engine, 'live');
    await expectEveryWriteSent(rig);
  });

  it('refuses every write of a reopen from saved data while the session is not back, keeping what the device saved', async () => {
    const name = `storey-offline-writes-${++dbCount}`;
    const first = createRig(createIdbStorage({ name }));
    await signedInLive(first);
    await first.engine.selectFloor('f1');
    await first.engine.internals.persister.flush();
    await first.engine.dispose();
    engines.splice(engines.indexOf(first.engine), 1);

    // the reopen: the network is down, so the session keeps trying while the saved location is shown
    const rig = createRig(createIdbStorage({ name }));
    rig.network.down = true;
    await rig.engine.init({ host: HOST });
    expect(await rig.engine.resume()).toBe(true);
    await vi.waitFor(() => expect(rig.engine.internals.store.assets.has('r1')).toBe(true), { timeout: 10_000 });
    await untilPhase(rig.engine, 'retrying');
    await expectEveryWriteRefused(rig);
    await rig.engine.internals.persister.flush();

    // the device still holds the session and the location as saved
    const saved = createIdbStorage({ name });
    expect(await saved.loadSession()).toMatchObject({ token: 'secret-token', userId: 'u1', locationId: LOCATION_ID });
    const location = await saved.loadLocation({ userId: 'u1', locationId: LOCATION_ID }, () => undefined);
    expect(location?.entities.assets?.map((a) => (a as { id: string }).id)).toEqual(expect.arrayContaining(['r1', 't1', 'v1', 'd1']));
    await saved.close();

    rig.network.down = false;
    await untilPhase(rig.engine, 'live');
    await expectEveryWriteSent(rig);
  });
});

/** Every account call of EngineApi, each as its form sends it (signed out). */
const ACCOUNT_CALLS: ReadonlyArray<[string, (engine: Engine) => Promise<ApiResult<unknown>>]> = [
  ['signIn', (e) => e.signIn('ann@example.com', 'pw')],
  ['signInWithIdToken', (e) => e.signInWithIdToken('id-token')],
  ['signUp', (e) => e.signUp('new@example.com')],
  ['authUri', (e) => e.authUri('ann@example.com')],
  ['recoverPassword', (e) => e.recoverPassword('ann@example.com')],
  ['confirmSignUp', (e) => e.confirmSignUp('c0de', 'a long password')],
  ['setPasswordWithCode', (e) => e.setPasswordWithCode({ organizationId: ORG_ID, userId: 'u1', code: 'c0de' }, 'a long password')],
];

describe('account calls while the browser is offline', () => {
  it('refuses each before sending anything, typed as the writes are, and sends them once the browser is back online', async () => {
    const rig = createRig();
    rig.backend.routes.set('POST /v1/openid_login', () => ({ body: { token: 'secret-token', token_type: 'Bearer', expires_at: 0, user_id: 'u1', organization_id: ORG_ID } }));
    rig.backend.routes.set('POST /v1/signup', () => ({ status: 202, body: { accepted: true } }));
    rig.backend.routes.set('GET /v1/auth_uri', () => ({ body: { uri: null } }));
    rig.backend.routes.set('POST /v1/recover_password', () => ({ status: 202, body: { accepted: true } }));
    rig.backend.routes.set('POST /v1/signup/confirm', () => ({ status: 201, body: { user_id: '41', organization_id: ORG_ID, email: 'new@example.com' } }));
    rig.backend.routes.set(`POST /v1/organizations/${ORG_ID}/users/u1/password`, () => ({ body: {} }));
    await rig.engine.init({ host: HOST });
    await rig.engine.setOnline(false);
    for (const [name, call] of ACCOUNT_CALLS) expect(await call(rig.engine), name).toEqual(REFUSED);
    expect(rig.tried).toEqual([]);
    // nobody was signed in by a refused sign-in
    expect(rig.engine.internals.session()?.token() ?? null).toBeNull();

    await rig.engine.setOnline(true);
    for (const [name, call] of ACCOUNT_CALLS) {
      const result = await call(rig.engine);
      expect(result.ok, `${name}: ${JSON.stringify(result)}`).toBe(true);
      if (name.startsWith('signIn')) await rig.engine.signOut();
    }
    expect(rig.tried).toEqual(expect.arrayContaining(['POST /v1/login', 'POST /v1/openid_login', 'POST /v1/signup', 'GET /v1/auth_uri',
      'POST /v1/recover_password', 'POST /v1/signup/confirm', `POST /v1/organizations/${ORG_ID}/users/u1/password`]));
  });
});
