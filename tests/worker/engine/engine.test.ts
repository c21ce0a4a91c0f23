import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReservationEvent } from '../../../src/shared/types.js';
import type { AssetDetail, ConnectionView, DrawState, SessionView, StructureEntry, FeedEntry, PersonEntry, RoomEntry } from '../../../src/shared/api.js';
import { SELF_KEY } from '../../../src/shared/api.js';
import { userAssetId } from '../../../src/shared/normalize/people.js';
import type { Engine } from '../../../src/worker/engine.js';
import { ACTION_MESSAGES } from '../../../src/worker/engine/actions.js';
import { createMemoryStorage } from '../../../src/worker/storage/memoryStorage.js';
import {
  collect, createFakeBackend, createTestEngine, LOCATION_ID, ORG_ID, wireDesk, wireFloor, wireUser,
} from './harness.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const HOST = 'http://127.0.0.1:9';
let engine: Engine;

beforeEach(() => { vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'Date'] }); });
afterEach(async () => { await engine?.dispose(); vi.useRealTimers(); });

async function settle() {
  await vi.advanceTimersByTimeAsync(0);
  engine.internals.hub.flush();
}

async function signedInEngine(
  options: Parameters<typeof createFakeBackend>[0] = {},
  storage = createMemoryStorage(),
  /** changes the backend before signing in (the sign-in loads the user's organization and first location) */
  setup: (backend: ReturnType<typeof createFakeBackend>) => void = () => undefined,
) {
  const backend = createFakeBackend(options);
  setup(backend);
  let logger: ReturnType<typeof createTestEngine>['logger'];
  ({ engine, logger } = createTestEngine({ fetch: backend.fetch, transportFactory: backend.transportFactory, storage }));
  await engine.init({ host: HOST });
  const signIn = await engine.signIn('ann@example.com', 'pw');
  expect(signIn.ok).toBe(true);
  await settle();
  return { backend, storage, logger };
}

async function loadFixtureLocation() {
  expect(await engine.selectOrganization(ORG_ID)).toEqual({ ok: true, value: undefined });
  expect(await engine.selectLocation(LOCATION_ID)).toEqual({ ok: true, value: undefined });
  await settle();
}

describe('createEngine', () => {
  describe('signIn', () => {
    it('signs in, derives roles and keeps the session for a reopen without exposing the token to views', async () => {
      const { storage } = await signedInEngine({ permissions: ['ASSET_UPDATE', 'USER_UPDATE_SELF'] });
      const session = await collect<SessionView>(engine, { view: 'session' });
      expect(session.entries.get(SELF_KEY)).toMatchObject({ signedIn: true, roles: ['edit', 'regular'], organizations: [{ id: ORG_ID, name: 'Org' }] });
      expect(JSON.stringify(session.messages)).not.toContain('secret-token');
      expect(await storage.loadSession()).toMatchObject({ token: 'secret-token', userId: 'u1', host: HOST });
    });

    it('keeps the place the page names when signing in (again): the floor chosen before the location is entered', async () => {
      const backend = createFakeBackend();
      ({ engine } = createTestEngine({ fetch: backend.fetch, transportFactory: backend.transportFactory }));
      await engine.init({ host: HOST });
      expect((await engine.signIn('ann@example.com', 'pw')).ok).toBe(true);
      // the signed-in app names the link's location and floor at once, while the location still loads
      await engine.selectLocation(LOCATION_ID);
      await engine.selectFloor('f2');
      await settle();
      const session = await collect<SessionView>(engine, { view: 'session' });
      expect(session.entries.get(SELF_KEY)).toMatchObject({ locationId: LOCATION_ID, floorId: 'f2', navigation: 'ready' });
    });

    it('returns a non-OK answer as data with status, body and message', async () => {
      const backend = createFakeBackend();
      backend.routes.set('POST /v1/login', () => ({ status: 401, body: { statusCode: 401, error: 'Unauthorized', message: 'Wrong email or password' } }));
      ({ engine } = createTestEngine({ fetch: backend.fetch, transportFactory: backend.transportFactory }));
      await engine.init({ host: HOST });
      const result = await engine.signIn('ann@example.com', 'bad');
      expect(result).toMatchObject({ ok: false, status: 401, body: { message: 'Wrong email or password' } });
      expect(result.ok === false && result.message).toContain('401');
    });

    it('answers before init with a typed failure instead of throwing', async () => {
      ({ engine } = createTestEngine());
      expect(await engine.signIn('a', 'b')).toMatchObject({ ok: false, status: 0 });
    });
  });

  describe('loadLocation', () => {
    it('loads the organization and location and serves a floor view with live data', async () => {
      await signedInEngine({ assets: [wireDesk('d1', 'f1')] });
      await loadFixtureLocation();
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['desks'] });
      expect([...floor.entries.keys()]).toEqual(['d1']);
      expect(floor.meta).toMatchObject({ fromCache: false, loading: false, floor: { id: 'f1' }, building: { id: 'b1' } });
      const structure = await collect<StructureEntry>(engine, { view: 'structure' });
      expect(structure.entries.get('b1')!.floors.map((f) => f.id)).toEqual(['f1', 'f2']);
      expect(structure.entries.get('b1')!.defaultFloorId).toBe('f1');
    });

    it('refuses a location of another organization and logs it', async () => {
      await signedInEngine();
      await engine.selectOrganization(ORG_ID);
      const result = await engine.selectLocation('elsewhere');
      expect(result).toMatchObject({ ok: false, status: 404 });
    });
  });

  describe('roles', () => {
    const secret = wireDesk('hidden-desk', 'f1', { unpublished: true });
    const onHiddenFloor = wireDesk('d3', 'f3');

    async function withHiddenThings(permissions: string[]) {
      await signedInEngine({ permissions, assets: [wireDesk('d1', 'f1'), secret, onHiddenFloor] }, undefined, (backend) => {
        const base = `/v1/organizations/${ORG_ID}/locations/${LOCATION_ID}/assets`;
        const listing = backend.routes.get(`GET ${base}`)!;
        backend.routes.set(`GET ${base}`, (i, u) => {
          const body = listing(i, u).body as Array<Record<string, unknown>>;
          return { body: [...body.map((a) => (a.id === 'b1' ? { ...a, floors: ['f1', 'f2', 'f3'] } : a)), wireFloor('f3', { hidden: true })] };
        });
      });
      await loadFixtureLocation();
    }

    it('shows unpublished assets and hidden floors only to the edit role', async () => {
      await withHiddenThings(['USER_UPDATE_SELF']);
      expect([...(await collect(engine, { view: 'floor', floorId: 'f1', layers: ['desks'] })).entries.keys()]).toEqual(['d1']);
      expect((await collect<StructureEntry>(engine, { view: 'structure' })).entries.get('b1')!.floors.map((f) => f.id)).toEqual(['f1', 'f2']);
      const hidden = await collect(engine, { view: 'floor', floorId: 'f3', layers: ['desks'] });
      expect(hidden.entries.size).toBe(0);
      expect(hidden.meta).toMatchObject({ floor: null });
    });

    it('gives the edit role unpublished assets and hidden floors', async () => {
      await withHiddenThings(['ASSET_UPDATE']);
      expect([...(await collect(engine, { view: 'floor', floorId: 'f1', layers: ['desks'] })).entries.keys()].sort()).toEqual(['d1', 'hidden-desk']);
      expect((await collect<StructureEntry>(engine, { view: 'structure' })).entries.get('b1')!.floors.map((f) => f.id)).toEqual(['f1', 'f2', 'f3']);
      expect([...(await collect(engine, { view: 'floor', floorId: 'f3', layers: ['desks'] })).entries.keys()]).toEqual(['d3']);
    });
  });

  describe('what stands in an unpublished asset', () => {
    const room = {
      id: 'r1', type: 'room', subtype: 'meeting', name: 'F1-R1', parent_id: 'f1', unpublished: true,
      outline: [[0, 0], [6, 0], [6, 4], [0, 4]], x: 3, y: 2,
    };
    const inRoom = wireDesk('d2', 'f1', { parent_id: 'r1', x: 1, y: 1 });
    const layers = ['desks', 'rooms'] as const;

    it("marks a desk hidden with its unpublished room for the edit role, says so in its popup, and follows the room's publishing", async () => {
      await signedInEngine({ permissions: ['ASSET_UPDATE'], assets: [wireDesk('d1', 'f1'), room, inRoom] });
      await loadFixtureLocation();
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: [...layers] });
      const popup = await collect<AssetDetail>(engine, { view: 'asset', assetId: 'd2' });
      expect(floor.entries.get('d2')).toMatchObject({ unpublished: false, hiddenBy: { id: 'r1', kind: 'room', name: 'F1-R1' } });
      expect(floor.entries.get('r1')).toMatchObject({ unpublished: true });
      expect(floor.entries.get('r1')!.hiddenBy).toBeUndefined();
      expect(floor.entries.get('d1')!.hiddenBy).toBeUndefined();
      expect(popup.entries.get(SELF_KEY)).toMatchObject({ unpublished: false, hiddenBy: { id: 'r1', kind: 'room', name: 'F1-R1' } });

      // the room is published (the live stream says so): the desk in it, whose own record did not change, is no longer marked
      const scope = { kind: 'location' as const, organizationId: ORG_ID, locationId: LOCATION_ID };
      engine.internals.sink.apply({ scope, changes: [{ collection: 'assets', kind: 'modified', id: 'r1', data: { ...room, unpublished: false } }] });
      await settle();
      expect(floor.entries.get('d2')!.hiddenBy).toBeUndefined();
      expect(popup.entries.get(SELF_KEY)!.hiddenBy).toBeNull();
      const patch = floor.messages.at(-1) as { upserted: Record<string, unknown> };
      expect(Object.keys(patch.upserted).sort()).toEqual(['d2', 'r1']);

      // and unpublished again: marked again
      engine.internals.sink.apply({ scope, changes: [{ collection: 'assets', kind: 'modified', id: 'r1', data: room }] });
      await settle();
      expect(floor.entries.get('d2')).toMatchObject({ hiddenBy: { id: 'r1' } });
    });

    it('draws nothing of it for a role without edit, whatever the server sent', async () => {
      await signedInEngine({ assets: [wireDesk('d1', 'f1'), room, inRoom] });
      await loadFixtureLocation();
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: [...layers] });
      expect([...floor.entries.keys()]).toEqual(['d1']);
    });
  });

  describe('updateAsset', () => {
    it('refuses without the edit role with a 403-like result and no request', async () => {
      const { backend } = await signedInEngine({ assets: [wireDesk('d1', 'f1')] });
      await loadFixtureLocation();
      const result = await engine.updateAsset('d1', { name: 'New' });
      expect(result).toMatchObject({ ok: false, status: 403, message: ACTION_MESSAGES.EDIT_ROLE_NEEDED });
      expect(backend.calls.some((c) => c.startsWith('PATCH'))).toBe(false);
    });

    it('sends the update without read-only fields for the edit role', async () => {
      const { backend } = await signedInEngine({ permissions: ['ASSET_UPDATE'], assets: [wireDesk('d1', 'f1')] });
      await loadFixtureLocation();
      let sent: unknown;
      backend.routes.set(`PATCH /v1/organizations/${ORG_ID}/locations/${LOCATION_ID}/assets/d1`, (init) => {
        sent = JSON.parse(String(init?.body));
        return { body: { ...wireDesk('d1', 'f1'), name: 'New' } };
      });
      // fields outside AssetChanges (and the spec §3 exclusions) never leave the worker, whatever a caller passes
      const result = await engine.updateAsset('d1', { name: ' New ', id: 'x', version: 3, uuid: 'u' } as never);
      expect(result.ok).toBe(true);
      expect(sent).toEqual({ name: 'New' });
      expect(engine.internals.store.assets.get('d1')!.name).toBe('New');
    });

    it('refuses an empty name without a round trip', async () => {
      const { backend } = await signedInEngine({ permissions: ['ASSET_UPDATE'], assets: [wireDesk('d1', 'f1')] });
      await loadFixtureLocation();
      expect(await engine.updateAsset('d1', { name: '   ' })).toMatchObject({ ok: false, status: 400, message: ACTION_MESSAGES.EMPTY_NAME });
      expect(backend.calls.some((c) => c.startsWith('PATCH'))).toBe(false);
    });

    it("answers 'No permissions' when the settings carry no permission list (spec §5)", async () => {
      await signedInEngine({ assets: [wireDesk('d1', 'f1')] }, undefined, (b) => b.routes.set('GET /v2/settings', () => ({ body: { user: wireUser('u1'), cdn_base_url: null, pusher_config: { app_key: 'k', cluster: 'c' } } })));
      await loadFixtureLocation();
      expect(await engine.updateAsset('d1', { name: 'New' })).toMatchObject({ ok: false, status: 403, message: 'No permissions' });
      expect(await engine.closeTicket('d1')).toMatchObject({ ok: false, status: 400, message: ACTION_MESSAGES.NOT_A_TICKET });
    });
  });

  describe('createTicket', () => {
    it('checks labels and flags of the configuration and marks moderated items unpublished', async () => {
      const { backend } = await signedInEngine({}, undefined, (b) => b.routes.set(`GET /v1/organizations/${ORG_ID}/locations`, () => ({
        body: [{ id: LOCATION_ID, organization_id: ORG_ID, name: 'HQ', timezone: 'UTC', latitude: 0, longitude: 0, buildings: ['b1'], config: { ticketsVoicesRequireModeration: true, ticketsAskForEmail: true } }],
      })));
      await loadFixtureLocation();
      let sent: Record<string, unknown> | undefined;
      backend.routes.set(`POST /v1/organizations/${ORG_ID}/locations/${LOCATION_ID}/assets`, (init) => {
        sent = JSON.parse(String(init?.body));
        return { status: 201, body: { ...sent, id: 't1' } };
      });
      const base = { kind: 'ticket' as const, floorId: 'f1', x: 1, y: 2, text: 'Printer jam' };
      expect(await engine.createTicket({ ...base, label: 'space' })).toMatchObject({ ok: false, status: 400, message: ACTION_MESSAGES.UNKNOWN_LABEL });
      expect(await engine.createTicket({ ...base, label: 'it' })).toMatchObject({ ok: false, status: 400, message: ACTION_MESSAGES.EMAIL_REQUIRED });
      expect(sent).toBeUndefined();
      expect((await engine.createTicket({ ...base, label: 'it', email: 'a@b.c' })).ok).toBe(true);
      expect(sent).toMatchObject({ type: 'ticket', subtype: 'it', parent_id: 'f1', unpublished: true, value: { text: 'Printer jam', label: 'it', status: 'open', email: 'a@b.c', time: T0 } });
      expect((await engine.createTicket({ kind: 'voice', floorId: 'f1', x: 0, y: 0, text: 'Cold', label: 'space' })).ok).toBe(true);
      expect(sent).toMatchObject({ type: 'voice', subtype: 'space' });
      // no category chosen: the location's default, which the server accepts (it refuses none)
      expect((await engine.createTicket({ kind: 'voice', floorId: 'f1', x: 0, y: 0, text: 'Warm', label: '' })).ok).toBe(true);
      expect(sent).toMatchObject({ type: 'voice', subtype: 'other', name: 'Warm' });
    });

    it('takes the live created of its own new ticket or voice as the same record, and still warns about a real duplicate', async () => {
      const { backend, logger } = await signedInEngine();
      await loadFixtureLocation();
      const answered = new Map<string, Record<string, unknown>>();
      /** the live created the reference server publishes for a new asset, `before` (or after) its answer */
      let before = false;
      const live = (id: string, data: unknown) => engine.internals.sink.apply({ scope: { kind: 'location', organizationId: ORG_ID, locationId: LOCATION_ID }, changes: [{ collection: 'assets', kind: 'created', id, data }] });
      backend.routes.set(`POST /v1/organizations/${ORG_ID}/locations/${LOCATION_ID}/assets`, (init) => {
        const body = { ...JSON.parse(String(init?.body)), id: `t${answered.size + 1}` };
        answered.set(body.id, body);
        if (before) live(body.id, body);
        return { status: 201, body };
      });
      const duplicates = () => logger.warnings.filter((w) => w.startsWith('Duplicate id'));
      // the answer comes first, then the live created of the same record
      expect((await engine.createTicket({ kind: 'ticket', floorId: 'f1', x: 1, y: 2, text: 'Printer jam', label: 'it' })).ok).toBe(true);
      expect((await engine.createTicket({ kind: 'voice', floorId: 'f1', x: 3, y: 4, text: 'Cold', label: 'space' })).ok).toBe(true);
      expect(engine.internals.store.assets.get('t1')).toMatchObject({ type: 'ticket', name: 'Printer jam' });
      expect(engine.internals.store.assets.get('t2')).toMatchObject({ type: 'voice', name: 'Cold' });
      live('t1', answered.get('t1'));
      live('t2', answered.get('t2'));
      expect(duplicates()).toEqual([]);
      // another created of the same id is a second create: spec §5's warning
      live('t1', { ...answered.get('t1'), name: 'Someone else' });
      expect(duplicates()).toEqual(['Duplicate id t1 in assets; the later one wins']);
      // the live created came before the answer: nothing waits for it then, so a later created of the id warns
      before = true;
      expect((await engine.createTicket({ kind: 'ticket', floorId: 'f1', x: 5, y: 6, text: 'Leak', label: 'it' })).ok).toBe(true);
      expect(duplicates()).toHaveLength(1);
      live('t3', answered.get('t3'));
      expect(duplicates()).toEqual(['Duplicate id t1 in assets; the later one wins', 'Duplicate id t3 in assets; the later one wins']);
    });
  });

  describe('setManualLocation', () => {
    it('places the user\'s own employee asset; a manual location, local by spec §3, is drawn even inside a privacy zone', async () => {
      const zone = { id: 'z1', type: 'zone', subtype: 'privacy', parent_id: 'f1', outline: [[10, 10], [20, 10], [20, 20], [10, 20]] };
      const inZone = { location_id: LOCATION_ID, floor_id: 'f1', x: 15, y: 15, time: T0 };
      const { backend } = await signedInEngine({ assets: [zone], users: [wireUser('u1'), wireUser('u2', { location: inZone }), wireUser('u3', { location: { ...inZone, x: 40 } })] });
      await loadFixtureLocation();
      backend.routes.set(`PATCH /v1/organizations/${ORG_ID}/users/u1`, (init) => ({ body: { ...wireUser('u1'), ...JSON.parse(String(init?.body)) } }));
      const result = await engine.setManualLocation({ floorId: 'f1', x: 12, y: 13 });
      expect(result.ok).toBe(true);
      await settle();
      const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['co-workers'] });
      expect(floor.entries.get(userAssetId('u1'))).toMatchObject({ x: 12, y: 13, kind: 'employee' });
      const people = await collect<PersonEntry>(engine, { view: 'people' });
      expect(people.entries.get('u1')).toMatchObject({ visible: true, floorId: 'f1', x: 12, y: 13, manual: true });
      // spec §4 'not drawn when privacy-filtered and not local': the derived asset of a manual location is
      // local (§3), the person's own declaration of where they are, so it is drawn (docs/domain.md)
      expect(engine.internals.store.assets.get(userAssetId('u2'))).toMatchObject({ local: true, privacy_filtered: true });
      expect(people.entries.get('u2')).toMatchObject({ visible: true, x: 15, floorId: 'f1', manual: true });
      expect(people.entries.get('u3')).toMatchObject({ visible: true, x: 40, y: 15 });
      expect(floor.entries.has(userAssetId('u2'))).toBe(true);
      expect(floor.entries.has(userAssetId('u3'))).toBe(true);
    });
  });

  describe('bookRoom, closeTicket and vote', () => {
    const room = { id: 'r1', type: 'room', name: 'Sauna', parent_id: 'f1', data_providers: ['res1'], outline: [[0, 0], [4, 0], [4, 4], [0, 4]] };
    const reservation = { id: 'res1', type: 'reservation', asset_id: 'r1' };
    const wireLocationFields = { id: LOCATION_ID, organization_id: ORG_ID, name: 'HQ', latitude: 0, longitude: 0, buildings: ['b1'], config: { assetBookingFeature: true } };

    /** a bookable room in a location of this zone; `events`: the bookings its reservation sensor lists */
    async function bookable(timezone: string, fields: Record<string, unknown> = {}, events?: ReservationEvent[]) {
      const location = () => ({ body: [{ ...wireLocationFields, timezone, ...fields }] });
      const sensor = events ? { ...reservation, last_measurement: { time: T0 - 60_000, valid_for: 86_400_000, events } } : reservation;
      const { backend } = await signedInEngine({ assets: [room], sensors: [sensor] }, undefined, (b) => b.routes.set(`GET /v1/organizations/${ORG_ID}/locations`, location));
      await loadFixtureLocation();
      const sent: unknown[] = [];
      backend.routes.set('POST /v1/booking', (init) => {
        const body = JSON.parse(String(init?.body)) as { start: number; end: number; subject: string };
        sent.push(body);
        return { status: 201, body: { booking_ref: 'b1', sensor_id: 'res1', event: { ...body, user_id: 'u1', booking_ref: 'b1' } } };
      });
      return { backend, sent };
    }

    it('books a room for a number of minutes from the current minute on the corrected clock', async () => {
      const { sent } = await bookable('UTC');
      vi.setSystemTime(T0 + 25_000);
      const result = await engine.bookRoom({ roomId: 'r1', until: { minutes: 30 }, subject: ' Sync ' });
      expect(result).toMatchObject({ ok: true, value: { start: T0, end: T0 + 30 * 60_000, booking_ref: 'b1' } });
      expect(sent).toEqual([{ room_id: 'r1', start: T0, end: T0 + 30 * 60_000, subject: 'Sync' }]);
    });

    it("books the rest of the day until the end of the location's local day, not the browser's", async () => {
      // 09:00 UTC is 11:00 in Helsinki (UTC+2 in January): the local day ends at 22:00 UTC
      const { sent } = await bookable('Europe/Helsinki');
      const result = await engine.bookRoom({ roomId: 'r1', until: 'restOfDay' });
      expect(result.ok).toBe(true);
      expect(sent).toEqual([{ room_id: 'r1', start: T0, end: Date.UTC(2025, 0, 15, 22, 0, 0), subject: 'Meeting' }]);
    });

    it('refuses the rest of the day, unsent, when the room is booked later that day, and books it when the next booking is tomorrow', async () => {
      // 09:00 UTC is 11:00 in Helsinki: a booking at 15:00 local (13:00 UTC) is later today
      const later: ReservationEvent = { start: Date.UTC(2025, 0, 15, 13, 0, 0), end: Date.UTC(2025, 0, 15, 14, 0, 0), subject: 'Review', user_id: 'u2', booking_ref: 'later' };
      const { sent } = await bookable('Europe/Helsinki', {}, [later]);
      const refused = await engine.bookRoom({ roomId: 'r1', until: 'restOfDay' });
      expect(refused).toMatchObject({ ok: false, status: 409, message: 'The room is booked again at 15:00 today: book it until then instead.' });
      expect(sent).toEqual([]);
      // the popup's own choice for it books up to that start
      expect(await engine.bookRoom({ roomId: 'r1', until: { endsAt: later.start } })).toMatchObject({ ok: true, value: { start: T0, end: later.start } });
      expect(sent).toHaveLength(1);
    });

    it('books the rest of the day when the next booking is tomorrow in the location\'s zone', async () => {
      // 23:30 UTC is 01:30 tomorrow in Helsinki, whose day ends at 22:00 UTC
      const tomorrow: ReservationEvent = { start: Date.UTC(2025, 0, 15, 23, 30, 0), end: Date.UTC(2025, 0, 16, 0, 0, 0), subject: 'Early', user_id: 'u2', booking_ref: 'early' };
      const { sent } = await bookable('Europe/Helsinki', {}, [tomorrow]);
      expect((await engine.bookRoom({ roomId: 'r1', until: 'restOfDay' })).ok).toBe(true);
      expect(sent).toEqual([{ room_id: 'r1', start: T0, end: Date.UTC(2025, 0, 15, 22, 0, 0), subject: 'Meeting' }]);
    });

    it('refuses, unsent, a length that runs into a booking the room lists, naming when it starts', async () => {
      const soon: ReservationEvent = { start: T0 + 20 * 60_000, end: T0 + 50 * 60_000, subject: 'Standup', user_id: 'u2', booking_ref: 'soon' };
      const { sent } = await bookable('UTC', {}, [soon]);
      expect(await engine.bookRoom({ roomId: 'r1', until: { minutes: 30 } }))
        .toMatchObject({ ok: false, status: 409, body: { message: 'The room is booked from 09:20: choose a shorter booking.' } });
      expect(await engine.bookRoom({ roomId: 'r1', until: { endsAt: T0 + 21 * 60_000 } })).toMatchObject({ ok: false, status: 409 });
      expect(sent).toEqual([]);
      expect((await engine.bookRoom({ roomId: 'r1', until: { minutes: 20 } })).ok).toBe(true);
    });

    it('books a room until an instant (the next booking\'s start), and refuses one less than a minute away or too far', async () => {
      const { sent } = await bookable('UTC');
      vi.setSystemTime(T0 + 25_000);
      const result = await engine.bookRoom({ roomId: 'r1', until: { endsAt: T0 + 13 * 60_000 } });
      expect(result).toMatchObject({ ok: true, value: { start: T0, end: T0 + 13 * 60_000 } });
      expect(sent).toEqual([{ room_id: 'r1', start: T0, end: T0 + 13 * 60_000, subject: 'Meeting' }]);
      expect(await engine.bookRoom({ roomId: 'r1', until: { endsAt: T0 + 30_000 } })).toMatchObject({ ok: false, status: 400, message: ACTION_MESSAGES.BAD_LENGTH });
      expect(await engine.bookRoom({ roomId: 'r1', until: { endsAt: T0 + 25 * 60 * 60_000 } })).toMatchObject({ ok: false, status: 400, message: ACTION_MESSAGES.BAD_LENGTH });
      expect(sent).toHaveLength(1);
    });

    it('refuses a booking length out of range and a room without a reservation sensor, without a round trip', async () => {
      const { sent } = await bookable('UTC');
      expect(await engine.bookRoom({ roomId: 'r1', until: { minutes: 0 } })).toMatchObject({ ok: false, status: 400, message: ACTION_MESSAGES.BAD_LENGTH });
      expect(await engine.bookRoom({ roomId: 'f1', until: { minutes: 30 } })).toMatchObject({ ok: false, status: 400, message: ACTION_MESSAGES.NOT_BOOKABLE });
      expect(sent).toEqual([]);
    });

    it('offers no booking and refuses one without a round trip where the location has the booking feature off', async () => {
      const { sent } = await bookable('UTC', { config: {} });
      const rooms = await collect<RoomEntry>(engine, { view: 'rooms' });
      const popup = await collect<AssetDetail>(engine, { view: 'asset', assetId: 'r1' });
      expect(rooms.entries.get('r1')).toMatchObject({ reservationSensorId: 'res1', bookable: false });
      expect(popup.entries.get(SELF_KEY)!.actions.book).toBe(false);
      expect(await engine.bookRoom({ roomId: 'r1', until: { minutes: 30 } })).toMatchObject({ ok: false, status: 403, message: ACTION_MESSAGES.BOOKING_OFF });
      expect(sent).toEqual([]);
    });

    it('offers booking a free room in its popup and the room list where the feature is on', async () => {
      await bookable('UTC');
      const rooms = await collect<RoomEntry>(engine, { view: 'rooms' });
      const popup = await collect<AssetDetail>(engine, { view: 'asset', assetId: 'r1' });
      expect(rooms.entries.get('r1')).toMatchObject({ bookable: true });
      expect(popup.entries.get(SELF_KEY)!.actions.book).toBe(true);
    });

    it('answers a refused booking as data', async () => {
      const { backend } = await bookable('UTC');
      backend.routes.set('POST /v1/booking', () => ({ status: 409, body: { statusCode: 409, error: 'Conflict', message: 'Overlaps' } }));
      expect(await engine.bookRoom({ roomId: 'r1', until: { minutes: 30 } })).toMatchObject({ ok: false, status: 409, body: { message: 'Overlaps' } });
    });

    it('lets the service role close a ticket by its status only, and refuses the regular role', async () => {
      const ticket = { id: 't1', type: 'ticket', parent_id: 'f1', name: 'Printer', value: { text: 'Printer', label: 'it', status: 'open', time: T0, valid_for: 86_400_000, valid_to: T0 + 86_400_000 } };
      const { backend } = await signedInEngine({ permissions: ['ASSET_UPDATE_SERVICE_TICKET'], assets: [ticket] });
      await loadFixtureLocation();
      let sent: { value?: { status?: string } } | undefined;
      backend.routes.set(`PATCH /v1/organizations/${ORG_ID}/locations/${LOCATION_ID}/assets/t1`, (init) => {
        sent = JSON.parse(String(init?.body));
        return { body: { ...ticket, ...sent } };
      });
      expect((await engine.closeTicket('t1')).ok).toBe(true);
      expect(Object.keys(sent!)).toEqual(['value']);
      expect(sent!.value).toMatchObject({ status: 'closed', text: 'Printer' });
      expect((engine.internals.store.assets.get('t1')!.value as { status: string }).status).toBe('closed');
    });

    it('refuses closing a ticket without the service or edit role', async () => {
      const ticket = { id: 't1', type: 'ticket', parent_id: 'f1', name: 'Printer', value: { status: 'open', time: T0, valid_for: 86_400_000 } };
      const { backend } = await signedInEngine({ assets: [ticket] });
      await loadFixtureLocation();
      expect(await engine.closeTicket('t1')).toMatchObject({ ok: false, status: 403, message: ACTION_MESSAGES.CLOSE_ROLE_NEEDED });
      expect(backend.calls.some((c) => c.startsWith('PATCH'))).toBe(false);
    });

    it('stores the vote counts the server answers, through the batch applier', async () => {
      const { backend } = await signedInEngine({ assets: [{ id: 'v1', type: 'voice', parent_id: 'f1', value: { time: T0, valid_for: 3_600_000 } }] });
      await loadFixtureLocation();
      backend.routes.set(`PUT /v1/organizations/${ORG_ID}/locations/${LOCATION_ID}/assets/v1/vote`, () => ({ body: { up: 3, down: 1, mine: 1 } }));
      expect((await engine.vote('v1', 1)).ok).toBe(true);
      expect(engine.internals.store.assets.get('v1')!.votes).toEqual({ up: 3, down: 1, mine: 1 });
      const detail = await collect<AssetDetail>(engine, { view: 'asset', assetId: 'v1' });
      expect(detail.entries.get(SELF_KEY)).toMatchObject({ votes: { up: 3, down: 1, mine: 1 }, actions: { vote: true } });
    });

    it('ends the session when an action answers 401', async () => {
      const { backend } = await bookable('UTC');
      backend.routes.set('POST /v1/booking', () => ({ status: 401, body: { statusCode: 401, error: 'Unauthorized', message: 'Token expired' } }));
      const session = await collect<SessionView>(engine, { view: 'session' });
      expect(await engine.bookRoom({ roomId: 'r1', until: { minutes: 30 } })).toMatchObject({ ok: false, status: 401 });
      await settle();
      expect(session.entries.get(SELF_KEY)).toMatchObject({ phase: 'sessionExpired', signedIn: false, sessionEnded: 'Your session has ended — sign in again.' });
    });
  });

  describe('markNotificationRead', () => {
    it('marks a notification read and patches the notifications view', async () => {
      const note = { id: 'n1', user_id: 'u1', title: 'Hi', body: 'Welcome', created: T0, read: false, level: 'info', link: null };
      const { backend } = await signedInEngine({ notifications: [note] });
      await vi.waitFor(() => { expect(engine.internals.store.notifications.has('n1')).toBe(true); });
      const view = await collect(engine, { view: 'notifications' });
      expect(view.entries.get('n1')).toMatchObject({ read: false });
      backend.routes.set('PATCH /v1/notifications/n1', () => ({ body: { ...note, read: true } }));
      expect((await engine.markNotificationRead('n1')).ok).toBe(true);
      await settle();
      expect(view.entries.get('n1')).toMatchObject({ read: true, title: 'Hi' });
    });
  });

  describe('signOut', () => {
    it('clears the user\'s cached data, the token and every view', async () => {
      const storage = createMemoryStorage();
      await signedInEngine({ assets: [wireDesk('d1', 'f1')] }, storage);
      await loadFixtureLocation();
      await engine.internals.persister.flush();
      expect(storage.size()).toBe(1);
      const floor = await collect(engine, { view: 'floor', floorId: 'f1', layers: ['desks'] });
      const session = await collect<SessionView>(engine, { view: 'session' });
      await engine.signOut();
      await settle();
      expect(storage.size()).toBe(0);
      expect(await storage.loadSession()).toBeNull();
      expect(floor.entries.size).toBe(0);
      expect(session.entries.get(SELF_KEY)).toMatchObject({ signedIn: false, user: null, roles: [] });
      expect(engine.internals.session()!.token()).toBeNull();
    });
  });

  describe('setOnline', () => {
    it('shows the browser\'s online state in the connection view', async () => {
      await signedInEngine();
      const connection = await collect<ConnectionView>(engine, { view: 'connection' });
      await engine.setOnline(false);
      await settle();
      expect(connection.entries.get(SELF_KEY)).toMatchObject({ online: false });
    });
  });

  describe('feed', () => {
    it('posts validation warnings of bad live data', async () => {
      await signedInEngine();
      await loadFixtureLocation();
      const feed = await collect<FeedEntry>(engine, { view: 'feed' });
      engine.internals.sink.apply({ scope: { kind: 'location', organizationId: ORG_ID, locationId: LOCATION_ID }, changes: [{ collection: 'measurements', kind: 'created', id: 'x', data: { sensor_id: 'x', value: { time: T0 } } }] });
      await settle();
      expect([...feed.entries.values()].map((e) => e.message)).toContain('Ignoring measurement for unknown sensor x');
    });
  });
});
