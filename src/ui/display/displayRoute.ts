// The room display's address: /display/room/{roomId}?location={locationId},
// the query parsed with qs under the spec's limits (§9: depth 5, array limit
// 20, parameter limit 1000) like every query string of the app.

import { parseQuery } from '../../shared/query.js';

export interface DisplayRoute {
  roomId: string;
  /** the location the room is in; without it the worker's default location */
  locationId: string | null;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const PATH = /^\/display\/room\/([^/]+)\/?$/;

/** The display route of a URL, or null when the path is not a display's. */
export function parseDisplayRoute(pathname: string, search: string): DisplayRoute | null {
  const match = PATH.exec(pathname);
  if (!match) return null;
  let roomId: string;
  try {
    roomId = decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
  if (!ID.test(roomId)) return null;
  const query = parseQuery(search);
  const location = typeof query.location === 'string' && ID.test(query.location) ? query.location : null;
  return { roomId, locationId: location };
}

export function displayPath(route: DisplayRoute): string {
  return `/display/room/${encodeURIComponent(route.roomId)}${route.locationId ? `?location=${encodeURIComponent(route.locationId)}` : ''}`;
}
