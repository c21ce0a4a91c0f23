// Where a report stands, said plainly (issue 13 §3): waiting, paging with a
// progress bar and Cancel, cancelled or failed with a way to run it again,
// refused by the role gate, or done with nothing measured in the period.

import type { ReportProgress, ReportRequest } from '../../../shared/reports/types.js';
import { useEngine } from '../../hooks/engineContext.js';
import { formatDay } from '../../lib/timeFormat.js';

const seconds = (ms: number) => `${Math.max(0, Math.round(ms / 1000))} s`;

export function ReportState({ request, progress, scopeName, timeZone }: { request: ReportRequest; progress: ReportProgress | null; scopeName: string; timeZone: string }) {
  const { api } = useEngine();
  if (!progress) return <p role="status" className="report-state">Starting the report…</p>;
  const pages = `${progress.pagesLoaded} of about ${progress.pagesEstimated} pages`;
  switch (progress.state) {
    case 'loading':
      // before its first page: waiting for the location, in the worker's words
      if (progress.message && progress.pagesLoaded === 0) return <p role="status" className="report-state" data-testid="report-waiting">{progress.message}</p>;
      return (
        <div className="report-progress report-state" role="status" data-testid="report-loading">
          <progress max={Math.max(1, progress.pagesEstimated)} value={progress.pagesLoaded} aria-label="Report progress" />
          <span>
            {`Loading ${pages}, ${progress.rows.toLocaleString('en-US')} readings`}
            {progress.pagesFromCache ? `, ${progress.pagesFromCache} pages saved on this device` : ''}
            {` · ${seconds(progress.elapsedMs)}`}
          </span>
          <button type="button" onClick={() => void api.cancelReport(request)}>Cancel</button>
        </div>
      );
    case 'cancelled':
      return (
        <div className="report-state" role="status" data-testid="report-cancelled">
          <span>{`Report cancelled after ${pages}.`}</span>
          <button type="button" onClick={() => void api.rerunReport(request)}>Run again</button>
        </div>
      );
    case 'error':
      return (
        <div className="report-state error" role="alert" data-testid="report-error">
          <span>{`The report could not be computed: ${progress.message ?? 'unknown error'}`}</span>
          <button type="button" onClick={() => void api.rerunReport(request)}>Try again</button>
        </div>
      );
    case 'denied':
      return <p role="alert" className="report-state error">{progress.message}</p>;
    case 'done':
      return progress.rows === 0 ? (
        <p role="status" className="report-state report-empty" data-testid="report-empty">
          {`No readings from ${formatDay(request.period.from, timeZone)} to ${formatDay(request.period.to, timeZone)} in ${scopeName}: the sensors sent nothing in this period. Choose another period.`}
        </p>
      ) : null;
  }
}
