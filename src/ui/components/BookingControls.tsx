// Booking and cancelling a room from its popup or the room finder. The UI
// sends intents (bookRoom with a length, cancelBooking); the worker computes
// the times in the location's zone, and decides what this user may cancel.
// The colour change comes back through the views.

import { useId, useState } from 'react';
import { SELF_KEY, type AssetDetail, type BookingLength } from '../../shared/api.js';
import type { ReservationEvent } from '../../shared/types.js';
import { useEngine } from '../hooks/engineContext.js';
import { useApp } from '../hooks/appContext.js';
import { useView, useViewEntry } from '../hooks/useView.js';
import { formatEndTime, formatTime, formatTimeRange } from '../lib/describe.js';
import { errorText } from '../lib/errorText.js';
import { bookingChoices } from '../../shared/rules/bookingLengths.js';
import { NeedsServer } from './NeedsServer.js';

export interface BookingControlsProps {
  roomId: string;
  /**
   * The room's details when the caller has them (the popup): the controls then show with the popup's other
   * actions in one render. Read from a view of their own they came a moment after, and the popup's edit
   * controls moved down under a pointer on its way to them (a click meant for Publish cancelled a booking)
   */
  detail?: AssetDetail;
  /** the id of a reason already shown around these controls (the popup's footer says it once), else they say it */
  needsServerId?: string;
}

export function BookingControls({ roomId, needsServerId, detail: given }: BookingControlsProps) {
  const { api } = useEngine();
  const { session, announce, timeZone, writable } = useApp();
  const ownReasonId = useId();
  const view = useView(given ? null : { view: 'asset', assetId: roomId });
  const read = useViewEntry(view, SELF_KEY);
  const detail = given ?? read;
  const [duration, setDuration] = useState<number | 'next'>(30);
  const [subject, setSubject] = useState('');
  const [busy, setBusy] = useState(false);
  const durationId = useId();
  const subjectId = useId();
  if (!detail || detail.kind !== 'room') return null;
  const events = [detail.reservation?.active, detail.reservation?.next].filter((e): e is ReservationEvent => !!e);
  const cancellable = events.filter((e) => detail.actions.cancellable.includes(e.booking_ref));
  const reasonId = needsServerId ?? ownReasonId;
  // the lengths the server would take: those that end before the next booking starts, and the rest of the day
  // only with no booking later today (src/shared/rules/bookingLengths.ts; read at each render: live changes re-render it)
  const nextStart = !detail.reservation?.active && detail.reservation?.next ? detail.reservation.next.start : null;
  const choices = bookingChoices(Date.now(), nextStart, timeZone);
  const offered: Array<number | 'next'> = [...choices.minutes, ...(choices.untilNext ? ['next' as const] : [])];
  const chosen = offered.includes(duration) ? duration : offered[0] ?? null;
  // while the server cannot be reached nothing is sent: disabled, pointing to the reason
  const blocked = busy || !writable;
  const why = writable ? undefined : reasonId;

  const book = async (until: BookingLength) => {
    setBusy(true);
    const result = await api.bookRoom({ roomId, until, subject });
    setBusy(false);
    announce(
      result.ok ? `${detail.name} booked until ${formatEndTime(result.value.end, timeZone)}.` : `Booking failed: ${errorText(result)}`,
      result.ok ? 'info' : 'error',
    );
  };
  const cancel = async (event: ReservationEvent) => {
    setBusy(true);
    const result = await api.cancelBooking(roomId, event.booking_ref);
    setBusy(false);
    announce(result.ok ? `Booking of ${detail.name} cancelled.` : `Cancelling failed: ${errorText(result)}`, result.ok ? 'info' : 'error');
  };

  return (
    <div className="booking" role="group" aria-label={`Booking of ${detail.name}`}>
      {!writable && !needsServerId && (detail.actions.book || cancellable.length > 0) ? <NeedsServer id={ownReasonId} /> : null}
      {detail.actions.book ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (chosen === null) return;
            void book(chosen === 'next' && nextStart !== null ? { endsAt: nextStart } : { minutes: chosen as number });
          }}
        >
          <label htmlFor={subjectId} className="visually-hidden">
            Subject
          </label>
          <input id={subjectId} value={subject} onChange={(e) => setSubject(e.target.value)} maxLength={120} placeholder="Subject (optional)" />
          <div className="action-row">
            <label htmlFor={durationId} className="visually-hidden">
              Duration
            </label>
            <select id={durationId} value={String(chosen ?? '')} onChange={(e) => setDuration(e.target.value === 'next' ? 'next' : Number(e.target.value))}>
              {offered.map((m) => (
                <option key={m} value={String(m)}>
                  {m === 'next' ? `until ${formatTime(nextStart!, timeZone)}` : m < 60 ? `${m} min` : `${m / 60} h`}
                </option>
              ))}
            </select>
            <button type="submit" disabled={blocked || chosen === null} aria-describedby={why}>
              Book now
            </button>
            {session.capabilities.bookAllDay && choices.restOfDay ? (
              <button type="button" disabled={blocked} aria-describedby={why} aria-label="Book for the rest of the day" onClick={() => void book('restOfDay')}>
                Rest of the day
              </button>
            ) : null}
          </div>
          {chosen === null && nextStart !== null ? <p>{`Booked again from ${formatTime(nextStart, timeZone)}.`}</p> : null}
        </form>
      ) : !detail.reservation ? (
        <p>This room cannot be booked here.</p>
      ) : null}
      {cancellable.map((event) => (
        <button key={event.booking_ref} type="button" disabled={blocked} aria-describedby={why} onClick={() => void cancel(event)}>
          Cancel booking “{event.subject || 'Meeting'}” {formatTimeRange(event.start, event.end, timeZone)}
        </button>
      ))}
    </div>
  );
}
