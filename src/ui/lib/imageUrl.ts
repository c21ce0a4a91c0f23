// The image-URL policy of DESIGN §8: avatars, floor plans and textures load
// only from the API host, the settings' cdn_base_url, or the page's own
// origin. Pure, so it is tested without a browser.

export interface ImageUrlPolicy {
  /** origin of the API, e.g. http://127.0.0.1:8080 */
  apiHost: string | null;
  /** cdn_base_url of the settings; URLs must start with it */
  cdnBaseUrl: string | null;
  /** the page's origin (location.origin) */
  origin: string;
}

function parse(url: string, base?: string): URL | null {
  try {
    return new URL(url, base);
  } catch {
    return null;
  }
}

/**
 * The absolute URL to load, or null when the URL is not allowed. Relative
 * paths resolve against the page origin; only http(s) is accepted, so
 * `javascript:` and `data:` never reach an `href`.
 */
export function allowedImageUrl(url: string | null | undefined, policy: ImageUrlPolicy): string | null {
  if (!url || typeof url !== 'string') return null;
  const resolved = parse(url.trim(), policy.origin);
  if (!resolved || (resolved.protocol !== 'http:' && resolved.protocol !== 'https:')) return null;
  if (resolved.username || resolved.password) return null;
  const origins = [policy.origin, policy.apiHost].flatMap((o) => {
    const parsed = o ? parse(o) : null;
    return parsed ? [parsed.origin] : [];
  });
  if (origins.includes(resolved.origin)) return resolved.href;
  const cdn = policy.cdnBaseUrl ? parse(policy.cdnBaseUrl) : null;
  if (cdn && resolved.origin === cdn.origin) {
    // a path-prefixed CDN base allows only what lies under that path
    const prefix = cdn.pathname.endsWith('/') ? cdn.pathname : `${cdn.pathname}/`;
    if (cdn.pathname === '/' || resolved.pathname === cdn.pathname || resolved.pathname.startsWith(prefix)) {
      return resolved.href;
    }
  }
  return null;
}

/**
 * Where a file the server names by path lives (a floor plan, an avatar): absolute URLs as they are, relative ones
 * under the settings' cdn_base_url, else the API host, else the page's origin (spec §3: `avatar_url` and
 * `floor_plan_img_path` are relative to cdn_base_url); null when the result is not allowed.
 */
export function fileUrl(path: string | null | undefined, policy: ImageUrlPolicy): string | null {
  if (!path || typeof path !== 'string') return null;
  if (/^[a-z]+:/i.test(path) || path.startsWith('//')) return allowedImageUrl(path, policy);
  const base = policy.cdnBaseUrl ?? policy.apiHost ?? policy.origin;
  return allowedImageUrl(`${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`, policy);
}

export function isAllowedImageUrl(url: string | null | undefined, policy: ImageUrlPolicy): boolean {
  return allowedImageUrl(url, policy) !== null;
}
