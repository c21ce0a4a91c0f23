// A report request as the UI sent it, checked and completed: kept out of the
// report service's chunk (lazyReports.ts), so a view can say what it will
// show, and refuse a malformed request, before the report code has loaded.

import { isReportKind } from '../../shared/reports/access.js';
import { isDateKey, daysBetweenKeys } from '../../shared/reports/calendar.js';
import { REPORT_MAX_DAYS, type ReportRequest } from '../../shared/reports/types.js';

/** A request with a valid kind, scope and period (default: the last 7 days). */
export function normalizeRequest(raw: unknown, today: string): ReportRequest | null {
  const r = raw as Partial<ReportRequest> | null;
  if (!r || !isReportKind(r.kind)) return null;
  const scope = r.scope?.kind === 'building' || r.scope?.kind === 'floor'
    ? (typeof (r.scope as { id?: unknown }).id === 'string' ? r.scope : null) : { kind: 'location' as const };
  if (!scope) return null;
  let from = isDateKey(r.period?.from) ? r.period!.from : null;
  let to = isDateKey(r.period?.to) ? r.period!.to : null;
  if (!from || !to || daysBetweenKeys(from, to) < 0) { to = today; from = calendarDaysBack(today, 6); }
  if (daysBetweenKeys(from, to) >= REPORT_MAX_DAYS) from = calendarDaysBack(to, REPORT_MAX_DAYS - 1);
  return { kind: r.kind, scope, period: { from, to } };
}

function calendarDaysBack(key: string, days: number): string {
  const [y, m, d] = key.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d - days));
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${String(date.getUTCDate()).padStart(2, '0')}`;
}
