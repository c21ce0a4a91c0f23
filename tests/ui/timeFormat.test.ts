import { describe, expect, it, vi } from 'vitest';
import { formatEndTime, formatTime, formatTimeParts, formatTimeRange, formatWhen, zoneDiffers } from '../../src/ui/lib/timeFormat.js';

// the browser of this test runs in the process's zone; the location may be elsewhere
const here = Intl.DateTimeFormat().resolvedOptions().timeZone;
const elsewhere = here === 'Asia/Tokyo' ? 'America/New_York' : 'Asia/Tokyo';
const T = Date.UTC(2030, 5, 3, 9, 30);

describe('timeFormat', () => {
  it("shows a time in the location's zone, not the browser's", () => {
    const tokyo = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: elsewhere }).format(T);
    expect(formatTime(T, elsewhere)).toContain(tokyo);
  });

  it("names the zone only when it is not the browser's", () => {
    expect(zoneDiffers(here, T)).toBe(false);
    expect(zoneDiffers(elsewhere, T)).toBe(true);
    expect(formatTime(T, here)).toBe(new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: here }).format(T));
    expect(formatTime(T, elsewhere).length).toBeGreaterThan(formatTime(T, here).length);
  });

  it('names the zone once in a range and adds the day when it is not today', () => {
    const range = formatTimeRange(T, T + 3_600_000, elsewhere, T);
    const zone = new Intl.DateTimeFormat(undefined, { timeZone: elsewhere, timeZoneName: 'short' }).formatToParts(T).find((p) => p.type === 'timeZoneName')!.value;
    expect(range.split(zone).length - 1).toBe(1);
    // left out where the screen names it already (the room display's clock)
    expect(formatTimeRange(T, T + 3_600_000, elsewhere, T, false)).not.toContain(zone);
    expect(formatTimeRange(T, T + 3_600_000, elsewhere, T, false)).toBe(range.replace(` ${zone}`, ''));
    expect(formatWhen(T, here, T)).toBe(formatTime(T, here));
    expect(formatWhen(T + 2 * 86_400_000, here, T)).not.toBe(formatTime(T + 2 * 86_400_000, here));
  });

  it('shows every time on a 24-hour clock, whatever the locale prefers', async () => {
    // 13:05 UTC is afternoon in every zone used here: a 12-hour clock would say 01:05 PM (or 04:05 PM)
    const afternoon = Date.UTC(2030, 5, 3, 13, 5);
    const original = Intl.DateTimeFormat;
    // the user's locale is US English, whose own clock has 12 hours; a fresh module, so no formatter is cached yet
    const us = new Proxy(original, { construct: (target, [, options]) => new target('en-US', options) });
    Object.defineProperty(Intl, 'DateTimeFormat', { value: us, configurable: true, writable: true });
    vi.resetModules();
    try {
      const f = await import('../../src/ui/lib/timeFormat.js');
      expect(f.formatTime(afternoon, 'UTC')).toMatch(/^13:05(?: \S+)?$/);
      expect(f.formatTime(afternoon, 'Europe/Helsinki')).toMatch(/^16:05(?: \S+)?$/);
      expect(f.formatTimeRange(afternoon, afternoon + 3_600_000, 'UTC', afternoon)).toMatch(/^13:05\s?–\s?14:05(?: \S+)?$/);
      expect(f.formatDateTime(afternoon, 'UTC')).toMatch(/13:05/);
      expect(f.formatWhen(afternoon + 86_400_000, 'UTC', afternoon)).toMatch(/^Tue 13:05(?: \S+)?$/);
      for (const text of [f.formatTime(afternoon, 'UTC'), f.formatDateTime(afternoon, 'UTC'), f.formatTimeRange(afternoon, afternoon + 60_000, 'UTC', afternoon)]) {
        expect(text).not.toMatch(/AM|PM|\b0?1:05/);
      }
    } finally {
      Object.defineProperty(Intl, 'DateTimeFormat', { value: original, configurable: true, writable: true });
    }
  });

  it('writes a meeting over midnight as its start and its end with the day it ends on (the popup keeps its size)', () => {
    // 23:00 to 00:30 in Los Angeles, seen that evening, and the day before
    const start = Date.UTC(2026, 10, 25, 7, 0);
    const end = start + 90 * 60_000;
    const range = formatTimeRange(start, end, 'America/Los_Angeles', start);
    expect(range).toMatch(/^23:00 – Wed, 00:30(?: \S+)?$/);
    expect(range).not.toMatch(/2026|11\/2/);
    expect(formatTimeRange(start, end, 'America/Los_Angeles', start - 86_400_000)).toMatch(/^Tue, 23:00 – Wed, 00:30(?: \S+)?$/);
    // the zone once, at the end, when it is not the browser's
    if (zoneDiffers('America/Los_Angeles', start)) expect(range.match(/PST|GMT-8/g)?.length).toBe(1);
    // further away: dates, not weekdays
    expect(formatTimeRange(start, end, 'America/Los_Angeles', start - 30 * 86_400_000)).toMatch(/^Nov 24, 23:00 – Nov 25, 00:30(?: \S+)?$/);
  });

  it('ends a span to the end of its day at 24:00 of that day, not with both dates in full', () => {
    // 12:37 to the next midnight in Helsinki (UTC+3 in June): the rest of the day
    const start = Date.UTC(2030, 5, 3, 9, 37);
    const midnight = Date.UTC(2030, 5, 3, 21, 0);
    const range = formatTimeRange(start, midnight, 'Europe/Helsinki', start);
    expect(range).toMatch(/^12:37\s?–\s?24:00(?: \S+)?$/);
    // a span that goes on into the next day says that day, as a "next" time does, never both dates in full
    expect(formatTimeRange(start, midnight + 3_600_000, 'Europe/Helsinki', start)).not.toMatch(/24:00/);
    expect(formatTimeRange(start, midnight + 3_600_000, 'Europe/Helsinki', start)).toMatch(/^12:37 – Tue, 01:00(?: \S+)?$/);
    expect(formatTimeRange(start, midnight - 60_000, 'Europe/Helsinki', start)).toMatch(/^12:37\s?–\s?23:59(?: \S+)?$/);
    // "booked until": the end of the day is 24:00; any other end its own time
    expect(formatEndTime(midnight, 'Europe/Helsinki')).toMatch(/^24:00(?: \S+)?$/);
    expect(formatEndTime(midnight + 60_000, 'Europe/Helsinki')).toMatch(/^00:01(?: \S+)?$/);
    expect(formatEndTime(start, 'Europe/Helsinki')).toBe(formatTime(start, 'Europe/Helsinki'));
  });

  it('gives the playback bar the same time with its zone apart', () => {
    expect(formatTimeParts(T, here)).toEqual({ time: formatTime(T, here), zone: null });
    const { time, zone } = formatTimeParts(T, elsewhere);
    expect(zone).not.toBeNull();
    expect(formatTime(T, elsewhere)).toBe(`${time} ${zone}`);
    expect(time).toMatch(/^\d\d:\d\d$/);
  });
});
