// Reconnect back-off of spec §9 (reconnectDelay of src/shared): min(60 s,
// 5 s × attempts since the last success), so failures wait 5, 10, 15 … 60,
// 60 s and a success starts over. Tests may shorten the step.

import { RECONNECT_MAX_DELAY_MS, RECONNECT_STEP_MS } from '../../shared/constants.js';
import { reconnectDelay } from '../../shared/rules/backoff.js';

/** Delay before the attempt that follows `failures` failures (≥ 1). */
export function reconnectDelayMs(
  failures: number,
  stepMs: number = RECONNECT_STEP_MS,
  maxMs: number = RECONNECT_MAX_DELAY_MS,
): number {
  const attempts = Math.max(1, failures);
  if (stepMs === RECONNECT_STEP_MS && maxMs === RECONNECT_MAX_DELAY_MS) return reconnectDelay(attempts);
  return Math.min(maxMs, stepMs * attempts);
}
