// Tests that run against the wall clock (the real server, real Chromium) must
// pass at any hour: a location whose day ends or turns mid-test changes what
// the product rightly shows. These pick a zone where it is now mid-day.

import type { TestServer } from './server.js';

const HOUR_MS = 3_600_000;

/**
 * A fixed-offset IANA zone where the local time at `now` is between 12:00 and
 * 13:00, so the local day is at least 11 hours from turning either way.
 * `Etc/GMT-3` is UTC+3: the Etc names count the other way round.
 */
export function middayZone(now: number = Date.now()): string {
  const utcHour = Math.floor(now / HOUR_MS) % 24;
  const offset = 12 - utcHour; // -11 … +12, all of which Etc/GMT names exist for
  return `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

/** Moves a location of the test server to `middayZone()`, before any client loads it; returns the zone. */
export function setLocationToMidday(server: TestServer, locationId: string, now: number = Date.now()): string {
  const timezone = middayZone(now);
  server.server.store.updateLocation(locationId, { timezone });
  return timezone;
}
