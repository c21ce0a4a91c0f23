import { describe, expect, it } from 'vitest';
import { formatTime, formatTimeRange, formatWhen, zoneDiffers } from '../../src/ui/lib/timeFormat.js';

// the browser of this test runs in the process's zone; the location may be elsewhere
const here = Intl.DateTimeFormat().resolvedOptions().timeZone;
const elsewhere = here === 'Asia/Tokyo' ? 'America/New_York' : 'Asia/Tokyo';
const T = Date.UTC(2030, 5, 3, 9, 30);

describe('timeFormat', () => {
  it("shows a time in the location's zone, not the browser's", () => {
    const tokyo = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', timeZone: elsewhere }).format(T);
    expect(formatTime(T, elsewhere)).toContain(tokyo);
  });

  it("names the zone only when it is not the browser's", () => {
    expect(zoneDiffers(here, T)).toBe(false);
    expect(zoneDiffers(elsewhere, T)).toBe(true);
    expect(formatTime(T, here)).toBe(new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', timeZone: here }).format(T));
    expect(formatTime(T, elsewhere).length).toBeGreaterThan(formatTime(T, here).length);
  });

  it('names the zone once in a range and adds the day when it is not today', () => {
    const range = formatTimeRange(T, T + 3_600_000, elsewhere, T);
    const zone = new Intl.DateTimeFormat(undefined, { timeZone: elsewhere, timeZoneName: 'short' }).formatToParts(T).find((p) => p.type === 'timeZoneName')!.value;
    expect(range.split(zone).length - 1).toBe(1);
    expect(formatWhen(T, here, T)).toBe(formatTime(T, here));
    expect(formatWhen(T + 2 * 86_400_000, here, T)).not.toBe(formatTime(T + 2 * 86_400_000, here));
  });
});
