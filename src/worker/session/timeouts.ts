// Every network step of the session runs under a timeout on the injected
// clock (DESIGN §2): a request that never answers aborts (AbortController)
// and fails into the reconnect schedule instead of leaving the engine stuck.

import type { Clock } from '../ports.js';

export class StepTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`No answer within ${ms} ms`);
    this.name = 'StepTimeoutError';
  }
}

/** Runs `step` with an abort signal; rejects with StepTimeoutError (and aborts) after `ms`. */
export function runWithTimeout<T>(clock: Clock, ms: number, step: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const timer = clock.setTimeout(() => {
      const error = new StepTimeoutError(ms);
      controller.abort(error);
      reject(error);
    }, ms);
    step(controller.signal).then(
      (value) => { clock.clearTimeout(timer); resolve(value); },
      (error: unknown) => { clock.clearTimeout(timer); reject(controller.signal.aborted ? controller.signal.reason : error); },
    );
  });
}

/**
 * Step limits: generous for a slow network, short enough that a hung step
 * recovers within a minute. The transport gets a little more than MQTT's own
 * connect timeout (spec §9: 15 s) so the broker's answer decides first.
 */
export const DEFAULT_SESSION_TIMEOUTS = {
  timeSyncMs: 10_000,
  settingsMs: 15_000,
  transportMs: 20_000,
  loadMs: 60_000,
} as const;
