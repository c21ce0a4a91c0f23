// Shared set-up of the reliability scenarios (issue 11): an engine as the
// worker runs it — real fetch and transports wrapped by the fault tools, the
// system clock — with short step timeouts and back-off so a fault and its
// recovery take well under a second, plus the oracle's checks at the end.

import { expect, vi } from 'vitest';
import type { FeedEntry } from '../../../src/shared/api.js';
import { createEngine, type Engine, type EngineDeps } from '../../../src/worker/engine.js';
import { systemClock } from '../../../src/worker/ports.js';
import { createMemoryStorage } from '../../../src/worker/storage/memoryStorage.js';
import { createTransport } from '../../../src/worker/transports/index.js';
import type { TestAccount, TestServer } from '../../helpers/server.js';
import { createFaultyFetch, createFaultyTransports, type FaultyFetch, type FaultyTransports } from '../../helpers/faults.js';
import { expectSettledOnTruth, trackCalls, watchEscapes } from '../../helpers/oracle.js';
import { collect, createTestLogger, type Collected, type TestLogger } from '../../worker/engine/harness.js';

/**
 * Step limits of a fast network: a hung step fails within a second or few.
 * Not shorter: sign-in runs under the settings limit and the server checks a
 * scrypt hash, and every step answers slowly while the whole suite shares two cores
 * (a merge-queue run at load 12 timed a regular sign-in out at 1.5 s).
 */
export const FAST_TIMEOUTS = { timeSyncMs: 1_000, settingsMs: 3_000, transportMs: 3_000, loadMs: 1_500 } as const;
export const FAST_BACKOFF = { reconnectStepMs: 100, reconnectMaxDelayMs: 400 } as const;

export interface Scenario {
  engine: Engine;
  raw: Engine;
  faults: FaultyFetch;
  transports: FaultyTransports;
  logger: TestLogger;
  feed: Collected<FeedEntry>;
  /** the oracle and what must hold after every scenario */
  settle(options?: { timeout?: number }): Promise<void>;
  posted(): string[];
  /** engine calls not settled yet */
  unsettled(): string[];
  dispose(): Promise<void>;
}

export async function createScenario(test: TestServer, deps: Partial<EngineDeps> = {}): Promise<Scenario> {
  const faults = createFaultyFetch();
  const transports = createFaultyTransports(deps.transportFactory ?? createTransport);
  const logger = createTestLogger();
  const escapes = watchEscapes();
  const raw = createEngine({
    clock: systemClock,
    fetch: faults.fetch,
    transportFactory: transports.factory,
    storage: createMemoryStorage(),
    logger,
    timeouts: FAST_TIMEOUTS,
    ...FAST_BACKOFF,
    persistThrottleMs: 50,
    flushIntervalMs: 10,
    ...deps,
  });
  const tracked = trackCalls(raw);
  await tracked.engine.init({ host: test.url });
  const feed = await collect<FeedEntry>(raw, { view: 'feed' });
  const posted = () => { raw.internals.hub.flush(); return [...feed.entries.values()].map((e) => e.message); };
  return {
    engine: tracked.engine,
    raw,
    faults,
    transports,
    logger,
    feed,
    posted,
    unsettled: tracked.unsettled,
    async settle(options) {
      faults.clear();
      await expectSettledOnTruth({ engine: raw, baseUrl: test.baseUrl }, options);
      await vi.waitFor(() => { expect(tracked.unsettled(), 'every engine call settles').toEqual([]); }, { timeout: 5_000, interval: 20 });
      expect(faults.hanging(), 'every hung request was aborted').toBe(0);
      expect(logger.errors, 'no exception escapes').toEqual([]);
      expect(escapes.escaped, 'no exception escapes').toEqual([]);
    },
    async dispose() {
      escapes.stop();
      await raw.dispose();
    },
  };
}

/** Signs in and waits until the default organization and location are live. */
export async function signInLive(s: Scenario, account: TestAccount): Promise<void> {
  const result = await s.engine.signIn(account.email, account.password);
  expect(result.ok, JSON.stringify(result)).toBe(true);
  await vi.waitFor(() => {
    const state = s.raw.internals.session()!.state();
    expect(state.phase.name).toBe('live');
    expect(state.ctx.locationId).not.toBeNull();
    expect(s.raw.internals.store.assets.size).toBeGreaterThan(0);
  }, { timeout: 10_000, interval: 20 });
}

/** Forces a reconnect (going online does, spec §8), which reloads every scope. */
export async function reconnect(s: Scenario): Promise<void> {
  await s.engine.setOnline(true);
}

/** Waits for a posted error (spec §8) to appear in the feed. */
export async function waitPosted(s: Scenario, message: string): Promise<void> {
  await vi.waitFor(() => { expect(s.posted()).toContain(message); }, { timeout: 10_000, interval: 20 });
}
