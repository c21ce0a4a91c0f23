// WGS84 ↔ local metres around the location's latitude/longitude (spec §3), and
// the geometry derived from shape outlines. An equirectangular projection is
// exact enough for a site a few kilometres wide and is trivially invertible.

import { EARTH_RADIUS_M } from './constants.js';
import type { ShapeGeometry, Vec2, Vec3 } from './types.js';

export interface GeoOrigin {
  latitude: number;
  longitude: number;
}

const DEG = Math.PI / 180;

/**
 * `[longitude, latitude, altitude?]` (GeoJSON order, so x follows east and y
 * follows north) → local `[x, y, z]` metres from the origin.
 */
export function wgs84ToLocal(point: readonly number[], origin: GeoOrigin): Vec3 {
  const [lon = 0, lat = 0, alt = 0] = point;
  const x = (lon - origin.longitude) * DEG * EARTH_RADIUS_M * Math.cos(origin.latitude * DEG);
  const y = (lat - origin.latitude) * DEG * EARTH_RADIUS_M;
  return [x, y, alt];
}

/** Local `[x, y, z?]` metres → `[longitude, latitude, altitude]`. */
export function localToWgs84(point: readonly number[], origin: GeoOrigin): Vec3 {
  const [x = 0, y = 0, z = 0] = point;
  const lat = origin.latitude + y / EARTH_RADIUS_M / DEG;
  const lon = origin.longitude + x / (EARTH_RADIUS_M * Math.cos(origin.latitude * DEG)) / DEG;
  return [lon, lat, z];
}

export function wgs84OutlineToLocal(outline: readonly (readonly number[])[], origin: GeoOrigin): Vec2[] {
  return outline.map((p) => {
    const [x, y] = wgs84ToLocal(p, origin);
    return [x, y];
  });
}

export function localOutlineToWgs84(outline: readonly (readonly number[])[], origin: GeoOrigin): Vec2[] {
  return outline.map((p) => {
    const [lon, lat] = localToWgs84(p, origin);
    return [lon, lat];
  });
}

/** Great-circle distance in metres between two `[longitude, latitude]` points (haversine). */
export function wgs84Distance(a: readonly number[], b: readonly number[]): number {
  const [lon1 = 0, lat1 = 0] = a;
  const [lon2 = 0, lat2 = 0] = b;
  const dLat = (lat2 - lat1) * DEG;
  const dLon = (lon2 - lon1) * DEG;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * DEG) * Math.cos(lat2 * DEG) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Signed shoelace area: positive for counter-clockwise outlines. */
function signedArea(outline: readonly Vec2[]): number {
  let sum = 0;
  for (let i = 0, j = outline.length - 1; i < outline.length; j = i++) {
    const [xi, yi] = outline[i]!;
    const [xj, yj] = outline[j]!;
    sum += xj * yi - xi * yj;
  }
  return sum / 2;
}

/**
 * Derived geometry of a shape asset: `center` is the area centroid (the
 * bounding-box centre for degenerate outlines), `width`/`depth` the extents
 * along x/y, `area` the polygon area and `size` its characteristic length
 * √area, which label and icon scaling use. Null for fewer than 3 points.
 */
export function shapeGeometry(outline: readonly Vec2[]): ShapeGeometry | null {
  if (outline.length < 3) return null;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x, y] of outline) {
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  const a = signedArea(outline);
  let center: Vec2 = [(minX + maxX) / 2, (minY + maxY) / 2];
  if (Math.abs(a) > 1e-12) {
    let cx = 0;
    let cy = 0;
    for (let i = 0, j = outline.length - 1; i < outline.length; j = i++) {
      const [xi, yi] = outline[i]!;
      const [xj, yj] = outline[j]!;
      const cross = xj * yi - xi * yj;
      cx += (xj + xi) * cross;
      cy += (yj + yi) * cross;
    }
    center = [cx / (6 * a), cy / (6 * a)];
  }
  const area = Math.abs(a);
  return { center, width: maxX - minX, depth: maxY - minY, area, size: Math.sqrt(area) };
}

/** Even-odd ray casting; points exactly on an edge may fall either way. */
export function pointInPolygon(point: readonly [number, number], polygon: ReadonlyArray<readonly [number, number]>): boolean {
  const [px, py] = point;
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
