import { describe, expect, it } from 'vitest';
import { localDayAt, localParts, safeTimeZone } from '../../src/shared/time.js';
import { middayZone } from '../helpers/localTime.js';

describe('middayZone (the test helper that keeps wall-clock tests off midnight)', () => {
  it('is a real zone where it is 12:xx local, at every UTC hour, 11 hours or more from either end of the local day', () => {
    for (let hour = 0; hour < 24; hour += 1) {
      for (const minute of [0, 59]) {
        const now = Date.UTC(2026, 10, 23, hour, minute, 30);
        const zone = middayZone(now);
        expect(safeTimeZone(zone)).toBe(zone);
        expect(localParts(now, zone)).toMatchObject({ hour: 12, minute });
        const day = localDayAt(now, zone);
        expect(Math.min(now - day.start, day.end - now)).toBeGreaterThanOrEqual(11 * 3_600_000);
      }
    }
  });
});
