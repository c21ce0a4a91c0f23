// Measurement history in pages of MEASUREMENT_PAGE_LIMIT rows (spec §7): the
// server never splits one timestamp across pages, so the next page starts one
// ms past the last row's time and ignores previous validity (docs/protocol.md §4).

import { MEASUREMENT_PAGE_LIMIT } from '../../shared/constants.js';
import type { LoadProgress } from '../../shared/api.js';
import type { MeasurementsQuery, MeasurementsResponse } from '../../shared/rest.js';
import type { Id } from '../../shared/types.js';

export interface MeasurementRange {
  start?: number;
  end?: number;
  sensorIds?: readonly Id[];
  /** for the first page only; later pages always ignore it */
  ignorePreviousValidity?: boolean;
  /** page size; default and maximum MEASUREMENT_PAGE_LIMIT */
  limit?: number;
}

export interface MeasurementPages extends MeasurementsResponse {
  pages: number;
}

/** A page that is not `{columns: string[], rows: unknown[][], has_more_results: boolean}`: the caller warns; nothing is half-read. */
export class MalformedPageError extends Error {
  constructor(type: string, reason: string) {
    super(`Malformed measurements page of ${type}: ${reason}`);
    this.name = 'MalformedPageError';
  }
}

function checkPage(page: unknown, type: string, columnCount: number | null): MeasurementsResponse {
  if (!page || typeof page !== 'object' || Array.isArray(page)) throw new MalformedPageError(type, 'not an object');
  const p = page as Partial<MeasurementsResponse>;
  if (!Array.isArray(p.columns) || !p.columns.every((c) => typeof c === 'string')) throw new MalformedPageError(type, 'columns are not a list of names');
  if (columnCount !== null && p.columns.length !== columnCount) throw new MalformedPageError(type, 'columns changed between pages');
  if (!Array.isArray(p.rows) || !p.rows.every((r) => Array.isArray(r) && r.length === p.columns!.length)) {
    throw new MalformedPageError(type, 'rows are not lists of one value per column');
  }
  if (p.has_more_results !== undefined && typeof p.has_more_results !== 'boolean') throw new MalformedPageError(type, 'has_more_results is not a boolean');
  return p as MeasurementsResponse;
}

export async function fetchAllMeasurements(
  fetchPage: (query: MeasurementsQuery) => Promise<MeasurementsResponse>,
  type: string,
  range: MeasurementRange,
  onProgress?: (progress: LoadProgress) => void,
): Promise<MeasurementPages> {
  const limit = Math.min(range.limit ?? MEASUREMENT_PAGE_LIMIT, MEASUREMENT_PAGE_LIMIT);
  let start = range.start;
  let ignorePrevious = range.ignorePreviousValidity;
  let columns: string[] = [];
  const rows: unknown[][] = [];
  let pages = 0;
  const what = `measurements:${type}`;
  for (;;) {
    const answer = await fetchPage({
      start,
      limit,
      end: range.end,
      sensor_id: range.sensorIds && range.sensorIds.length > 0 ? range.sensorIds : undefined,
      ignore_previous_validity: ignorePrevious,
    });
    const page = checkPage(answer, type, pages === 0 ? null : columns.length);
    pages += 1;
    if (pages === 1) columns = page.columns;
    for (const row of page.rows) rows.push(row);
    onProgress?.({ what, done: rows.length, total: page.has_more_results ? null : rows.length });
    if (!page.has_more_results || page.rows.length === 0) break;
    const timeIndex = page.columns.indexOf('time');
    const lastTime = Number(page.rows[page.rows.length - 1]![timeIndex < 0 ? 0 : timeIndex]);
    // a page whose last time does not advance would loop forever
    if (!Number.isFinite(lastTime) || (start !== undefined && lastTime + 1 <= start)) break;
    start = lastTime + 1;
    ignorePrevious = true;
  }
  return { columns, rows, has_more_results: false, pages };
}
