// The playback bar under the map (issue 13 §2): a day, a time slider, play
// and pause, steps, and the speed (1×–3600×). The worker replays; this only
// moves the time and shows where it is. Live views stay subscribed meanwhile.
// Keys as in media players: Space plays or pauses, ←/→ move a minute on the
// slider, Page Up/Down a quarter hour, Home/End the day's bounds.

import { useEffect, useEffectEvent, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { PlaybackMeta } from '../../../shared/api.js';
import { useEngine } from '../../hooks/engineContext.js';
import { formatDay, formatTime, formatTimeParts } from '../../lib/timeFormat.js';

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

/** Elements whose own keys Space belongs to (a button clicks, a select opens, a date field edits). */
const OWNS_SPACE = new Set(['BUTTON', 'SELECT', 'TEXTAREA']);

export function PlaybackBar({ floorId, day, meta, timeZone, maxDay, onDay, onClose }: PlaybackBarProps) {
  const { api } = useEngine();
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(600);
  const ids = { day: useId(), time: useId(), speed: useId(), keys: useId() };
  const time = useRef<number | null>(null);
  if (meta && time.current === null) time.current = meta.time;
  const ready = meta?.progress.state === 'done';
  const empty = ready && meta.progress.rows === 0;

  const seek = (t: number) => {
    if (!meta) return;
    time.current = Math.max(meta.start, Math.min(meta.end - 1, t));
    void api.setPlaybackTime(floorId, day, time.current);
  };

  useEffect(() => { time.current = null; setPlaying(false); }, [day, floorId]);
  // a tick reads the speed, day and bounds of the moment it fires: changing the
  // speed while playing does not restart the clock
  const tick = useEffectEvent(() => {
    if (!meta) return;
    const next = (time.current ?? meta.start) + TICK_MS * speed;
    if (next >= meta.end - 1) setPlaying(false);
    seek(next);
  });
  useEffect(() => {
    if (!playing) return undefined;
    const timer = setInterval(tick, TICK_MS);
    return () => clearInterval(timer);
  }, [playing]);

  const shown = meta?.time ?? meta?.start ?? 0;
  // the one time format of the app (lib/timeFormat.ts); the zone, when named, stays beside the changing time
  const clock = meta ? formatTimeParts(shown, timeZone) : { time: '—', zone: null };

  const onBarKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    if (e.key === ' ' && ready && !OWNS_SPACE.has(target.tagName) && (target as HTMLInputElement).type !== 'date') {
      e.preventDefault();
      setPlaying((p) => !p);
    }
  };
  const onSliderKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'PageUp' || e.key === 'PageDown') {
      e.preventDefault();
      // from the time last asked for: the worker's answer may not be back between two quick keys
      seek((time.current ?? shown) + (e.key === 'PageUp' ? STEP_MS : -STEP_MS));
    }
  };

  const progress = meta?.progress;
  return (
    <div className="playback-bar" role="group" aria-label="Playback" data-day={meta?.day} data-state={progress?.state} onKeyDown={onBarKey}>
      <div className="playback-controls">
        <label htmlFor={ids.day}>Day</label>
        <input id={ids.day} type="date" value={day} max={maxDay} onChange={(e) => { if (e.target.value) onDay(e.target.value); }} />
        <button type="button" onClick={() => seek((time.current ?? shown) - STEP_MS)} disabled={!ready} aria-label="Step back 15 minutes">−15 min</button>
        <button type="button" className="play" onClick={() => setPlaying((p) => !p)} disabled={!ready} aria-pressed={playing}>{playing ? 'Pause' : 'Play'}</button>
        <button type="button" onClick={() => seek((time.current ?? shown) + STEP_MS)} disabled={!ready} aria-label="Step forward 15 minutes">+15 min</button>
        <label htmlFor={ids.speed}>Speed</label>
        <select id={ids.speed} value={speed} onChange={(e) => setSpeed(Number(e.target.value))}>
          {PLAYBACK_SPEEDS.map((s) => <option key={s} value={s}>{`${s}×`}</option>)}
        </select>
        <button type="button" className="back-to-live" onClick={onClose}>Back to live</button>
      </div>
      <div className="playback-track">
        <label htmlFor={ids.time} className="visually-hidden">Time of day</label>
        <input
          id={ids.time}
          type="range"
          min={meta?.start ?? 0}
          max={(meta?.end ?? 1) - 1}
          step={60_000}
          value={shown}
          disabled={!ready}
          aria-valuetext={meta ? formatTime(shown, timeZone) : clock.time}
          aria-describedby={ids.keys}
          aria-keyshortcuts="Space PageUp PageDown Home End"
          onChange={(e) => seek(Number(e.target.value))}
          onKeyDown={onSliderKey}
        />
        <output htmlFor={ids.time} data-testid="playback-time">{clock.time}</output>
        {clock.zone ? <span className="playback-zone">{clock.zone}</span> : null}
        <span className="playback-status" role="status">
          {!progress || progress.state === 'loading' ? (
            <>
              <progress max={Math.max(1, progress?.pagesEstimated ?? 1)} value={progress?.pagesLoaded ?? 0} aria-label="Loading the day" />
              {`Loading the day: ${progress?.pagesLoaded ?? 0} of about ${progress?.pagesEstimated || '?'} pages`}
            </>
          ) : empty ? `No readings on ${formatDay(day, timeZone)}: nothing to replay.` : null}
        </span>
        {progress?.state === 'error' ? <span role="alert" className="error">{`Could not load the day: ${progress.message ?? ''}`}</span> : null}
        <span id={ids.keys} className="visually-hidden">Space plays or pauses; arrow keys move a minute, Page Up and Page Down a quarter hour.</span>
      </div>
    </div>
  );
}
