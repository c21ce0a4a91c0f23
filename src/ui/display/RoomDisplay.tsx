// A room-status display (docs/ui.md "Room display"): the room's §4 colour
// fills the screen; its name, status, current and next meeting, today's
// agenda and "Book 15 / 30 / 60 min" in type readable from three metres; no
// scrolling, no map. A small mark tells when the data is saved, not live.

import { useEffect, useState } from 'react';
import { SELF_KEY, type ConnectionView, type RoomDisplayEntry } from '../../shared/api.js';
import { formatEndTime, formatTime, formatTimeRange } from '../lib/timeFormat.js';
import { useEngine } from '../hooks/engineContext.js';
import { NEEDS_SERVER } from '../hooks/useServerReach.js';
import { useView, useViewEntry, useViewReady } from '../hooks/useView.js';
import { textColorOn } from './contrast.js';
// its styles (display.css) are in the page's head: main.tsx imports them

/** At most this many agenda lines fit under the status at any screen size (no scrolling). */
export const AGENDA_LINES = 6;

const STATUS_WORDS: Record<string, string> = {
  free: 'Free', reserved: 'Reserved', occupied: 'Occupied', 'occupied and reserved': 'In use', 'no data': 'No data', 'not applicable': 'Room',
};

function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** The lines of the agenda to show: from the meeting before the current or next one, AGENDA_LINES at most. */
export function visibleAgenda(entry: RoomDisplayEntry, now: number): RoomDisplayEntry['agenda'] {
  const { agenda } = entry;
  const firstUpcoming = agenda.findIndex((e) => e.end > now);
  const from = firstUpcoming < 0 ? Math.max(0, agenda.length - AGENDA_LINES) : Math.max(0, Math.min(firstUpcoming - 1, agenda.length - AGENDA_LINES));
  return agenda.slice(from, from + AGENDA_LINES);
}

export function offlineText(c: ConnectionView | undefined, lastLive: number | null, timeZone: string): string | null {
  if (!c) return null;
  const live = c.state === 'connected' && c.online && !c.fromCache;
  if (live) return null;
  const since = lastLive !== null ? ` · last update ${formatTime(lastLive, timeZone)}` : '';
  return `${c.online ? 'Reconnecting' : 'Offline'}${since}`;
}

export function RoomDisplay({ roomId }: { roomId: string }) {
  const { api } = useEngine();
  const mirror = useView({ view: 'roomDisplay', roomId });
  const ready = useViewReady(mirror);
  const room = useViewEntry(mirror, SELF_KEY);
  const connection = useViewEntry(useView({ view: 'connection' }), SELF_KEY);
  const now = useMinuteClock() + (connection?.serverOffsetMs ?? 0);
  const [busy, setBusy] = useState<number | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const live = !!connection && connection.state === 'connected' && connection.online && !connection.fromCache;
  // when live data last came: noted while rendering the change (React's
  // "adjusting state when a prop changes"), on the display's corrected clock
  const [seen, setSeen] = useState({ room, live, at: live ? now : null });
  if (seen.room !== room || seen.live !== live) setSeen({ room, live, at: live ? now : seen.at });
  const lastLive = seen.at;

  if (!room) {
    return (
      <main className="room-display waiting" role="status">
        {ready ? 'This room is not (or not yet) in the loaded location.' : 'Loading the room…'}
      </main>
    );
  }

  const ink = textColorOn(room.color);
  const zone = room.timeZone;
  const offline = offlineText(connection, lastLive, zone);
  const book = async (minutes: number) => {
    setBusy(minutes);
    setMessage(null);
    const result = await api.bookRoom({ roomId, until: { minutes }, subject: 'Booked at the display' });
    setBusy(null);
    setMessage(result.ok ? `Booked until ${formatEndTime(result.value.end, zone)}.` : `Could not book: ${result.message}`);
  };

  return (
    <main
      className={`room-display status-${room.statusKind}`}
      style={{ background: room.color, color: ink }}
      data-status-kind={room.statusKind}
      data-color={room.color}
      aria-label={`${room.name}: ${room.status}`}
    >
      <header className="rd-head">
        <h1 className="rd-name">{room.name}</h1>
        <p className="rd-place">{[room.floorName, room.buildingName].filter(Boolean).join(' · ')}</p>
        <p className="rd-clock" aria-label="Time now">{formatTime(now, zone)}</p>
      </header>
      <section className="rd-status" aria-live="polite">
        <p className="rd-word" data-testid="room-status">{STATUS_WORDS[room.status] ?? room.status}</p>
        {room.current ? (
          <p className="rd-current">
            {room.current.subject || 'Meeting'} <span className="rd-until">until {formatTime(room.current.end, zone)}</span>
          </p>
        ) : null}
        <p className="rd-next" data-testid="room-next">{room.text?.split('\n').at(-1) ?? ''}</p>
      </section>
      {room.bookMinutes.length > 0 ? (
        <section className="rd-book" aria-label="Book this room now">
          {room.bookMinutes.map((m) => (
            <button key={m} type="button" disabled={busy !== null || offline !== null} title={offline ? NEEDS_SERVER : undefined} onClick={() => void book(m)} style={{ color: ink, borderColor: ink }}>
              {busy === m ? 'Booking…' : `Book ${m} min`}
            </button>
          ))}
        </section>
      ) : null}
      {message ? <p className="rd-message" role="status">{message}</p> : null}
      <section className="rd-agenda" aria-label="Today">
        <h2>Today</h2>
        {room.agenda.length === 0 ? (
          <p>No meetings today.</p>
        ) : (
          <ol data-testid="room-agenda">
            {visibleAgenda(room, now).map((e) => (
              <li key={e.booking_ref} className={e.end <= now ? 'past' : e.start < now ? 'now' : ''}>
                <span className="rd-slot">{formatTimeRange(e.start, e.end, zone, now, false)}</span> <span className="rd-subject">{e.subject || 'Meeting'}</span>
              </li>
            ))}
          </ol>
        )}
      </section>
      {offline ? <p className="rd-offline" role="status" data-testid="display-offline">{offline}</p> : null}
    </main>
  );
}
