// What the side panels say while a replay is on the map (docs/reports.md
// "Side panels in a replay"): People and Rooms show the replay's instant and
// say so in the popups' amber; a panel that acts on the floor as it is now
// (reporting an issue, setting one's location) is set aside with the reason
// and the way back to live; one that is live whatever the map shows says so.

import type { ReactNode } from 'react';
import type { PlaybackAt } from '../../../shared/api.js';
import { useApp } from '../../hooks/appContext.js';
import { formatDateTime, formatDay } from '../../lib/describe.js';
import { ReplayContext, ReplayInstantContext, useReplayInstant, type ReplayInstant } from './replayContext.js';

export interface ReplayScopeProps {
  className: string;
  /** the replay the map shows, or null when it is live */
  at: PlaybackAt | null;
  instant: ReplayInstant | null;
  children: ReactNode;
}

/** The map and the side panels, told which replay the map shows (if any). */
export function ReplayScope({ className, at, instant, children }: ReplayScopeProps) {
  return (
    <ReplayContext.Provider value={at}>
      <ReplayInstantContext.Provider value={instant}>
        <div className={className}>{children}</div>
      </ReplayInstantContext.Provider>
    </ReplayContext.Provider>
  );
}

/** "As at {date and time} (replay)" and what the panel lists of it; nothing while the map is live. */
export function ReplayNote({ children }: { children: ReactNode }) {
  const replay = useReplayInstant();
  const { timeZone } = useApp();
  if (!replay) return null;
  const when = replay.time === null ? `${formatDay(replay.day, timeZone)}, loading` : formatDateTime(replay.time, timeZone);
  return (
    <p className="panel-replay" data-testid="panel-replay">
      As at {when} (replay): {children}
    </p>
  );
}

/** A live panel beside a replay: it says so, since the map does not show now. */
export function LiveNote({ children }: { children: ReactNode }) {
  const replay = useReplayInstant();
  if (!replay) return null;
  return (
    <p className="panel-live" data-testid="panel-live">
      Live: {children}
    </p>
  );
}

/** A panel that acts on the floor as it is now: set aside during a replay, with the reason and the way back. */
export function ReplayAside({ title, reason }: { title: string; reason: string }) {
  const replay = useReplayInstant();
  const { timeZone } = useApp();
  if (!replay) return null;
  return (
    <section className="replay-aside" aria-label={title} data-testid="replay-aside">
      <h2>{title}</h2>
      <p>{`The map shows a replay of ${formatDay(replay.day, timeZone)}. ${reason}`}</p>
      <button type="button" onClick={replay.backToLive}>
        Back to live
      </button>
    </section>
  );
}
