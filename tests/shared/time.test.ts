import { describe, expect, it } from 'vitest';
import {
  endOfLocalDay, formatLocalTime, isSameLocalDay, localDateKey, localTimeToEpoch, safeTimeZone, timeZoneOffset,
} from '../../src/shared/time.js';

const utc = (iso: string) => Date.parse(iso);

describe('time', () => {
  describe('timeZoneOffset', () => {
    it('knows Helsinki winter and summer offsets', () => {
      expect(timeZoneOffset(utc('2024-01-15T12:00:00Z'), 'Europe/Helsinki')).toBe(2 * 3600_000);
      expect(timeZoneOffset(utc('2024-07-15T12:00:00Z'), 'Europe/Helsinki')).toBe(3 * 3600_000);
    });
  });

  describe('endOfLocalDay', () => {
    it('is the next local midnight', () => {
      expect(endOfLocalDay(utc('2024-01-15T21:30:00Z'), 'Europe/Helsinki')).toBe(utc('2024-01-15T22:00:00Z'));
      expect(endOfLocalDay(utc('2024-01-15T22:00:00Z'), 'Europe/Helsinki')).toBe(utc('2024-01-16T22:00:00Z'));
    });

    it('handles a 23-hour day when New York springs forward', () => {
      expect(endOfLocalDay(utc('2024-03-10T12:00:00Z'), 'America/New_York')).toBe(utc('2024-03-11T04:00:00Z'));
      expect(endOfLocalDay(utc('2024-03-10T06:00:00Z'), 'America/New_York')).toBe(utc('2024-03-11T04:00:00Z'));
    });

    it('handles a 25-hour day when Helsinki falls back', () => {
      expect(endOfLocalDay(utc('2024-10-27T12:00:00Z'), 'Europe/Helsinki')).toBe(utc('2024-10-27T22:00:00Z'));
    });
  });

  describe('local dates', () => {
    it('compares days in the zone, not in UTC', () => {
      expect(localDateKey(utc('2024-01-15T22:30:00Z'), 'Europe/Helsinki')).toBe('2024-01-16');
      expect(isSameLocalDay(utc('2024-01-15T21:30:00Z'), utc('2024-01-15T22:30:00Z'), 'Europe/Helsinki')).toBe(false);
      expect(isSameLocalDay(utc('2024-01-15T21:30:00Z'), utc('2024-01-15T22:30:00Z'), 'UTC')).toBe(true);
    });

    it('formats times on a 24-hour clock, midnight as 00', () => {
      expect(formatLocalTime(utc('2024-01-15T22:05:00Z'), 'Europe/Helsinki')).toBe('00:05');
      expect(formatLocalTime(utc('2024-01-15T17:30:00Z'), 'America/New_York')).toBe('12:30');
    });

    it('turns local wall time into an instant', () => {
      expect(localTimeToEpoch(2024, 7, 1, 9, 0, 'Europe/Helsinki')).toBe(utc('2024-07-01T06:00:00Z'));
    });

    it('falls back to UTC for unknown zones', () => {
      expect(safeTimeZone('Mars/Olympus')).toBe('UTC');
      expect(safeTimeZone('')).toBe('UTC');
      expect(safeTimeZone('Europe/Helsinki')).toBe('Europe/Helsinki');
    });
  });
});
