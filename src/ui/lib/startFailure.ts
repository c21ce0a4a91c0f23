// When the app cannot start, or stops (docs/ui.md "If the app cannot start"):
// index.html's first inline script draws the failure (it must work when none
// of the app's code loaded) and takes the painted floor away; the app calls it
// through here once its own start is under way (main.tsx), when a step of the
// start fails, the engine worker cannot load or stops on an error nothing
// caught, or React's root gives up.

declare global {
  interface Window {
    /** set by main.tsx once it runs: from then on it reports failures itself */
    __storeyStart?: boolean;
    /** index.html's failure screen: the painted floor goes, #root says why, with Reload */
    __storeyStartFailed?: (detail: string, stopped: boolean, advice?: string) => void;
  }
}

/** The engine worker threw and nothing caught it: it was ended, as what it holds is not known any more. */
export const ENGINE_STOPPED = 'The app\'s engine stopped after an error.';
/** What to do then: the network is not the cause, so the usual "check the connection" would mislead. */
export const ENGINE_STOPPED_ADVICE = 'Reload the page to start it again.';

/** What a person is told of a failure: the error's own words only when they say something. */
export function failureDetail(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  // a module or chunk that did not come over the network (Chromium, Firefox, Safari words)
  if (/dynamically imported module|Importing a module script failed|error loading dynamically imported module|Failed to fetch/i.test(message)) {
    return 'A part of the app could not be loaded.';
  }
  return message ? `Something went wrong: ${message}.`.replace(/\.\.$/, '.') : 'Something went wrong.';
}

/** main.tsx runs: index.html's guard leaves failures to it. */
export function markStarting(): void {
  window.__storeyStart = true;
}

let rendered = false;
/** The app's first screen is committed: a failure from now on means it stopped, not that it could not start. */
export function markRendered(): void {
  rendered = true;
}

/**
 * The app will not draw (its start failed) or stopped: the failure screen, with the picture gone. `advice`
 * replaces "Check the connection, then reload the page." where the connection is not the cause.
 */
export function showFailure(detail: string, advice?: string): void {
  window.__storeyStartFailed?.(detail, rendered, advice);
}
