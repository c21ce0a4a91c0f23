// The reports panel (issue 13): choose a report, scope and period (kept in
// the URL), watch its progress and cancel it, read its totals, charts and
// table, and export the table as CSV. The worker computes; this only shows.

import Papa from 'papaparse';
import { useEffect, useId, useMemo } from 'react';
import type { ReportKind } from '../../../shared/config.js';
import { addDaysToKey, dateKeyOf } from '../../../shared/reports/calendar.js';
import type { ReportRequest, ReportRow } from '../../../shared/reports/types.js';
import { useView, useViewEntries, useViewMeta } from '../../hooks/useView.js';
import { HeatGrid, HourBars, SmallMultiples } from './ReportCharts.js';
import { PeriodPicker } from './PeriodPicker.js';
import { ReportState } from './ReportState.js';
import { REPORT_COLUMNS } from './reportColumns.js';
import { ReportTable } from './ReportTable.js';
import { formatDay } from '../../lib/timeFormat.js';

const KINDS: Array<{ kind: ReportKind; label: string }> = [
  { kind: 'location', label: 'Location' }, { kind: 'desk', label: 'Desks' }, { kind: 'room', label: 'Rooms' }, { kind: 'environment', label: 'Environment' },
];
const TABLE_ROWS_SHOWN = 200;

export interface ReportsPanelProps {
  request: ReportRequest;
  onChange(request: ReportRequest): void;
  timeZone: string;
  buildingId: string | null;
  buildingName: string | null;
  floorId: string | null;
  floorName(id: string): string | null;
}

type SummaryLine = { label: string; value: string; floorId?: string | null; day?: string };

/**
 * The totals and highlights as listed: a place the report gives a floor (its name is used on another floor
 * too: each building's F1-R2) is told apart by it, "Worst CO₂: F1-R2 (Floor 1, Helsinki HQ B)"; a day
 * ("Peak day") is written in the app's date words, "Nov 23" (docs/reports.md "Dates").
 */
export function summaryLines(
  totals: readonly SummaryLine[], highlights: readonly SummaryLine[], floorName: (id: string) => string | null, timeZone: string, now = Date.now(),
): SummaryLine[] {
  return [...totals, ...highlights.map((h) => {
    const place = h.floorId ? floorName(h.floorId) : null;
    const line = h.day ? { ...h, value: formatDay(h.day, timeZone, now) } : h;
    return place ? { ...line, label: `${h.label} (${place})` } : line;
  })];
}

/** A request with its period filled in: the last 7 days of the location by default. */
export function withDefaults(request: ReportRequest, timeZone: string, now = Date.now()): ReportRequest {
  if (request.period.from && request.period.to) return request;
  const today = dateKeyOf(now, timeZone);
  return { ...request, period: { from: addDaysToKey(today, -6), to: today } };
}

/** UTF-8's byte-order mark: spreadsheet apps (Excel) read a CSV without it in a legacy code page, and "CO₂", "°C" or "–" come out garbled. */
const UTF8_BOM = '\uFEFF';

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([UTF8_BOM, text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function ReportsPanel({ request: raw, onChange, timeZone, buildingId, buildingName, floorId, floorName }: ReportsPanelProps) {
  const request = useMemo(() => withDefaults(raw, timeZone), [raw, timeZone]);
  const spec = useMemo(() => ({ view: 'report' as const, report: request }), [request]);
  const view = useView(spec);
  const meta = useViewMeta(view);
  const entries = useViewEntries(view);
  const ids = { scope: useId() };
  // the mirror keeps the previous report's rows until the new snapshot: show only this request's
  const current = !!meta && JSON.stringify(meta.request) === JSON.stringify(request);
  const rows = useMemo(() => (current ? (Object.values(entries) as ReportRow[]).filter((r) => r.kind === request.kind) : []), [entries, current, request.kind]);
  const columns = REPORT_COLUMNS[request.kind];
  const progress = current ? meta!.progress : null;
  const set = (patch: Partial<ReportRequest>) => onChange({ ...request, ...patch });
  useEffect(() => { if (raw !== request) onChange(request); }, [raw, request, onChange]);

  const exportCsv = () => {
    const data = rows.map((r) => columns.map((c) => c.value(r, floorName) ?? ''));
    const text = Papa.unparse({ fields: columns.map((c) => c.header), data });
    download(`storey-${request.kind}-report-${request.period.from}-to-${request.period.to}.csv`, text);
  };

  const share = request.kind !== 'location';
  const scopeName = request.scope.kind === 'location' ? 'the whole location'
    : request.scope.kind === 'building' ? (buildingName ?? 'this building') : (floorName(request.scope.id) ?? 'this floor');
  const summary = meta?.summary;
  return (
    <section className="reports" aria-label="Reports">
      <div className="report-controls">
        <div className="report-kinds" role="group" aria-label="Report">
          {KINDS.map((k) => (
            <button key={k.kind} type="button" aria-pressed={request.kind === k.kind} onClick={() => set({ kind: k.kind })}>{k.label}</button>
          ))}
        </div>
        <label htmlFor={ids.scope}>Scope</label>
        <select
          id={ids.scope}
          value={request.scope.kind}
          onChange={(e) => {
            const kind = e.target.value;
            set({ scope: kind === 'floor' && floorId ? { kind: 'floor', id: floorId } : kind === 'building' && buildingId ? { kind: 'building', id: buildingId } : { kind: 'location' } });
          }}
        >
          <option value="location">Whole location</option>
          {buildingId ? <option value="building">{buildingName ?? 'This building'}</option> : null}
          {floorId ? <option value="floor">{floorName(floorId) ?? 'This floor'}</option> : null}
        </select>
        <PeriodPicker period={request.period} timeZone={timeZone} onChange={(period) => set({ period })} />
      </div>

      <ReportState request={request} progress={progress} scopeName={scopeName} timeZone={timeZone} />

      {progress?.state === 'done' && summary && progress.rows > 0 ? (
        <>
          <p
            className="report-meta" role="status" data-testid="report-done"
            data-rows={progress.rows} data-pages={progress.pagesLoaded} data-from-cache={progress.pagesFromCache} data-elapsed-ms={Math.round(progress.elapsedMs)}
          >
            {`${rows.length} rows from ${progress.rows.toLocaleString('en-US')} readings in ${progress.pagesLoaded} pages`
              + `${progress.pagesFromCache ? ` (${progress.pagesFromCache} saved on this device)` : ''}`
              + `, computed in ${(progress.elapsedMs / 1000).toFixed(1)} s; working hours ${meta!.hourStart}–${meta!.hourEnd}, ${meta!.timeZone}.`}
            {Object.values(progress.skipped).some((n) => n > 0) ? ` Skipped ${Object.values(progress.skipped).reduce((a, b) => a + b, 0)} bad rows.` : ''}
          </p>
          <dl className="report-totals">
            {summaryLines(summary.totals, summary.highlights, floorName, timeZone).map((t, i) => <div key={i}><dt>{t.label}</dt><dd>{t.value}</dd></div>)}
          </dl>
          {request.kind === 'environment' ? <SmallMultiples series={summary.series} hourStart={meta!.hourStart} hourEnd={meta!.hourEnd} /> : (
            <>
              <HourBars cells={summary.byHour} share={share} hourStart={meta!.hourStart} hourEnd={meta!.hourEnd} label={`${KINDS.find((k) => k.kind === request.kind)!.label}: mean and peak by hour of working days`} />
              <HeatGrid grid={summary.grid} hourStart={meta!.hourStart} hourEnd={meta!.hourEnd} share={share} label="Mean by hour and weekday" />
            </>
          )}
          <button type="button" onClick={exportCsv} disabled={rows.length === 0}>Export CSV</button>
          {rows.length === 0 ? <p role="status">No data in this period.</p> : (
            <ReportTable columns={columns} rows={rows} shown={TABLE_ROWS_SHOWN} floorName={floorName} timeZone={timeZone} />
          )}
        </>
      ) : null}
    </section>
  );
}
