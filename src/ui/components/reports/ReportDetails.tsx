// What the popup shows of reports: the asset's line of the report on the
// `report` layer, and for a room its recent bookings with their reservation
// history class (spec §4): what is still to come first, soonest first, from
// the live reservation sensor (a booking just made is there at once), then
// what is over, newest first, from the worker's room report of the last 7
// days (src/shared/reports/bookingList.ts).
// Bookings are the server's readings: while it cannot be reached before the
// live load (a reopen offline) the popup says they need the connection,
// instead of a "Loading…" that would never end; a run that failed while the
// server cannot be reached says the same (the worker reads it again once live
// data is back), and a failed run with the server there says it failed.
// The week read again while the popup is open (a booking ended, another
// person changed one that began) keeps the list it had, saying it is being
// updated: the section does not blink "Loading bookings…" at every booking's end.

import { useId, useMemo, useRef, useState } from 'react';
import { earlierBookings } from '../../../shared/reports/bookingList.js';
import { addDaysToKey, dateKeyOf } from '../../../shared/reports/calendar.js';
import { REPORT_WAITING_OFFLINE, type BookingItem, type RoomRow } from '../../../shared/reports/types.js';
import { RESERVATION_HISTORY_LABELS } from '../../../shared/rules/reservationHistory.js';
import { isEventActive } from '../../../shared/rules/reservations.js';
import type { ReservationEvent } from '../../../shared/types.js';
import { useApp } from '../../hooks/appContext.js';
import { useServerReach } from '../../hooks/useServerReach.js';
import { useView, useViewEntry, useViewMeta } from '../../hooks/useView.js';
import { formatTime, formatTimeRange } from '../../lib/describe.js';
import { useFloorContext } from '../floorContext.js';

/** At most this many of the bookings still to come, and of those over, are listed. */
export const RECENT_BOOKINGS_SHOWN = 5;
/** What the room popup says of its bookings while the server cannot be reached before the live load. */
export const BOOKINGS_OFFLINE = 'Bookings need the connection to the server: they load once it is back.';
/** Under the earlier bookings while the week is read again (the list shown is its last answer). */
export const BOOKINGS_UPDATING = 'Updating the bookings…';

export function ReportLine({ id }: { id: string }) {
  const { reportMarks } = useFloorContext();
  const mark = reportMarks?.get(id);
  return mark ? <p className="report-line"><strong>Report: </strong>{mark.label}</p> : null;
}

function BookingLine({ booking: b, timeZone }: { booking: BookingItem; timeZone: string | undefined }) {
  return (
    <li data-class={b.class}>
      <span>{formatTimeRange(b.plannedStart, b.plannedEnd, timeZone)}</span>
      {b.subject ? <span>{` ${b.subject}`}</span> : null}
      <strong>{` ${RESERVATION_HISTORY_LABELS[b.class]}`}</strong>
      {b.class === 'ended_early' || b.class === 'extended' ? <span>{` (until ${formatTime(b.actualEnd, timeZone)})`}</span> : null}
      {b.used === false ? <em>{' — no-show'}</em> : null}
    </li>
  );
}

function ComingLine({ event, now, timeZone }: { event: ReservationEvent; now: number; timeZone: string | undefined }) {
  const running = isEventActive(event, now);
  return (
    <li data-class={running ? 'now' : 'upcoming'}>
      <span>{formatTimeRange(event.start, event.end, timeZone)}</span>
      {event.subject ? <span>{` ${event.subject}`}</span> : null}
      <strong>{running ? ' Now' : ` ${RESERVATION_HISTORY_LABELS.upcoming}`}</strong>
    </li>
  );
}

export interface RecentBookingsProps {
  roomId: string;
  /** the room's bookings not over yet, soonest first, from the live reservation sensor (AssetDetail) */
  upcoming: readonly ReservationEvent[];
}

export function RecentBookings({ roomId, upcoming }: RecentBookingsProps) {
  const { mirror } = useFloorContext();
  const { timeZone } = useApp();
  const aheadId = useId();
  const pastId = useId();
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
  // read at each render: what ended meanwhile moves from "Coming up" to the past
  const now = Date.now();
  const ahead = upcoming.filter((e) => e.end > now).slice(0, RECENT_BOOKINGS_SHOWN);
  // the room's bookings as this very week's last answer had them (the spec's object: a new week, floor or zone
  // is another): shown again while the week is read again
  const lastAnswer = useRef<{ spec: unknown; items: readonly BookingItem[] } | null>(null);
  if (state === 'done' && spec) lastAnswer.current = { spec, items: row?.kind === 'room' ? row.items : [] };
  if (!spec || (state === 'denied' && ahead.length === 0)) return null;
  const rereading = state === 'loading' && lastAnswer.current?.spec === spec;
  const items = state === 'done' ? (row?.kind === 'room' ? row.items : []) : rereading ? lastAnswer.current!.items : null;
  const past = items ? earlierBookings(items, now).slice(0, RECENT_BOOKINGS_SHOWN) : [];
  return (
    <section className="recent-bookings" aria-label="Recent bookings">
      <h3>Recent bookings</h3>
      {ahead.length > 0 ? (
        <>
          <h4 id={aheadId}>Coming up</h4>
          <ul aria-labelledby={aheadId}>{ahead.map((e) => <ComingLine key={e.booking_ref} event={e} now={now} timeZone={timeZone} />)}</ul>
        </>
      ) : null}
      {state === 'denied' ? null
        : state === 'error' && !reachable ? <p role="status">{BOOKINGS_OFFLINE}</p>
        : state === 'error' ? <p className="error">{`The bookings could not be loaded${progress?.message ? `: ${progress.message}` : '.'}`}</p>
        : state === 'cancelled' ? <p>Loading the bookings was cancelled.</p>
        : state !== 'done' && !rereading ? <p role="status">{progress?.message === REPORT_WAITING_OFFLINE ? BOOKINGS_OFFLINE : 'Loading bookings…'}</p>
        : past.length > 0 ? (
          <>
            <h4 id={pastId}>Earlier</h4>
            <ul aria-labelledby={pastId}>{past.map((b) => <BookingLine key={b.ref} booking={b} timeZone={timeZone} />)}</ul>
          </>
        )
        : <p>{ahead.length > 0 ? 'No earlier bookings in the last 7 days.' : 'No bookings in the last 7 days.'}</p>}
      {rereading ? <p role="status" className="updating">{BOOKINGS_UPDATING}</p> : null}
    </section>
  );
}
