// The clock adapter: the one place worker and shared code reach the wall clock
// and the global timers (DESIGN §2). Everything else gets a `Clock` injected,
// so tests drive time with a fake; the lint holds every other file to that.

import type { Clock } from './ports.js';

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};
