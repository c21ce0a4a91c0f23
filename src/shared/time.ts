// Local calendar arithmetic in a location's IANA time zone through
// Intl.DateTimeFormat, so rules agree with the site's wall clock (midnight,
// working hours) whatever zone the browser or server runs in.

export interface LocalParts {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone if Intl knows it, else 'UTC', so bad wire data cannot make a rule throw. */
export function safeTimeZone(timeZone: string | null | undefined): string {
  if (!timeZone) return 'UTC';
  try {
    formatter(timeZone);
    return timeZone;
  } catch {
    return 'UTC';
  }
}

export function localParts(epochMs: number, timeZone: string): LocalParts {
  const out: Record<string, number> = {};
  for (const part of formatter(safeTimeZone(timeZone)).formatToParts(new Date(epochMs))) {
    if (part.type !== 'literal') out[part.type] = Number(part.value);
  }
  return {
    year: out.year!,
    month: out.month!,
    day: out.day!,
    hour: out.hour! % 24,
    minute: out.minute!,
    second: out.second!,
  };
}

/** Offset of local wall time from UTC at an instant, in ms (Helsinki summer: +3 h). */
export function timeZoneOffset(epochMs: number, timeZone: string): number {
  const p = localParts(epochMs, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - (epochMs - (((epochMs % 1000) + 1000) % 1000));
}

/** Epoch of a local wall-clock time (day may overflow: day 32 is next month). */
export function localTimeToEpoch(year: number, month: number, day: number, hour: number, minute: number, timeZone: string): number {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  let epoch = wall - timeZoneOffset(wall, timeZone);
  const offset = timeZoneOffset(epoch, timeZone);
  epoch = wall - offset;
  return epoch;
}

/** 'YYYY-MM-DD' of an instant in the zone. */
export function localDateKey(epochMs: number, timeZone: string): string {
  const p = localParts(epochMs, timeZone);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

export function isSameLocalDay(a: number, b: number, timeZone: string): boolean {
  return localDateKey(a, timeZone) === localDateKey(b, timeZone);
}

/** The next local midnight after `now` (the end of the local day). */
export function endOfLocalDay(now: number, timeZone: string): number {
  const p = localParts(now, timeZone);
  return localTimeToEpoch(p.year, p.month, p.day + 1, 0, 0, timeZone);
}

/** 'HH:MM' in the zone, 24-hour clock. */
export function formatLocalTime(epochMs: number, timeZone: string): string {
  const p = localParts(epochMs, timeZone);
  return `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
}

/** A local calendar day in a zone: [start, end) as epochs (start is local midnight). */
export interface LocalDay {
  start: number;
  end: number;
}

// Per-zone memo of the last local day asked for: derivations ask about "today"
// thousands of times per flush, and Intl formatting costs microseconds each.
const dayMemo = new Map<string, LocalDay>();

/**
 * The local day containing `epochMs`, computed through Intl once per zone and
 * day and then answered from a small memo (valid while `epochMs` is inside it).
 * Where a zone skips midnight (DST at 00:00) the bounds are the epochs of the
 * first wall-clock minute that exists, as localTimeToEpoch resolves them.
 */
export function localDayAt(epochMs: number, timeZone: string): LocalDay {
  const zone = safeTimeZone(timeZone);
  const hit = dayMemo.get(zone);
  if (hit && epochMs >= hit.start && epochMs < hit.end) return hit;
  const p = localParts(epochMs, zone);
  const day: LocalDay = {
    start: localTimeToEpoch(p.year, p.month, p.day, 0, 0, zone),
    end: localTimeToEpoch(p.year, p.month, p.day + 1, 0, 0, zone),
  };
  // only memoize bounds that really contain the instant, so a memo hit is always exact
  if (epochMs >= day.start && epochMs < day.end) dayMemo.set(zone, day);
  return day;
}

/** isSameLocalDay(a, now) through the day memo: an epoch comparison once today is known. */
export function isOnLocalDayOf(epochMs: number, now: number, timeZone: string): boolean {
  const day = localDayAt(now, timeZone);
  if (now >= day.start && now < day.end) return epochMs >= day.start && epochMs < day.end;
  return isSameLocalDay(epochMs, now, timeZone);
}

/** endOfLocalDay through the day memo. */
export function endOfLocalDayAt(now: number, timeZone: string): number {
  const day = localDayAt(now, timeZone);
  return now >= day.start && now < day.end ? day.end : endOfLocalDay(now, timeZone);
}
