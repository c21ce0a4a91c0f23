// Reconnect back-off of spec §9: min(60 s, 5 s × attempts since the last
// success). Linear rather than exponential, as the spec says.

import { RECONNECT_MAX_DELAY_MS, RECONNECT_STEP_MS } from '../constants.js';

/** Delay before the next attempt; 0 attempts (just succeeded or first try) means at once. */
export function reconnectDelay(attemptsSinceSuccess: number): number {
  const attempts = Number.isFinite(attemptsSinceSuccess) ? Math.max(0, Math.floor(attemptsSinceSuccess)) : 0;
  return Math.min(RECONNECT_MAX_DELAY_MS, RECONNECT_STEP_MS * attempts);
}
