// Starts the engine worker and wraps it with Comlink (DESIGN §1): the only
// place the UI touches src/worker, and only through the entry's URL. View
// listeners cross as Comlink proxies; the worker releases them on unsubscribe.
// Online/offline events reach the worker's own global, so the entry forwards them.
// When the page is hidden or closed the worker is asked to save what its
// throttles still hold: the page may never come back.

import * as Comlink from 'comlink';
import { ENGINE_UNAVAILABLE, type EngineApi } from '../../shared/api.js';
import { oneWayListener, registerViewPortSender } from './viewPort.js';
import { createEngineClient, type EngineClient, type EngineLike } from './engineClient.js';
import { presentAsOne, styleNow } from './presentAsOne.js';
import { createRenderHold, type RenderHold } from './renderHold.js';
import { onPageHidden } from '../lib/onPageHidden.js';

export interface WorkerEngine {
  client: EngineClient;
  /** holds every view's changes while React renders the first screen (renderHold.ts) */
  hold: RenderHold;
  /** stops the worker and releases the Comlink proxy */
  terminate(): void;
}

/**
 * Runs tasks in later tasks of their own, in order, through a MessageChannel:
 * unlike setTimeout it is not clamped to 4 ms, and the browser may paint
 * between two of them (a large view applies over a few frames).
 */
export function nextTask(): (task: () => void) => void {
  const channel = new MessageChannel();
  const tasks: Array<() => void> = [];
  channel.port1.onmessage = () => tasks.shift()?.();
  return (task) => {
    tasks.push(task);
    channel.port2.postMessage(null);
  };
}

/**
 * The saved floor a reopening user waits for (meta.fromCache) is drawn in one commit; every
 * other large message in slices, so live data never blocks the page for long (docs/ui.md).
 */
export function isSavedSnapshot(message: { meta: unknown }): boolean {
  return (message.meta as { fromCache?: unknown } | null)?.fromCache === true;
}

export interface WorkerFailures {
  /**
   * the engine worker cannot run (its script did not load, or the engine's code did not: the entry says so with
   * ENGINE_UNAVAILABLE), so nothing will ever be drawn (docs/ui.md "If the app cannot start")
   */
  unavailable(): void;
  /**
   * an error nothing caught inside the running engine (a timer's task, a transport's callback): the worker is
   * terminated before this is called, as its state is not known any more, and the client after it (docs/ui.md
   * "If the app cannot start")
   */
  stopped(): void;
}

export function createWorkerEngine(failures: WorkerFailures = { unavailable: () => undefined, stopped: () => undefined }): WorkerEngine {
  const worker = new Worker(new URL('../../worker/entry.ts', import.meta.url), { type: 'module' });
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    worker.terminate();
  };
  // a script that did not load is a plain error event; an uncaught error inside a running worker is an ErrorEvent
  worker.addEventListener('error', (event) => {
    if (ended) return;
    if (!(event instanceof ErrorEvent)) { failures.unavailable(); return; }
    console.error('[storey] the engine stopped', event.message, event.filename ? `(${event.filename}:${event.lineno})` : '');
    // at once, it writes, sends and answers nothing more: a store left half-changed is never saved over the good one
    end();
    // the app goes first (its views' clean-ups may still call the engine, which answers nothing now), then the client
    failures.stopped();
    engine.terminate();
  });
  worker.addEventListener('message', (event: MessageEvent) => {
    if ((event.data as Record<string, unknown> | null)?.[ENGINE_UNAVAILABLE] === true) failures.unavailable();
  });
  registerViewPortSender();
  const remote = Comlink.wrap<EngineApi>(worker);
  const hold = createRenderHold();
  const client = createEngineClient(remote as unknown as EngineLike, {
    // each view's messages come over a one-way port of its own (engine/viewPort.ts)
    markCallback: oneWayListener,
    mirror: { schedule: nextTask(), now: () => performance.now(), atOnce: isSavedSnapshot, hold },
    present: { views: ['playback'], show: presentAsOne, slice: styleNow },
  });
  // The page tells the worker too (docs/engine.md "Account calls offline"): a worker started while the browser
  // is offline hears no event of it, and under a browser's network emulation the worker's global gets none at
  // all. The engine takes a repeat of what it knows as nothing new.
  const tellOnline = () => { void remote.setOnline(navigator.onLine); };
  if (!navigator.onLine) tellOnline();
  window.addEventListener('online', tellOnline);
  window.addEventListener('offline', tellOnline);
  // A tab switched away from, a phone's app switcher, a closed tab: the page's last reliable moments
  // (lib/onPageHidden.ts). The engine writes what its throttles hold (docs/engine.md "Saved when the page goes");
  // both events may fire, and the second finds nothing to write.
  const stopHearingHidden = onPageHidden(() => { void Promise.resolve(remote.saveNow()).catch(() => undefined); });
  let released = false;
  const engine: WorkerEngine = {
    client,
    hold,
    terminate() {
      if (released) return;
      released = true;
      window.removeEventListener('online', tellOnline);
      window.removeEventListener('offline', tellOnline);
      stopHearingHidden();
      client.dispose();
      remote[Comlink.releaseProxy]();
      end();
    },
  };
  return engine;
}
