// Booking and cancelling a room (spec §7 POST/DELETE /booking) from its popup
// or the room finder. Reads the room's entry of the rooms view; the colour
// change comes back from the worker through the floor view.

import { useId, useState } from 'react';
import type { ReservationEvent } from '../../shared/types.js';
import { useEngine } from '../hooks/engineContext.js';
import { configValue, hasRole, useApp } from '../hooks/appContext.js';
import { useViewEntry } from '../hooks/useView.js';
import { formatTime } from '../lib/describe.js';

const DURATIONS_MIN = [30, 60, 120];
const MINUTE_MS = 60_000;

export function BookingControls({ roomId }: { roomId: string }) {
  const { api } = useEngine();
  const { session, rooms, announce, timeZone } = useApp();
  const room = useViewEntry(rooms, roomId);
  const [duration, setDuration] = useState(30);
  const [subject, setSubject] = useState('');
  const [busy, setBusy] = useState(false);
  const durationId = useId();
  const subjectId = useId();
  if (!room) return null;
  const allDay = configValue(session, 'allDayBookingButton', false);
  const me = session.user?.id ?? null;
  const mine = (e: ReservationEvent | null): e is ReservationEvent =>
    !!e && (e.user_id === me || hasRole(session, 'edit'));
  const cancellable = [room.activeEvent, room.nextEvent].filter(mine);

  const book = async (minutes: number | 'day') => {
    setBusy(true);
    const start = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;
    const end = minutes === 'day' ? new Date(start).setHours(23, 59, 0, 0) : start + minutes * MINUTE_MS;
    const result = await api.book({ roomId, start, end, subject: subject.trim() || 'Meeting' });
    setBusy(false);
    announce(result.ok ? `${room.name} booked until ${formatTime(end, timeZone)}.` : `Booking failed: ${result.message}`, result.ok ? 'info' : 'error');
  };
  const cancel = async (event: ReservationEvent) => {
    setBusy(true);
    const result = await api.cancelBooking(roomId, event.booking_ref);
    setBusy(false);
    announce(result.ok ? `Booking of ${room.name} cancelled.` : `Cancelling failed: ${result.message}`, result.ok ? 'info' : 'error');
  };

  return (
    <div className="booking" role="group" aria-label={`Booking of ${room.name}`}>
      <p className="room-status">
        <span className={`status-chip ${room.free ? 'free' : 'busy'}`}>{room.free ? 'Free' : 'Busy'}</span> {room.status}
      </p>
      {room.bookable && room.free ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void book(duration);
          }}
        >
          <label htmlFor={subjectId}>Subject</label>
          <input id={subjectId} value={subject} onChange={(e) => setSubject(e.target.value)} maxLength={120} />
          <label htmlFor={durationId}>Duration</label>
          <select id={durationId} value={duration} onChange={(e) => setDuration(Number(e.target.value))}>
            {DURATIONS_MIN.map((m) => (
              <option key={m} value={m}>
                {m < 60 ? `${m} min` : `${m / 60} h`}
              </option>
            ))}
          </select>
          <button type="submit" disabled={busy}>
            Book now
          </button>
          {allDay ? (
            <button type="button" disabled={busy} onClick={() => void book('day')}>
              Book all day
            </button>
          ) : null}
        </form>
      ) : !room.bookable ? (
        <p>This room cannot be booked here.</p>
      ) : null}
      {cancellable.map((event) => (
        <button key={event.booking_ref} type="button" disabled={busy} onClick={() => void cancel(event)}>
          Cancel booking “{event.subject || 'Meeting'}” {formatTime(event.start, timeZone)}–{formatTime(event.end, timeZone)}
        </button>
      ))}
    </div>
  );
}
