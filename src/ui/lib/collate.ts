// One collator for the names the app sorts (people, rooms, labels): making
// the first one loads the browser's collation data, 10-35 ms in Chromium on
// these machines, and the first `localeCompare` of a page did it inside a
// React render (issue 14: no main-thread task over 50 ms). main.tsx makes it
// in idle time while the app starts.

let collator: Intl.Collator | null = null;

/** Makes the collator now, if it is not made yet. */
export function prepareCollator(): void {
  collator ??= new Intl.Collator();
}

/** Compares two texts as `a.localeCompare(b)` does (the page's locale, default options). */
export function compareText(a: string, b: string): number {
  prepareCollator();
  return collator!.compare(a, b);
}
