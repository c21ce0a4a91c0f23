// Local-day arithmetic for a named timezone with Intl only (no tz database
// package): bookings and working hours follow each location's own day.

/** ms offset of `timezone` from UTC at `time` (positive east of Greenwich). */
export function timezoneOffsetMs(time: number, timezone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: timezone, hourCycle: 'h23',
    year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
  }).formatToParts(new Date(time));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(time / 1000) * 1000;
}

/** ms epoch of local midnight of the day containing `time` in `timezone`. */
export function localDayStart(time: number, timezone: string): number {
  const offset = timezoneOffsetMs(time, timezone);
  const local = time + offset;
  const midnightLocal = local - (((local % 86_400_000) + 86_400_000) % 86_400_000);
  return midnightLocal - timezoneOffsetMs(midnightLocal - offset, timezone);
}

/** local hour (fractional) of `time` in `timezone` */
export function localHour(time: number, timezone: string): number {
  return (time - localDayStart(time, timezone)) / 3_600_000;
}
