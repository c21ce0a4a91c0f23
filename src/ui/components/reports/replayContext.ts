// Which replay the floor viewer draws, if any (Shell: "Play back a day"), so a
// popup opened on the replayed map, and the People and Rooms panels, ask the
// worker for what was so at the replay's instant rather than live
// (docs/reports.md "## Playback"). The instant itself has a context of its
// own: it moves at every step of a play, and the replay's specs must not.

import { createContext, useContext } from 'react';
import type { PlaybackAt } from '../../../shared/api.js';

export const ReplayContext = createContext<PlaybackAt | null>(null);

/** The replay the viewer draws, or null when it draws the live floor. */
export function useReplay(): PlaybackAt | null {
  return useContext(ReplayContext);
}

/** The replay on the map: its day, the instant it shows (null until its day is read), and the way back to live. */
export interface ReplayInstant {
  day: string;
  time: number | null;
  backToLive(): void;
}

export const ReplayInstantContext = createContext<ReplayInstant | null>(null);

/** The replay's instant, or null while the map is live. */
export function useReplayInstant(): ReplayInstant | null {
  return useContext(ReplayInstantContext);
}
