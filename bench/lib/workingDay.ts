// The day the playback benches replay: the last working day (Monday to Friday)
// before today in the location's zone. The seed keeps weekends nearly empty
// (server/seed/historyModel.ts), so on a Sunday or a Monday "yesterday" would
// measure a day on which hardly a desk changes (docs/bench.md "Playback").

import { addDaysToKey, calendarDay, dateKeyOf } from '../../src/shared/reports/calendar.js';

/**
 * Local days of generated history a playback bench's seed needs for the last working day to be among
 * them: a Monday's is the Friday, three days back (the benches' other seeds generate yesterday only).
 */
export const WORKING_DAY_HISTORY_DAYS = 3;

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** The date key of the last working day before the day of `now` in `timeZone`. */
export function lastWorkingDay(now: number, timeZone: string): string {
  let day = addDaysToKey(dateKeyOf(now, timeZone), -1);
  while (calendarDay(day, timeZone).weekday > 5) day = addDaysToKey(day, -1);
  return day;
}

/** "Friday 2026-11-27, the last working day before Monday 2026-11-30 (Europe/Helsinki)": for a bench's notes. */
export function replayedDayNote(day: string, now: number, timeZone: string): string {
  const today = dateKeyOf(now, timeZone);
  const name = (key: string) => `${WEEKDAYS[calendarDay(key, timeZone).weekday - 1]} ${key}`;
  return `replayed ${name(day)}, the last working day before ${name(today)} (${timeZone})`;
}
