// The asset popup (spec §3/§9: 300×250 unless the asset sets its own size):
// details, current value, reservation text, recent history, and the actions
// the user's role allows (booking, votes, edits). Server text stays text.

import { useEffect, useId, useRef, useState } from 'react';
import type { DrawState } from '../../shared/api.js';
import { POPUP_DEFAULT_HEIGHT, POPUP_DEFAULT_WIDTH } from '../../shared/constants.js';
import { useEngine } from '../hooks/engineContext.js';
import { hasRole, useApp } from '../hooks/appContext.js';
import { useViewEntry } from '../hooks/useView.js';
import { formatDateTime, formatTime, typeWord } from '../lib/describe.js';
import { useFloorContext } from './floorContext.js';
import { BookingControls } from './BookingControls.js';
import { RecentBookings, ReportLine } from './reports/ReportDetails.js';

export interface PopupProps {
  id: string;
  /** anchor point in the viewer, px */
  left: number;
  top: number;
  bounds: { w: number; h: number };
  onClose(): void;
}

function Votes({ entry }: { entry: DrawState }) {
  const { api } = useEngine();
  const { announce } = useApp();
  const votes = entry.votes ?? { up: 0, down: 0, mine: 0 };
  const cast = async (direction: 1 | -1 | 0) => {
    const result = await api.vote(entry.id, direction);
    announce(result.ok ? 'Vote saved.' : `Vote failed: ${result.message}`, result.ok ? 'info' : 'error');
  };
  return (
    <div className="votes" role="group" aria-label="Votes">
      <button type="button" aria-pressed={votes.mine === 1} onClick={() => void cast(votes.mine === 1 ? 0 : 1)}>
        ▲ Agree ({votes.up})
      </button>
      <button type="button" aria-pressed={votes.mine === -1} onClick={() => void cast(votes.mine === -1 ? 0 : -1)}>
        ▼ Disagree ({votes.down})
      </button>
    </div>
  );
}

function EditControls({ entry }: { entry: DrawState }) {
  const { api } = useEngine();
  const { announce } = useApp();
  const [name, setName] = useState(entry.name);
  const nameId = useId();
  return (
    <form
      className="edit-controls"
      onSubmit={(event) => {
        event.preventDefault();
        void api.updateAsset(entry.id, { name }).then((r) => announce(r.ok ? 'Asset renamed.' : `Rename failed: ${r.message}`, r.ok ? 'info' : 'error'));
      }}
    >
      <label htmlFor={nameId}>Name</label>
      <input id={nameId} value={name} onChange={(e) => setName(e.target.value)} />
      <button type="submit">Rename</button>
    </form>
  );
}

function ServiceControls({ entry }: { entry: DrawState }) {
  const { api } = useEngine();
  const { announce } = useApp();
  return (
    <button
      type="button"
      onClick={() =>
        void api.updateAsset(entry.id, { unpublished: true }).then((r) =>
          announce(r.ok ? 'Ticket closed.' : `Closing failed: ${r.message}`, r.ok ? 'info' : 'error'),
        )
      }
    >
      Close ticket
    </button>
  );
}

export function Popup({ id, left, top, bounds, onClose }: PopupProps) {
  const { mirror } = useFloorContext();
  const { session, timeZone } = useApp();
  const entry = useViewEntry(mirror, id);
  const titleId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    closeRef.current?.focus();
  }, [id]);
  const width = entry?.popup.width || POPUP_DEFAULT_WIDTH;
  const height = entry?.popup.height || POPUP_DEFAULT_HEIGHT;
  // keep the popup inside the viewer, above-right of the anchor when there is room
  const x = Math.max(4, Math.min(left + 12, bounds.w - width - 4));
  const y = Math.max(4, Math.min(top - height / 2, bounds.h - height - 4));
  const value = entry && entry.value !== null && entry.value !== '' ? `${entry.value}${entry.unit ? ` ${entry.unit}` : ''}` : null;

  return (
    <div
      className="popup"
      role="dialog"
      aria-labelledby={titleId}
      style={{ left: x, top: y, width, height }}
      data-testid="asset-popup"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <header>
        <h2 id={titleId}>{entry ? entry.name || typeWord(entry) : 'Asset'}</h2>
        <button type="button" ref={closeRef} onClick={onClose} aria-label="Close details">
          ×
        </button>
      </header>
      {!entry ? (
        <p>This asset is no longer on the floor.</p>
      ) : (
        <>
          <dl className="details">
            <dt>Type</dt>
            <dd>
              {typeWord(entry)}
              {entry.subtype ? ` (${entry.subtype})` : ''}
            </dd>
            {entry.status ? (
              <>
                <dt>Status</dt>
                <dd className="status-word">{entry.status}</dd>
              </>
            ) : null}
            {value ? (
              <>
                <dt>Current value</dt>
                <dd>{value}</dd>
              </>
            ) : null}
            {typeof entry.battery === 'number' ? (
              <>
                <dt>Battery</dt>
                <dd>{entry.battery} %</dd>
              </>
            ) : null}
            {typeof entry.lastCommunication === 'number' ? (
              <>
                <dt>Last communication</dt>
                <dd>{formatDateTime(entry.lastCommunication, timeZone)}</dd>
              </>
            ) : null}
            {entry.label && entry.label !== entry.name ? (
              <>
                <dt>Label</dt>
                <dd>{entry.label}</dd>
              </>
            ) : null}
            {entry.greyedOut || entry.missingSymbol ? (
              <>
                <dt>Data</dt>
                <dd>No recent data</dd>
              </>
            ) : null}
          </dl>
          {entry.activeEvent ? (
            <p className="reservation-now">
              Now: {entry.activeEvent.subject || 'Reserved'}, {formatTime(entry.activeEvent.start, timeZone)}–
              {formatTime(entry.activeEvent.end, timeZone)}
            </p>
          ) : null}
          {entry.text ? <p className="asset-text">{entry.text}</p> : null}
          <ReportLine id={entry.id} />
          {entry.type === 'room' ? <BookingControls roomId={entry.id} /> : null}
          {entry.type === 'room' ? <RecentBookings roomId={entry.id} /> : null}
          {entry.type === 'ticket' || entry.type === 'voice' ? <Votes entry={entry} /> : null}
          {entry.type === 'ticket' && hasRole(session, 'service') ? <ServiceControls entry={entry} /> : null}
          {hasRole(session, 'edit') && entry.type !== 'employee' ? <EditControls entry={entry} /> : null}
          <section aria-label="Recent history" className="history">
            <h3>Recent history</h3>
            {entry.history && entry.history.length ? (
              <ul>
                {entry.history.slice(0, 10).map((h, i) => (
                  <li key={`${h.time}-${i}`}>
                    <time dateTime={new Date(h.time).toISOString()}>{formatDateTime(h.time, timeZone)}</time> {h.text}
                  </li>
                ))}
              </ul>
            ) : (
              <p>No recent history.</p>
            )}
          </section>
        </>
      )}
    </div>
  );
}
