// Which replay the floor viewer draws, if any (Shell: "Play back a day"), so a
// popup opened on the replayed map asks the worker for the asset as it was at
// the replay's instant rather than live (docs/reports.md "## Playback").

import { createContext, useContext } from 'react';
import type { PlaybackAt } from '../../../shared/api.js';

export const ReplayContext = createContext<PlaybackAt | null>(null);

/** The replay the viewer draws, or null when it draws the live floor. */
export function useReplay(): PlaybackAt | null {
  return useContext(ReplayContext);
}
