// The playback bar under the map (issue 13 §2): a day, a time slider, play
// and pause, steps, and the speed (1×–3600×). The worker replays; this only
// moves the time and shows where it is. Live views stay subscribed meanwhile.

import { useEffect, useId, useRef, useState } from 'react';
import type { PlaybackMeta } from '../../../shared/api.js';
import { useEngine } from '../../hooks/engineContext.js';
import { formatLocalTime } from '../../../shared/time.js';

export const PLAYBACK_SPEEDS = [1, 10, 60, 600, 3600] as const;
const TICK_MS = 250;
const STEP_MS = 15 * 60_000;

export interface PlaybackBarProps {
  floorId: string;
  day: string;
  meta: PlaybackMeta | undefined;
  timeZone: string | undefined;
  maxDay: string;
  onDay(day: string): void;
  onClose(): void;
}

export function PlaybackBar({ floorId, day, meta, timeZone, maxDay, onDay, onClose }: PlaybackBarProps) {
  const { api } = useEngine();
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(600);
  const ids = { day: useId(), time: useId(), speed: useId() };
  const time = useRef<number | null>(null);
  if (meta && time.current === null) time.current = meta.time;
  const ready = meta?.progress.state === 'done';

  const seek = (t: number) => {
    if (!meta) return;
    time.current = Math.max(meta.start, Math.min(meta.end - 1, t));
    void api.setPlaybackTime(floorId, day, time.current);
  };

  useEffect(() => { time.current = null; setPlaying(false); }, [day, floorId]);
  useEffect(() => {
    if (!playing || !meta) return undefined;
    const timer = setInterval(() => {
      const next = (time.current ?? meta.start) + TICK_MS * speed;
      if (next >= meta.end - 1) setPlaying(false);
      seek(next);
    }, TICK_MS);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [playing, speed, meta?.start, meta?.end, day, floorId]);

  const shown = meta?.time ?? meta?.start ?? 0;
  return (
    <div className="playback-bar" role="group" aria-label="Playback" data-day={meta?.day} data-state={meta?.progress.state}>
      <label htmlFor={ids.day}>Day</label>
      <input id={ids.day} type="date" value={day} max={maxDay} onChange={(e) => { if (e.target.value) onDay(e.target.value); }} />
      <button type="button" onClick={() => seek(shown - STEP_MS)} disabled={!ready} aria-label="Step back 15 minutes">−15 min</button>
      <button type="button" onClick={() => setPlaying((p) => !p)} disabled={!ready} aria-pressed={playing}>{playing ? 'Pause' : 'Play'}</button>
      <button type="button" onClick={() => seek(shown + STEP_MS)} disabled={!ready} aria-label="Step forward 15 minutes">+15 min</button>
      <label htmlFor={ids.time} className="visually-hidden">Time of day</label>
      <input
        id={ids.time}
        type="range"
        min={meta?.start ?? 0}
        max={(meta?.end ?? 1) - 1}
        step={60_000}
        value={shown}
        disabled={!ready}
        onChange={(e) => seek(Number(e.target.value))}
      />
      <output htmlFor={ids.time} data-testid="playback-time">{meta ? formatLocalTime(shown, timeZone ?? 'UTC') : '—'}</output>
      <label htmlFor={ids.speed}>Speed</label>
      <select id={ids.speed} value={speed} onChange={(e) => setSpeed(Number(e.target.value))}>
        {PLAYBACK_SPEEDS.map((s) => <option key={s} value={s}>{`${s}×`}</option>)}
      </select>
      {meta?.progress.state === 'loading' ? (
        <span role="status">{`Loading the day: ${meta.progress.pagesLoaded} of about ${meta.progress.pagesEstimated} pages`}</span>
      ) : null}
      {meta?.progress.state === 'error' ? <span role="alert">{`Could not load the day: ${meta.progress.message ?? ''}`}</span> : null}
      <button type="button" onClick={onClose}>Back to live</button>
    </div>
  );
}
