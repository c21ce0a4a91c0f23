// Ticket and voice creation (spec §9: ticket labels it, cleaning,
// maintenance, facility; voice labels space, tech, culture, work, other; and
// the flags ticketsRequireCategory, ticketsAskForEmail,
// ticketsVoicesRequireModeration), placed at a point of the current floor.

import { useId, useState } from 'react';
import { useEngine } from '../hooks/engineContext.js';
import { useApp } from '../hooks/appContext.js';

export interface TicketFormProps {
  floorId: string;
  /** the point the item is placed at (picked on the floor, or the view centre) */
  point: { x: number; y: number };
  picking: boolean;
  onPick(active: boolean): void;
}

export function TicketForm({ floorId, point, picking, onPick }: TicketFormProps) {
  const { api } = useEngine();
  const { session, announce } = useApp();
  const [kind, setKind] = useState<'ticket' | 'voice'>('ticket');
  const [label, setLabel] = useState('');
  const [text, setText] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { label: useId(), text: useId(), email: useId() };
  const { config } = session;
  const ticketLabels = Object.keys(config.ticketLabels);
  const voiceLabels = config.voiceLabels;
  const requireCategory = kind === 'ticket' && config.ticketsRequireCategory;
  const askEmail = kind === 'ticket' && config.ticketsAskForEmail;
  const moderated = config.ticketsVoicesRequireModeration;
  const labels = kind === 'ticket' ? ticketLabels : voiceLabels;

  const submit = async () => {
    setError(null);
    if (!text.trim()) return setError('Write what it is about.');
    if (requireCategory && !label) return setError('Choose a category.');
    setBusy(true);
    const result = await api.createTicket({
      kind, floorId, x: point.x, y: point.y, label, text: text.trim(), ...(askEmail && email ? { email } : {}),
    });
    setBusy(false);
    if (!result.ok) return setError(`Sending failed: ${result.message}`);
    setText('');
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
            <input type="radio" name="kind" checked={kind === 'ticket'} onChange={() => { setKind('ticket'); setLabel(''); }} /> Ticket (something to fix)
          </label>
          <label>
            <input type="radio" name="kind" checked={kind === 'voice'} onChange={() => { setKind('voice'); setLabel(''); }} /> Voice (how it feels here)
          </label>
        </fieldset>
        <label htmlFor={ids.label}>Category{requireCategory ? ' (required)' : ''}</label>
        <select id={ids.label} value={label} onChange={(e) => setLabel(e.target.value)} aria-required={requireCategory}>
          <option value="">{requireCategory ? 'Choose…' : 'None'}</option>
          {labels.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
        <label htmlFor={ids.text}>Message</label>
        <textarea id={ids.text} value={text} onChange={(e) => setText(e.target.value)} maxLength={500} rows={3} />
        {askEmail ? (
          <>
            <label htmlFor={ids.email}>Email for updates</label>
            <input id={ids.email} type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
          </>
        ) : null}
        <p className="place">
          Placed at {point.x.toFixed(1)}, {point.y.toFixed(1)}.{' '}
          <button type="button" aria-pressed={picking} onClick={() => onPick(!picking)}>
            {picking ? 'Click the floor… (cancel)' : 'Pick a place on the floor'}
          </button>
        </p>
        {moderated ? <p className="hint">Tickets and voices are checked by a moderator before they show.</p> : null}
        {error ? <p role="alert" className="error">{error}</p> : null}
        <button type="submit" disabled={busy}>
          Send {kind}
        </button>
      </form>
    </section>
  );
}
