// The `report` map layer's colours (spec §2, DESIGN §4: the worker computes,
// the UI draws): each desk, room or environment group of a finished report
// gets a colour on the report's measure scale and a line of words for its
// popup, so no value is told by colour alone.

import { interpolateRgb } from 'd3-interpolate';
import { scaleLinear } from 'd3-scale';
import { sensorTypeTitle } from '../../shared/kinds.js';
import { DESK_CLASS_LABELS } from '../../shared/reports/deskReport.js';
import type { ReportMark, ReportMeta, ReportRow } from '../../shared/reports/types.js';

export const NO_DATA_COLOR = '#9e9e9e';
const pct = (v: number) => `${Math.round(v * 100)} %`;

export function addMarks(rows: readonly ReportRow[], measure: ReportMeta['measure']): void {
  if (!measure || measure.stops.length < 2) return;
  const scale = scaleLinear<string>().domain(measure.stops.map((s) => s.value)).range(measure.stops.map((s) => s.color))
    .interpolate(interpolateRgb).clamp(true);
  const worstOfGroup = new Map<string, ReportRow & { kind: 'environment' }>();
  for (const row of rows) {
    switch (row.kind) {
      case 'desk':
        row.mark = {
          assetId: row.id,
          color: row.utilisation === null ? NO_DATA_COLOR : scale(row.utilisation),
          label: row.utilisation === null ? 'Utilisation: no data'
            : `Utilisation ${pct(row.utilisation)} (${DESK_CLASS_LABELS[row.class].toLowerCase()}), ${row.occupiedHours} h in use, ${row.cleanDeskBreaches} clean-desk breaches`,
        };
        break;
      case 'room':
        row.mark = {
          assetId: row.id,
          color: row.noShowRate === null ? NO_DATA_COLOR : scale(row.noShowRate),
          label: row.noShowRate === null
            ? `${row.bookings} bookings, ${row.bookedHours} h booked${row.hasOccupancySensor ? '' : '; no occupancy sensor'}`
            : `No-shows ${row.noShows} of ${row.bookings} bookings (${pct(row.noShowRate)}); ${row.bookedHours} h booked, ${row.usedHours} h in use`,
        };
        break;
      case 'environment': {
        const worst = worstOfGroup.get(row.groupId);
        if (row.outsideShare !== null && (!worst || (worst.outsideShare ?? -1) < row.outsideShare)) worstOfGroup.set(row.groupId, row);
        row.mark = null;
        break;
      }
      case 'location':
        row.mark = null;
        break;
    }
  }
  for (const row of worstOfGroup.values()) {
    row.mark = {
      assetId: row.groupId,
      color: scale(row.outsideShare!),
      label: `${sensorTypeTitle(row.type)} outside ${row.band[0]}–${row.band[1]} ${row.unit ?? ''} for ${pct(row.outsideShare!)} of working hours; mean ${row.mean ?? '—'} ${row.unit ?? ''}`.replace(/ +/g, ' ').trim(),
    };
  }
}

export type { ReportMark };
