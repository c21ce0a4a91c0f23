import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SELF_KEY, type AssetDetail, type DrawState, type PersonEntry, type RoomEntry } from '../../../src/shared/api.js';
import type { Engine } from '../../../src/worker/engine.js';
import { createOptimisticOverlay } from '../../../src/worker/views/optimistic.js';
import type { ViewSource } from '../../../src/worker/views/viewHub.js';
import {
  collect, createFakeBackend, createTestEngine, LOCATION_ID, ORG_ID, wireDesk,
} from '../engine/harness.js';

const T0 = Date.UTC(2025, 0, 15, 10, 0, 0);
const HOST = 'http://api.test';
let engine: Engine;

beforeEach(() => { vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'Date'] }); });
afterEach(async () => { await engine?.dispose(); vi.useRealTimers(); });

const settle = async () => { await vi.advanceTimersByTimeAsync(100); engine.internals.hub.flush(); };

/** A server answer the test releases when it wants: the window in which the draft shows. */
function deferred() {
  let release!: (answer: { status?: number; body: unknown }) => void;
  const answer = new Promise<{ status?: number; body: unknown }>((resolve) => { release = resolve; });
  return { answer, release };
}

async function signedIn(options: Parameters<typeof createFakeBackend>[0], permissions = ['USER_UPDATE_SELF']) {
  const backend = createFakeBackend({ ...options, permissions });
  // answers may wait: the fake fetch awaits a route that returns a promise
  const plain = backend.fetch;
  backend.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const route = backend.routes.get(`${init?.method ?? 'GET'} ${url.pathname}`);
    const out = route?.(init, url) as unknown;
    if (out instanceof Promise) {
      const { status = 200, body } = await out as { status?: number; body: unknown };
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }
    return plain(input, init);
  }) as typeof fetch;
  ({ engine } = createTestEngine({ fetch: backend.fetch, transportFactory: backend.transportFactory }));
  await engine.init({ host: HOST });
  expect((await engine.signIn('ann@example.com', 'pw')).ok).toBe(true);
  await settle();
  expect(await engine.selectOrganization(ORG_ID)).toEqual({ ok: true, value: undefined });
  expect(await engine.selectLocation(LOCATION_ID)).toEqual({ ok: true, value: undefined });
  await settle();
  return backend;
}

const base = `/v1/organizations/${ORG_ID}/locations/${LOCATION_ID}`;
const voice = { id: 'v1', type: 'voice', name: 'More plants', parent_id: 'f1', x: 1, y: 1, speech_bubble: 'More plants', votes: { up: 2, down: 0 }, value: { time: T0, valid_for: 3_600_000 } };
const room = { id: 'r1', type: 'room', subtype: 'meeting', name: 'Aurora', parent_id: 'f1', data_providers: ['res1'], outline: [[0, 0], [4, 0], [4, 4], [0, 4]] };
const reservation = { id: 'res1', type: 'reservation', asset_id: 'r1', last_measurement: { time: T0 - 1000, valid_for: 86_400_000, events: [] } };

describe('optimistic actions', () => {
  it('shows a vote at once, and rolls it back with the inverse patches when the server refuses', async () => {
    const backend = await signedIn({ assets: [voice] });
    const popup = await collect<AssetDetail>(engine, { view: 'asset', assetId: 'v1' });
    const before = popup.entries.get(SELF_KEY)!;
    expect(before.votes).toEqual({ up: 2, down: 0, mine: 0 });
    const server = deferred();
    backend.routes.set(`PUT ${base}/assets/v1/vote`, () => server.answer as never);
    const voting = engine.vote('v1', 1);
    await settle();
    expect(popup.entries.get(SELF_KEY)!.votes).toEqual({ up: 3, down: 0, mine: 1 });
    server.release({ status: 403, body: { statusCode: 403, error: 'Forbidden', message: 'No' } });
    expect((await voting).ok).toBe(false);
    await settle();
    expect(popup.entries.get(SELF_KEY)).toEqual(before);
    expect(engine.internals.store.assets.get('v1')!.votes).toEqual({ up: 2, down: 0 });
  });

  it('keeps an accepted vote until the answer is in the store, which then shows the truth', async () => {
    const backend = await signedIn({ assets: [voice] });
    const popup = await collect<AssetDetail>(engine, { view: 'asset', assetId: 'v1' });
    const server = deferred();
    backend.routes.set(`PUT ${base}/assets/v1/vote`, () => server.answer as never);
    const voting = engine.vote('v1', 1);
    await settle();
    expect(popup.entries.get(SELF_KEY)!.votes).toEqual({ up: 3, down: 0, mine: 1 });
    // the server counted another vote meanwhile: its answer is the truth
    server.release({ body: { up: 4, down: 0, mine: 1 } });
    expect((await voting).ok).toBe(true);
    await settle();
    expect(popup.entries.get(SELF_KEY)!.votes).toEqual({ up: 4, down: 0, mine: 1 });
  });

  it('turns a booked room reserved on the map and in the room list before the server answers, and back when refused', async () => {
    const backend = await signedIn({ assets: [room], sensors: [reservation], locationConfig: { assetBookingFeature: true } });
    const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['room_reservation'] });
    const rooms = await collect<RoomEntry>(engine, { view: 'rooms' });
    const mapBefore = floor.entries.get('r1')!;
    expect(mapBefore).toMatchObject({ statusKind: 'free', status: 'free' });
    const server = deferred();
    backend.routes.set('POST /v1/booking', () => server.answer as never);
    const booking = engine.bookRoom({ roomId: 'r1', until: { minutes: 30 }, subject: 'Sync' });
    await settle();
    expect(floor.entries.get('r1')).toMatchObject({ statusKind: 'booked', status: 'reserved', color: '#fb8c00' });
    expect(rooms.entries.get('r1')).toMatchObject({ free: false, status: 'reserved', activeEvent: { subject: 'Sync' } });
    server.release({ status: 409, body: { statusCode: 409, error: 'Conflict', message: 'The room is already booked at that time' } });
    expect(await booking).toMatchObject({ ok: false, status: 409 });
    await settle();
    expect(floor.entries.get('r1')).toEqual(mapBefore);
    expect(rooms.entries.get('r1')).toMatchObject({ free: true, status: 'free', activeEvent: null });
  });

  it('renames on the map at once; a refusal gives the old name back', async () => {
    const backend = await signedIn({ assets: [wireDesk('d1', 'f1', { name: 'Desk 1' })] }, ['ASSET_UPDATE', 'USER_UPDATE_SELF']);
    const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['desks'] });
    const server = deferred();
    backend.routes.set(`PATCH ${base}/assets/d1`, () => server.answer as never);
    const renaming = engine.updateAsset('d1', { name: 'Window desk' });
    await settle();
    expect(floor.entries.get('d1')).toMatchObject({ name: 'Window desk', label: 'Window desk' });
    server.release({ status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'x' } });
    await renaming;
    await settle();
    expect(floor.entries.get('d1')).toMatchObject({ name: 'Desk 1', label: 'Desk 1' });
  });

  /** "Lamp broken" being sent as a ticket at (2, 3) of f1 while the floor is open; the server answers when the test says. */
  async function creatingTicket() {
    const backend = await signedIn({});
    const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['info'] });
    const server = deferred();
    backend.routes.set(`POST ${base}/assets`, () => server.answer as never);
    const creating = engine.createTicket({ kind: 'ticket', floorId: 'f1', x: 2, y: 3, label: '', text: 'Lamp broken' });
    await settle();
    const tickets = () => [...floor.entries.values()].filter((e) => e.kind === 'ticket');
    return { server, creating, tickets, ids: () => tickets().map((t) => t.id).sort() };
  }
  /** the ticket as the server makes it */
  const lampTicket = () => ({ id: 't9', type: 'ticket', name: 'Lamp broken', parent_id: 'f1', x: 2, y: 3, speech_bubble: 'Lamp broken', value: { time: Date.now(), valid_for: 3_600_000, status: 'open', text: 'Lamp broken' } });
  const liveCreated = (data: unknown) => engine.internals.sink.apply({ scope: { kind: 'location', organizationId: ORG_ID, locationId: LOCATION_ID }, changes: [{ collection: 'assets', kind: 'created', data }] });

  it('draws a new ticket at once, marked as being sent, and takes it away when the server refuses', async () => {
    const { server, creating, tickets } = await creatingTicket();
    expect(tickets()).toMatchObject([{ name: 'Lamp broken', status: 'sending', x: 2, y: 3 }]);
    server.release({ status: 403, body: { statusCode: 403, error: 'Forbidden', message: 'No' } });
    expect((await creating).ok).toBe(false);
    await settle();
    expect(tickets()).toEqual([]);
  });

  it('swaps the drafted ticket for the real one when the server agrees', async () => {
    const { server, creating, ids } = await creatingTicket();
    server.release({ status: 201, body: lampTicket() });
    expect((await creating).ok).toBe(true);
    await settle();
    expect(ids()).toEqual(['t9']);
  });

  it('draws the new ticket once when the live stream brings it before the server answers', async () => {
    const { server, creating, ids } = await creatingTicket();
    const ticket = lampTicket();
    // a colleague's ticket elsewhere on the floor is not this one: the draft stays
    liveCreated({ ...ticket, id: 't8', x: 7 });
    await settle();
    expect(ids()).toEqual(['pending-ticket:1', 't8'].sort());
    // the live stream's copy of this one: drawn once, the draft gone
    liveCreated(ticket);
    await settle();
    expect(ids()).toEqual(['t8', 't9']);
    server.release({ status: 201, body: ticket });
    expect((await creating).ok).toBe(true);
    await settle();
    expect(ids()).toEqual(['t8', 't9']);
  });

  it('places the viewer where they set their location at once', async () => {
    const backend = await signedIn({});
    const people = await collect<PersonEntry>(engine, { view: 'people' });
    const server = deferred();
    backend.routes.set(`PATCH /v1/organizations/${ORG_ID}/users/u1`, () => server.answer as never);
    const placing = engine.setManualLocation({ floorId: 'f2', x: 3, y: 4 });
    await settle();
    expect(people.entries.get('u1')).toMatchObject({ floorId: 'f2', x: 3, y: 4, visible: true, manual: true });
    server.release({ status: 403, body: { statusCode: 403, error: 'Forbidden', message: 'No' } });
    await placing;
    await settle();
    expect(people.entries.get('u1')).toMatchObject({ floorId: null, visible: false });
  });
});

describe('createOptimisticOverlay', () => {
  it('costs nothing while nothing is drafted: the source entry passes through as it is', () => {
    const entry = { id: 'a', name: 'x' };
    const source: ViewSource = { keys: () => ['a'], entry: () => entry, meta: () => null, affected: () => null, metaAffected: () => false };
    const overlay = createOptimisticOverlay({ markDirty: () => {}, after: () => {} });
    const wrapped = overlay.wrap({ view: 'people' }, source);
    expect(wrapped.entry('a')).toBe(entry);
    expect(wrapped.affected(new Map())).toBeNull();
  });

  it('drafts only the entries of the views an edit names', () => {
    const overlay = createOptimisticOverlay({ markDirty: () => {}, after: () => {} });
    const source = (name: string): ViewSource => ({ keys: () => ['a'], entry: () => ({ name }), meta: () => null, affected: () => null, metaAffected: () => false });
    const asset1 = overlay.wrap({ view: 'asset', assetId: '1' }, source('one'));
    const asset2 = overlay.wrap({ view: 'asset', assetId: '2' }, source('two'));
    overlay.begin([{ view: 'asset', key: 'a', spec: (s) => s.view === 'asset' && s.assetId === '1', recipe: (d) => { d.name = 'ONE'; } }]);
    expect(asset1.entry('a')).toEqual({ name: 'ONE' });
    expect(asset2.entry('a')).toEqual({ name: 'two' });
  });
});
