// The asset popup (spec §3/§9: 300×250 unless the asset sets its own size):
// details, current value, reservation text, recent history, and the actions
// the user's role allows (booking, votes, edits). Server text stays text.

import { useEffect, useId, useRef, useState } from 'react';
import { SELF_KEY, type AssetDetail } from '../../shared/api.js';
import { POPUP_DEFAULT_HEIGHT, POPUP_DEFAULT_WIDTH } from '../../shared/constants.js';
import { useEngine } from '../hooks/engineContext.js';
import { useApp } from '../hooks/appContext.js';
import { useView, useViewEntry, useViewReady } from '../hooks/useView.js';
import { formatDateTime, formatTime, kindWord } from '../lib/describe.js';
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

function Votes({ detail }: { detail: AssetDetail }) {
  const { api } = useEngine();
  const { announce } = useApp();
  const votes = detail.votes ?? { up: 0, down: 0, mine: 0 };
  const cast = async (direction: 1 | -1 | 0) => {
    const result = await api.vote(detail.id, direction);
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

function EditControls({ detail }: { detail: AssetDetail }) {
  const { api } = useEngine();
  const { announce } = useApp();
  const [name, setName] = useState(detail.name);
  const nameId = useId();
  return (
    <form
      className="edit-controls"
      onSubmit={(event) => {
        event.preventDefault();
        void api.updateAsset(detail.id, { name }).then((r) => announce(r.ok ? 'Asset renamed.' : `Rename failed: ${r.message}`, r.ok ? 'info' : 'error'));
      }}
    >
      <label htmlFor={nameId}>Name</label>
      <input id={nameId} value={name} onChange={(e) => setName(e.target.value)} />
      <button type="submit">Rename</button>
    </form>
  );
}

function CloseTicket({ detail }: { detail: AssetDetail }) {
  const { api } = useEngine();
  const { announce } = useApp();
  return (
    <button
      type="button"
      onClick={() =>
        void api.closeTicket(detail.id).then((r) => announce(r.ok ? 'Ticket closed.' : `Closing failed: ${r.message}`, r.ok ? 'info' : 'error'))
      }
    >
      Close ticket
    </button>
  );
}

export function Popup({ id, left, top, bounds, onClose }: PopupProps) {
  const { timeZone } = useApp();
  const view = useView({ view: 'asset', assetId: id });
  const ready = useViewReady(view);
  const detail = useViewEntry(view, SELF_KEY);
  const titleId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    closeRef.current?.focus();
  }, [id]);
  const width = detail?.popup.width || POPUP_DEFAULT_WIDTH;
  const height = detail?.popup.height || POPUP_DEFAULT_HEIGHT;
  // keep the popup inside the viewer, above-right of the anchor when there is room
  const x = Math.max(4, Math.min(left + 12, bounds.w - width - 4));
  const y = Math.max(4, Math.min(top - height / 2, bounds.h - height - 4));

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
        <h2 id={titleId}>{detail ? detail.name || kindWord(detail.kind) : 'Asset'}</h2>
        <button type="button" ref={closeRef} onClick={onClose} aria-label="Close details">
          ×
        </button>
      </header>
      {!detail ? (
        <p>{ready ? 'This asset is no longer on the floor.' : 'Loading…'}</p>
      ) : (
        <>
          <dl className="details">
            <dt>Type</dt>
            <dd>
              {kindWord(detail.kind)}
              {detail.subtype && detail.subtype !== detail.kind ? ` (${detail.subtype})` : ''}
              {detail.unpublished ? ' — unpublished' : ''}
            </dd>
            {detail.status ? (
              <>
                <dt>Status</dt>
                <dd className="status-word">{detail.status}</dd>
              </>
            ) : null}
            {detail.value ? (
              <>
                <dt>{detail.value.quantity ?? 'Current value'}</dt>
                <dd>{detail.value.text}</dd>
              </>
            ) : null}
            {detail.person?.since ? (
              <>
                <dt>Here since</dt>
                <dd>{formatDateTime(detail.person.since, timeZone)}</dd>
              </>
            ) : null}
            {typeof detail.battery === 'number' ? (
              <>
                <dt>Battery</dt>
                <dd>{detail.battery} %</dd>
              </>
            ) : null}
            {typeof detail.lastCommunication === 'number' ? (
              <>
                <dt>Last communication</dt>
                <dd>{formatDateTime(detail.lastCommunication, timeZone)}</dd>
              </>
            ) : null}
            {detail.noRecentData ? (
              <>
                <dt>Data</dt>
                <dd>No recent data</dd>
              </>
            ) : null}
          </dl>
          {detail.reservation?.active ? (
            <p className="reservation-now">
              Now: {detail.reservation.active.subject || 'Reserved'}, {formatTime(detail.reservation.active.start, timeZone)}–
              {formatTime(detail.reservation.active.end, timeZone)}
            </p>
          ) : null}
          {detail.reservation ? <p className="asset-text">{detail.reservation.text}</p> : null}
          {detail.text ? <p className="asset-text">{detail.text}</p> : null}
          <ReportLine id={detail.id} />
          {detail.kind === 'room' ? <BookingControls roomId={detail.id} /> : null}
          {detail.kind === 'room' ? <RecentBookings roomId={detail.id} /> : null}
          {detail.actions.vote ? <Votes detail={detail} /> : null}
          {detail.actions.closeTicket ? <CloseTicket detail={detail} /> : null}
          {detail.actions.rename ? <EditControls key={detail.id} detail={detail} /> : null}
          <section aria-label="Recent history" className="history">
            <h3>Recent history{detail.value?.quantity ? ` (${detail.value.quantity}${detail.value.unit ? `, ${detail.value.unit}` : ''})` : ''}</h3>
            {detail.history.length ? (
              <ul>
                {detail.history.slice(0, 10).map((h, i) => (
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
