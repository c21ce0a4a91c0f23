// Server time (spec §7 GET /current_time, every TIME_SYNC_INTERVAL_MS): every
// rule reads time through the corrected clock, so a client whose system clock
// is off still judges freshness and reservations as the server does.

import type { Clock } from '../ports.js';

export interface CorrectedClock {
  /** raw clock time plus the server offset */
  now(): number;
  readonly offsetMs: number;
  setOffset(ms: number): void;
}

export function createCorrectedClock(clock: Clock, initialOffsetMs = 0): CorrectedClock {
  let offset = initialOffsetMs;
  return {
    now: () => clock.now() + offset,
    get offsetMs() { return offset; },
    setOffset(ms: number) { if (Number.isFinite(ms)) offset = ms; },
  };
}

export class TimeSyncError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TimeSyncError';
  }
}

/**
 * Offset of the server clock against `clock`, assuming the server read its
 * time halfway through the round trip (half-RTT correction).
 */
export async function measureOffset(clock: Clock, fetchTime: () => Promise<{ time: unknown }>): Promise<number> {
  const sentAt = clock.now();
  const response = await fetchTime();
  const receivedAt = clock.now();
  const serverTime = response?.time;
  if (typeof serverTime !== 'number' || !Number.isFinite(serverTime)) {
    throw new TimeSyncError('current_time answered without a numeric time');
  }
  return Math.round(serverTime - (sentAt + receivedAt) / 2);
}
