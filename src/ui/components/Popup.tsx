// The asset popup (spec §3/§9: 300×250 unless the asset sets its own size).
// Three bands: a header with the name, kind and status (said once), a body
// that scrolls (details, reservation, person, value and its history), and a
// footer with the actions (PopupActions), always in sight. Server text stays
// text; times are the location's (lib/timeFormat.ts).

import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { SELF_KEY, type AssetDetail } from '../../shared/api.js';
import { POPUP_DEFAULT_HEIGHT, POPUP_DEFAULT_WIDTH } from '../../shared/constants.js';
import { placePopup } from '../lib/popupPlace.js';
import { useApp } from '../hooks/appContext.js';
import { useView, useViewEntry, useViewReady } from '../hooks/useView.js';
import { formatDateTime, formatTimeRange, formatWhen, hiddenByName, kindWord } from '../lib/describe.js';
import { PopupActions } from './PopupActions.js';
import { RecentBookings, ReportLine } from './reports/ReportDetails.js';
import { useReplay } from './reports/replayContext.js';

export interface PopupProps {
  id: string;
  /** anchor point in the viewer, px: the asset's centre */
  left: number;
  top: number;
  /** half the asset's drawn width and height, px: the popup keeps clear of it where it can (lib/popupPlace.ts) */
  halfW?: number;
  halfH?: number;
  bounds: { w: number; h: number };
  onClose(): void;
}

/** Tickets and voices are titled by what they say; everything else by its name. */
function titleOf(detail: AssetDetail): string {
  if ((detail.kind === 'ticket' || detail.kind === 'voice') && detail.text) return detail.text;
  return detail.name || kindWord(detail.kind);
}

function kindLine(detail: AssetDetail): string {
  const category = detail.ticket?.label ?? (detail.kind === 'voice' ? detail.subtype : null);
  if (category) return `${kindWord(detail.kind)} · ${category}`;
  return detail.subtype && detail.subtype !== detail.kind ? `${kindWord(detail.kind)} (${detail.subtype})` : kindWord(detail.kind);
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

function Details({ detail }: { detail: AssetDetail }) {
  const { timeZone, floorName } = useApp();
  const { person, reservation, ticket } = detail;
  const where = detail.floorId ? floorName(detail.floorId) : null;
  // in a replay, times of the replayed day read as clock times, as today's do live
  const now = detail.replayAt ?? Date.now();
  return (
    <dl className="details">
      {reservation?.active ? (
        <Row term="Now">
          {formatTimeRange(reservation.active.start, reservation.active.end, timeZone, now)} {reservation.active.subject || 'Reserved'}
        </Row>
      ) : null}
      {reservation?.next ? (
        <Row term="Next">
          {formatTimeRange(reservation.next.start, reservation.next.end, timeZone, now)} {reservation.next.subject || 'Reserved'}
        </Row>
      ) : null}
      {reservation && !reservation.active && !reservation.next ? <Row term="Bookings">No reservations</Row> : null}
      {detail.room?.capacity ? <Row term="Seats">{detail.room.capacity}</Row> : null}
      {person && where ? <Row term="Where">{where}</Row> : null}
      {person?.since ? (
        <Row term="Here since">
          {formatWhen(person.since, timeZone, now)}
          {person.manual ? ' (set by hand)' : ''}
        </Row>
      ) : null}
      {detail.value ? <Row term={detail.value.quantity ?? 'Value'}>{detail.value.text}</Row> : null}
      {ticket?.status && ticket.status !== detail.status ? <Row term="Ticket">{ticket.status}</Row> : null}
      {ticket?.email ? <Row term="Updates to">{ticket.email}</Row> : null}
      {typeof detail.battery === 'number' ? <Row term="Battery">{detail.battery} %</Row> : null}
      {typeof detail.lastCommunication === 'number' ? <Row term="Last heard">{formatDateTime(detail.lastCommunication, timeZone)}</Row> : null}
      {detail.noRecentData && !detail.status ? <Row term="Data">No recent data</Row> : null}
    </dl>
  );
}

function History({ detail }: { detail: AssetDetail }) {
  const { timeZone } = useApp();
  if (detail.kind === 'employee' || detail.kind === 'auto_tag') return null;
  const q = detail.historyOf;
  const of = q?.quantity ? ` of ${q.quantity}${q.unit ? ` (${q.unit})` : ''}` : q?.unit ? ` (${q.unit})` : '';
  return (
    <section aria-label="Recent history" className="history">
      <h3>Recent history{of}</h3>
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
  );
}

/** The least height the details keep between the header and the actions: four lines. */
export const POPUP_BODY_MIN_PX = 72;

export function Popup({ id, left, top, halfW = 0, halfH = 0, bounds, onClose }: PopupProps) {
  const { timeZone } = useApp();
  const replay = useReplay();
  const view = useView(replay ? { view: 'asset', assetId: id, playback: replay } : { view: 'asset', assetId: id });
  const ready = useViewReady(view);
  const detail = useViewEntry(view, SELF_KEY);
  const titleId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    closeRef.current?.focus();
  }, [id]);
  // An action that is disabled while it runs and goes once done (Book now, a booking cancelled, a ticket
  // closed) takes the focus with it to the page's body: Escape no longer closes the popup and Tab starts over
  // at the top of the page. Focus lost that way goes to the popup's close button, as when it opened; focus the
  // person moved elsewhere (a press on the page) stays there. Chromium tells with a focusout that has no
  // relatedTarget; jsdom only by the removal.
  const popupRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = popupRef.current;
    if (!el) return;
    let focused: Element | null = el.contains(document.activeElement) ? document.activeElement : null;
    const recover = () => {
      const active = document.activeElement;
      if (!focused || (active && active !== document.body)) return;
      const gone = !focused.isConnected || !el.contains(focused) || focused.matches(':disabled');
      focused = null;
      if (gone) closeRef.current?.focus();
    };
    const onFocusIn = (event: FocusEvent) => { focused = event.target as Element; };
    const onFocusOut = (event: FocusEvent) => {
      if (event.relatedTarget) focused = null;
      else queueMicrotask(recover);
    };
    el.addEventListener('focusin', onFocusIn);
    el.addEventListener('focusout', onFocusOut);
    const observer = typeof MutationObserver === 'undefined' ? null : new MutationObserver(recover);
    observer?.observe(el, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled'] });
    return () => {
      observer?.disconnect();
      el.removeEventListener('focusin', onFocusIn);
      el.removeEventListener('focusout', onFocusOut);
    };
  }, []);
  const width = detail?.popup.width || POPUP_DEFAULT_WIDTH;
  // the asset's height, grown where its header and actions would leave the details a sliver (the edit role's
  // room: booking, cancelling, rename and unpublish took 190 of 250 px, the body 12), within the viewer
  const [frame, setFrame] = useState(0);
  const hasDetail = detail !== undefined;
  useLayoutEffect(() => {
    const el = popupRef.current;
    if (!el) return;
    const measure = () => {
      let sum = 0;
      for (const part of el.querySelectorAll<HTMLElement>(':scope > header, :scope > .popup-actions')) sum += part.offsetHeight;
      setFrame(sum);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    // the actions change height without this component rendering (an error line, a booking made)
    const observer = new ResizeObserver(measure);
    for (const part of el.querySelectorAll(':scope > header, :scope > .popup-actions')) observer.observe(part);
    return () => observer.disconnect();
  }, [hasDetail]);
  // beside the asset, not over it: right, left, below or above, whichever has room (lib/popupPlace.ts)
  const { x, y, height, side } = placePopup(
    { x: left, y: top, halfW, halfH },
    { width, height: Math.max(detail?.popup.height || POPUP_DEFAULT_HEIGHT, frame + POPUP_BODY_MIN_PX), minHeight: frame + POPUP_BODY_MIN_PX },
    bounds,
  );
  const titled = detail ? titleOf(detail) : 'Asset';
  const bubble = detail && detail.text && detail.text !== titled ? detail.text : null;

  return (
    <div
      className="popup"
      role="dialog"
      aria-labelledby={titleId}
      ref={popupRef}
      style={{ left: x, top: y, width, height }}
      data-testid="asset-popup"
      data-side={side}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <header>
        <div className="popup-title">
          <h2 id={titleId}>{titled}</h2>
          {detail ? (
            <p className="popup-kind">
              {kindLine(detail)}
              {detail.unpublished ? <span className="badge unpublished-badge">Unpublished</span> : null}
              {detail.hiddenBy ? <span className="badge unpublished-badge">Hidden</span> : null}
              {detail.status ? (
                <>
                  {' · '}
                  <span className={`status-word status-${detail.statusKind}`}>{detail.status}</span>
                </>
              ) : null}
            </p>
          ) : null}
        </div>
        <button type="button" ref={closeRef} onClick={onClose} aria-label="Close details">
          ×
        </button>
      </header>
      {!detail ? (
        <p className="popup-body">{ready ? 'This asset is no longer on the floor.' : 'Loading…'}</p>
      ) : (
        <>
          <div className="popup-body">
            {typeof detail.replayAt === 'number' ? (
              <p className="popup-replay" data-testid="popup-replay">
                As at {formatDateTime(detail.replayAt, timeZone)} (replay)
              </p>
            ) : null}
            {bubble ? <blockquote className="speech-bubble">{bubble}</blockquote> : null}
            {detail.hiddenBy ? (
              <p className="hidden-by" data-testid="hidden-by">
                {`Only editors see it: it is in ${hiddenByName(detail.hiddenBy)}, which is unpublished.`}
              </p>
            ) : null}
            <Details detail={detail} />
            <ReportLine id={detail.id} />
            {/* the last seven days' bookings reach past a replayed instant */}
            {detail.kind === 'room' && detail.replayAt === undefined ? <RecentBookings roomId={detail.id} upcoming={detail.reservation?.upcoming ?? []} /> : null}
            <History detail={detail} />
          </div>
          <PopupActions detail={detail} onClose={onClose} />
        </>
      )}
    </div>
  );
}
