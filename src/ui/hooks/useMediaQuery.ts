// Whether a CSS media query matches, kept current: useSyncExternalStore over
// matchMedia, so a rotated phone or a resized window switches at once. False
// where there is no matchMedia (jsdom, a worker): the wide layout.

import { useSyncExternalStore } from 'react';

/**
 * Phone-size screens get the compact shell (docs/ui.md, "Phone-size screens"):
 * narrow ones, and short landscape ones whose header would take the map's height.
 */
export const COMPACT_SCREEN = '(max-width: 640px), (max-height: 500px) and (max-width: 1000px)';

const hasMatchMedia = () => typeof window !== 'undefined' && typeof window.matchMedia === 'function';

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      if (!hasMatchMedia()) return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', notify);
      return () => list.removeEventListener('change', notify);
    },
    () => hasMatchMedia() && window.matchMedia(query).matches,
    () => false,
  );
}
