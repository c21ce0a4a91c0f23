// The engine worker as the page starts it (src/ui/engine/workerEngine.ts), on a
// stand-in Worker of jsdom's events: a worker that cannot run and one that
// threw while running are told apart, and one that threw is ended at once
// (docs/ui.md "If the app cannot start"). Chromium's own worker throwing is
// tests/e2e/paintedFloor.test.ts. A page hidden or closed asks the worker to
// save now (docs/engine.md "Saved when the page goes"; in Chromium:
// tests/e2e/savedOnClose.test.ts).

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ENGINE_UNAVAILABLE } from '../../src/shared/api.js';
import { createWorkerEngine } from '../../src/ui/engine/workerEngine.js';

/** The page's side of a worker: events, what was posted to it, and whether it was ended. */
class StandInWorker extends EventTarget {
  static last: StandInWorker | null = null;
  posted: unknown[] = [];
  terminated = 0;
  constructor() {
    super();
    StandInWorker.last = this;
  }
  postMessage(message: unknown): void { this.posted.push(message); }
  terminate(): void { this.terminated += 1; }
}

let failures: { unavailable: ReturnType<typeof vi.fn<() => void>>; stopped: ReturnType<typeof vi.fn<() => void>> };
beforeEach(() => {
  vi.stubGlobal('Worker', StandInWorker);
  failures = { unavailable: vi.fn<() => void>(), stopped: vi.fn<() => void>() };
});
afterEach(() => { vi.unstubAllGlobals(); });

const worker = () => StandInWorker.last!;

describe('createWorkerEngine', () => {
  it('ends a running worker that threw and says it stopped, the worker ended before the app is told', () => {
    let endedWhenTold = -1;
    failures.stopped.mockImplementation(() => { endedWhenTold = worker().terminated; });
    const engine = createWorkerEngine(failures);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    worker().dispatchEvent(new ErrorEvent('error', { message: 'Uncaught TypeError: x is undefined', filename: 'engineCode.js', lineno: 7 }));
    expect(failures.stopped).toHaveBeenCalledTimes(1);
    expect(failures.unavailable).not.toHaveBeenCalled();
    expect(endedWhenTold).toBe(1);
    // a second error of the same worker, or the app ending it again, changes nothing
    worker().dispatchEvent(new ErrorEvent('error', { message: 'again' }));
    engine.terminate();
    expect(failures.stopped).toHaveBeenCalledTimes(1);
    expect(worker().terminated).toBe(1);
  });

  it('says the engine cannot run when its script did not load, or its code did not come', () => {
    createWorkerEngine(failures);
    worker().dispatchEvent(new Event('error'));
    expect(failures.unavailable).toHaveBeenCalledTimes(1);
    worker().dispatchEvent(new MessageEvent('message', { data: { [ENGINE_UNAVAILABLE]: true } }));
    expect(failures.unavailable).toHaveBeenCalledTimes(2);
    expect(failures.stopped).not.toHaveBeenCalled();
    expect(worker().terminated).toBe(0);
  });

  it('asks the worker to save now when the page is hidden or closed, not when it shows again, and not once ended', () => {
    const engine = createWorkerEngine(failures);
    const saves = () => worker().posted.filter((m) => (m as { path?: string[] }).path?.join() === 'saveNow').length;
    const visibility = vi.spyOn(document, 'visibilityState', 'get');
    visibility.mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(saves()).toBe(1);
    visibility.mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(saves()).toBe(1);
    window.dispatchEvent(new Event('pagehide'));
    expect(saves()).toBe(2);
    engine.terminate();
    visibility.mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new Event('pagehide'));
    expect(saves()).toBe(2);
    visibility.mockRestore();
  });
});
