// What floats over the map (never pushing the layout): the connection
// banner, the replay and saved-data notices, and the shell's one message
// with its dismiss button, read out politely.

import type { PlaybackMeta } from '../../../shared/api.js';
import { SAVED_DATA_NOTICE } from '../../lib/paintedFloor.js';
import { formatDay, formatTime } from '../../lib/timeFormat.js';
import { ConnectionBanner } from '../ConnectionBanner.js';

export interface ShellMessage {
  text: string;
  kind: 'info' | 'error';
}

export interface ShellNoticesProps {
  /** the day replayed on the map, or null while it is live */
  playbackDay: string | null;
  playbackMeta: PlaybackMeta | undefined;
  timeZone: string;
  fromCache: boolean;
  message: ShellMessage | null;
  onDismiss(): void;
}

export function ShellNotices({ playbackDay, playbackMeta, timeZone, fromCache, message, onDismiss }: ShellNoticesProps) {
  return (
    <>
      <ConnectionBanner />
      {playbackDay ? (
        <p className="playback-indicator" role="status" data-testid="playback-indicator">
          {`Replay of ${formatDay(playbackDay, timeZone)}${playbackMeta ? ` at ${formatTime(playbackMeta.time, timeZone)}` : ''}, not live.`}
        </p>
      ) : null}
      {fromCache ? (
        <p className="cache-indicator" role="status" data-testid="from-cache">
          {SAVED_DATA_NOTICE}
        </p>
      ) : null}
      <div className="live-region" role="status" aria-live="polite">
        {message ? (
          <span className={`message ${message.kind}`}>
            {message.text}
            <button type="button" className="dismiss" aria-label="Dismiss message" onClick={onDismiss}>
              ×
            </button>
          </span>
        ) : null}
      </div>
    </>
  );
}
