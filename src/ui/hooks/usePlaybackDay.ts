// "Play back a day" on the shell's floor (docs/reports.md "## Playback"): the
// day chosen (first the location's last working day), the playback view that
// then replaces what the viewer draws (the live subscription stays open
// underneath), and the instant it shows.

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { PlaybackAt } from '../../shared/api.js';
import type { MapLayer } from '../../shared/constants.js';
import { lastWorkingDayBefore } from '../../shared/reports/calendar.js';
import type { ReplayInstant } from '../components/reports/replayContext.js';
import { useView, useViewMeta } from './useView.js';

export function usePlaybackDay(floorId: string | null, layers: readonly MapLayer[], timeZone: string | null | undefined) {
  const [playbackDay, setPlaybackDay] = useState<string | null>(null);
  // the last working day before today where the location is: on a Monday the Friday, not an empty Sunday
  const openLastWorkingDay = useCallback(() => setPlaybackDay(lastWorkingDayBefore(Date.now(), timeZone ?? 'UTC')), [timeZone]);
  // the instant last shown: a floor switched to during the replay of that day (People: Show) opens at it
  const replayTime = useRef<{ day: string; time: number } | null>(null);
  const playbackSpec = useMemo(() => {
    if (!playbackDay || !floorId) return null;
    const at = replayTime.current?.day === playbackDay ? { at: replayTime.current.time } : {};
    return { view: 'playback' as const, floorId, layers, day: playbackDay, ...at };
  }, [playbackDay, floorId, layers]);
  const playback = useView(playbackSpec);
  const playbackMeta = useViewMeta(playback);
  useEffect(() => {
    replayTime.current = playbackDay && playbackMeta?.day === playbackDay && playbackMeta.progress.state === 'done' ? { day: playbackDay, time: playbackMeta.time } : null;
  }, [playbackDay, playbackMeta]);
  // a popup opened on the replayed map, and the People and Rooms panels, show the replay's instant
  const replayAt = useMemo<PlaybackAt | null>(() => (playback && playbackDay && floorId ? { floorId, day: playbackDay } : null), [playback, playbackDay, floorId]);
  const replayInstant = useMemo<ReplayInstant | null>(
    () => (replayAt ? { day: replayAt.day, time: playbackMeta?.progress.state === 'done' ? playbackMeta.time : null, backToLive: () => setPlaybackDay(null) } : null),
    [replayAt, playbackMeta],
  );
  return { playbackDay, setPlaybackDay, openLastWorkingDay, playback, playbackMeta, replayAt, replayInstant };
}
