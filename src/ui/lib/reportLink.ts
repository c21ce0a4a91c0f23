// The open report in the URL (issue 13: period and scope shareable), read
// and written with qs under the spec's limits (shared/query.ts), beside the
// deep link's location, floor, layers and asset.

import qs from 'qs';
import { REPORT_KINDS, type ReportKind } from '../../shared/config.js';
import { parseQuery } from '../../shared/query.js';
import { isDateKey } from '../../shared/reports/calendar.js';
import type { ReportRequest, ReportScope } from '../../shared/reports/types.js';

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The report part of a query string, or null when none is open. */
export function parseReportLink(search: string): ReportRequest | null {
  const r = parseQuery(search).report as Record<string, unknown> | undefined;
  if (!r || typeof r !== 'object' || !(REPORT_KINDS as readonly string[]).includes(String(r.kind))) return null;
  const scopeKind = r.scope;
  const scopeId = typeof r.scopeId === 'string' && ID.test(r.scopeId) ? r.scopeId : null;
  const scope: ReportScope = (scopeKind === 'floor' || scopeKind === 'building') && scopeId ? { kind: scopeKind, id: scopeId } : { kind: 'location' };
  const from = isDateKey(r.from) ? r.from : '';
  const to = isDateKey(r.to) ? r.to : '';
  return { kind: r.kind as ReportKind, scope, period: { from, to } };
}

/** `report[kind]=…&report[scope]=…` to append to the deep link, or '' without a report. */
export function formatReportLink(request: ReportRequest | null): string {
  if (!request) return '';
  return qs.stringify({
    report: {
      kind: request.kind,
      scope: request.scope.kind,
      scopeId: request.scope.kind === 'location' ? undefined : request.scope.id,
      from: request.period.from || undefined,
      to: request.period.to || undefined,
    },
  }, { encodeValuesOnly: true, skipNulls: true });
}
