// Deep links (issue: location, floor, layers and a highlighted asset in the
// URL), parsed with qs under the spec's limits (§9: depth 5, array limit 20,
// parameter limit 1000), so a shared link opens the same view.

import qs from 'qs';
import { DEFAULT_LAYERS, MAP_LAYERS, type MapLayer } from '../../shared/constants.js';
import { parseQuery, QUERY_PARSE_OPTIONS } from '../../shared/query.js';

export interface DeepLink {
  location: string | null;
  floor: string | null;
  layers: MapLayer[];
  /** highlighted asset id */
  asset: string | null;
}

export const QS_PARSE_OPTIONS = QUERY_PARSE_OPTIONS;

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

function id(value: unknown): string | null {
  return typeof value === 'string' && ID_PATTERN.test(value) ? value : null;
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return value.split(',');
  if (Array.isArray(value)) return value.flatMap(strings);
  // qs turns arrays past the array limit into index-keyed objects
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** Reads a query string (with or without '?'); unknown or malformed parts fall back to defaults. */
export function parseDeepLink(search: string): DeepLink {
  const parsed = parseQuery(search);
  const known = new Set<string>(MAP_LAYERS);
  const layers = Object.prototype.hasOwnProperty.call(parsed, 'layers')
    ? [...new Set(strings(parsed.layers).map((s) => s.trim()).filter((s) => known.has(s)))] as MapLayer[]
    : [...DEFAULT_LAYERS];
  return { location: id(parsed.location), floor: id(parsed.floor), layers, asset: id(parsed.asset) };
}

/** Writes a query string (with '?', or '' when empty); layers in MAP_LAYERS order, comma-joined. */
export function formatDeepLink(link: DeepLink): string {
  const order = new Map<string, number>(MAP_LAYERS.map((l, i) => [l, i]));
  const layers = [...new Set(link.layers)].sort((a, b) => order.get(a)! - order.get(b)!);
  const text = qs.stringify(
    {
      location: link.location ?? undefined,
      floor: link.floor ?? undefined,
      layers: layers.join(','),
      asset: link.asset ?? undefined,
    },
    {
      encodeValuesOnly: true,
      skipNulls: true,
      // commas are safe in a query value and keep the layer list readable
      encoder: (str, defaultEncoder, charset, type) =>
        type === 'value' ? String(defaultEncoder(str, defaultEncoder, charset)).replace(/%2C/gi, ',') : defaultEncoder(str, defaultEncoder, charset),
    },
  );
  return text ? `?${text}` : '';
}
