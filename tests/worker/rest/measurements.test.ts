import { describe, expect, it } from 'vitest';
import { fetchAllMeasurements, MalformedPageError } from '../../../src/worker/rest/measurements.js';

// Issue 11 §5: a malformed measurements page rejects with a named error the
// caller turns into a warning, never with a raw TypeError from half-reading it.

const good = { columns: ['time', 'sensor_id', 'value'], rows: [[1, 's1', 3]], has_more_results: false };

describe('fetchAllMeasurements', () => {
  it('pages through good pages', async () => {
    const pages = [{ ...good, has_more_results: true }, { ...good, rows: [[5, 's1', 4]] }];
    const result = await fetchAllMeasurements(async () => pages.shift()!, 'occupancy', { start: 0 });
    expect(result.rows).toEqual([[1, 's1', 3], [5, 's1', 4]]);
    expect(result.pages).toBe(2);
  });

  it.each([
    ['null', null], ['a list', [good]], ['an HTML page', '<html></html>'],
    ['rows that are not a list', { ...good, rows: { 0: [1, 's1', 3] } }],
    ['a row that is not a list', { ...good, rows: [7] }],
    ['a row of the wrong length', { ...good, rows: [[1, 's1']] }],
    ['columns that are not names', { ...good, columns: [1, 2, 3] }],
    ['has_more_results that is not a boolean', { ...good, has_more_results: 'yes' }],
  ])('rejects a page that is %s with MalformedPageError', async (_, page) => {
    const error = await fetchAllMeasurements(async () => page as never, 'occupancy', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedPageError);
    expect((error as Error).message).toMatch(/^Malformed measurements page of occupancy: /);
  });

  it('rejects a second page whose columns changed', async () => {
    const pages = [{ ...good, has_more_results: true }, { columns: ['time', 'value'], rows: [[5, 4]], has_more_results: false }];
    await expect(fetchAllMeasurements(async () => pages.shift()!, 'occupancy', {})).rejects.toThrow('columns changed between pages');
  });
});
