// Keeps the shown floor's view, as last sent, in storage (issue 14): a reopen
// serves it to the first floor subscription before any entity is restored,
// so the saved floor is drawn from one small record instead of the parsed
// and re-derived location. Saved at most every VIEW_SAVE_INTERVAL_MS while
// live data is shown, and only when the view changed since; soon after an
// asset was removed live (`soon`), so a reload does not draw it again; at once
// when the page is hidden or closed (`flush`).

import type { ViewSpec } from '../../shared/api.js';
import type { Id } from '../../shared/types.js';
import type { Logger } from '../ports.js';
import type { Scheduler } from '../scheduler.js';
import type { CacheKey, SavedView, StoragePort } from '../storage/index.js';
import type { ViewHub } from '../views/viewHub.js';

export const VIEW_SAVE_INTERVAL_MS = 5_000;
/** the first save after live data arrived: soon, so an early reopen finds it */
export const VIEW_FIRST_SAVE_MS = 1_500;
/** the save after a live removal: once the view has sent it (the hub flushes every ~50 ms) */
export const VIEW_REMOVAL_SAVE_MS = 200;
const SAVE_KEY = 'engine:view-save';

export interface ViewSaverOptions {
  hub: ViewHub;
  scheduler: Scheduler;
  storage: StoragePort;
  logger: Logger;
  /** where to save; null while no user and location are loaded */
  key(): CacheKey | null;
  /** the floor shown now */
  floorId(): Id | null;
  /** corrected-clock now */
  now(): number;
}

export interface ViewSaver {
  /** live data is shown: save soon, then whenever the view changed */
  start(): void;
  /** something was removed live: save in VIEW_REMOVAL_SAVE_MS, not at the next interval */
  soon(): void;
  /** the page is hidden or closed: save now if the view changed since the last save (nothing otherwise) */
  flush(): Promise<void>;
  /** a switch or sign-out: nothing more is saved for the old location */
  stop(): void;
}

export function createViewSaver(options: ViewSaverOptions): ViewSaver {
  const { hub, scheduler } = options;
  let last: { floorId: Id; version: number; layers: string } | null = null;
  let running = false;
  /** a save soon after a removal is armed */
  let hastened = false;
  /** the save in flight: a flush waits for it, then saves what changed after it */
  let saving: Promise<void> | null = null;

  function arm(delay: number) {
    // a save asked for meanwhile (`soon`) is not pushed back to the interval
    scheduler.scheduleIn(SAVE_KEY, delay, () => {
      hastened = false;
      void save().finally(() => { if (running && !scheduler.has(SAVE_KEY)) arm(VIEW_SAVE_INTERVAL_MS); });
    });
  }

  async function save(): Promise<void> {
    while (saving) await saving;
    const run = saveOnce();
    saving = run;
    try { await run; } finally { if (saving === run) saving = null; }
  }

  async function saveOnce(): Promise<void> {
    const key = options.key();
    const floorId = options.floorId();
    if (!key || !floorId) return;
    const sent = hub.sent((spec) => spec.view === 'floor' && spec.floorId === floorId);
    if (!sent) return;
    const spec = sent.spec as Extract<ViewSpec, { view: 'floor' }>;
    const layers = [...spec.layers];
    if (last && last.floorId === floorId && last.version === sent.version && last.layers === layers.join()) return;
    const view: SavedView = { floorId, layers, savedAt: options.now(), entries: Object.fromEntries(sent.entries) };
    try {
      await options.storage.saveView(key, view);
      last = { floorId, version: sent.version, layers: layers.join() };
    } catch (error) {
      options.logger.debug('Could not save the floor view', error);
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      arm(VIEW_FIRST_SAVE_MS);
    },
    soon() {
      // one save soon for a burst of removals, not one pushed back by each
      if (!running || hastened) return;
      hastened = true;
      arm(VIEW_REMOVAL_SAVE_MS);
    },
    async flush() {
      if (!running) return;
      scheduler.cancel(SAVE_KEY);
      hastened = false;
      await save();
      if (running && !scheduler.has(SAVE_KEY)) arm(VIEW_SAVE_INTERVAL_MS);
    },
    stop() {
      running = false;
      hastened = false;
      last = null;
      scheduler.cancel(SAVE_KEY);
    },
  };
}
