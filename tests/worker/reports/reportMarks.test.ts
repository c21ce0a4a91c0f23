// The report layer's line of words for an environment group: its worst type,
// named as the map's layers and legends name it.

import { describe, expect, it } from 'vitest';
import type { EnvironmentRow, ReportMeta, ReportRow } from '../../../src/shared/reports/types.js';
import { addMarks } from '../../../src/worker/reports/reportMarks.js';

const measure: ReportMeta['measure'] = {
  title: 'Time outside the comfort band', unit: '%',
  stops: [{ value: 0, color: '#2e7d32', label: 'Always comfortable' }, { value: 0.3, color: '#c62828', label: '30 % or more' }],
};
const row = (type: string, unit: string, band: [number, number], outsideShare: number, mean: number): ReportRow & EnvironmentRow => ({
  kind: 'environment', id: `${type}:r1`, type, unit, groupId: 'r1', groupName: 'F0-R1', groupKind: 'room', floorId: 'f1',
  sensors: 1, mean, min: mean, max: mean, coveredHours: 10, outsideHours: outsideShare * 10, outsideShare, band,
});

describe('addMarks', () => {
  it('marks an environment group with its worst type in the words of the layers (CO₂, not co2)', () => {
    const rows = [row('temperature', '°C', [20, 23], 0.1, 22.4), row('co2', 'ppm', [0, 800], 0.4, 910)];
    addMarks(rows, measure);
    expect(rows[0]!.mark).toBeNull();
    expect(rows[1]!.mark).toMatchObject({ assetId: 'r1', label: 'CO₂ outside 0–800 ppm for 40 % of working hours; mean 910 ppm' });
  });
});
