// Code the first screen does not need (directions with graphology, the
// finder's MiniSearch index, reports) is a chunk of its own, loaded on first
// use: the worker's script is what stands between a reopen and the saved
// floor (issue 14). The views over such code say they are loading, then
// answer; a chunk that cannot load gives a clear error, and asking again
// (opening the view again, "Retry") loads it again.

import type { Logger } from './ports.js';

export type LazyState = 'idle' | 'loading' | 'ready' | 'failed';

export interface LazyModule<T> {
  /** starts the load, or again after a failure; nothing while loading or loaded */
  load(): void;
  /** the module once loaded, else null */
  get(): T | null;
  readonly state: LazyState;
  /** what the user is told after a failed load, else null */
  readonly error: string | null;
  /** settles once no load is under way (tests, diagnostics) */
  settled(): Promise<void>;
}

/** The words for a part of the app whose code could not be loaded. */
export function lazyLoadError(what: string): string {
  return `${what} could not be loaded. Check the connection and try again.`;
}

export interface LazyModuleOptions {
  /** the load settled either way: views over the module read it again */
  onSettled(): void;
  logger: Logger;
}

/** A module loaded on the first `load()`; `what` names the part for the user ("Directions"). */
export function lazyModule<T>(what: string, load: () => Promise<T>, options: LazyModuleOptions): LazyModule<T> {
  let state: LazyState = 'idle';
  let value: T | null = null;
  let error: string | null = null;
  let pending: Promise<void> = Promise.resolve();

  return {
    load() {
      if (state === 'loading' || state === 'ready') return;
      state = 'loading';
      error = null;
      let loading: Promise<T>;
      try {
        loading = load();
      } catch (reason) {
        loading = Promise.reject(reason);
      }
      pending = loading.then(
        (module) => { value = module; state = 'ready'; },
        (reason: unknown) => {
          state = 'failed';
          error = lazyLoadError(what);
          options.logger.error(`${what}: its code did not load`, reason);
        },
      ).then(() => options.onSettled());
    },
    get: () => value,
    get state() { return state; },
    get error() { return error; },
    settled: () => pending,
  };
}
