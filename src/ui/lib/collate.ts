// One collator for the names the app sorts (people and rooms in the finders):
// making the first one loads the browser's collation data, 10-35 ms of a task
// in Chromium on these machines (over 100 ms of wall time while the engine
// worker loads live data beside it), so it is made in idle time once the
// floor is live and drawn (issue 14: no main-thread task over 50 ms in the
// saved → live swap), or by the first sort that needs it before then.

let collator: Intl.Collator | null = null;
let soon = false;

/** Makes the collator now, if it is not made yet. */
export function prepareCollator(): void {
  collator ??= new Intl.Collator();
}

/** How long after the floor went live the collator is made, in idle time: after the swap's frames. */
export const COLLATOR_IDLE_AFTER_MS = 1_000;

/** Makes the collator in idle time a while from now (once per page; the finders' first sort makes it if sooner). */
export function prepareCollatorSoon(): void {
  if (soon || collator) return;
  soon = true;
  setTimeout(() => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(prepareCollator, { timeout: 5_000 });
    else prepareCollator();
  }, COLLATOR_IDLE_AFTER_MS);
}

/** Compares two texts as `a.localeCompare(b)` does (the page's locale, default options). */
export function compareText(a: string, b: string): number {
  prepareCollator();
  return collator!.compare(a, b);
}
