// The error and warning feed of the UI (DESIGN §6): posted errors of the sync
// layer, storage problems, validation warnings, activity alerts. Bounded, and
// a message repeated within FEED_DEDUPE_MS is posted once, so a flood of bad
// packets cannot flood the UI.

import type { FeedEntry } from '../../shared/api.js';
import type { ErrorLevel, ErrorType } from '../../shared/messages.js';
import type { Logger } from '../ports.js';

export const FEED_LIMIT = 100;
export const FEED_DEDUPE_MS = 60_000;

export interface Feed {
  post(level: ErrorLevel, type: ErrorType, message: string): void;
  entries(): readonly FeedEntry[];
  clear(): void;
  /** a logger whose warnings and errors are also posted (type given) */
  logger(base: Logger, type: ErrorType): Logger;
}

export function createFeed(now: () => number, onChange: () => void): Feed {
  let entries: FeedEntry[] = [];
  let seq = 0;
  const lastPosted = new Map<string, number>();

  const feed: Feed = {
    post(level, type, message) {
      const t = now();
      const key = `${level}|${type}|${message}`;
      const last = lastPosted.get(key);
      if (last !== undefined && t - last < FEED_DEDUPE_MS) return;
      lastPosted.set(key, t);
      if (lastPosted.size > 4 * FEED_LIMIT) lastPosted.clear();
      entries = [...entries, { level, type, message, time: t, seq: ++seq }].slice(-FEED_LIMIT);
      onChange();
    },
    entries: () => entries,
    clear() { entries = []; lastPosted.clear(); onChange(); },
    logger(base, type) {
      return {
        debug: (m, ...d) => base.debug(m, ...d),
        info: (m, ...d) => base.info(m, ...d),
        warn: (m, ...d) => { base.warn(m, ...d); feed.post('warning', type, m); },
        error: (m, ...d) => { base.error(m, ...d); feed.post('error', type, m); },
      };
    },
  };
  return feed;
}
