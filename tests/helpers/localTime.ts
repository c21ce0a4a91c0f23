// Tests that run against the wall clock (the real server, real Chromium) must
// pass at any hour: a location whose day ends or turns mid-test changes what
// the product rightly shows. These pick a zone where it is now mid-day.

import type { TestServer } from './server.js';

const HOUR_MS = 3_600_000;

/** The fixed-offset IANA zone `hours` east of UTC: `Etc/GMT-3` is UTC+3, the Etc names count the other way round. */
export function fixedOffsetZone(hours: number): string {
  if (!Number.isInteger(hours) || hours < -12 || hours > 14) throw new Error(`no Etc/GMT zone is ${hours} h from UTC`);
  return `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`;
}

/** Hours east of UTC where it is 12:xx at `now`: -11 … +12. */
function middayOffset(now: number): number {
  return 12 - (Math.floor(now / HOUR_MS) % 24);
}

/**
 * A fixed-offset zone where the local time at `now` is between 12:00 and
 * 13:00, so the local day is at least 11 hours from turning either way.
 */
export function middayZone(now: number = Date.now()): string {
  return fixedOffsetZone(middayOffset(now));
}

/** A zone six hours from middayZone(now), for a browser that must sit in another zone than the location, its day not turning either. */
export function awayFromMiddayZone(now: number = Date.now()): string {
  const offset = middayOffset(now);
  return fixedOffsetZone(offset > 0 ? offset - 6 : offset + 6);
}

/** Moves a location of the test server to `middayZone()`, before any client loads it; returns the zone. */
export function setLocationToMidday(server: TestServer, locationId: string, now: number = Date.now()): string {
  const timezone = middayZone(now);
  server.server.store.updateLocation(locationId, { timezone });
  return timezone;
}
