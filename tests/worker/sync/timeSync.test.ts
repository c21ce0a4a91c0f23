import { describe, expect, it } from 'vitest';
import { createCorrectedClock, measureOffset, TimeSyncError } from '../../../src/worker/sync/timeSync.js';
import { reconnectDelayMs } from '../../../src/worker/sync/backoff.js';
import type { Clock } from '../../../src/worker/ports.js';

function manualClock(start: number) {
  let t = start;
  const clock: Clock = { now: () => t, setTimeout: () => 0, clearTimeout: () => undefined };
  return { clock, advance: (ms: number) => { t += ms; } };
}

describe('timeSync', () => {
  describe('createCorrectedClock', () => {
    it('adds the offset to the raw clock', () => {
      const { clock, advance } = manualClock(1000);
      const corrected = createCorrectedClock(clock);
      corrected.setOffset(-250);
      advance(10);
      expect(corrected.now()).toBe(760);
      expect(corrected.offsetMs).toBe(-250);
      corrected.setOffset(Number.NaN);
      expect(corrected.offsetMs).toBe(-250);
    });
  });

  describe('measureOffset', () => {
    it('assumes the server read its time halfway through the round trip', async () => {
      const { clock, advance } = manualClock(10_000);
      const offset = await measureOffset(clock, async () => { advance(300); return { time: 50_000 }; });
      expect(offset).toBe(50_000 - 10_150);
    });

    it('rejects an answer without a numeric time', async () => {
      const { clock } = manualClock(0);
      await expect(measureOffset(clock, async () => ({ time: 'noon' }))).rejects.toThrow(TimeSyncError);
    });
  });
});

describe('backoff', () => {
  describe('reconnectDelayMs', () => {
    it('is min(60 s, 5 s × failures since the last success)', () => {
      expect([1, 2, 3, 11, 12, 13, 50].map((n) => reconnectDelayMs(n))).toEqual([5_000, 10_000, 15_000, 55_000, 60_000, 60_000, 60_000]);
    });

    it('scales with a shorter step for tests', () => {
      expect([1, 2, 30].map((n) => reconnectDelayMs(n, 100, 1_200))).toEqual([100, 200, 1_200]);
    });
  });
});
