// The `report` map layer in the shell: who may turn it on, the report it
// colours the floor by (the one chosen in the Reports tab, default desks over
// the last 7 days), and its legend beside the floor's (docs/reports.md).

import { useMemo } from 'react';
import type { Legend, SessionView } from '../../../shared/api.js';
import type { ReportMark, ReportMeta, ReportRequest } from '../../../shared/reports/types.js';
import { useView, useViewEntries, useViewMeta } from '../../hooks/useView.js';
import { withDefaults } from '../reports/ReportsPanel.js';

/** Any report this user may view (reportViewingRolesAtLeast, decided in the worker). */
export const canReportLayer = (session: SessionView) => Object.values(session.capabilities.reports).some(Boolean);

/** The floor's legends plus the report layer's, titled with the report and its period. */
export function reportLegend(legends: Legend[], meta: ReportMeta | undefined): Legend[] {
  if (!meta?.measure || !meta.request) return legends;
  const { period, kind } = meta.request;
  return [...legends, { layer: 'report', title: `${meta.measure.title} (${kind}, ${period.from} – ${period.to})`, unit: meta.measure.unit, stops: meta.measure.stops }];
}

/** The report view while the layer is on: its marks by asset, and its meta (for the legend). */
export function useReportLayer(on: boolean, session: SessionView, report: ReportRequest) {
  const reportSpec = useMemo(() => (on && session.locationId ? { view: 'report' as const, report: withDefaults(report, session.timeZone) } : null), [on, report, session]);
  const reportLayer = useView(reportSpec);
  const reportEntries = useViewEntries(reportLayer);
  const reportMeta = useViewMeta(reportLayer);
  const reportMarks = useMemo(() => {
    const marks = new Map<string, ReportMark>();
    for (const row of Object.values(reportEntries)) if (row.mark) marks.set(row.mark.assetId, row.mark);
    return marks;
  }, [reportEntries]);
  return { reportMarks, reportMeta };
}
