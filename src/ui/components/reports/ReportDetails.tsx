// What the popup shows of reports: the asset's line of the report on the
// `report` layer, and for a room its recent bookings with their reservation
// history class (spec §4), from the worker's room report of the last 7 days.
// Bookings are the server's readings: while it cannot be reached before the
// live load (a reopen offline) the popup says they need the connection,
// instead of a "Loading…" that would never end; a run that failed while the
// server cannot be reached says the same (the worker reads it again once live
// data is back), and a failed run with the server there says it failed.

import { useMemo, useState } from 'react';
import { addDaysToKey, dateKeyOf } from '../../../shared/reports/calendar.js';
import { REPORT_WAITING_OFFLINE, type RoomRow } from '../../../shared/reports/types.js';
import { RESERVATION_HISTORY_LABELS } from '../../../shared/rules/reservationHistory.js';
import { useApp } from '../../hooks/appContext.js';
import { useServerReach } from '../../hooks/useServerReach.js';
import { useView, useViewEntry, useViewMeta } from '../../hooks/useView.js';
import { formatTime, formatTimeRange } from '../../lib/describe.js';
import { useFloorContext } from '../floorContext.js';

export const RECENT_BOOKINGS_SHOWN = 5;
/** What the room popup says of its bookings while the server cannot be reached before the live load. */
export const BOOKINGS_OFFLINE = 'Bookings need the connection to the server: they load once it is back.';

export function ReportLine({ id }: { id: string }) {
  const { reportMarks } = useFloorContext();
  const mark = reportMarks?.get(id);
  return mark ? <p className="report-line"><strong>Report: </strong>{mark.label}</p> : null;
}

export function RecentBookings({ roomId }: { roomId: string }) {
  const { mirror } = useFloorContext();
  const { timeZone } = useApp();
  const floorId = useViewMeta(mirror)?.floor?.id ?? null;
  // "the last 7 days" as of when the popup opened; re-renders keep that week
  const [openedAt] = useState(() => Date.now());
  const spec = useMemo(() => {
    if (!floorId) return null;
    const today = dateKeyOf(openedAt, timeZone ?? 'UTC');
    return { view: 'report' as const, report: { kind: 'room' as const, scope: { kind: 'floor' as const, id: floorId }, period: { from: addDaysToKey(today, -6), to: today } } };
  }, [floorId, timeZone, openedAt]);
  const view = useView(spec);
  const meta = useViewMeta(view);
  const row = useViewEntry(view, roomId) as RoomRow | undefined;
  const reachable = useServerReach();
  const progress = meta?.progress;
  const state = progress?.state;
  if (!spec || state === 'denied') return null;
  const items = row?.kind === 'room' ? row.items.slice(0, RECENT_BOOKINGS_SHOWN) : [];
  return (
    <section className="recent-bookings" aria-label="Recent bookings">
      <h3>Recent bookings</h3>
      {state === 'error' && !reachable ? <p role="status">{BOOKINGS_OFFLINE}</p>
        : state === 'error' ? <p className="error">{`The bookings could not be loaded${progress?.message ? `: ${progress.message}` : '.'}`}</p>
        : state === 'cancelled' ? <p>Loading the bookings was cancelled.</p>
        : state !== 'done' ? <p role="status">{progress?.message === REPORT_WAITING_OFFLINE ? BOOKINGS_OFFLINE : 'Loading bookings…'}</p>
        : items.length === 0 ? <p>No bookings in the last 7 days.</p> : (
        <ul>
          {items.map((b) => (
            <li key={b.ref} data-class={b.class}>
              <span>{formatTimeRange(b.plannedStart, b.plannedEnd, timeZone)}</span>
              {b.subject ? <span>{` ${b.subject}`}</span> : null}
              <strong>{` ${RESERVATION_HISTORY_LABELS[b.class]}`}</strong>
              {b.class === 'ended_early' || b.class === 'extended' ? <span>{` (until ${formatTime(b.actualEnd, timeZone)})`}</span> : null}
              {b.used === false ? <em>{' — no-show'}</em> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
