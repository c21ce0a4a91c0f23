import { describe, expect, it } from 'vitest';
import {
  endOfLocalDay, endOfLocalDayAt, isOnLocalDayOf, isSameLocalDay, localDayAt,
} from '../../src/shared/time.js';

const utc = (iso: string) => Date.parse(iso);

describe('time (memoized local day)', () => {
  describe('localDayAt', () => {
    it('is the local day from midnight to the next midnight', () => {
      expect(localDayAt(utc('2024-01-15T12:00:00Z'), 'Europe/Helsinki'))
        .toEqual({ start: utc('2024-01-14T22:00:00Z'), end: utc('2024-01-15T22:00:00Z') });
    });

    it('spans 23 hours on the day New York springs forward and 25 when Helsinki falls back', () => {
      const ny = localDayAt(utc('2024-03-10T12:00:00Z'), 'America/New_York');
      expect(ny).toEqual({ start: utc('2024-03-10T05:00:00Z'), end: utc('2024-03-11T04:00:00Z') });
      const hki = localDayAt(utc('2024-10-27T12:00:00Z'), 'Europe/Helsinki');
      expect(hki.end - hki.start).toBe(25 * 3600_000);
    });

    it('moves on to the next day once an instant passes the memoized end', () => {
      const zone = 'Asia/Tokyo';
      const first = localDayAt(utc('2024-05-01T10:00:00Z'), zone);
      expect(localDayAt(utc('2024-05-01T14:59:59Z'), zone)).toBe(first);
      expect(localDayAt(utc('2024-05-01T15:00:00Z'), zone).start).toBe(utc('2024-05-01T15:00:00Z'));
      expect(localDayAt(utc('2024-04-30T14:00:00Z'), zone).start).toBe(utc('2024-04-29T15:00:00Z'));
    });

    it('keeps one day per zone, so zones do not overwrite each other', () => {
      const now = utc('2024-06-01T23:30:00Z');
      expect(localDayAt(now, 'UTC').start).toBe(utc('2024-06-01T00:00:00Z'));
      expect(localDayAt(now, 'Europe/Helsinki').start).toBe(utc('2024-06-01T21:00:00Z'));
      expect(localDayAt(now, 'UTC').start).toBe(utc('2024-06-01T00:00:00Z'));
    });

    it('falls back to UTC for unknown zones', () => {
      expect(localDayAt(utc('2024-06-01T12:00:00Z'), 'Not/AZone').start).toBe(utc('2024-06-01T00:00:00Z'));
    });
  });

  describe('isOnLocalDayOf', () => {
    it('agrees with isSameLocalDay across a day of instants, DST days included', () => {
      for (const [zone, dayIso] of [
        ['Europe/Helsinki', '2024-10-27'], ['America/New_York', '2024-03-10'], ['Australia/Lord_Howe', '2024-04-07'],
      ] as const) {
        const now = utc(`${dayIso}T12:00:00Z`);
        for (let h = -30; h <= 30; h += 0.5) {
          const t = now + h * 3600_000;
          expect(isOnLocalDayOf(t, now, zone)).toBe(isSameLocalDay(t, now, zone));
        }
      }
    });

    it('says a desk left yesterday evening is not on today', () => {
      expect(isOnLocalDayOf(utc('2024-01-15T21:59:00Z'), utc('2024-01-15T22:30:00Z'), 'Europe/Helsinki')).toBe(false);
      expect(isOnLocalDayOf(utc('2024-01-15T22:00:00Z'), utc('2024-01-15T22:30:00Z'), 'Europe/Helsinki')).toBe(true);
    });
  });

  describe('endOfLocalDayAt', () => {
    it('equals endOfLocalDay, also for instants on either side of a midnight', () => {
      for (const iso of ['2024-01-15T21:30:00Z', '2024-01-15T22:00:00Z', '2024-01-15T21:59:59.999Z', '2024-10-27T12:00:00Z']) {
        expect(endOfLocalDayAt(utc(iso), 'Europe/Helsinki')).toBe(endOfLocalDay(utc(iso), 'Europe/Helsinki'));
      }
    });
  });
});
