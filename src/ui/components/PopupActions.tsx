// What a person can do from a popup, in its footer so the actions are in
// sight without scrolling at 300×250: book (BookingControls), vote, close a
// ticket, and for the edit role rename and publish. The worker decides which
// actions this user has (AssetDetail.actions); the UI sends intents. While the
// server cannot be reached they stay in sight, disabled, and the footer says
// why once (hooks/useServerReach.ts).

import { useId, useState } from 'react';
import type { AssetDetail } from '../../shared/api.js';
import { useApp } from '../hooks/appContext.js';
import { useEngine } from '../hooks/engineContext.js';
import { errorText } from '../lib/errorText.js';
import { BookingControls } from './BookingControls.js';
import { NeedsServer } from './NeedsServer.js';

/** The id of the footer's reason, for the controls it disables (null while the server can be reached). */
type Why = string | undefined;

function Votes({ detail, why }: { detail: AssetDetail; why: Why }) {
  const { api } = useEngine();
  const { announce } = useApp();
  const votes = detail.votes ?? { up: 0, down: 0, mine: 0 };
  const cast = async (direction: 1 | -1 | 0) => {
    const result = await api.vote(detail.id, direction);
    announce(result.ok ? 'Vote saved.' : `Vote failed: ${errorText(result)}`, result.ok ? 'info' : 'error');
  };
  return (
    <div className="votes" role="group" aria-label="Votes">
      <button type="button" aria-pressed={votes.mine === 1} disabled={!!why} aria-describedby={why} onClick={() => void cast(votes.mine === 1 ? 0 : 1)}>
        ▲ Agree ({votes.up})
      </button>
      <button type="button" aria-pressed={votes.mine === -1} disabled={!!why} aria-describedby={why} onClick={() => void cast(votes.mine === -1 ? 0 : -1)}>
        ▼ Disagree ({votes.down})
      </button>
    </div>
  );
}

function CloseTicket({ detail, why, onClosed }: { detail: AssetDetail; why: Why; onClosed?: () => void }) {
  const { api } = useEngine();
  const { announce } = useApp();
  return (
    <button
      type="button"
      disabled={!!why}
      aria-describedby={why}
      onClick={() =>
        void api.closeTicket(detail.id).then((r) => {
          announce(r.ok ? 'Ticket closed.' : `Closing failed: ${errorText(r)}`, r.ok ? 'info' : 'error');
          // a closed ticket is done and leaves the map (its validity ends, docs/layers.md): its popup goes with it,
          // rather than staying to say the asset is no longer on the floor
          if (r.ok) onClosed?.();
        })
      }
    >
      Close ticket
    </button>
  );
}

/** Rename (an empty name is refused here, with the reason next to the field) and publish or unpublish. */
function EditControls({ detail, why }: { detail: AssetDetail; why: Why }) {
  const { api } = useEngine();
  const { announce } = useApp();
  const [name, setName] = useState(detail.name);
  const [error, setError] = useState<string | null>(null);
  const nameId = useId();
  const errorId = useId();
  const rename = async () => {
    if (!name.trim()) {
      setError('A name cannot be empty.');
      return;
    }
    setError(null);
    const r = await api.updateAsset(detail.id, { name: name.trim() });
    if (r.ok) announce('Renamed.');
    else setError(errorText(r));
  };
  const publish = async (unpublished: boolean) => {
    const r = await api.updateAsset(detail.id, { unpublished });
    announce(r.ok ? (unpublished ? 'Unpublished: only editors see it now.' : 'Published: everyone sees it now.') : `Publishing failed: ${errorText(r)}`, r.ok ? 'info' : 'error');
  };
  return (
    <div className="edit-controls">
      {detail.actions.rename ? (
        <form
          className="rename"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void rename();
          }}
        >
          <label htmlFor={nameId} className="visually-hidden">
            Name
          </label>
          <input
            id={nameId}
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
          <button type="submit" disabled={!!why} aria-describedby={why}>Rename</button>
        </form>
      ) : null}
      {error ? (
        <p id={errorId} role="alert" className="error">
          {error}
        </p>
      ) : null}
      {detail.actions.publish ? (
        <button type="button" disabled={!!why} aria-describedby={why} onClick={() => void publish(!detail.unpublished)}>
          {detail.unpublished ? 'Publish' : 'Unpublish'}
        </button>
      ) : null}
    </div>
  );
}

/** The popup's footer, or nothing when this user has no action on the asset. */
export function PopupActions({ detail, onClose }: { detail: AssetDetail; /** closes the popup */ onClose?: () => void }) {
  const { writable } = useApp();
  const reasonId = useId();
  const { actions } = detail;
  const booking = detail.kind === 'room' && (actions.book || actions.cancellable.length > 0);
  const edit = actions.rename || actions.publish;
  if (!booking && !actions.vote && !actions.closeTicket && !edit) return null;
  const why = writable ? undefined : reasonId;
  return (
    <footer className="popup-actions" aria-label="Actions">
      {why ? <NeedsServer id={why} /> : null}
      {booking ? <BookingControls roomId={detail.id} detail={detail} needsServerId={reasonId} /> : null}
      {actions.vote || actions.closeTicket ? (
        <div className="action-row">
          {actions.vote ? <Votes detail={detail} why={why} /> : null}
          {actions.closeTicket ? <CloseTicket detail={detail} why={why} onClosed={onClose} /> : null}
        </div>
      ) : null}
      {edit ? <EditControls key={detail.id} detail={detail} why={why} /> : null}
    </footer>
  );
}
