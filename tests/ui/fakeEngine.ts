// An in-memory EngineApi for component tests: holds view data, answers a
// subscription with a snapshot and pushes patches on `emit`, records every
// action. Behaves like the worker at the contract level (async delivery,
// versions per subscription), with none of its rules.

import { vi } from 'vitest';
import {
  SELF_KEY, type ApiResult, type AssetDetail, type ConnectionView, type DrawState, type EngineApi, type FloorViewMeta,
  type PersonEntry, type RoomEntry, type SessionView, type StructureEntry, type ViewListener, type ViewSpec,
} from '../../src/shared/api.js';
import { BASE_CONFIG } from '../../src/shared/config.js';
import { capabilitiesOf } from '../../src/worker/engine/sessionView.js';
import type { Building, Floor, Notification, User } from '../../src/shared/types.js';
import { createEngineClient, type EngineClient } from '../../src/ui/engine/engineClient.js';

type Bucket = { entries: Record<string, unknown>; meta: unknown };

export interface FakeEngine extends EngineApi {
  client: EngineClient;
  /** subscriptions currently open, by view name */
  open(view: ViewSpec['view']): ViewSpec[];
  /** changes a view and pushes a patch to its subscribers */
  emit(view: string, change: { upserted?: Record<string, unknown>; removed?: string[]; meta?: unknown }): void;
  /** replaces a view and pushes a snapshot */
  reset(view: string, bucket: Bucket): void;
  bucket(view: string): Bucket;
  /** settles pending deliveries */
  flush(): Promise<void>;
}

const ok = <T>(value: T): ApiResult<T> => ({ ok: true, value });

function bucketKey(spec: ViewSpec): string {
  if (spec.view === 'floor') return `floor:${spec.floorId}`;
  if (spec.view === 'asset') return `asset:${spec.assetId}`;
  return spec.view;
}

export function createFakeEngine(seed: Record<string, Bucket> = {}): FakeEngine {
  const buckets = new Map<string, Bucket>(Object.entries(seed).map(([k, v]) => [k, structuredClone(v)]));
  const subs = new Map<number, { spec: ViewSpec; listener: ViewListener; version: number }>();
  let nextId = 1;
  let pending: Promise<unknown> = Promise.resolve();

  const bucket = (key: string): Bucket => {
    let b = buckets.get(key);
    if (!b) buckets.set(key, (b = { entries: {}, meta: key.startsWith('floor:') ? floorMeta() : null }));
    return b;
  };
  const deliver = (fn: () => void) => {
    pending = pending.then(() => new Promise<void>((resolve) => setTimeout(() => (fn(), resolve()), 0)));
  };
  const emit: FakeEngine['emit'] = (view, change) => {
    const b = bucket(view);
    for (const k of change.removed ?? []) delete b.entries[k];
    Object.assign(b.entries, structuredClone(change.upserted ?? {}));
    if (change.meta !== undefined) b.meta = structuredClone(change.meta);
    for (const sub of subs.values()) {
      if (bucketKey(sub.spec) !== view) continue;
      const message = {
        type: 'patch' as const,
        version: ++sub.version,
        upserted: structuredClone(change.upserted ?? {}),
        removed: [...(change.removed ?? [])],
        ...(change.meta !== undefined ? { meta: structuredClone(change.meta) } : {}),
      };
      deliver(() => sub.listener(message));
    }
  };
  const session = (): SessionView => bucket('session').entries[SELF_KEY] as SessionView;
  const setSession = (patch: Partial<SessionView>) => emit('session', { upserted: { [SELF_KEY]: { ...session(), ...patch } } });

  const api: EngineApi = {
    init: vi.fn(async () => undefined),
    subscribe: vi.fn(async (spec: ViewSpec, listener: ViewListener) => {
      const id = nextId++;
      const sub = { spec, listener, version: 1 };
      subs.set(id, sub);
      const b = bucket(bucketKey(spec));
      const message = { type: 'snapshot' as const, version: 1, entries: structuredClone(b.entries), meta: structuredClone(b.meta) };
      deliver(() => subs.has(id) && listener(message));
      return id;
    }),
    unsubscribe: vi.fn(async (id: number) => {
      subs.delete(id);
    }),
    signIn: vi.fn(async (email: string, password: string) => {
      if (password !== 'secret') return { ok: false as const, status: 401, body: null, message: 'Unauthorized' };
      setSession({ signedIn: true, user: user({ email }) });
      return ok({ user: user({ email }), permissions: ['USER_UPDATE_SELF'], cdn_base_url: null });
    }),
    signInWithIdToken: vi.fn(async () => ok({ user: user(), permissions: ['USER_UPDATE_SELF'], cdn_base_url: null })),
    signUp: vi.fn(async () => ok({})),
    authUri: vi.fn(async () => ok({ uri: null })),
    recoverPassword: vi.fn(async () => ok({})),
    confirmSignUp: vi.fn(async (code: string, _password: string) => (code === 'good-code'
      ? ok({ userId: 'u9', organizationId: 'o1', email: 'new@example.com' })
      : { ok: false as const, status: 403, body: { statusCode: 403, error: 'Forbidden', message: 'Invalid or expired code' }, message: 'Invalid or expired code' })),
    setPasswordWithCode: vi.fn(async (link: { code: string }, _password: string) => (link.code === 'good-code'
      ? ok(undefined)
      : { ok: false as const, status: 403, body: { statusCode: 403, error: 'Forbidden', message: 'Invalid or expired code' }, message: 'Invalid or expired code' })),
    resume: vi.fn(async () => false),
    signOut: vi.fn(async () => setSession({ signedIn: false, user: null })),
    selectOrganization: vi.fn(async (id: string) => {
      setSession({ organizationId: id });
      return ok(undefined);
    }),
    selectLocation: vi.fn(async (id: string) => {
      setSession({ locationId: id });
      return ok(undefined);
    }),
    selectBuilding: vi.fn(async (id: string) => {
      const entry = bucket('structure').entries[id] as StructureEntry | undefined;
      if (entry?.defaultFloorId) setSession({ buildingId: id, floorId: entry.defaultFloorId });
    }),
    selectFloor: vi.fn(async (id: string) => {
      const entry = Object.values(bucket('structure').entries as Record<string, StructureEntry>).find((b) => b.floors.some((f) => f.id === id));
      if (entry) setSession({ buildingId: entry.building.id, floorId: id });
    }),
    bookRoom: vi.fn(async (request) => ok({ start: 0, end: typeof request.until === 'object' ? request.until.minutes * 60_000 : 86_400_000, subject: request.subject ?? 'Meeting', user_id: 'u1', booking_ref: 'b-new' })),
    cancelBooking: vi.fn(async () => ok({})),
    createTicket: vi.fn(async () => ok({})),
    closeTicket: vi.fn(async () => ok({})),
    vote: vi.fn(async () => ok({})),
    updateAsset: vi.fn(async () => ok({})),
    setManualLocation: vi.fn(async () => ok({})),
    markNotificationRead: vi.fn(async () => ok({})),
    cancelReport: vi.fn(async () => undefined),
    rerunReport: vi.fn(async () => undefined),
    setPlaybackTime: vi.fn(async () => undefined),
    saveNow: vi.fn(async () => undefined),
    setOnline: vi.fn(async () => undefined),
  };

  const fake = api as FakeEngine;
  fake.client = createEngineClient(api);
  fake.open = (view) => [...subs.values()].filter((s) => s.spec.view === view).map((s) => s.spec);
  fake.emit = emit;
  fake.bucket = bucket;
  fake.reset = (view, b) => {
    buckets.set(view, structuredClone(b));
    for (const sub of subs.values()) {
      if (bucketKey(sub.spec) !== view) continue;
      const message = { type: 'snapshot' as const, version: ++sub.version, entries: structuredClone(b.entries), meta: structuredClone(b.meta) };
      deliver(() => sub.listener(message));
    }
  };
  // subscriptions start a few microtasks after the call, so wait for quiet twice
  fake.flush = async () => {
    for (let quiet = 0; quiet < 2; ) {
      const seen = pending;
      await new Promise((resolve) => setTimeout(resolve, 0));
      await pending;
      quiet = seen === pending ? quiet + 1 : 0;
    }
  };
  return fake;
}

// ---------------------------------------------------------------- fixtures

export function user(patch: Partial<User> = {}): User {
  return {
    id: 'u1', uuid: 'uu1', organization_id: 'o1', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com',
    visible: true, location_tag_id: null, location: null, avatar_timestamp: null, avatar_url: '/avatar-default.svg',
    speech_bubble: null, decoration: null, external_objects: [], local_user_asset: null, manual_location_sensor: null,
    ...patch,
  };
}

export function sessionView(patch: Partial<SessionView> = {}): SessionView {
  const roles = patch.roles ?? ['regular'];
  const config = patch.config ?? BASE_CONFIG;
  return {
    phase: 'live', signedIn: true, sessionEnded: null, user: user(), roles, permissions: ['USER_UPDATE_SELF'],
    capabilities: capabilitiesOf(roles, config, 1),
    organizations: [{ id: 'o1', name: 'Acme' }], organizationId: 'o1',
    locations: [{ id: 'l1', name: 'HQ', timezone: 'UTC' }, { id: 'l2', name: 'Annex', timezone: 'UTC' }],
    locationId: 'l1', buildingId: 'b1', floorId: 'f1', navigation: 'ready', timeZone: 'UTC',
    config, cdnBaseUrl: null, progress: null, fromCache: false, ...patch,
  };
}

export function floor(id: string, patch: Partial<Floor> = {}): Floor {
  return {
    id, name: `Floor ${id}`, parent_id: 'b1', height: 2.8, hidden: false, building_relative_z: 0, building_relative_index: 0,
    outline: [[0, 0], [40, 0], [40, 20], [0, 20]], floor_plan_img_path: null, zones_img_path: null,
    floor_plan_img_offset_x: 0, floor_plan_img_offset_y: 0, config: {}, ...patch,
  };
}

export function building(id: string, floors: string[], patch: Partial<Building> = {}): Building {
  return {
    id, name: `Building ${id}`, floors, default_floor: 0, ground_level: 0, ground_floor_adjust: 0, latitude: null,
    longitude: null, north_vector: 0, location_offset: [0, 0], config: {}, ...patch,
  };
}

export function structureEntry(b: Building, floors: Floor[], defaultFloorId: string | null): StructureEntry {
  return { building: b, floors, defaultFloorId };
}

export function floorMeta(patch: Partial<FloorViewMeta> = {}): FloorViewMeta {
  return { floor: floor('f1'), building: building('b1', ['f1']), legends: [], fromCache: false, loading: false, ...patch };
}

export function draw(id: string, patch: Partial<DrawState> = {}): DrawState {
  return {
    id, kind: 'desk', statusKind: 'free', name: `Desk ${id}`, layers: ['desk_usage'], x: 5, y: 5, angle: 0, width: 1.5, depth: 1.5,
    outline: null, color: '#43a047', alpha: 1, greyedOut: false, missingSymbol: false, label: null, text: null,
    status: 'free', unpublished: false, ...patch,
  };
}

export function room(id: string, patch: Partial<DrawState> = {}): DrawState {
  return draw(id, {
    kind: 'room', name: `Room ${id}`, layers: ['rooms', 'room_reservation'],
    outline: [[10, 10], [18, 10], [18, 16], [10, 16]], width: 8, depth: 6, x: 14, y: 13, label: `Room ${id}`, ...patch,
  });
}

/** The popup details of a drawn asset, as the worker's asset view sends them. */
export function detail(entry: DrawState, patch: Partial<AssetDetail> = {}): AssetDetail {
  return {
    id: entry.id, kind: entry.kind, type: entry.kind === 'desk' ? 'shape' : entry.kind, subtype: entry.kind === 'desk' ? 'desk' : null,
    name: entry.name, floorId: 'f1', status: entry.status, statusKind: entry.statusKind, value: null, text: null,
    noRecentData: entry.greyedOut || entry.missingSymbol, unpublished: entry.unpublished, hiddenBy: entry.hiddenBy ?? null,
    popup: { width: 300, height: 250, type: null }, battery: null, lastCommunication: null,
    reservation: entry.kind === 'room' ? { text: 'No reservations', active: null, next: null, upcoming: [] } : null,
    room: entry.kind === 'room' ? { free: entry.statusKind === 'free', capacity: 6 } : null,
    person: null, ticket: null, history: [], historyOf: null, votes: null,
    actions: { book: entry.kind === 'room' && entry.statusKind === 'free', cancellable: [], vote: false, rename: false, closeTicket: false, publish: false },
    ...patch,
  };
}

export function roomEntry(id: string, patch: Partial<RoomEntry> = {}): RoomEntry {
  return {
    id, name: `Room ${id}`, floorId: 'f1', buildingId: 'b1', capacity: 6, statusIndex: 0, color: '#43a047', status: 'free', statusKind: 'free', free: true,
    text: 'No reservations', activeEvent: null, nextEvent: null, reservationSensorId: `s-${id}`, bookable: true, ...patch,
  };
}

export function person(id: string, patch: Partial<PersonEntry> = {}): PersonEntry {
  return {
    id, name: `Person ${id}`, email: `${id}@example.com`, avatarUrl: null, decoration: null, locationId: 'l1', floorId: 'f1',
    x: 3, y: 4, assetId: `ua-${id}`, visible: true, lastSeen: 0, manual: false, elsewhere: null, ...patch,
  };
}

export function notification(id: string, patch: Partial<Notification> = {}): Notification {
  return { id, user_id: 'u1', title: `Title ${id}`, body: `Body ${id}`, created: 1_700_000_000_000, read: false, ...patch };
}

export function connectionView(patch: Partial<ConnectionView> = {}): ConnectionView {
  return {
    state: 'connected', phase: 'live', transportState: 'connected', transport: 'pusher', nextRetryAt: null, attempts: 0, online: true,
    fromCache: false, serverOffsetMs: 0, lastError: null, ...patch,
  };
}

/** A signed-in world: one building with floors f1 (default) and f2, a desk and a room on f1. */
export function signedInWorld(): Record<string, Bucket> {
  const f1 = floor('f1');
  const f2 = floor('f2', { name: 'Floor f2' });
  return {
    session: { entries: { [SELF_KEY]: sessionView() }, meta: null },
    connection: { entries: { [SELF_KEY]: connectionView() }, meta: null },
    structure: { entries: { b1: structureEntry(building('b1', ['f1', 'f2']), [f1, f2], 'f1') }, meta: { locationId: 'l1', fromCache: false } },
    'floor:f1': { entries: { d1: draw('d1'), r1: room('r1') }, meta: floorMeta() },
    'asset:d1': { entries: { [SELF_KEY]: detail(draw('d1')) }, meta: null },
    'asset:r1': { entries: { [SELF_KEY]: detail(room('r1')) }, meta: null },
    'asset:d9': { entries: { [SELF_KEY]: detail(draw('d9', { name: 'Desk upstairs' })) }, meta: null },
    'floor:f2': { entries: { d9: draw('d9', { name: 'Desk upstairs' }) }, meta: floorMeta({ floor: f2 }) },
    rooms: { entries: { r1: roomEntry('r1') }, meta: null },
    people: { entries: { p1: person('p1', { name: 'Grace Hopper' }), p2: person('p2', { name: 'Alan Turing', visible: false }) }, meta: null },
    notifications: { entries: { n1: notification('n1'), n2: notification('n2', { read: true, created: 1_600_000_000_000 }) }, meta: null },
  };
}
