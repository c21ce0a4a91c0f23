// Room finder: rooms of the location with free or busy status in words,
// filtered by name and status, with booking and cancelling. During a replay
// it lists the replayed floor's rooms as they were at its instant, read-only.

import { useId, useMemo, useState } from 'react';
import type { RoomEntry } from '../../shared/api.js';
import { dataSettled, useApp } from '../hooks/appContext.js';
import { useView, useViewEntries, useViewReady } from '../hooks/useView.js';
import { compareText } from '../lib/collate.js';
import { BookingControls } from './BookingControls.js';
import { useReplay } from './reports/replayContext.js';
import { ReplayNote } from './reports/ReplayNote.js';

export type RoomFilter = 'all' | 'free' | 'busy';

export function filterRooms(rooms: readonly RoomEntry[], query: string, filter: RoomFilter): RoomEntry[] {
  const q = query.trim().toLowerCase();
  return rooms
    .filter((r) => (filter === 'all' ? true : filter === 'free' ? r.free : !r.free))
    .filter((r) => !q || r.name.toLowerCase().includes(q))
    .sort((a, b) => Number(b.free) - Number(a.free) || compareText(a.name, b.name));
}

export interface RoomFinderProps {
  floorName(floorId: string): string | null;
  onShow(room: RoomEntry): void;
  /** the query and filter, when the shell keeps them while another panel is shown */
  search?: RoomSearch;
  onSearch?(search: RoomSearch): void;
}

export interface RoomSearch {
  query: string;
  filter: RoomFilter;
}

export function RoomFinder({ floorName, onShow, ...kept }: RoomFinderProps) {
  const { rooms: live, session } = useApp();
  const replay = useReplay();
  const replayed = useView(replay ? { view: 'rooms', playback: replay } : null);
  const rooms = replay ? replayed : live;
  const ready = useViewReady(rooms);
  const entries = useViewEntries(rooms);
  const [own, setOwn] = useState<RoomSearch>({ query: '', filter: 'all' });
  const { query, filter } = kept.search ?? own;
  const setSearch = kept.onSearch ?? setOwn;
  const setQuery = (next: string) => setSearch({ query: next, filter });
  const setFilter = (next: RoomFilter) => setSearch({ query, filter: next });
  const [expanded, setExpanded] = useState<string | null>(null);
  const ids = { query: useId(), filter: useId() };
  const list = useMemo(() => filterRooms(Object.values(entries), query, filter), [entries, query, filter]);
  return (
    <section className="finder room-finder" aria-label="Room finder">
      <h2>Rooms</h2>
      {replay ? (
        <ReplayNote>
          {`the rooms of ${floorName(replay.floorId) ?? 'the replayed floor'} as they were then (the replay reads this floor). Booking is for now: go back to live to book.`}
        </ReplayNote>
      ) : null}
      <label htmlFor={ids.query}>Find a room</label>
      <input id={ids.query} type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
      <label htmlFor={ids.filter}>Show</label>
      <select id={ids.filter} value={filter} onChange={(e) => setFilter(e.target.value as RoomFilter)}>
        <option value="all">All rooms</option>
        <option value="free">Free rooms</option>
        <option value="busy">Busy rooms</option>
      </select>
      {!ready || (list.length === 0 && !dataSettled(session)) ? (
        <p role="status">Loading rooms…</p>
      ) : list.length === 0 ? (
        <p role="status">No rooms match.</p>
      ) : (
        <ul>
          {list.map((room) => (
            <li key={room.id} className={room.free ? 'free' : 'busy'}>
              <span className="room-name">{room.name}</span>{' '}
              <span className={`status-chip ${room.free ? 'free' : 'busy'}`}>{room.status}</span>
              {room.capacity ? <span> · {room.capacity} seats</span> : null}
              {room.floorId ? <span> · {floorName(room.floorId) ?? ''}</span> : null}
              {room.text ? <div className="room-text">{room.text}</div> : null}
              <div className="row">
                <button type="button" onClick={() => onShow(room)} aria-label={`Show ${room.name} on the floor`}>
                  Show
                </button>
                {room.bookable ? (
                  <button
                    type="button"
                    aria-expanded={expanded === room.id}
                    onClick={() => setExpanded(expanded === room.id ? null : room.id)}
                    aria-label={`Booking of ${room.name}`}
                  >
                    Booking
                  </button>
                ) : null}
              </div>
              {room.bookable && expanded === room.id ? <BookingControls roomId={room.id} /> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
