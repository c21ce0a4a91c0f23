// The notifications list: newest first, unread marked in words, each can be
// marked read. Titles and bodies are server text, rendered as text; a link
// becomes clickable only when it is http(s) or a safe relative path.

import { useId } from 'react';
import { isSafeUrl } from '../../shared/safeUrl.js';
import type { Notification } from '../../shared/types.js';
import { useEngine } from '../hooks/engineContext.js';
import { dataSettled, useApp } from '../hooks/appContext.js';
import { useView, useViewEntries, useViewReady } from '../hooks/useView.js';
import { formatDateTime } from '../lib/describe.js';
import { errorText } from '../lib/errorText.js';
import { NeedsServer } from './NeedsServer.js';
import { LiveNote } from './reports/ReplayNote.js';

export function sortNotifications(list: readonly Notification[]): Notification[] {
  return [...list].sort((a, b) => b.created - a.created);
}

export function Notifications() {
  const { api } = useEngine();
  const { announce, timeZone, session, writable } = useApp();
  const reasonId = useId();
  const why = writable ? undefined : reasonId;
  const mirror = useView({ view: 'notifications' });
  const ready = useViewReady(mirror);
  const entries = useViewEntries(mirror);
  const list = sortNotifications(Object.values(entries));
  const unread = list.filter((n) => !n.read).length;
  return (
    <section className="notifications" aria-label="Notifications">
      <h2>
        Notifications {unread ? <span className="badge">{unread} unread</span> : null}
      </h2>
      <LiveNote>notifications as they are now, not as at the replay.</LiveNote>
      {!ready || (list.length === 0 && !dataSettled(session)) ? (
        <p role="status">Loading notifications…</p>
      ) : list.length === 0 ? (
        <p role="status">No notifications.</p>
      ) : (
        <>
          {why && unread > 0 ? <NeedsServer id={why} /> : null}
          <ul>
            {list.map((n) => (
              <li key={n.id} className={n.read ? 'read' : 'unread'}>
                <strong>{n.title}</strong> {!n.read ? <span className="unread-word">(unread)</span> : null}
                <div>{n.body}</div>
                {isSafeUrl(n.link) ? (
                  <a href={n.link} target="_blank" rel="noopener noreferrer">Open link</a>
                ) : null}
                <time dateTime={new Date(n.created).toISOString()}>{formatDateTime(n.created, timeZone)}</time>
                {!n.read ? (
                  <button
                    type="button"
                    disabled={!!why}
                    aria-describedby={why}
                    onClick={() =>
                      void api.markNotificationRead(n.id).then((r) => {
                        if (!r.ok) announce(`Could not mark as read: ${errorText(r)}`, 'error');
                      })
                    }
                    aria-label={`Mark “${n.title}” as read`}
                  >
                    Mark read
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
