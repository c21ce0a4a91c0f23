// Times and dates as the viewer shows them: in the location's time zone (a
// meeting at 9 in Helsinki is at 9 wherever the viewer sits), on a 24-hour
// clock, in the user's locale for words and separators, through Intl, one
// format everywhere (popups, panels, the playback bar, the room display). The
// 24-hour clock is the one the engine's own words use (the §4 reservation text
// "Next: 11:30–12:00", report hours "09:00"), so no screen mixes two clocks.
// When the location's zone is not the browser's, the zone is named
// ("12:00 GMT+2"), once per time or range.

const formatters = new Map<string, Intl.DateTimeFormat>();

function browserZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return 'UTC';
  }
}

/** Whether times of this zone need the zone named next to them. */
export function zoneDiffers(timeZone: string | undefined, now = Date.now()): boolean {
  if (!timeZone) return false;
  const here = browserZone();
  if (timeZone === here) return false;
  // same rules under another name (UTC vs Etc/UTC) need no naming: compare the wall clock
  try {
    const a = formatter(timeZone, 'full', false).format(now);
    const b = formatter(here, 'full', false).format(now);
    return a !== b;
  } catch {
    return true;
  }
}

type Shape = 'time' | 'dateTime' | 'dateTimeYear' | 'date' | 'dateYear' | 'day' | 'full';

const SHAPES: Record<Shape, Intl.DateTimeFormatOptions> = {
  time: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  dateTime: { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  dateTimeYear: { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  date: { day: 'numeric', month: 'short' },
  dateYear: { day: 'numeric', month: 'short', year: 'numeric' },
  day: { weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  full: { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
};

function formatter(timeZone: string | undefined, shape: Shape, named: boolean): Intl.DateTimeFormat {
  const key = `${timeZone ?? ''}|${shape}|${named}`;
  let f = formatters.get(key);
  if (!f) {
    try {
      // the comparison shape is locale-fixed (en-CA: 2026-11-23, 12:00): it is compared, never shown
      f = new Intl.DateTimeFormat(shape === 'full' ? 'en-CA' : undefined, { ...SHAPES[shape], timeZone, ...(named ? { timeZoneName: 'short' } : {}) });
    } catch {
      // a zone Intl does not know: the browser's own, named as such
      f = new Intl.DateTimeFormat(undefined, { ...SHAPES[shape], ...(named ? { timeZoneName: 'short' } : {}) });
    }
    formatters.set(key, f);
  }
  return f;
}

function localDay(ms: number, timeZone: string | undefined): string {
  return formatter(timeZone, 'full', false).format(ms).slice(0, 10);
}

/** A clock time, e.g. "12:00" (or "12:00 GMT+2" when the zone is not the browser's). */
export function formatTime(ms: number, timeZone?: string): string {
  return formatter(timeZone, 'time', zoneDiffers(timeZone, ms)).format(ms);
}

/** A time that ends something: midnight is the day's 24:00 ("booked until 24:00"), not the next day's 00:00. */
export function formatEndTime(ms: number, timeZone?: string): string {
  if (localDay(ms - 1, timeZone) === localDay(ms, timeZone)) return formatTime(ms, timeZone);
  try {
    return formatter(timeZone, 'time', zoneDiffers(timeZone, ms)).formatToParts(ms - 60_000)
      .map((p) => (p.type === 'hour' ? '24' : p.type === 'minute' ? '00' : p.value))
      .join('');
  } catch {
    return formatTime(ms, timeZone);
  }
}

/**
 * The same time as `formatTime`, its zone apart ("12:00" and "GMT+2", or null
 * when the zone is the browser's): for a readout that changes every moment
 * (the playback bar), which names its zone once beside it.
 */
export function formatTimeParts(ms: number, timeZone?: string): { time: string; zone: string | null } {
  if (!zoneDiffers(timeZone, ms)) return { time: formatTime(ms, timeZone), zone: null };
  const { text, zone } = zoneApart(ms, timeZone, 'time', true);
  return { time: text, zone };
}

/**
 * A time in `shape` with its zone (when `named`) taken out, with the separator that joined it
 * (the one before it, or after it when the zone comes first): formatTimeParts, and a range's start.
 */
function zoneApart(ms: number, timeZone: string | undefined, shape: Shape, named: boolean): { text: string; zone: string | null } {
  const parts = formatter(timeZone, shape, named).formatToParts(ms);
  const at = parts.findIndex((p) => p.type === 'timeZoneName');
  if (at < 0) return { text: parts.map((p) => p.value).join('').trim(), zone: null };
  const joint = at > 0 ? at - 1 : at + 1;
  const text = parts.filter((p, i) => i !== at && !(i === joint && p.type === 'literal')).map((p) => p.value).join('').trim();
  return { text, zone: parts[at]!.value };
}

/** Whether a date of this local year goes without its year: the year of now, where the location is. */
function thisYear(ms: number, timeZone: string | undefined, now: number): boolean {
  return localDay(ms, timeZone).slice(0, 4) === localDay(now, timeZone).slice(0, 4);
}

/** The day-and-time shape: with the year only for a date of another year ("Dec 30, 2025, 12:00"). */
function dateTimeShape(ms: number, timeZone: string | undefined, now: number): Shape {
  return thisYear(ms, timeZone, now) ? 'dateTime' : 'dateTimeYear';
}

/** A date and time, e.g. "Nov 23, 12:00" (US English), with the year when it is not this year's. */
export function formatDateTime(ms: number, timeZone?: string, now = Date.now()): string {
  return formatter(timeZone, dateTimeShape(ms, timeZone, now), zoneDiffers(timeZone, ms)).format(ms);
}

/**
 * A local day of the location (a `YYYY-MM-DD` key, as the playback's day) in the words of
 * `formatDateTime`'s date: "Nov 23", or "Dec 30, 2025" for a day of another year than now's
 * where the location is. A key that is not a date is shown as it came.
 */
export function formatDay(dayKey: string, timeZone?: string, now = Date.now()): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dayKey);
  if (!m) return dayKey;
  // the calendar day itself, whatever the zone: noon UTC of that date, written in UTC
  const at = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12);
  if (Number.isNaN(at)) return dayKey;
  const shape: Shape = m[1] === localDay(now, timeZone).slice(0, 4) ? 'date' : 'dateYear';
  return formatter('UTC', shape, false).format(at);
}

/** A time today, else with its weekday (within the week) or date: for "since" and "next" times. */
export function formatWhen(ms: number, timeZone?: string, now = Date.now()): string {
  if (localDay(ms, timeZone) === localDay(now, timeZone)) return formatTime(ms, timeZone);
  const shape: Shape = Math.abs(ms - now) < 6 * 86_400_000 ? 'day' : dateTimeShape(ms, timeZone, now);
  return formatter(timeZone, shape, zoneDiffers(timeZone, ms)).format(ms);
}

/**
 * A span, e.g. "12:00–13:00", the zone named once; with the date when it is not today. `nameZone`
 * false leaves the zone out where the screen names it once already (the room display's clock).
 */
export function formatTimeRange(start: number, end: number, timeZone?: string, now = Date.now(), nameZone = true): string {
  const today = localDay(start, timeZone) === localDay(now, timeZone);
  const shape: Shape = today ? 'time' : Math.abs(start - now) < 6 * 86_400_000 ? 'day' : dateTimeShape(start, timeZone, now);
  const f = formatter(timeZone, shape, nameZone && zoneDiffers(timeZone, start));
  const [from, to] = [Math.min(start, end), Math.max(start, end)];
  try {
    // a span to the end of its day ("the rest of the day") ends at 24:00 of that day, not at the next
    // day's 00:00, which made Intl write both dates in full
    if (to > from && localDay(to - 1, timeZone) === localDay(from, timeZone) && localDay(to, timeZone) !== localDay(from, timeZone)) {
      return f.formatRangeToParts(from, to - 60_000)
        .map((p) => (p.source === 'endRange' && p.type === 'hour' ? '24' : p.source === 'endRange' && p.type === 'minute' ? '00' : p.value))
        .join('');
    }
    // a span into another day: Intl writes both dates in full ("11/24/2026, 23:00 – 11/25/2026, 00:30"), or
    // its day numbers beside the weekdays; the end says its day as formatWhen would ("23:00 – Wed, 00:30")
    if (localDay(to, timeZone) !== localDay(from, timeZone)) {
      const endShape: Shape = shape === 'time' ? 'day' : shape;
      const named = nameZone && zoneDiffers(timeZone, to);
      // the start as the end is written, less the zone (ICU writes "Tue 23:00" but "Tue, 23:00 PST")
      return `${zoneApart(from, timeZone, shape, named).text} – ${formatter(timeZone, endShape, named).format(to)}`;
    }
    return f.formatRange(from, to);
  } catch {
    return `${f.format(start)}–${f.format(end)}`;
  }
}
