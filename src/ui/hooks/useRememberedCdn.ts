// The settings' CDN base URL, remembered per API host: offline the settings
// cannot be loaded, and the saved floor's images must resolve to the same
// URLs the offline image cache holds (docs/ui.md, offline shell).

import { useEffect } from 'react';

export function useRememberedCdn(apiHost: string, live: string | null): string | null {
  const key = `storey:cdn:${apiHost}`;
  useEffect(() => {
    try {
      if (live) localStorage.setItem(key, live);
    } catch {
      // storage unavailable: offline images fall back to the API host
    }
  }, [key, live]);
  if (live) return live;
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
