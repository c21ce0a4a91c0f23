// The JSON bodies of a location's initial-load listings (assets, sensors), kept
// per audience and query until what they list changes: at 10,000 desks and
// 20,000 sensors each is ~10 MB, and serializing it per request cost ~90 ms of
// CPU and ~200 ms of garbage collection every time a client (re)opened the
// location (docs/bench.md "The reference server's listings serialized once").

export interface ListingCacheStats {
  hits: number;
  misses: number;
  /** bytes of the bodies kept */
  bytes: number;
  entries: number;
}

export interface ListingCache {
  /**
   * The body of `key` as of `version`: the kept one when its version is
   * `version`, else `make()` serialized (and kept, in place of the older
   * one, when it fits the budget).
   */
  body(key: string, version: string, make: () => unknown): Buffer;
  readonly stats: ListingCacheStats;
}

interface Entry { version: string; body: Buffer }

/** Keeps at most `maxBytes` of bodies, the least recently served dropped first; 0 keeps none. */
export function createListingCache(maxBytes: number): ListingCache {
  const entries = new Map<string, Entry>();
  const stats: ListingCacheStats = { hits: 0, misses: 0, bytes: 0, entries: 0 };

  function drop(key: string, entry: Entry) {
    entries.delete(key);
    stats.bytes -= entry.body.length;
    stats.entries = entries.size;
  }

  return {
    stats,
    body(key, version, make) {
      const kept = entries.get(key);
      if (kept && kept.version === version) {
        stats.hits += 1;
        // most recently served last: Map iteration order is the eviction order
        entries.delete(key);
        entries.set(key, kept);
        return kept.body;
      }
      stats.misses += 1;
      if (kept) drop(key, kept);
      const body = Buffer.from(JSON.stringify(make()));
      if (body.length > maxBytes) return body;
      for (const [k, e] of entries) {
        if (stats.bytes + body.length <= maxBytes) break;
        drop(k, e);
      }
      entries.set(key, { version, body });
      stats.bytes += body.length;
      stats.entries = entries.size;
      return body;
    },
  };
}
