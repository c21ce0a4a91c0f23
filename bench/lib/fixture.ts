// The benches' location: the reference server's seeded demo (server/seed) at
// 10,000 desks and 20,000 sensors, served over loopback, and an engine that
// loads it through its real REST and sync path. Live packets are pushed
// through a capturing transport, so they take the engine's real route:
// decode → stream validation → store → facts → view patches.

import { startStoreyServer, type StoreyServer } from '../../server/app.js';
import type { ViewMessage, ViewSpec } from '../../src/shared/api.js';
import { DEFAULT_LAYERS } from '../../src/shared/constants.js';
import type { StreamScope } from '../../src/shared/protocol.js';
import type { Id } from '../../src/shared/types.js';
import { createEngine, type Engine } from '../../src/worker/engine.js';
import type { Logger, Transport, TransportFactory } from '../../src/worker/ports.js';
import { systemClock } from '../../src/worker/systemClock.js';
import type { StoragePort } from '../../src/worker/storage/index.js';
import { createMemoryStorage } from '../../src/worker/storage/memoryStorage.js';

export const BENCH_DESKS = 10_000;
export const BENCH_SENSORS = 20_000;

export const quietLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** The reference server seeded with one building of two visible floors (and the seed's hidden plant floor). */
export function startBenchServer(desks = BENCH_DESKS, sensors = BENCH_SENSORS): Promise<StoreyServer> {
  return startStoreyServer({
    host: '127.0.0.1',
    port: 0,
    transport: 'pusher',
    simulate: false,
    seed: { seed: 7, desks, sensors, buildings: 1, floorsPerBuilding: 2, employees: 24, historyDays: 1 },
  });
}

export interface CaptureTransport {
  factory: TransportFactory;
  /** delivers one payload as the broker would; false until the engine listens */
  push(scope: StreamScope, payload: string): boolean;
}

/** A transport that connects at once and lets the bench deliver payloads. */
export function createCaptureTransport(): CaptureTransport {
  let listener: ((scope: StreamScope, payload: string) => void) | null = null;
  const factory: TransportFactory = () => {
    const transport: Transport = {
      name: 'pusher',
      connect: async () => undefined,
      disconnect: async () => undefined,
      subscribe: async () => undefined,
      unsubscribe: async () => undefined,
      onMessage(l) { listener = l; return () => { if (listener === l) listener = null; }; },
      onStateChange: () => () => undefined,
    };
    return transport;
  };
  return {
    factory,
    push(scope, payload) {
      if (!listener) return false;
      listener(scope, payload);
      return true;
    },
  };
}

export interface BenchLocation {
  organizationId: Id;
  locationId: Id;
  scope: StreamScope;
  account: { email: string; password: string; userId: Id };
}

export function benchLocation(server: StoreyServer): BenchLocation {
  const account = server.seed.accounts.regular;
  const organizationId = server.seed.organizationId;
  const locationId = server.seed.locationIds[0]!;
  return { organizationId, locationId, scope: { kind: 'location', organizationId, locationId }, account };
}

export interface OpenEngineOptions {
  storage?: StoragePort;
  transportFactory?: TransportFactory;
}

/** A fresh engine signed in as the regular demo user with the bench location loaded over REST. */
export async function openEngine(server: StoreyServer, options: OpenEngineOptions = {}): Promise<Engine> {
  const loc = benchLocation(server);
  const engine = createEngine({
    clock: systemClock,
    fetch: globalThis.fetch,
    transportFactory: options.transportFactory ?? createCaptureTransport().factory,
    storage: options.storage ?? createMemoryStorage(),
    logger: quietLogger,
  });
  await engine.init({ host: server.url });
  expectOk(await engine.signIn(loc.account.email, loc.account.password), 'signIn');
  await loadBenchLocation(engine, loc);
  return engine;
}

/**
 * What the app does after sign-in: wait for the connection, load the
 * organization, then the location, until its stream is loaded. (A load
 * started while the first connect attempt runs is superseded by that
 * attempt's own reload, so the app waits for `connected` first.)
 */
export async function loadBenchLocation(engine: Engine, loc: BenchLocation): Promise<void> {
  const sync = () => engine.internals.session();
  await waitUntil(() => sync()?.state().phase.name === 'live', 'connected');
  expectOk(await engine.selectOrganization(loc.organizationId), 'loadOrganization');
  await waitUntil(() => engine.internals.store.locations.has(loc.locationId), 'organization loaded');
  expectOk(await engine.selectLocation(loc.locationId), 'loadLocation');
  await waitUntil(() => sync()?.subscriptionState(loc.scope) === 'loaded', 'location loaded');
}

/** Polls every millisecond (so it adds at most ~1 ms to a timed wait). */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const t0 = performance.now();
  while (!condition()) {
    if (performance.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

export function expectOk(result: { ok: boolean; message?: string }, what: string): void {
  if (!result.ok) throw new Error(`${what} failed: ${result.message ?? 'unknown'}`);
}

/** Visible floors of the engine's location, the most crowded first. */
export function floorsByAssets(engine: Engine): Id[] {
  const { store } = engine.internals;
  return [...store.floors.values()]
    .filter((f) => !f.hidden)
    .map((f) => ({ id: f.id, n: store.assetsByFloor.get(f.id)?.size ?? 0 }))
    .sort((a, b) => b.n - a.n)
    .map((f) => f.id);
}

/**
 * Every view the viewer app has open at once: one floor plus the app-wide
 * views, a desk's popup (`asset`) and the finder with a query (`search`).
 */
export function appViews(floorId: Id, popupAssetId?: Id): ViewSpec[] {
  return [
    { view: 'floor', floorId, layers: DEFAULT_LAYERS },
    { view: 'structure' }, { view: 'connection' }, { view: 'session' }, { view: 'feed' },
    { view: 'notifications' }, { view: 'people' }, { view: 'rooms' },
    ...(popupAssetId ? [{ view: 'asset' as const, assetId: popupAssetId }] : []),
    { view: 'search', query: 'meeting room' },
  ];
}

/** A desk of the floor, for the popup the app keeps open. */
export function aDesk(engine: Engine, floorId: Id): Id {
  for (const id of engine.internals.store.assetsByFloor.get(floorId) ?? []) {
    if (engine.internals.store.assets.get(id)?.subtype === 'desk') return id;
  }
  throw new Error(`no desk on floor ${floorId}`);
}

export interface ViewCounter {
  messages: number;
  patchEntries: number;
  snapshotEntries: number;
  listener(message: ViewMessage): void;
}

export function createViewCounter(): ViewCounter {
  const counter: ViewCounter = {
    messages: 0,
    patchEntries: 0,
    snapshotEntries: 0,
    listener(message) {
      counter.messages += 1;
      if (message.type !== 'patch') counter.snapshotEntries += Object.keys(message.entries).length;
      else counter.patchEntries += Object.keys(message.upserted).length + message.removed.length;
    },
  };
  return counter;
}
