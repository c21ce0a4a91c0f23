// A replay's step held as one on the screen (src/ui/engine/presentAsOne.ts), on
// a stand-in of the View Transitions API: jsdom has none. What Chromium does
// with it is tests/e2e/playbackStep.test.ts.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PRESENT_MIN_GAP_MS, presentAsOne } from '../../src/ui/engine/presentAsOne.js';

/** document.startViewTransition as Chromium runs it: the update at once, `finished` once it settled, skippable. */
function standIn() {
  const started: Array<{ skipped: boolean }> = [];
  vi.stubGlobal('document', Object.assign(document, {
    startViewTransition(update: () => Promise<void>) {
      const record = { skipped: false };
      started.push(record);
      const done = update();
      return {
        ready: Promise.resolve(), updateCallbackDone: done, finished: done,
        skipTransition() { record.skipped = true; },
      };
    },
  }));
  return started;
}

let now = 0;
beforeEach(() => {
  now += 10 * PRESENT_MIN_GAP_MS;
  vi.spyOn(performance, 'now').mockImplementation(() => now);
});
afterEach(() => {
  delete (document as { startViewTransition?: unknown }).startViewTransition;
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

const step = () => {
  let finish!: () => void;
  const update = vi.fn(() => new Promise<void>((resolve) => { finish = resolve; }));
  presentAsOne(update);
  return { update, finish: async () => { finish(); await Promise.resolve(); await Promise.resolve(); } };
};

describe('presentAsOne', () => {
  it('holds the screen for a step, and gives a press made meanwhile to the button under it', async () => {
    const started = standIn();
    document.body.innerHTML = '<button type="button">+15 min</button>';
    const button = document.querySelector('button')!;
    const clicked = vi.fn();
    button.addEventListener('click', clicked);
    document.elementFromPoint = () => button;
    const first = step();
    expect(first.update).toHaveBeenCalledTimes(1);
    expect(started).toHaveLength(1);
    // the transition hit-tests only the root: the press reaches the page there, and the button gets it
    document.documentElement.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, clientX: 5, clientY: 5 }));
    expect(started[0]!.skipped).toBe(true);
    expect(clicked).toHaveBeenCalledTimes(1);
    await first.finish();
    // once over, a press is the page's own again
    document.documentElement.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    expect(clicked).toHaveBeenCalledTimes(1);
  });

  it('lets a pointer that moves end the hold: the step shows as far as it is', async () => {
    const started = standIn();
    const first = step();
    window.dispatchEvent(new PointerEvent('pointermove'));
    expect(started[0]!.skipped).toBe(true);
    await first.finish();
  });

  it('applies a step that follows another within PRESENT_MIN_GAP_MS without holding the screen, as a replay playing does', async () => {
    const started = standIn();
    const first = step();
    await first.finish();
    now += PRESENT_MIN_GAP_MS - 1;
    const second = step();
    expect(second.update).toHaveBeenCalledTimes(1);
    expect(started).toHaveLength(1);
    await second.finish();
  });

  it('applies the step as it comes where the browser has no view transitions', () => {
    const { update } = step();
    expect(update).toHaveBeenCalledTimes(1);
  });
});
