// The page's start-up, run before React and the app are loaded (issue 14,
// docs/ui.md "Reopen"): the worker resumes the stored session while the
// app's chunk downloads, and the views the first screen needs (the session,
// then the saved floor) are opened ahead, so their data is in the mirrors by
// the time the components that show them mount and take them over. The first
// render waits for them (a bounded time), so a reopen draws the shell and its
// saved floor in one go instead of the shell's skeleton first.

import { SELF_KEY, type SessionView } from '../../shared/api.js';
import type { MapLayer } from '../../shared/constants.js';
import type { EngineClient } from './engineClient.js';
import { drawOrderOf } from '../lib/drawOrder.js';
import { yieldTask } from '../lib/yieldTask.js';

/** User-timing marks of the start-up (navigation → …), read by bench/reopen.ts and shown in DevTools. */
export const START_MARKS = {
  resumed: 'storey:resumed',
  savedFloor: 'storey:floor-data',
  render: 'storey:render',
} as const;

function mark(name: string): void {
  try { performance.mark(name); } catch { /* marks are diagnostics only */ }
}

/** The longest the first render waits for the saved floor; past it the shell shows its loading state. */
export const FIRST_SCREEN_WAIT_MS = 2_000;

export interface StartUpOptions {
  host: string;
  /** the URL's fragment: an OpenID return (#id_token=…) signs in instead of resuming */
  hash: string;
  /** a room display has no floor viewer: only the session is opened ahead */
  display: boolean;
  /** the layers the floor viewer will ask for (the deep link's, or the defaults) */
  layers(): Promise<readonly MapLayer[]>;
  /** test seam: the wait's timer */
  wait?: (ms: number) => Promise<void>;
}

/** An OpenID return carries its token in the fragment; App signs in with it, so nothing resumes first. */
export function isOpenIdReturn(hash: string): boolean {
  return /(^#|&)id_token=/.test(hash);
}

/**
 * Starts the engine and opens the first screen's views; resolves when the first render should
 * happen: the saved floor is in its mirror, nothing was resumed, or FIRST_SCREEN_WAIT_MS passed.
 */
export function startUp(client: EngineClient, options: StartUpOptions): Promise<void> {
  const { api } = client;
  void api.init({ host: options.host });
  const session = client.preopen({ view: 'session' });
  if (isOpenIdReturn(options.hash)) return Promise.resolve();
  // the app asks again when it mounts and gets this same answer (the engine keeps the one in flight)
  const resumed = Promise.resolve(api.resume()).catch(() => false);
  void resumed.then(() => mark(START_MARKS.resumed));
  if (options.display) return Promise.resolve();
  const wait = options.wait ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
  const layers = options.layers();
  const floorReady = new Promise<void>((done) => {
    let opened = false;
    const stop = session.subscribe(SELF_KEY, () => {
      const view = session.getSnapshot(SELF_KEY) as SessionView | undefined;
      if (opened || !view?.signedIn || view.navigation !== 'ready' || !view.floorId) return;
      opened = true;
      stop();
      const floorId = view.floorId;
      // the same spec, key for key, as the shell's floor view: the shell takes this one over
      void layers.then((list) => {
        const floor = client.preopen({ view: 'floor', floorId, layers: list });
        // the floor's draw order worked out in a task of its own, not in the viewer's first render
        const landed = () => {
          mark(START_MARKS.savedFloor);
          void yieldTask().then(() => {
            drawOrderOf(floor).getSnapshot();
            done();
          });
        };
        if (floor.ready) { landed(); return; }
        const off = floor.subscribeAll(() => { if (floor.ready) { off(); landed(); } });
      }, () => done());
    });
  });
  const nothingResumed = resumed.then((ok) => (ok ? new Promise<void>(() => undefined) : undefined));
  return Promise.race([floorReady, nothingResumed, wait(FIRST_SCREEN_WAIT_MS)]);
}
