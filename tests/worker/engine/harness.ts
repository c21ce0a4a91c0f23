// Test harness of the engine: wire fixtures, a capturing logger, a view
// collector that applies snapshots and patches like the UI mirror, and a
// small fake backend (fetch + transport) for sign-in and loads, so engine
// tests run in Node with fake timers and no server.

import { afterEach, beforeEach, vi } from 'vitest';
import type { ViewMessage, ViewSpec } from '../../../src/shared/api.js';
import type { Engine } from '../../../src/worker/engine.js';
import { createEngine, type EngineDeps } from '../../../src/worker/engine.js';
import type { ChangeBatch, Logger, Transport, TransportFactory } from '../../../src/worker/ports.js';
import { systemClock } from '../../../src/worker/systemClock.js';
import { applyBatch } from '../../../src/worker/store/applyBatch.js';
import { createStore } from '../../../src/worker/store/store.js';
import { createMemoryStorage } from '../../../src/worker/storage/memoryStorage.js';
import type { StreamScope } from '../../../src/shared/protocol.js';

export const ORG_ID = 'o1';
export const LOCATION_ID = 'l1';

export interface TestLogger extends Logger {
  warnings: string[];
  errors: string[];
}

export function createTestLogger(): TestLogger {
  const warnings: string[] = [];
  const errors: string[] = [];
  return {
    warnings, errors,
    debug: () => undefined,
    info: () => undefined,
    warn: (m) => { warnings.push(m); },
    error: (m) => { errors.push(m); },
  };
}

// ---------------------------------------------------------------- wire fixtures

export const wireOrganization = () => ({
  id: ORG_ID, uuid: 'u-o1', name: 'Org', locations: [LOCATION_ID], locations_map: { [LOCATION_ID]: { id: LOCATION_ID, name: 'HQ' } }, config: {},
});
export const wireLocation = () => ({
  id: LOCATION_ID, organization_id: ORG_ID, name: 'HQ', timezone: 'UTC', latitude: 60.17, longitude: 24.94, buildings: ['b1'], config: {},
});
export const wireBuilding = (floors: string[] = ['f1', 'f2']) => ({ id: 'b1', type: 'building', name: 'Main', parent_id: null, floors });
export const wireFloor = (id: string, extra: Record<string, unknown> = {}) => ({ id, type: 'floor', name: `Floor ${id}`, parent_id: 'b1', ...extra });

export const wireDesk = (id: string, floorId: string, extra: Record<string, unknown> = {}) => ({
  id, type: 'shape', subtype: 'desk', name: `Desk ${id}`, parent_id: floorId, x: 1, y: 2, data_providers: [`s-${id}`], ...extra,
});
/** A lift on `floorId` leading to the portal `target`. */
export const wireLift = (id: string, floorId: string, target: string) => ({
  id, type: 'portal', subtype: 'elevator', name: 'Lift', parent_id: floorId, x: 10, y: 0, targets: [target],
});
/** A desk on f1 and a meeting room on f2, joined by a lift: the smallest location a route crosses floors in. */
export const TWO_FLOORS_BY_LIFT = [
  wireDesk('d1', 'f1', { name: 'Desk 1.1', x: 4, y: 3, data_providers: [] }),
  { id: 'r2', type: 'room', subtype: 'meeting', name: 'Aurora', parent_id: 'f2', x: 10, y: 8, data_providers: [] },
  wireLift('l1', 'f1', 'l2'), wireLift('l2', 'f2', 'l1'),
];
export const wireOccupancySensor = (id: string, time: number, value: number, validFor = 3_600_000) => ({
  id, type: 'occupancy', last_measurement: { time, valid_for: validFor, value },
});

export function wireUser(id: string, extra: Record<string, unknown> = {}) {
  return { id, uuid: `u-${id}`, organization_id: ORG_ID, first_name: `First${id}`, last_name: 'Last', email: `${id}@example.com`, visible: true, ...extra };
}

/** The location's structure plus extra assets and sensors, as the initial loads deliver them. */
export function locationBatches(assets: unknown[], sensors: unknown[], users: unknown[] = []): ChangeBatch[] {
  return [
    {
      scope: { kind: 'organization', organizationId: ORG_ID },
      changes: [
        { collection: 'organizations', kind: 'initial', items: [wireOrganization()] },
        { collection: 'locations', kind: 'initial', items: [wireLocation()] },
        { collection: 'users', kind: 'initial', items: users },
      ],
    },
    {
      scope: { kind: 'location', organizationId: ORG_ID, locationId: LOCATION_ID },
      changes: [
        { collection: 'assets', kind: 'initial', items: [wireBuilding(), wireFloor('f1'), wireFloor('f2'), ...assets] },
        { collection: 'sensors', kind: 'initial', items: sensors },
      ],
    },
  ];
}

/** A store loaded with the location's structure plus these assets and sensors through the batch applier, and its apply. */
export function loadedStore(assets: unknown[], sensors: unknown[], now: () => number, users: unknown[] = []) {
  const store = createStore();
  store.organizationId = ORG_ID;
  store.locationId = LOCATION_ID;
  const options = { logger: createTestLogger(), now, manualLocationTimeoutMs: 432e5 };
  const apply = (batch: ChangeBatch) => applyBatch(store, batch, options);
  for (const b of locationBatches(assets, sensors, users)) apply(b);
  return { store, apply };
}

export const locationScope: StreamScope = { kind: 'location', organizationId: ORG_ID, locationId: LOCATION_ID };
export const organizationScope: StreamScope = { kind: 'organization', organizationId: ORG_ID };

export function measurement(sensorId: string, type: string, value: Record<string, unknown>): ChangeBatch {
  return { scope: locationScope, changes: [{ collection: 'measurements', kind: 'created', id: sensorId, data: { sensor_id: sensorId, type, value } }] };
}

// ---------------------------------------------------------------- engine and views

export function createTestEngine(overrides: Partial<EngineDeps> = {}): { engine: Engine; logger: TestLogger } {
  const logger = createTestLogger();
  const engine = createEngine({
    clock: systemClock,
    fetch: () => Promise.reject(new Error('no network in this test')),
    transportFactory: () => { throw new Error('no transport in this test'); },
    storage: createMemoryStorage(),
    logger,
    ...overrides,
  });
  return { engine, logger };
}

/** Loads the fixture location straight into the engine's sink (no sync layer). */
export function feedLocation(engine: Engine, assets: unknown[], sensors: unknown[], users: unknown[] = []): void {
  engine.internals.store.organizationId = ORG_ID;
  engine.internals.store.locationId = LOCATION_ID;
  for (const batch of locationBatches(assets, sensors, users)) engine.internals.sink.apply(batch);
}

/**
 * For a test file whose engines run on a fake clock standing at `now` (timers and Date): each test starts
 * there, and the engines it made are disposed after it. Answers the maker of an engine fed a location.
 */
export function enginesOnFakeClock(now: number): (assets: unknown[], sensors: unknown[]) => Engine {
  const engines: Engine[] = [];
  beforeEach(() => { vi.useFakeTimers({ now, toFake: ['setTimeout', 'clearTimeout', 'Date'] }); });
  afterEach(async () => { for (const e of engines.splice(0)) await e.dispose(); vi.useRealTimers(); });
  return (assets, sensors) => {
    const { engine } = createTestEngine();
    engines.push(engine);
    feedLocation(engine, assets, sensors);
    return engine;
  };
}

export interface Collected<T = unknown, M = unknown> {
  id: number;
  entries: Map<string, T>;
  meta: M | undefined;
  messages: ViewMessage<T, M>[];
}

/** Subscribes and applies every message like the UI mirror does. */
export async function collect<T = unknown, M = unknown>(engine: Pick<Engine, 'subscribe'>, spec: ViewSpec): Promise<Collected<T, M>> {
  const out: Collected<T, M> = { id: 0, entries: new Map(), meta: undefined, messages: [] };
  out.id = await engine.subscribe(spec, (raw) => {
    const message = raw as ViewMessage<T, M>;
    out.messages.push(message);
    if (message.type === 'snapshot') {
      out.entries = new Map(Object.entries(message.entries));
      out.meta = message.meta;
    } else if (message.type === 'snapshotPart') {
      for (const [k, v] of Object.entries(message.entries)) out.entries.set(k, v);
    } else {
      for (const [k, v] of Object.entries(message.upserted)) out.entries.set(k, v);
      for (const k of message.removed) out.entries.delete(k);
      if ('meta' in message && message.meta !== undefined) out.meta = message.meta;
    }
  });
  return out;
}

// ---------------------------------------------------------------- fake backend

export interface FakeBackend {
  fetch: typeof fetch;
  transportFactory: TransportFactory;
  calls: string[];
  /** path → JSON body (or a function of the request) */
  routes: Map<string, (init: RequestInit | undefined, url: URL) => { status?: number; body: unknown }>;
}

export function createFakeBackend(options: { permissions?: string[]; userId?: string; assets?: unknown[]; sensors?: unknown[]; users?: unknown[]; notifications?: unknown[]; locationConfig?: Record<string, unknown> } = {}): FakeBackend {
  const userId = options.userId ?? 'u1';
  const calls: string[] = [];
  const routes: FakeBackend['routes'] = new Map();
  const json = (body: unknown) => () => ({ body });
  const base = `/organizations/${ORG_ID}/locations/${LOCATION_ID}`;
  routes.set('POST /v1/login', json({ token: 'secret-token', token_type: 'Bearer', expires_at: 0, user_id: userId, organization_id: ORG_ID }));
  routes.set('GET /v2/settings', json({
    user: wireUser(userId), permissions: options.permissions ?? ['USER_UPDATE_SELF'], cdn_base_url: null,
    pusher_config: { app_key: 'k', cluster: 'c' },
  }));
  routes.set('GET /v1/current_time', () => ({ body: { time: Date.now() } }));
  routes.set('GET /v1/organizations', json([{ id: ORG_ID, name: 'Org' }]));
  routes.set(`GET /v1/organizations/${ORG_ID}`, json(wireOrganization()));
  routes.set(`GET /v1/organizations/${ORG_ID}/locations`, json([{ ...wireLocation(), config: options.locationConfig ?? {} }]));
  routes.set(`GET /v1/organizations/${ORG_ID}/users`, json(options.users ?? [wireUser(userId)]));
  routes.set('GET /v1/external_objects', json([]));
  routes.set('GET /v1/notifications', json(options.notifications ?? []));
  routes.set(`GET /v1${base}/assets`, json([wireBuilding(), wireFloor('f1'), wireFloor('f2'), ...(options.assets ?? [])]));
  routes.set(`GET /v1${base}/sensors`, json(options.sensors ?? []));

  const fakeFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    calls.push(key);
    const route = routes.get(key);
    const { status = 200, body } = route ? route(init, url) : { status: 404, body: { statusCode: 404, error: 'Not Found', message: key } };
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', 'x-stream-id': 'stream-1', 'x-stream-sequence': '0' },
    });
  }) as typeof fetch;

  const transportFactory: TransportFactory = () => {
    const transport: Transport = {
      name: 'pusher',
      connect: async () => undefined,
      disconnect: async () => undefined,
      subscribe: async () => undefined,
      unsubscribe: async () => undefined,
      onMessage: () => () => undefined,
      onStateChange: () => () => undefined,
    };
    return transport;
  };
  return { fetch: fakeFetch, transportFactory, calls, routes };
}
