// Coordinates, angles, outlines and colours of wire objects (spec §3, §5):
// local or wgs84 input, malformed values repaired with a warning. Shared by
// the asset and floor normalizers.

import { wgs84OutlineToLocal, wgs84ToLocal } from '../geo.js';
import type { Rgb, Vec2, Vec3 } from '../types.js';
import { isRecord, toNumOrNull, toNumberTuple, type NormalizeContext, type Raw } from './primitives.js';
import { WARN } from './warnings.js';

const ZERO3: Vec3 = [0, 0, 0];

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function toVec3(value: unknown): Vec3 | null {
  const t = toNumberTuple(value, 2, 3);
  return t ? [t[0]!, t[1]!, t[2] ?? 0] : null;
}

/** A longitude and latitude on the earth: 1e308 would convert to infinite local coordinates. */
function onEarth(point: readonly number[]): boolean {
  return Math.abs(point[0]!) <= 180 && Math.abs(point[1]!) <= 90;
}

function toWgs84(value: unknown): Vec3 | null {
  const v = toVec3(value);
  return v && onEarth(v) ? v : null;
}

export interface NormalizedCoords {
  coords: Vec3;
  wgs84_coords: Vec3 | null;
}

/**
 * Local coordinates win when given (`coords`, else `x`/`y`/`z`); otherwise
 * `wgs84_coords` ([longitude, latitude, altitude]) are converted around the
 * context's location. Malformed vectors become 0 with a warning.
 */
export function normalizeCoords(r: Raw, kind: string, id: string, ctx: NormalizeContext): NormalizedCoords & { given: boolean } {
  let wgs84: Vec3 | null = null;
  if (present(r.wgs84_coords)) {
    wgs84 = toWgs84(r.wgs84_coords);
    if (!wgs84) ctx.logger.warn(WARN.malformedCoordinates(kind, id, 'wgs84_coords'), r.wgs84_coords);
  }
  if (present(r.coords)) {
    const local = toVec3(r.coords);
    if (local) return { coords: local, wgs84_coords: wgs84, given: true };
    ctx.logger.warn(WARN.malformedCoordinates(kind, id, 'coords'), r.coords);
    return { coords: [...ZERO3], wgs84_coords: wgs84, given: true };
  }
  if (wgs84) {
    if (ctx.location) return { coords: wgs84ToLocal(wgs84, ctx.location), wgs84_coords: wgs84, given: true };
    ctx.logger.warn(WARN.wgs84WithoutLocation(kind, id));
  }
  if (present(r.x) || present(r.y) || present(r.z)) {
    const out: Vec3 = [0, 0, 0];
    (['x', 'y', 'z'] as const).forEach((axis, i) => {
      if (!present(r[axis])) return;
      const n = toNumOrNull(r[axis]);
      if (n === null) ctx.logger.warn(WARN.malformedCoordinates(kind, id, axis), r[axis]);
      else out[i] = n;
    });
    return { coords: out, wgs84_coords: wgs84, given: true };
  }
  return { coords: [...ZERO3], wgs84_coords: wgs84, given: false };
}

/** Angles in degrees `[x, y, z]`; a single number is the rotation around z. */
export function normalizeAngles(r: Raw, kind: string, id: string, ctx: NormalizeContext): Vec3 {
  const value = r.angles;
  if (!present(value)) return [...ZERO3];
  const single = toNumOrNull(value);
  if (single !== null) return [0, 0, single];
  const v = toVec3(value);
  if (v) return v;
  ctx.logger.warn(WARN.malformedAngles(kind, id), value);
  return [...ZERO3];
}

function toPoint(value: unknown): Vec2 | null {
  const t = toNumberTuple(value, 2, 3);
  if (t) return [t[0]!, t[1]!];
  if (isRecord(value)) {
    const x = toNumOrNull(value.x);
    const y = toNumOrNull(value.y);
    if (x !== null && y !== null) return [x, y];
  }
  return null;
}

function toOutline(value: unknown): Vec2[] | null {
  if (!Array.isArray(value)) return null;
  const out: Vec2[] = [];
  for (const item of value) {
    const p = toPoint(item);
    if (!p) return null;
    out.push(p);
  }
  return out;
}

export interface NormalizedOutline {
  outline: Vec2[] | null;
  wgs84_outline: Vec2[] | null;
}

/**
 * Local `outline`, else `wgs84_outline` converted around the location. A
 * malformed outline is dropped (null) with a warning: a half-read polygon
 * would draw the wrong room.
 */
export function normalizeOutline(r: Raw, kind: string, id: string, ctx: NormalizeContext): NormalizedOutline {
  let wgs84: Vec2[] | null = null;
  if (present(r.wgs84_outline)) {
    wgs84 = toOutline(r.wgs84_outline);
    if (wgs84 && !wgs84.every(onEarth)) wgs84 = null;
    if (!wgs84) ctx.logger.warn(WARN.malformedOutline(kind, id, 'wgs84_outline'), r.wgs84_outline);
  }
  if (present(r.outline)) {
    const local = toOutline(r.outline);
    if (local) return { outline: local, wgs84_outline: wgs84 };
    ctx.logger.warn(WARN.malformedOutline(kind, id, 'outline'), r.outline);
    return { outline: null, wgs84_outline: wgs84 };
  }
  if (wgs84) {
    if (ctx.location) return { outline: wgs84OutlineToLocal(wgs84, ctx.location), wgs84_outline: wgs84 };
    ctx.logger.warn(WARN.wgs84WithoutLocation(kind, id));
  }
  return { outline: null, wgs84_outline: wgs84 };
}

/** A colour triple; anything present that is not an array of 3-4 numbers becomes null with a warning. */
export function normalizeColor(r: Raw, field: string, kind: string, id: string, ctx: NormalizeContext): Rgb | null {
  const value = r[field];
  if (!present(value)) return null;
  const t = toNumberTuple(value, 3, 4);
  if (t) return [t[0]!, t[1]!, t[2]!];
  ctx.logger.warn(WARN.malformedColor(kind, id, field), value);
  return null;
}
