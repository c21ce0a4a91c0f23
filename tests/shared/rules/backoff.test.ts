import { describe, expect, it } from 'vitest';
import { reconnectDelay } from '../../../src/shared/rules/backoff.js';

describe('backoff', () => {
  describe('reconnectDelay', () => {
    it('waits 5 s per attempt since the last success', () => {
      expect([1, 2, 3, 11].map(reconnectDelay)).toEqual([5000, 10000, 15000, 55000]);
    });

    it('never waits more than 60 s', () => {
      expect(reconnectDelay(12)).toBe(60000);
      expect(reconnectDelay(13)).toBe(60000);
      expect(reconnectDelay(1000)).toBe(60000);
    });

    it('retries at once with no failed attempt, and treats nonsense as none', () => {
      expect(reconnectDelay(0)).toBe(0);
      expect(reconnectDelay(-3)).toBe(0);
      expect(reconnectDelay(NaN)).toBe(0);
    });
  });
});
