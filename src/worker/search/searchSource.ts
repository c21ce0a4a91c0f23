// The `search` view (docs/ui.md "Asset finder"): the finder's query answered
// from the worker's index as typed results grouped by kind with their floor.
// One search per flush at most: changes that alter what the index holds re-run
// the query, others re-read only the results they touch; the hub sends only
// the results whose content changed. The index (MiniSearch) loads on the
// first search: until then the finder says it is preparing, and if the code
// cannot load, says that.

import type { SearchMeta, ViewSpec } from '../../shared/api.js';
import type { Id } from '../../shared/types.js';
import { SEARCH_GROUPS, type SearchGroup } from '../../shared/search.js';
import type { Dirty, ViewSource } from '../views/viewHub.js';
import type { LazyModule } from '../lazyModule.js';
import type { SearchIndex } from './searchIndex.js';
import { ASSET_PREFIX, type createSearchDocs } from './searchDocs.js';

/** Results listed per group; the meta counts every match. */
export const SEARCH_RESULTS_PER_GROUP = 20;
/** Longer queries are cut: nobody types more, and it bounds the work. */
export const SEARCH_QUERY_MAX_LENGTH = 200;

type Docs = ReturnType<typeof createSearchDocs>;

/**
 * `index` is null until the search's code (`code`) has loaded; the source starts that load. `shownFloor`:
 * the floor the viewer looks at, whose things a query of kinds and states lists first (a floor switch is a
 * session change, which runs the query again).
 */
export function searchSource(
  index: () => SearchIndex | null, code: Pick<LazyModule<unknown>, 'load' | 'error'>, docs: Docs, spec: Extract<ViewSpec, { view: 'search' }>,
  shownFloor: () => Id | null = () => null,
): ViewSource {
  const query = typeof spec.query === 'string' ? spec.query.slice(0, SEARCH_QUERY_MAX_LENGTH) : '';
  let ranks = new Map<string, number>();
  /** the asset ids among the results (readings touch only those: see `affected`) */
  let rankedAssets = new Set<string>();
  let meta: SearchMeta = { query, total: 0, groups: [], indexing: null };
  /** the index's version the query last ran at */
  let ranAt = -1;
  let readsStatus = false;
  code.load();

  function run() {
    const current = index();
    if (!current) {
      // the code is on its way (the finder shows "Preparing search… 0 %"), or did not come
      ranks = new Map();
      ranAt = -1;
      meta = code.error ? { query, total: 0, groups: [], indexing: null, error: code.error } : { query, total: 0, groups: [], indexing: { done: 0, total: 0 } };
      return;
    }
    readsStatus = current.readsStatus(query);
    const floorId = shownFloor();
    const buildingId = floorId ? docs.buildingOf(floorId) : null;
    // per floor once: a query of kinds reads the distance of every document of its groups
    const byFloor = new Map<Id, number>();
    const distanceOf = (key: string) => {
      const at = docs.floorOf(key);
      if (at === null || floorId === null) return 2;
      let distance = byFloor.get(at);
      if (distance === undefined) byFloor.set(at, (distance = at === floorId ? 0 : buildingId !== null && docs.buildingOf(at) === buildingId ? 1 : 2));
      return distance;
    };
    const answer = current.search(query, { limitPerGroup: SEARCH_RESULTS_PER_GROUP, statusOf: docs.status, distanceOf });
    ranAt = current.refresh();
    ranks = new Map(answer.hits.map((h, i) => [h.key, i]));
    rankedAssets = new Set();
    for (const key of ranks.keys()) if (key.startsWith(ASSET_PREFIX)) rankedAssets.add(key.slice(ASSET_PREFIX.length));
    const order: SearchGroup[] = [];
    for (const h of answer.hits) if (!order.includes(h.group)) order.push(h.group);
    for (const g of SEARCH_GROUPS) if (answer.counts[g] && !order.includes(g)) order.push(g);
    meta = { query, total: answer.total, groups: order.map((group) => ({ group, count: answer.counts[group] ?? 0 })), indexing: answer.indexing };
  }
  run();

  const touched = (d: Dirty) => d.has('assets') || d.has('values') || d.has('users') || d.has('structure') || d.has('session') || d.has('search') || d.has('loaded');
  /** the dirty set the query last ran for (the meta changes only then) */
  let ranFor: Dirty | null = null;
  return {
    keys: () => ranks.keys(),
    entry: (key) => {
      const rank = ranks.get(key);
      return rank === undefined ? undefined : docs.result(key, rank);
    },
    meta: () => meta,
    affected(d) {
      if (!touched(d)) return null;
      const assets = d.get('assets');
      const values = d.get('values');
      // Readings, moves and edits that leave every indexed document as it was find the same things: only
      // the results they touch are read again (their status, position, floor). A live load of desk edits
      // and moves re-ran the query on every flush (issue 14). Users, roles, structure, a status filter
      // or an index that changed (or is still being built) run it again.
      const same = !readsStatus && !d.has('users') && !d.has('structure') && !d.has('session') && !d.has('search') && !d.has('loaded')
        && assets !== 'all' && values !== 'all' && ranAt >= 0 && index()?.refresh() === ranAt;
      if (!same) {
        run();
        ranFor = d;
        return 'all';
      }
      const keys = new Set<string>();
      for (const id of assets ?? []) for (const key of docs.resultKeysOf(id)) if (ranks.has(key)) keys.add(key);
      // a reading touches its asset's own result only: a person's readings come as their asset's change
      // (store/measurements.ts), which reaches their person result above. Thousands of
      // readings a flush meet a few dozen results: walk the smaller side, with no key made per reading.
      if (values) {
        if (values.size > rankedAssets.size) { for (const id of rankedAssets) if (values.has(id)) keys.add(ASSET_PREFIX + id); } else for (const id of values) if (rankedAssets.has(id)) keys.add(ASSET_PREFIX + id);
      }
      return keys.size ? keys : null;
    },
    metaAffected: (d) => ranFor === d,
  };
}
