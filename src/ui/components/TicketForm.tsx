// Ticket and voice creation (spec §9: ticket labels it, cleaning,
// maintenance, facility; voice labels space, tech, culture, work, other; and
// the flags ticketsRequireCategory, ticketsAskForEmail,
// ticketsVoicesRequireModeration), placed at a point of the current floor.
// While the server cannot be reached the form stays open to write in; only
// sending waits, with the reason beside it. What the person wrote is a draft
// the shell keeps, so a look at another panel (People, a room) and back finds
// it as it was; sending clears the message.

import { useId, useState, type Dispatch, type SetStateAction } from 'react';
import { defaultTicketLabel } from '../../shared/config.js';
import { useEngine } from '../hooks/engineContext.js';
import { useApp } from '../hooks/appContext.js';
import { errorText } from '../lib/errorText.js';
import { NeedsServer } from './NeedsServer.js';

/** What the person has written so far, kept by the shell while the form is not shown. */
export interface TicketDraft {
  kind: 'ticket' | 'voice';
  /** the person's own category, or null: the location's default */
  label: string | null;
  text: string;
  email: string;
}

export const EMPTY_TICKET_DRAFT: TicketDraft = { kind: 'ticket', label: null, text: '', email: '' };

export interface TicketFormProps {
  floorId: string;
  draft: TicketDraft;
  onDraft: Dispatch<SetStateAction<TicketDraft>>;
  /** the point the item is placed at (picked on the floor, or the view centre); null until the floor is drawn */
  point: { x: number; y: number } | null;
  /** where the point is in words ("in room F0-R1"), once the floor is drawn */
  placeSaid?: string | null;
  picking: boolean;
  onPick(active: boolean): void;
}

export function TicketForm({ floorId, draft, onDraft, point, placeSaid = null, picking, onPick }: TicketFormProps) {
  const { api } = useEngine();
  const { session, announce, writable } = useApp();
  const { config } = session;
  // the person's own category, or null: then the location's default (a valid category, or
  // none when it wants the person to choose), following a config that arrives while open
  const { kind, label: chosenLabel, text, email } = draft;
  const setKind = (next: TicketDraft['kind']) => onDraft((d) => ({ ...d, kind: next, label: null }));
  const setLabel = (next: string) => onDraft((d) => ({ ...d, label: next }));
  const setText = (next: string) => onDraft((d) => ({ ...d, text: next }));
  const setEmail = (next: string) => onDraft((d) => ({ ...d, email: next }));
  const [error, setError] = useState<{ field: 'label' | 'text' | 'email' | 'place' | null; text: string } | null>(null);
  // "no place yet" holds until there is one: once the floor is drawn (or a place picked) it goes, as the
  // line above the button already says where the item goes (React's "adjust state when a prop changes")
  if (error?.field === 'place' && point) setError(null);
  const [busy, setBusy] = useState(false);
  const ids = { label: useId(), text: useId(), email: useId(), error: useId(), needsServer: useId() };
  const ticketLabels = Object.keys(config.ticketLabels);
  const voiceLabels = config.voiceLabels;
  const requireCategory = kind === 'ticket' && config.ticketsRequireCategory;
  const askEmail = kind === 'ticket' && config.ticketsAskForEmail;
  const moderated = config.ticketsVoicesRequireModeration;
  const labels = kind === 'ticket' ? ticketLabels : voiceLabels;
  const label = chosenLabel ?? defaultTicketLabel(config, kind) ?? '';

  const submit = async () => {
    setError(null);
    if (requireCategory && !label) return setError({ field: 'label', text: 'Category: choose one.' });
    if (!text.trim()) return setError({ field: 'text', text: 'Message: write what it is about.' });
    if (askEmail && !email.trim()) return setError({ field: 'email', text: 'Email for updates: enter an address.' });
    if (!point) return setError({ field: 'place', text: 'Place: the floor is not drawn yet. Wait for it, or pick a place on the floor.' });
    setBusy(true);
    const result = await api.createTicket({
      kind, floorId, x: point.x, y: point.y, label, text: text.trim(), ...(askEmail && email ? { email } : {}),
    });
    setBusy(false);
    if (!result.ok) return setError({ field: null, text: `Sending failed: ${errorText(result)}` });
    // what was sent leaves the draft; anything written meanwhile stays
    onDraft((d) => (d.text === text ? { ...d, text: '' } : d));
    announce(moderated ? `Thanks! Your ${kind} will show once a moderator approves it.` : `Thanks! Your ${kind} is on the floor.`);
  };

  return (
    <section className="ticket-form" aria-label="Report an issue or give feedback">
      <h2>Report or give feedback</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <fieldset>
          <legend>Kind</legend>
          <label>
            <input type="radio" name="kind" checked={kind === 'ticket'} onChange={() => setKind('ticket')} /> Ticket (something to fix)
          </label>
          <label>
            <input type="radio" name="kind" checked={kind === 'voice'} onChange={() => setKind('voice')} /> Voice (how it feels here)
          </label>
        </fieldset>
        <label htmlFor={ids.label}>Category{requireCategory ? ' (required)' : ''}</label>
        <select
          id={ids.label}
          value={label}
          onChange={(e) => setLabel(e.target.value)}
          aria-required={requireCategory}
          aria-invalid={error?.field === 'label' ? true : undefined}
          aria-describedby={error?.field === 'label' ? ids.error : undefined}
        >
          {label ? null : <option value="">Choose…</option>}
          {labels.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
        <label htmlFor={ids.text}>Message</label>
        <textarea
          id={ids.text}
          value={text}
          onChange={(e) => setText(e.target.value)}
          maxLength={500}
          rows={3}
          aria-invalid={error?.field === 'text' ? true : undefined}
          aria-describedby={error?.field === 'text' ? ids.error : undefined}
        />
        {askEmail ? (
          <>
            <label htmlFor={ids.email}>Email for updates</label>
            <input
              id={ids.email}
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={error?.field === 'email' ? true : undefined}
              aria-describedby={error?.field === 'email' ? ids.error : undefined}
            />
          </>
        ) : null}
        <p className="place">
          {point ? `Placed at the red pin on the map (${point.x.toFixed(1)}, ${point.y.toFixed(1)})${placeSaid ? `, ${placeSaid}` : ''}. ` : 'Placed at the centre of the view once the floor is drawn. '}
          <button type="button" aria-pressed={picking} onClick={() => onPick(!picking)}>
            {picking ? 'Click the floor, or arrow keys and Enter… (cancel)' : 'Pick a place on the floor'}
          </button>
        </p>
        {moderated ? <p className="hint">Tickets and voices are checked by a moderator before they show.</p> : null}
        {error ? <p role="alert" className="error" id={ids.error}>{error.text}</p> : null}
        {writable ? null : <NeedsServer id={ids.needsServer} />}
        <button type="submit" disabled={busy || !writable} aria-describedby={writable ? undefined : ids.needsServer}>
          Send {kind}
        </button>
      </form>
    </section>
  );
}
