// A selector hook over one view entry, the way Zustand and React-Redux build
// theirs: use-sync-external-store's `with-selector` entry keeps the last
// selection and re-renders only when `isEqual` says the selected fields
// changed. A node that draws a few fields of a large entry subscribes to
// those fields only (a status change does not re-render a label).

import { useSyncExternalStoreWithSelector } from 'use-sync-external-store/with-selector';
import type { ViewMirror } from '../engine/viewMirror.js';

const noop = () => () => {};

/** Shallow equality of two plain objects or arrays (the usual selector equality). */
export function shallowEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k) || !Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** The selected part of one entry; re-renders only when `isEqual` (default: shallow) sees a change. */
export function useViewSelector<T, S>(
  mirror: ViewMirror<T, unknown> | null,
  key: string,
  selector: (entry: T | undefined) => S,
  isEqual: (a: S, b: S) => boolean = shallowEqual,
): S {
  return useSyncExternalStoreWithSelector(
    mirror ? (cb) => mirror.subscribe(key, cb) : noop,
    () => mirror?.getSnapshot(key),
    () => mirror?.getSnapshot(key),
    selector,
    isEqual,
  );
}
