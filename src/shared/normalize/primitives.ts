// Coercion helpers shared by every normalizer. Wire JSON is loose (numbers as
// strings, ids as numbers, ISO dates); these read it without ever throwing and
// leave the reporting of problems to the caller's injected logger.

import type { GeoOrigin } from '../geo.js';
import type { Config, Id } from '../types.js';

/** The one thing normalizers need from a logger. */
export interface WarnLogger {
  warn(message: string, ...details: unknown[]): void;
}

export interface NormalizeContext {
  logger: WarnLogger;
  /** the location whose latitude/longitude wgs84 coordinates are converted around */
  location?: GeoOrigin | null;
  /** index of a building in its location's ordered list (location_offset default) */
  buildingIndex?: number;
  /** index of a floor in its building's ordered list (building_relative_index default) */
  floorIndex?: number;
}

export type Raw = Record<string, unknown>;

export function isRecord(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Ids arrive as strings or numbers; both become non-empty strings. */
export function toId(value: unknown): Id | null {
  if (typeof value === 'string') return value.length > 0 ? value : null;
  if (isFiniteNumber(value)) return String(value);
  return null;
}

export function toIdList(value: unknown): Id[] {
  if (!Array.isArray(value)) return [];
  const out: Id[] = [];
  for (const item of value) {
    const id = toId(item);
    if (id !== null) out.push(id);
  }
  return out;
}

export function toStr(value: unknown, fallback = ''): string {
  if (typeof value === 'string') return value;
  if (isFiniteNumber(value)) return String(value);
  return fallback;
}

export function toStrOrNull(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (isFiniteNumber(value)) return String(value);
  return null;
}

export function toStrList(value: unknown): string[] {
  if (typeof value === 'string') return value.length > 0 ? [value] : [];
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is string => typeof item === 'string');
}

/** Numbers may come as numeric strings; anything else is `null`. */
export function toNumOrNull(value: unknown): number | null {
  if (isFiniteNumber(value)) return value;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    if (Number.isFinite(n)) return n;
  }
  return null;
}

export function toNum(value: unknown, fallback: number): number {
  return toNumOrNull(value) ?? fallback;
}

/** A positive size, or the fallback (0 and negatives are not sizes). */
export function toPositive(value: unknown, fallback: number): number {
  const n = toNumOrNull(value);
  return n !== null && n > 0 ? n : fallback;
}

export function toIntOrNull(value: unknown): number | null {
  const n = toNumOrNull(value);
  return n !== null && Number.isInteger(n) ? n : null;
}

export function toBool(value: unknown, fallback = false): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 'true') return true;
  if (value === 0 || value === 'false') return false;
  return fallback;
}

/** Epoch milliseconds from a number, a numeric string or an ISO-8601 string. */
export function toTime(value: unknown): number | null {
  const n = toNumOrNull(value);
  if (n !== null) return n;
  if (typeof value === 'string') {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? null : parsed;
  }
  return null;
}

export function toConfig(value: unknown): Config {
  return isRecord(value) ? { ...value } : {};
}

/** `[a, b]` or `[a, b, c]` of finite numbers (numeric strings accepted), else null. */
export function toNumberTuple(value: unknown, minLength: number, maxLength: number): number[] | null {
  if (!Array.isArray(value) || value.length < minLength || value.length > maxLength) return null;
  const out: number[] = [];
  for (const item of value) {
    const n = toNumOrNull(item);
    if (n === null) return null;
    out.push(n);
  }
  return out;
}
