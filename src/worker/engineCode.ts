// The engine as the worker runs it (production dependencies: IndexedDB, the
// live transports, the console), loaded by the worker's entry with import():
// Chromium keeps V8's code cache for a module a worker imports with import()
// and reuses it from its third load on, but never for the modules of the
// worker's own script (bench/codeCache.ts, docs/bench.md), so a warm reopen
// compiles the engine from the cache instead of from source.

import { createEngine, type Engine, type EngineDeps } from './engine.js';
import type { Logger } from './ports.js';
import { createIdbPageCache } from './storage/idbPageCache.js';
import { createIdbStorage } from './storage/idbStorage.js';
import { createBroadcastTabChannel } from './tabChannel.js';
import { systemClock } from './systemClock.js';
import { createTransport } from './transports/index.js';

/** Logs to the console with a prefix; callers never pass tokens (DESIGN §8). */
export const consoleLogger: Logger = {
  debug: () => undefined,
  info: (m, ...d) => console.info(`[storey] ${m}`, ...d),
  warn: (m, ...d) => console.warn(`[storey] ${m}`, ...d),
  error: (m, ...d) => console.error(`[storey] ${m}`, ...d),
};

/** A new engine on the production dependencies, with `overrides` (tests pass memory storage, fake fetch…). */
export function createProductionEngine(overrides: Partial<EngineDeps> = {}): Engine {
  const clock = overrides.clock ?? systemClock;
  return createEngine({
    clock,
    fetch: (input, init) => globalThis.fetch(input, init),
    transportFactory: createTransport,
    storage: createIdbStorage(),
    logger: consoleLogger,
    pageCache: (user) => createIdbPageCache({ userId: user, now: () => clock.now() }),
    tabs: createBroadcastTabChannel(),
    ...overrides,
  });
}
