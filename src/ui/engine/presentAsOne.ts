// A replay's step shown as one (docs/reports.md "A step on the screen"): the
// map and the bar's time change in the same frame, though the page applies
// the step over several tasks (viewMirror.ts, `present`). The View
// Transitions API keeps the screen as it was while the step applies
// (rendering paused, the main thread free for its slices), then shows the
// new state at once; its animation is none (styles.css).
//
// While a transition holds the screen Chromium hit-tests nothing but the
// root: a press would be lost. So the pointer ends it: the first move or
// press shows the step as far as it is (its remaining slices follow, as they
// did before), and a press on a button is given to that button. Steps that
// come close together (a replay playing, a key held) are not held at all.

/** A step this soon after the last one is applied as it comes: a replay playing, or steps in quick succession. */
export const PRESENT_MIN_GAP_MS = 400;

let lastAt = Number.NEGATIVE_INFINITY;
let holding: ViewTransition | null = null;

/** Keeps the screen as it is while `update` applies a change, then shows it in one frame (ViewMirrorOptions.present). */
export function presentAsOne(update: () => Promise<void>): void {
  const now = performance.now();
  const soon = now - lastAt < PRESENT_MIN_GAP_MS;
  lastAt = now;
  if (soon || holding || typeof document.startViewTransition !== 'function' || document.visibilityState !== 'visible') {
    void update();
    return;
  }
  const transition = document.startViewTransition(update);
  holding = transition;
  const onMove = () => transition.skipTransition();
  const onPress = (event: PointerEvent) => {
    // the press went to the root; the page is hit-tested again once the transition is skipped
    transition.skipTransition();
    const button = document.elementFromPoint(event.clientX, event.clientY)?.closest('button');
    if (button && !button.disabled) button.click();
  };
  window.addEventListener('pointermove', onMove, true);
  window.addEventListener('pointerdown', onPress, true);
  const done = () => {
    window.removeEventListener('pointermove', onMove, true);
    window.removeEventListener('pointerdown', onPress, true);
    if (holding === transition) holding = null;
  };
  // skipped (by the pointer, the page hidden) or timed out: the change still applies, only not held
  transition.ready.catch(() => undefined);
  transition.finished.then(done, done);
}

/**
 * After each slice of a presented change (ViewMirrorOptions.presentedSlice): the style of what it changed is
 * worked out now (a read of layout forces it), in the slice's task, while the screen still shows the old
 * state; the frame that shows the change then has little left to do (a jump's ~2,300 desks restyled in that
 * one frame took 56 ms of UpdateLayoutTree, docs/bench.md).
 */
export function styleNow(): void {
  if (holding) void document.documentElement.getBoundingClientRect();
}
