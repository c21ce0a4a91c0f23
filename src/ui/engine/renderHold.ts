// The hold on the mirrors during React's first render (issue 14: no main-thread
// task over 50 ms): React renders the first screen in a transition, in slices
// with tasks between them, and a mirror that changed in one of those tasks
// makes it throw the slices away and render the whole screen again in one
// synchronous task. The mirrors take messages meanwhile and apply them once
// the first screen is committed and subscribed.

import type { MirrorHold } from './viewMirror.js';

/** The longest a hold lasts, whatever happens to the render that took it. */
export const HOLD_MAX_MS = 3_000;

export interface RenderHold extends MirrorHold {
  /** holds until the returned release is called (or HOLD_MAX_MS passed) */
  take(): () => void;
}

export function createRenderHold(): RenderHold {
  let holders = 0;
  const waiting: Array<() => void> = [];
  return {
    held: () => holders > 0,
    whenReleased(task) {
      if (holders === 0) task();
      else waiting.push(task);
    },
    take() {
      holders += 1;
      let done = false;
      const release = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        holders -= 1;
        if (holders > 0) return;
        for (const task of waiting.splice(0)) task();
      };
      const timer = setTimeout(release, HOLD_MAX_MS);
      return release;
    },
  };
}
