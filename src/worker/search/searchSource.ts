// The `search` view (docs/ui.md "Asset finder"): the finder's query answered
// from the worker's index as typed results grouped by kind with their floor.
// One search per flush at most: live changes re-run the query, and the hub
// sends only the results whose content changed.

import type { SearchMeta, ViewSpec } from '../../shared/api.js';
import { SEARCH_GROUPS, type SearchGroup } from '../../shared/search.js';
import type { Dirty, ViewSource } from '../views/viewHub.js';
import type { SearchIndex } from './searchIndex.js';
import { ASSET_PREFIX, type createSearchDocs } from './searchDocs.js';

/** Results listed per group; the meta counts every match. */
export const SEARCH_RESULTS_PER_GROUP = 20;
/** Longer queries are cut: nobody types more, and it bounds the work. */
export const SEARCH_QUERY_MAX_LENGTH = 200;

type Docs = ReturnType<typeof createSearchDocs>;

export function searchSource(index: SearchIndex, docs: Docs, spec: Extract<ViewSpec, { view: 'search' }>): ViewSource {
  const query = typeof spec.query === 'string' ? spec.query.slice(0, SEARCH_QUERY_MAX_LENGTH) : '';
  let ranks = new Map<string, number>();
  let meta: SearchMeta = { query, total: 0, groups: [], indexing: null };

  function run() {
    const answer = index.search(query, { limitPerGroup: SEARCH_RESULTS_PER_GROUP, statusOf: docs.status });
    ranks = new Map(answer.hits.map((h, i) => [h.key, i]));
    const order: SearchGroup[] = [];
    for (const h of answer.hits) if (!order.includes(h.group)) order.push(h.group);
    for (const g of SEARCH_GROUPS) if (answer.counts[g] && !order.includes(g)) order.push(g);
    meta = { query, total: answer.total, groups: order.map((group) => ({ group, count: answer.counts[group] ?? 0 })), indexing: answer.indexing };
  }
  run();

  const touched = (d: Dirty) => d.has('assets') || d.has('values') || d.has('users') || d.has('structure') || d.has('session') || d.has('search');
  const readsStatus = index.readsStatus(query);
  /** new readings alone change what a found result says, not which results a name query finds */
  const onlyReadings = (d: Dirty) => !readsStatus && d.has('values') && !d.has('assets') && !d.has('users') && !d.has('structure')
    && !d.has('session') && !d.has('search');
  return {
    keys: () => ranks.keys(),
    entry: (key) => {
      const rank = ranks.get(key);
      return rank === undefined ? undefined : docs.result(key, rank);
    },
    meta: () => meta,
    affected(d) {
      if (!touched(d)) return null;
      if (onlyReadings(d)) {
        const values = d.get('values')!;
        if (values === 'all') return 'all';
        const keys: string[] = [];
        for (const id of values) if (ranks.has(ASSET_PREFIX + id)) keys.push(ASSET_PREFIX + id);
        return keys.length ? keys : null;
      }
      run();
      return 'all';
    },
    metaAffected: (d) => touched(d) && !onlyReadings(d),
  };
}
