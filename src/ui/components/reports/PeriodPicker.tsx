// The report's period: presets that apply at once, and a custom From–To that
// applies on "Apply" (or Enter), so typing a date segment by segment does not
// start a report for every half-typed period.

import { useId, useState, type FormEvent } from 'react';
import { addDaysToKey, dateKeyOf, daysBetweenKeys, isDateKey } from '../../../shared/reports/calendar.js';
import { REPORT_MAX_DAYS, type ReportPeriod } from '../../../shared/reports/types.js';

const PRESETS: Array<{ label: string; back: number; end: number }> = [
  { label: 'Yesterday', back: 1, end: 1 }, { label: 'Last 7 days', back: 6, end: 0 }, { label: 'Last 14 days', back: 13, end: 0 },
];

/** Why a typed period cannot be applied, or null. */
export function periodProblem(period: ReportPeriod): string | null {
  if (!isDateKey(period.from) || !isDateKey(period.to)) return 'Enter both dates.';
  const days = daysBetweenKeys(period.from, period.to) + 1;
  if (days < 1) return 'The period ends before it starts.';
  if (days > REPORT_MAX_DAYS) return `A report covers at most ${REPORT_MAX_DAYS} days.`;
  return null;
}

export function PeriodPicker({ period, timeZone, onChange }: { period: ReportPeriod; timeZone: string; onChange(period: ReportPeriod): void }) {
  const ids = { from: useId(), to: useId(), problem: useId() };
  const [draft, setDraft] = useState(period);
  // a preset, the URL or another view moved the period: the fields follow, in
  // this render (React's "adjust state when a prop changes"), not one later
  const [draftOf, setDraftOf] = useState(period);
  if (draftOf.from !== period.from || draftOf.to !== period.to) {
    setDraftOf(period);
    setDraft(period);
  }
  const problem = periodProblem(draft);
  const changed = draft.from !== period.from || draft.to !== period.to;
  const apply = (e: FormEvent) => {
    e.preventDefault();
    if (!problem && changed) onChange(draft);
  };
  return (
    <form className="period-picker" onSubmit={apply} aria-label="Period">
      <label htmlFor={ids.from}>From</label>
      <input id={ids.from} type="date" value={draft.from} aria-describedby={problem && changed ? ids.problem : undefined}
        onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))} />
      <label htmlFor={ids.to}>To</label>
      <span className="period-to">
        <input id={ids.to} type="date" value={draft.to} aria-describedby={problem && changed ? ids.problem : undefined}
          onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))} />
        <button type="submit" disabled={!changed || !!problem}>Apply</button>
      </span>
      {problem && changed ? <p id={ids.problem} className="period-problem" role="status">{problem}</p> : null}
      <div className="period-presets" role="group" aria-label="Period presets">
        {PRESETS.map((p) => (
          <button key={p.label} type="button" onClick={() => {
            const today = dateKeyOf(Date.now(), timeZone);
            onChange({ from: addDaysToKey(today, -p.back), to: addDaysToKey(today, -p.end) });
          }}>{p.label}</button>
        ))}
      </div>
    </form>
  );
}
