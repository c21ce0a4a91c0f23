// The asset finder's full-text index (docs/ui.md "Asset finder"): MiniSearch
// over names, kind and sensor words and ids, typo-tolerant and folded for
// diacritics. Built on the first search in slices of a few milliseconds (the
// worker keeps serving live data meanwhile) and kept current lazily: live
// changes only mark keys dirty, the next search re-reads those documents and
// re-indexes the ones whose words changed.

import MiniSearch, { type SearchResult as MiniResult } from 'minisearch';
import { foldText, GROUP_WORDS, STATUS_WORDS, type SearchGroup } from '../../shared/search.js';
import type { StatusKind } from '../../shared/kinds.js';

/** What one findable thing contributes to the index. */
export interface SearchDoc {
  /** 'a:<asset id>' or 'p:<user id>' */
  key: string;
  group: SearchGroup;
  /** shown and ranked first; words naming the group are left out of the index (they become a filter) */
  name: string;
  /** subtype, sensor types, ticket text, e-mail… */
  words: string;
  /** the id, found by its exact text */
  ref: string;
}

export interface SearchDocSource {
  /** the key of everything that may be findable (a full build reads each with get) */
  keys(): Iterable<string>;
  /** one document now, or null when it is gone or not visible */
  get(key: string): SearchDoc | null;
}

export interface ParsedQuery {
  /** text to match, folded */
  text: string[];
  groups: Set<SearchGroup>;
  statuses: Set<StatusKind>;
}

export interface SearchHit {
  key: string;
  group: SearchGroup;
  name: string;
}

export interface SearchAnswer {
  /** best first; at most `limitPerGroup` per group */
  hits: SearchHit[];
  /** matches per group before the limit */
  counts: Partial<Record<SearchGroup, number>>;
  total: number;
  /** while the index is being built: documents indexed so far of all */
  indexing: { done: number; total: number } | null;
}

export interface SearchOptions {
  limitPerGroup: number;
  statusOf(key: string): StatusKind;
  /**
   * How far a result is from what the viewer looks at (0 the shown floor, 1 its building, 2 elsewhere): a
   * query of kinds and states only ("free desks", "rooms") lists the nearest first, by name within each.
   * A query with words to match keeps the order of the match.
   */
  distanceOf?(key: string): number;
}

/** The distances `distanceOf` answers: the shown floor, its building, elsewhere. */
export const SEARCH_DISTANCES = 3;

export interface SearchIndexOptions {
  /** a clock to cut the build into slices (the engine's) */
  now(): number;
  /** runs fn soon, after other work queued in the worker (the engine's scheduler) */
  defer(fn: () => void): void;
  /** another slice of the build is done: searches may find more */
  onProgress(): void;
  /** how long one build slice may run; default BUILD_SLICE_MS */
  sliceMs?: number;
}

/** One build slice stays well inside a frame, so live patches keep flowing while the index builds. */
export const BUILD_SLICE_MS = 8;

export interface SearchIndex {
  search(query: string, options: SearchOptions): SearchAnswer;
  /** whether the query filters by a live status ("free desks"): then new readings may change which results it finds */
  readsStatus(query: string): boolean;
  /** keys whose documents may have changed */
  invalidate(keys: Iterable<string>): void;
  /**
   * Indexes the noted changes now and returns the index's version: it moves whenever a document
   * is added, re-worded or dropped (a build adds them), so a query run at another version may
   * find other things.
   */
  refresh(): number;
  /** everything may have changed (another location, other roles): rebuilt on the next search */
  reset(): void;
  /** documents indexed */
  readonly size: number;
  /** a build has started (live changes are then noted) */
  readonly built: boolean;
}

const SPLIT = /[\s,;:!?()[\]{}"'/\\|_+*#@&=<>~^`]+/u;

/** Words of a name; "3.12" and "A-4" also give their parts, so "12" and "4" find them. */
function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const token of text.split(SPLIT)) {
    if (!token) continue;
    out.push(token);
    if (/[.\-]/.test(token)) for (const part of token.split(/[.\-]+/)) if (part && part !== token) out.push(part);
  }
  return out;
}

/** Query words stay whole ("3.12" must not also match every "3"). */
const tokenizeQuery = (text: string) => text.split(SPLIT).filter(Boolean);

/** One typo in words of 3–6 letters, two from 7; none in numbers and ids. */
const fuzziness = (term: string) => (/\d/.test(term) ? false : term.length >= 7 ? 2 : term.length >= 3 ? 1 : false);

/** Group words are filters: a name's own group word is not worth a posting per desk. */
function withoutGroupWords(name: string, group: SearchGroup): string {
  return name.split(/\s+/).filter((w) => GROUP_WORDS[foldText(w)] !== group).join(' ');
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export function createSearchIndex(source: SearchDocSource, options: SearchIndexOptions): SearchIndex {
  const sliceMs = options.sliceMs ?? BUILD_SLICE_MS;
  let mini: MiniSearch<SearchDoc> | null = null;
  /** keys still to index in the build under way, and how many there were */
  let pending: string[] = [];
  let pendingTotal = 0;
  /** bumps at reset, so a slice of an abandoned build stops */
  let generation = 0;
  /** key → the words indexed for it, so an unchanged document is not re-indexed */
  const indexed = new Map<string, { group: SearchGroup; name: string; words: string }>();
  let dirty = new Set<string>();
  /** moves with every document added, re-worded or dropped (SearchIndex.refresh) */
  let version = 0;
  /** per group: keys sorted by name, for a query that only names a group ("desks", "free rooms") */
  const sorted = new Map<SearchGroup, string[]>();

  // group words with one typo forgiven ("lockr", "colegue"), found by MiniSearch too
  const groupWords = new MiniSearch<{ id: string; group: SearchGroup }>({ fields: ['id'], storeFields: ['group'] });
  groupWords.addAll(Object.entries(GROUP_WORDS).map(([id, group]) => ({ id, group })));

  function fresh(): MiniSearch<SearchDoc> {
    return new MiniSearch<SearchDoc>({
      idField: 'key',
      fields: ['name', 'words', 'ref'],
      storeFields: [],
      tokenize,
      processTerm: (term) => foldText(term),
      extractField: (doc, field) => (field === 'name' ? withoutGroupWords(doc.name, doc.group) : (doc as unknown as Record<string, string>)[field]),
      searchOptions: {
        tokenize: tokenizeQuery,
        // the last word is still being typed; one letter would expand to half the vocabulary
        prefix: (term, i, terms) => i === terms.length - 1 && term.length > 1,
        fuzzy: fuzziness,
        maxFuzzy: 2,
        combineWith: 'AND',
        boost: { name: 3, ref: 2 },
        weights: { fuzzy: 0.3, prefix: 0.6 },
      },
      autoVacuum: { minDirtCount: 200, minDirtFactor: 0.2, batchSize: 1000, batchWait: 0 },
    });
  }

  function put(doc: SearchDoc) {
    version += 1;
    indexed.set(doc.key, { group: doc.group, name: doc.name, words: doc.words });
    sorted.delete(doc.group);
  }

  function start() {
    mini = fresh();
    indexed.clear();
    sorted.clear();
    dirty = new Set();
    pending = [...new Set(source.keys())].reverse();
    pendingTotal = pending.length;
    slice();
  }

  /** Indexes documents for up to sliceMs, then yields to the worker's other work. */
  function slice() {
    const mine = generation;
    const index = mini!;
    const until = options.now() + sliceMs;
    let n = 0;
    while (pending.length > 0) {
      const key = pending.pop()!;
      const doc = source.get(key);
      if (doc && !indexed.has(key)) { index.add(doc); put(doc); }
      // the clock is read every few documents: reading it costs more than one add
      if (++n % 32 === 0 && options.now() >= until) break;
    }
    if (pending.length > 0) {
      options.defer(() => { if (mine === generation && mini === index) slice(); });
    }
    options.onProgress();
  }

  function catchUp(index: MiniSearch<SearchDoc>) {
    if (dirty.size === 0) return;
    const keys = dirty;
    dirty = new Set();
    for (const key of keys) {
      const doc = source.get(key);
      const before = indexed.get(key);
      if (!doc) {
        if (before) { index.discard(key); indexed.delete(key); sorted.delete(before.group); version += 1; }
        continue;
      }
      if (before && before.group === doc.group && before.name === doc.name && before.words === doc.words) continue;
      if (before) { index.replace(doc); sorted.delete(before.group); } else index.add(doc);
      put(doc);
    }
  }

  function parse(query: string): ParsedQuery {
    const words = tokenizeQuery(foldText(query));
    const parsed: ParsedQuery = { text: [], groups: new Set(), statuses: new Set() };
    words.forEach((word, i) => {
      const status = STATUS_WORDS[word];
      if (status) { parsed.statuses.add(status); return; }
      const exact = GROUP_WORDS[word];
      if (exact) { parsed.groups.add(exact); return; }
      // a typo in a group word, unless it may still be a name being typed
      if (!/\d/.test(word) && (word.length >= 4 || (word.length === 3 && i < words.length - 1))) {
        const hit = groupWords.search(word, { fuzzy: 1, prefix: false })[0];
        if (hit) { parsed.groups.add(hit.group as SearchGroup); return; }
      }
      parsed.text.push(word);
    });
    return parsed;
  }

  function groupKeys(group: SearchGroup): string[] {
    let keys = sorted.get(group);
    if (!keys) {
      keys = [...indexed].filter(([, d]) => d.group === group).map(([k]) => k);
      keys.sort((a, b) => collator.compare(indexed.get(a)!.name, indexed.get(b)!.name));
      sorted.set(group, keys);
    }
    return keys;
  }

  return {
    readsStatus: (query) => parse(query).statuses.size > 0,
    search(query, { limitPerGroup, statusOf, distanceOf }) {
      const parsed = parse(query);
      const answer: SearchAnswer = { hits: [], counts: {}, total: 0, indexing: null };
      if (parsed.text.length === 0 && parsed.groups.size === 0 && parsed.statuses.size === 0) return answer;
      if (!mini) start();
      const index = mini!;
      catchUp(index);
      if (pending.length > 0) answer.indexing = { done: pendingTotal - pending.length, total: pendingTotal };
      const accept = (key: string, group: SearchGroup) => {
        if (parsed.groups.size && !parsed.groups.has(group)) return;
        if (parsed.statuses.size && !parsed.statuses.has(statusOf(key))) return;
        const count = (answer.counts[group] ?? 0) + 1;
        answer.counts[group] = count;
        answer.total += 1;
        if (count <= limitPerGroup) answer.hits.push({ key, group, name: indexed.get(key)!.name });
      };
      if (parsed.text.length === 0) {
        const groups = parsed.groups.size ? [...parsed.groups] : [...new Set([...indexed.values()].map((d) => d.group))];
        for (const group of groups) {
          const keys = groupKeys(group);
          if (!distanceOf) { for (const key of keys) accept(key, group); continue; }
          // nearest first, by name within each distance. Every match is counted; a match's distance is read
          // only until the page is full of the nearest ones (on a large floor after a few dozen names)
          if (parsed.groups.size && !parsed.groups.has(group)) continue;
          const near: string[][] = Array.from({ length: SEARCH_DISTANCES }, () => []);
          const nearest = near[0]!;
          let count = 0;
          for (const key of keys) {
            if (parsed.statuses.size && !parsed.statuses.has(statusOf(key))) continue;
            count += 1;
            if (nearest.length === limitPerGroup) continue;
            const list = near[Math.min(SEARCH_DISTANCES - 1, Math.max(0, distanceOf(key)))]!;
            if (list.length < limitPerGroup) list.push(key);
          }
          if (count === 0) continue;
          answer.counts[group] = count;
          answer.total += count;
          let listed = 0;
          for (const list of near) {
            for (const key of list) {
              if (listed === limitPerGroup) break;
              answer.hits.push({ key, group, name: indexed.get(key)!.name });
              listed += 1;
            }
          }
        }
        return answer;
      }
      const text = parsed.text.join(' ');
      let results: MiniResult[] = index.search(text);
      // every word must match; if one matches nothing, rank by the words that do
      if (results.length === 0 && parsed.text.length > 1) results = index.search(text, { combineWith: 'OR' });
      for (const r of results) {
        const doc = indexed.get(r.id as string);
        if (doc) accept(r.id as string, doc.group);
      }
      return answer;
    },
    invalidate(keys) {
      if (!mini) return;
      for (const key of keys) dirty.add(key);
    },
    refresh() {
      if (mini) catchUp(mini);
      return version;
    },
    reset() {
      generation += 1;
      version += 1;
      pending = [];
      pendingTotal = 0;
      mini = null;
      indexed.clear();
      sorted.clear();
      dirty = new Set();
    },
    get size() { return indexed.size; },
    get built() { return mini !== null; },
  };
}
