// Images the saved floor needs offline (docs/ui.md, offline shell): the
// service worker caches every image the page loads from then on (runtime
// cache IMAGE_CACHE), but the first floor is drawn before the worker takes
// control, so the viewer also puts the images it draws into that cache
// itself. Only URLs the image policy allowed (same origin, API host, CDN)
// ever reach here, as only those are drawn.

/** Must match the runtime cache of the service worker (vite.config.ts). */
export const IMAGE_CACHE = 'storey-images';

const kept = new Set<string>();

/** Makes sure `url` is in the offline image cache; quiet when caches are unavailable or the fetch fails. */
export async function keepForOffline(url: string | null | undefined): Promise<void> {
  if (!url || kept.has(url) || typeof caches === 'undefined') return;
  kept.add(url);
  try {
    const cache = await caches.open(IMAGE_CACHE);
    if (await cache.match(url)) return;
    // no-cors, as an <image> loads it: an opaque response is enough to draw it offline
    const response = await fetch(url, { mode: 'no-cors', credentials: 'omit' });
    if (response.type === 'opaque' || response.ok) await cache.put(url, response);
  } catch {
    kept.delete(url);
  }
}
