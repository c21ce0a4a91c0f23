// When the app cannot start (docs/ui.md "If the app cannot start"): index.html's
// start guard, taken from the real index.html and run in this page, and the
// words the app's own start gives it (src/ui/lib/startFailure.ts).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ENGINE_STOPPED, ENGINE_STOPPED_ADVICE, failureDetail, markRendered, markStarting, showFailure } from '../../src/ui/lib/startFailure.js';

const INDEX = readFileSync(join(import.meta.dirname, '../../src/ui/index.html'), 'utf8');
const GUARD = [...INDEX.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!).find((text) => text.includes('__storeyStartFailed'))!;

/** A page as index.html leaves it on a reopen: the splash, and the painted floor over it with a click kept. */
function reopened(): void {
  document.body.innerHTML = '<div id="root"><div class="splash visually-hidden" role="status">Starting…</div></div>'
    + '<div class="painted" aria-hidden="true"><svg class="floor-svg"></svg></div><script type="module" src="/assets/index-A.js"></script>';
  window.__storeyPainted = { floorId: 'f1', view: null, clicked: 'd1', fixed: [] };
  new Function(GUARD)();
}

const failure = () => document.querySelector('#root [role="alert"]');

describe("index.html's start guard", () => {
  beforeEach(() => { delete window.__storeyStart; });
  afterEach(() => {
    delete window.__storeyStart;
    delete window.__storeyStartFailed;
    delete window.__storeyPainted;
    document.body.innerHTML = '';
  });

  it("takes the picture away and says the app could not start when its script does not load, with Reload focused", () => {
    reopened();
    document.querySelector('script[type="module"]')!.dispatchEvent(new Event('error'));
    expect(document.querySelector('.painted')).toBeNull();
    expect(window.__storeyPainted!.clicked).toBeNull();
    expect(failure()!.querySelector('h1')!.textContent).toBe('Storey could not start.');
    expect(failure()!.querySelector('p')!.textContent).toBe('A part of the app could not be loaded. Check the connection, then reload the page.');
    expect(document.activeElement?.textContent).toBe('Reload');
    // only the failure is left: no "Starting…" that would never end
    expect(document.getElementById('root')!.textContent).not.toContain('Starting…');
  });

  it('says so for an error before the app runs, and leaves errors to the app once it does', () => {
    reopened();
    markStarting();
    window.dispatchEvent(new ErrorEvent('error', { message: 'boom' }));
    document.querySelector('script[type="module"]')!.dispatchEvent(new Event('error'));
    expect(failure()).toBeNull();
    expect(document.querySelector('.painted')).not.toBeNull();

    delete window.__storeyStart;
    window.dispatchEvent(new ErrorEvent('error', { message: 'boom' }));
    expect(failure()!.querySelector('p')!.textContent).toBe('The app could not be loaded. Check the connection, then reload the page.');
  });

  it("ignores an image that did not load: that is not the app's start", () => {
    reopened();
    const img = document.createElement('img');
    document.body.append(img);
    img.dispatchEvent(new Event('error'));
    expect(failure()).toBeNull();
    expect(document.querySelector('.painted')).not.toBeNull();
  });

  it("reloads the page from its button", () => {
    reopened();
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    try {
      showFailure('The app\'s engine could not be loaded.');
      (failure()!.querySelector('button') as HTMLButtonElement).click();
      expect(reload).toHaveBeenCalledTimes(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("a room display's failure", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    sessionStorage.clear();
    delete window.__storeyStartFailed;
    document.body.innerHTML = '';
  });

  /** the guard on a display's page, its failure said, the page's reload counted */
  function failOnDisplay(now: number) {
    vi.setSystemTime(now);
    document.body.innerHTML = '<div id="root"><div class="splash" role="status">Starting…</div></div>';
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, pathname: '/display/room/r1', reload });
    new Function(GUARD)();
    showFailure(ENGINE_STOPPED, ENGINE_STOPPED_ADVICE);
    return reload;
  }

  it('reloads by itself, nobody being there to press Reload, and waits twice as long when it fails again within the hour', () => {
    vi.useFakeTimers();
    const t0 = Date.UTC(2026, 10, 24, 9);
    let reload = failOnDisplay(t0);
    expect([...failure()!.querySelectorAll('p')].map((p) => p.textContent)).toEqual([
      "The app's engine stopped after an error. Reload the page to start it again.", 'It reloads by itself in 10 s.',
    ]);
    expect(document.activeElement?.textContent).toBe('Reload');
    vi.advanceTimersByTime(9_999);
    expect(reload).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(reload).toHaveBeenCalledTimes(1);

    // the reloaded display fails again a minute later: 20 s; after an hour that ran well, 10 s again
    reload = failOnDisplay(t0 + 60_000);
    expect(failure()!.querySelectorAll('p')[1]!.textContent).toBe('It reloads by itself in 20 s.');
    reload = failOnDisplay(t0 + 2 * 3_600_000);
    expect(failure()!.querySelectorAll('p')[1]!.textContent).toBe('It reloads by itself in 10 s.');
  });

  it('never waits more than ten minutes', () => {
    vi.useFakeTimers();
    const t0 = Date.UTC(2026, 10, 24, 9);
    for (let i = 0; i < 8; i++) failOnDisplay(t0 + i * 60_000);
    expect(failure()!.querySelectorAll('p')[1]!.textContent).toBe('It reloads by itself in 600 s.');
  });

  it('leaves the viewer to the person in front of it: no reload by itself', () => {
    reopened();
    showFailure(ENGINE_STOPPED, ENGINE_STOPPED_ADVICE);
    expect(failure()!.querySelectorAll('p')).toHaveLength(1);
  });
});

describe('the app reporting its own failure', () => {
  afterEach(() => {
    delete window.__storeyStartFailed;
    document.body.innerHTML = '';
  });

  it('names a part that did not load in words, and an error by its message', () => {
    expect(failureDetail(new TypeError('Failed to fetch dynamically imported module: http://x/assets/renderApp-1.js'))).toBe('A part of the app could not be loaded.');
    expect(failureDetail(new Error('Cannot read properties of undefined'))).toBe('Something went wrong: Cannot read properties of undefined.');
    expect(failureDetail(null)).toBe('Something went wrong.');
  });

  it('says the app stopped, not that it could not start, once its first screen was there', () => {
    reopened();
    markRendered();
    showFailure('Something went wrong: x.');
    expect(failure()!.querySelector('h1')!.textContent).toBe('Storey stopped working.');
  });

  it('says the engine stopped and to reload, not to check the connection, when the engine threw', () => {
    reopened();
    showFailure(ENGINE_STOPPED, ENGINE_STOPPED_ADVICE);
    expect(failure()!.querySelector('p')!.textContent).toBe("The app's engine stopped after an error. Reload the page to start it again.");
    expect(document.activeElement?.textContent).toBe('Reload');
  });
});
