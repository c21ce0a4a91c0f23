import { describe, expect, it } from 'vitest';
import { localDayAt, localParts, safeTimeZone } from '../../src/shared/time.js';
import { awayFromMiddayZone, fixedOffsetZone, middayZone } from '../helpers/localTime.js';

const HOUR_MS = 3_600_000;
const fromMidnight = (now: number, zone: string) => {
  const day = localDayAt(now, zone);
  return Math.min(now - day.start, day.end - now);
};

describe('the test helpers that keep wall-clock tests off midnight', () => {
  it('middayZone is a real zone where it is 12:xx local, at every UTC hour, 11 hours or more from either end of the local day', () => {
    for (let hour = 0; hour < 24; hour += 1) {
      for (const minute of [0, 59]) {
        const now = Date.UTC(2026, 10, 23, hour, minute, 30);
        const zone = middayZone(now);
        expect(safeTimeZone(zone)).toBe(zone);
        expect(localParts(now, zone)).toMatchObject({ hour: 12, minute });
        expect(fromMidnight(now, zone)).toBeGreaterThanOrEqual(11 * HOUR_MS);
      }
    }
  });

  it('awayFromMiddayZone is six hours from it, its own day 5 hours or more from turning', () => {
    for (let hour = 0; hour < 24; hour += 1) {
      const now = Date.UTC(2026, 10, 23, hour, 59, 30);
      const zone = awayFromMiddayZone(now);
      expect(safeTimeZone(zone)).toBe(zone);
      expect(Math.abs(localParts(now, zone).hour - 12)).toBe(6);
      expect(fromMidnight(now, zone)).toBeGreaterThanOrEqual(5 * HOUR_MS);
    }
  });

  it('fixedOffsetZone names UTC+3 Etc/GMT-3 and refuses offsets no zone has', () => {
    expect(fixedOffsetZone(3)).toBe('Etc/GMT-3');
    expect(fixedOffsetZone(-5)).toBe('Etc/GMT+5');
    expect(localParts(Date.UTC(2026, 0, 1, 0, 0), fixedOffsetZone(3)).hour).toBe(3);
    expect(() => fixedOffsetZone(-13)).toThrow();
  });
});
