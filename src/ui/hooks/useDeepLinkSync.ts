// Keeps the URL in step with what the shell shows, so a copied link opens the
// same view (docs/ui.md, deep links). The worker owns navigation; this only
// writes the query string, never reads it back.

import { useEffect } from 'react';
import { formatDeepLink, type DeepLink } from '../lib/deepLink.js';
import { formatReportLink } from '../lib/reportLink.js';
import type { ReportRequest } from '../../shared/reports/types.js';

/** The page's query string, read and replaced; injectable for tests. */
export interface QueryLocation {
  search: string;
  replace(search: string): void;
}

export const browserLocation: QueryLocation = {
  get search() {
    return window.location.search;
  },
  replace(search: string) {
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${search}${window.location.hash}`);
  },
};

/**
 * Writes `link` (with the location and floor the worker chose) and, while the
 * Reports tab is open, its `report`. In tasks of their own, the latest of a
 * burst only (history.replaceState is a synchronous call to the browser: 30-120 ms
 * of the cold load's effect flushes at load 8, issue 14), the query string made
 * in one and written in the next (the first one made, qs' code compiled on first
 * use, and the write were one 114 ms task at load 8).
 */
export function useDeepLinkSync(location: QueryLocation, link: DeepLink, locationId: string | null, floorId: string | null, report: ReportRequest | null): void {
  useEffect(() => {
    let timer = setTimeout(() => {
      const base = formatDeepLink({ ...link, location: locationId ?? link.location, floor: floorId ?? link.floor });
      const extra = report ? formatReportLink(report) : '';
      const next = extra ? `${base ? `${base}&` : '?'}${extra}` : base;
      if (next !== location.search) timer = setTimeout(() => location.replace(next), 0);
    }, 0);
    return () => clearTimeout(timer);
  }, [link, floorId, locationId, location, report]);
}
