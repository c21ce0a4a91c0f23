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
    const page = await fetchPage({
      start,
      limit,
      end: range.end,
      sensor_id: range.sensorIds && range.sensorIds.length > 0 ? range.sensorIds : undefined,
      ignore_previous_validity: ignorePrevious,
    });
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
