// Query strings through qs under the limits of spec §9 (depth 5, array limit
// 20, parameter limit 1000), so hostile URLs cannot build huge objects.
// Arrays are written as repeated keys (`sensor_id=1&sensor_id=2`, spec §7).

import qs from 'qs';
import { QS_ARRAY_LIMIT, QS_DEPTH, QS_PARAMETER_LIMIT } from './constants.js';

export const QUERY_PARSE_OPTIONS = {
  depth: QS_DEPTH,
  arrayLimit: QS_ARRAY_LIMIT,
  parameterLimit: QS_PARAMETER_LIMIT,
  ignoreQueryPrefix: true,
} as const;

export type ParsedQuery = Record<string, unknown>;

export function parseQuery(query: string): ParsedQuery {
  return qs.parse(query, QUERY_PARSE_OPTIONS) as ParsedQuery;
}

/** `key=value&…` without a leading '?'; undefined and null values are left out. */
export function stringifyQuery(params: Record<string, unknown>): string {
  return qs.stringify(params, { arrayFormat: 'repeat', skipNulls: true });
}

/** An application/x-www-form-urlencoded body (spaces as '+', RFC 1738), through qs like every query. */
export function stringifyForm(fields: Record<string, unknown>): string {
  return qs.stringify(fields, { arrayFormat: 'repeat', skipNulls: true, format: 'RFC1738' });
}

/**
 * A repeatable parameter as a list of strings. Past the array limit qs gives
 * an object keyed by index instead of an array; both read the same here.
 */
export function queryList(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  const items = Array.isArray(value)
    ? value
    : typeof value === 'object' && value !== null
      ? Object.entries(value).filter(([k]) => /^\d+$/.test(k)).sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v)
      : [];
  return items.filter((v): v is string => typeof v === 'string');
}
