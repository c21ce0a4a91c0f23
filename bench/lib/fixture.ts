// The benches' location: the reference server's seeded demo (server/seed) at
// 10,000 desks and 20,000 sensors, served over loopback, and an engine that
// loads it through its real REST and sync path. Live packets are pushed
// through a capturing transport, so they take the engine's real route:
// decode → stream validation → store → facts → view patches.

import { startStoreyServer, type StoreyServer } from '../../server/app.js';
import { createEngine, type Engine } from '../../src/worker/engine.js';
import type { TransportFactory } from '../../src/worker/ports.js';
import { systemClock } from '../../src/worker/systemClock.js';
import type { StoragePort } from '../../src/worker/storage/index.js';
import { createMemoryStorage } from '../../src/worker/storage/memoryStorage.js';
import { createCaptureTransport, expectOk, loadBenchLocation, quietLogger, type BenchLocation } from './benchEngine.js';

// the engine-side helpers live in benchEngine.ts (no Node in them, so the browser benches' worker uses them too)
export {
  aDesk, appViews, createCaptureTransport, createViewCounter, expectOk, floorsByAssets, loadBenchLocation, quietLogger, waitUntil,
  type BenchLocation, type CaptureTransport, type ViewCounter,
} from './benchEngine.js';

export const BENCH_DESKS = 10_000;
export const BENCH_SENSORS = 20_000;

/**
 * The reference server seeded with one building of two visible floors (and the seed's hidden plant floor);
 * `staticDir`: a built page it serves from its own origin (a browser bench's); `historyDays`: local days of
 * generated readings before today (yesterday only unless told).
 */
export function startBenchServer(desks = BENCH_DESKS, sensors = BENCH_SENSORS, options: { staticDir?: string; historyDays?: number } = {}): Promise<StoreyServer> {
  return startStoreyServer({
    host: '127.0.0.1',
    port: 0,
    transport: 'pusher',
    simulate: false,
    ...(options.staticDir ? { staticDir: options.staticDir } : {}),
    seed: { seed: 7, desks, sensors, buildings: 1, floorsPerBuilding: 2, employees: 24, historyDays: options.historyDays ?? 1 },
  });
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

