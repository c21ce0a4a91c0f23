// One page of GET …/measurements/{type} (spec §7, docs/protocol.md §4): the
// generated past of the location (seed/history.ts) merged with the stored
// live and ingested rows, in (time, sensor id) order, at most `limit` rows
// unless one timestamp needs more, plus each sensor's reading still valid at
// `start` unless ignore_previous_validity. Cost follows the page, not the history.

import {
  MEASUREMENT_BASE_COLUMNS, MEASUREMENT_EXTRA_COLUMNS, type MeasurementsResponse, type WireMeasurementValue,
} from '../../src/shared/rest.js';
import type { Id } from '../../src/shared/types.js';
import type { Store } from './store.js';

export interface PageQuery {
  start: number;
  end: number;
  limit: number;
  sensorIds: readonly Id[] | null;
  ignorePreviousValidity: boolean;
}

type WireRow = unknown[];

/** first index whose time is ≥ t */
function lowerBound(rows: readonly WireMeasurementValue[], t: number): number {
  let lo = 0; let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid]!.time < t) lo = mid + 1; else hi = mid;
  }
  return lo;
}

const timeOf = (row: WireRow) => row[0] as number;
const idOf = (row: WireRow) => Number(row[1]);
const order = (a: WireRow, b: WireRow) => timeOf(a) - timeOf(b) || idOf(a) - idOf(b);

/** valid_to, else time + valid_for; a reading without either stays valid until the next one */
function validTo(row: WireRow, value?: WireMeasurementValue): number {
  if (value?.valid_to !== undefined && value.valid_to !== null) return value.valid_to;
  const validFor = row[2];
  return typeof validFor === 'number' ? timeOf(row) + validFor : Infinity;
}

export function pageMeasurements(store: Store, locationId: Id, type: string, q: PageQuery): MeasurementsResponse {
  // own properties only: a type named like a member of Object.prototype is no table entry
  const extra = Object.hasOwn(MEASUREMENT_EXTRA_COLUMNS, type) ? MEASUREMENT_EXTRA_COLUMNS[type]! : [];
  const columns = [...MEASUREMENT_BASE_COLUMNS, ...extra];
  const toWire = (sensorId: Id, v: WireMeasurementValue): WireRow => {
    const rec = v as unknown as Record<string, unknown>;
    return [v.time, sensorId, v.valid_for ?? null, v.value ?? null, v.battery_level ?? null, ...extra.map((c) => rec[c] ?? null)];
  };
  const wanted = q.sensorIds ? new Set(q.sensorIds) : null;
  const history = store.histories.get(locationId);
  const generated = history ? history.collect(type, q.start, q.end, wanted, q.limit) : [];

  const stored: WireRow[] = [];
  const previous = new Map<Id, { row: WireRow; validTo: number }>();
  for (const s of store.sensors.values()) {
    if (s.location_id !== locationId || s.type !== type || (wanted && !wanted.has(s.id))) continue;
    const rows = store.history.get(s.id);
    if (!rows || rows.length === 0) continue;
    const from = lowerBound(rows, q.start);
    let to = Math.min(lowerBound(rows, q.end), from + q.limit + 1);
    while (to < rows.length && to > from && rows[to]!.time === rows[to - 1]!.time && rows[to]!.time < q.end) to += 1;
    for (let i = from; i < to; i += 1) stored.push(toWire(s.id, rows[i]!));
    if (!q.ignorePreviousValidity && from > 0) {
      const row = toWire(s.id, rows[from - 1]!);
      previous.set(s.id, { row, validTo: validTo(row, rows[from - 1]) });
    }
  }
  if (!q.ignorePreviousValidity && history) {
    for (const row of history.previous(type, q.start, wanted)) {
      const id = row[1] as Id;
      const known = previous.get(id);
      if (!known || timeOf(known.row) < timeOf(row)) previous.set(id, { row, validTo: validTo(row) });
    }
  }
  stored.sort(order);

  // merge the two ordered lists; a stored row equal to a generated one (the seeded current value) is the same reading
  const found: WireRow[] = [...previous.values()].filter((p) => p.validTo > q.start).map((p) => p.row).sort(order);
  let g = 0; let s = 0;
  while (g < generated.length || s < stored.length) {
    const a = generated[g]; const b = stored[s];
    if (b === undefined || (a !== undefined && order(a, b) < 0)) { found.push(a!); g += 1; }
    else if (a !== undefined && order(a, b) === 0) { found.push(a); g += 1; s += 1; }
    else { found.push(b); s += 1; }
  }

  let cut = Math.min(q.limit, found.length);
  if (cut < found.length) {
    // never split one timestamp across pages: the next page starts past the last time
    const lastTime = timeOf(found[cut - 1]!);
    if (timeOf(found[cut]!) === lastTime) {
      let back = cut;
      while (back > 0 && timeOf(found[back - 1]!) === lastTime) back -= 1;
      if (back > 0) cut = back;
      else while (cut < found.length && timeOf(found[cut]!) === lastTime) cut += 1;
    }
  }
  return { columns, rows: found.slice(0, cut), has_more_results: cut < found.length };
}
