// People finder: find a co-worker by name or email and show them on the floor.
// Hidden people (privacy zone, invisible, stale) are listed without a place.

import { useEffect, useId, useMemo, useState } from 'react';
import type { PersonEntry } from '../../shared/api.js';
import { dataSettled, useApp } from '../hooks/appContext.js';
import { useView, useViewEntries, useViewReady } from '../hooks/useView.js';
import { compareText } from '../lib/collate.js';
import { useReplay } from './reports/replayContext.js';
import { ReplayNote } from './reports/ReplayNote.js';

const MAX_RESULTS = 20;

export function matchPeople(people: readonly PersonEntry[], query: string): PersonEntry[] {
  const q = query.trim().toLowerCase();
  const hits = q ? people.filter((p) => p.name.toLowerCase().includes(q) || p.email.toLowerCase().includes(q)) : [...people];
  return hits.sort((a, b) => Number(b.visible) - Number(a.visible) || compareText(a.name, b.name)).slice(0, MAX_RESULTS);
}

export interface PeopleFinderProps {
  floorName(floorId: string): string | null;
  onShow(person: PersonEntry): void;
  /** the query, when the shell keeps it while another panel is shown (its tabs select as the arrows move) */
  query?: string;
  onQuery?(query: string): void;
  /** switches to the other location a person is at (their `elsewhere`); the finder then shows them there */
  onGoTo?(person: PersonEntry): void;
}

/** How long after a switch of location the finder waits to show the person it was made for, ms. */
const GO_TO_SHOW_WAIT_MS = 30_000;

/**
 * Where a person is, in words. Until the location's data is in, a person not
 * placed yet may well be on a floor: "locating…", never "not shown on a floor".
 */
function whereText(p: PersonEntry, where: string | null, replay: boolean, settled: boolean): string {
  if (!p.visible && p.elsewhere && !replay) return `at ${p.elsewhere.locationName}`;
  if (!p.visible) return replay ? 'not on a floor then' : settled ? 'not shown on a floor' : 'locating…';
  return where ? `on ${where}${p.manual ? ' (set by hand)' : ''}` : 'not on a floor';
}

export function PeopleFinder({ floorName, onShow, onGoTo, ...kept }: PeopleFinderProps) {
  const replay = useReplay();
  const mirror = useView(replay ? { view: 'people', playback: replay } : { view: 'people' });
  const ready = useViewReady(mirror);
  const entries = useViewEntries(mirror);
  const { session } = useApp();
  const [own, setOwn] = useState('');
  const query = kept.query ?? own;
  const setQuery = kept.onQuery ?? setOwn;
  const inputId = useId();
  const results = useMemo(() => matchPeople(Object.values(entries), query), [entries, query]);
  // the organization's people come before the location's floors and assets that place them
  const settled = dataSettled(session);
  // a person gone to at their location: shown there once its floors place them (or given up after a while)
  const [goingTo, setGoingTo] = useState<string | null>(null);
  const arrived = goingTo ? entries[goingTo] : undefined;
  // (once the location's buildings are in too, so the words name the floor)
  const arrivedOn = arrived?.visible && arrived.floorId ? floorName(arrived.floorId) : null;
  useEffect(() => {
    if (!arrived || !arrivedOn) return;
    setGoingTo(null);
    onShow(arrived);
  }, [arrived, arrivedOn, onShow]);
  useEffect(() => {
    if (!goingTo) return;
    const timer = setTimeout(() => setGoingTo(null), GO_TO_SHOW_WAIT_MS);
    return () => clearTimeout(timer);
  }, [goingTo]);
  return (
    <section className="finder people-finder" aria-label="People finder">
      <h2>People</h2>
      <ReplayNote>where people were then.</ReplayNote>
      <label htmlFor={inputId}>Find a co-worker</label>
      <input id={inputId} type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Name or email" />
      {!ready || (results.length === 0 && !query && !dataSettled(session)) ? (
        <p role="status">Loading people…</p>
      ) : results.length === 0 ? (
        <p role="status">{query ? 'Nobody matches.' : 'No co-workers yet.'}</p>
      ) : (
        <ul>
          {results.map((p) => {
            const where = p.visible && p.floorId ? floorName(p.floorId) : null;
            return (
              <li key={p.id}>
                <span className="person-text">
                  <span className="person-name">{p.name}</span>{' '}
                  <span className="person-where">
                    {whereText(p, where, replay !== null, settled)}
                  </span>
                </span>
                {p.visible && p.floorId ? (
                  <button type="button" onClick={() => onShow(p)} aria-label={`Show ${p.name} on the floor`}>
                    Show
                  </button>
                ) : p.elsewhere && !replay && onGoTo ? (
                  <button
                    type="button"
                    onClick={() => {
                      setGoingTo(p.id);
                      onGoTo(p);
                    }}
                    aria-label={`Go to ${p.elsewhere.locationName} and show ${p.name}`}
                  >
                    Go there
                  </button>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
