import { describe, expect, it } from 'vitest';
import { addDaysToKey, calendarDays, dateKeyOf } from '../../../src/shared/reports/calendar.js';
import type { LocationRow } from '../../../src/shared/reports/types.js';
import { MEASUREMENT_BASE_COLUMNS, MEASUREMENT_EXTRA_COLUMNS, type MeasurementsQuery, type MeasurementsResponse } from '../../../src/shared/rest.js';
import { createScopedAggregator, tracksEquipmentOnly } from '../../../src/worker/reports/reportScope.js';
import { runReport } from '../../../src/worker/reports/runReport.js';
import { loadedStore, wireUser } from '../engine/harness.js';

// The location report's "People present" counts people (docs/reports.md "Location report"): a tracked piece of
// equipment (an auto tag no one wears, spec §3) reports its place around the clock, and counted as a person it
// kept two or three "people" on the seeded floors all night.

const H = 3_600_000;
const NOW = Date.UTC(2025, 2, 12, 12);
const TZ = 'UTC';

const assets = [
  { id: 'e1', type: 'employee', name: 'Ann', parent_id: 'f1', data_providers: ['t-ann'], data_provider_refs: { location: 't-ann' } },
  { id: 'w1', type: 'auto_tag', name: 'Wheelchair', parent_id: 'f1', data_providers: ['t-chair'], data_provider_refs: { location: 't-chair' } },
  // an auto tag a user wears (their location_tag_id): a person
  { id: 'b1', type: 'auto_tag', name: 'Badge', parent_id: 'f1', data_providers: ['t-badge'], data_provider_refs: { location: 't-badge' } },
];
const sensors = ['t-ann', 't-chair', 't-badge'].map((id) => ({ id, type: 'location' }));

function setup() {
  return loadedStore(assets, sensors, () => NOW, [wireUser('u1', { location_tag_id: 't-badge' })]).store;
}

describe('the location report counts people, not tracked equipment', () => {
  it('knows a person\'s tag and a worn badge as people, and an equipment tag as equipment', () => {
    const store = setup();
    expect(tracksEquipmentOnly(store, 't-ann')).toBe(false);
    expect(tracksEquipmentOnly(store, 't-badge')).toBe(false);
    expect(tracksEquipmentOnly(store, 't-chair')).toBe(true);
    // a sensor whose asset this viewer does not have stays counted, as before
    expect(tracksEquipmentOnly(store, 'unknown')).toBe(false);
  });

  it('a wheelchair located on the floor all night adds no one to the people present', async () => {
    const store = setup();
    const yesterday = addDaysToKey(dateKeyOf(NOW, TZ), -1);
    const ctx = { timeZone: TZ, hourStart: 7, hourEnd: 18, cleanDeskPolicy: 120, now: NOW, period: { from: yesterday, to: yesterday } };
    const aggregator = createScopedAggregator(store, 'location', { kind: 'location' }, ctx, ['regular']);
    const days = calendarDays(yesterday, yesterday, TZ);
    const dayStart = days[0]!.start;
    // every tag on f1 from 02:00 to 04:00, each reading valid 2 h
    const fetchPage = async (type: string, q: MeasurementsQuery): Promise<MeasurementsResponse> => {
      const columns = [...MEASUREMENT_BASE_COLUMNS, ...(MEASUREMENT_EXTRA_COLUMNS[type] ?? [])];
      const rows = type === 'location' && !q.ignore_previous_validity
        ? ['t-ann', 't-chair', 't-badge'].map((id) => [dayStart + 2 * H, id, 2 * H, null, null, 1, 1, 'f1', []])
        : [];
      return { columns, rows, has_more_results: false } as unknown as MeasurementsResponse;
    };
    const progress = await runReport({
      aggregator, days, fetchPage, cacheKey: (type, day, filter) => `${type}|${day.key}|${filter}`, cache: null, now: () => performance.now(),
      signal: { cancelled: false }, onProgress: () => undefined, onWarning: () => undefined, concurrency: 2,
    });
    expect(progress.state).toBe('done');
    const f1 = (aggregator.result().rows as LocationRow[]).find((r) => r.id === 'f1')!;
    // Ann and the badge's wearer; the wheelchair is no one (3 before)
    expect(f1.peakPeople).toBe(2);
  });
});
