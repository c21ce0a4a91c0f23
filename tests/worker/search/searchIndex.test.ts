import { describe, expect, it } from 'vitest';
import { createSearchIndex, type SearchDoc } from '../../../src/worker/search/searchIndex.js';

function desks(n: number): Map<string, SearchDoc> {
  return new Map(Array.from({ length: n }, (_, i) => [`a:${i}`, { key: `a:${i}`, group: 'desk' as const, name: `Desk 1.${i}`, words: 'shape desk occupancy', ref: String(i) }]));
}

describe('createSearchIndex', () => {
  it('builds in slices, answering from what is indexed so far with its progress, until done', () => {
    const docs = desks(500);
    let clock = 0;
    const deferred: Array<() => void> = [];
    let progress = 0;
    const index = createSearchIndex(
      { keys: () => docs.keys(), get: (key) => docs.get(key) ?? null },
      // every clock reading is a millisecond later: a 1 ms slice indexes 32 documents
      { now: () => clock++, defer: (fn) => deferred.push(fn), onProgress: () => { progress += 1; }, sliceMs: 1 },
    );
    const first = index.search('desks', { limitPerGroup: 1000, statusOf: () => 'free' });
    expect(first.indexing).toEqual({ done: 32, total: 500 });
    expect(first.total).toBe(32);
    while (deferred.length) deferred.shift()!();
    const done = index.search('desks', { limitPerGroup: 1000, statusOf: () => 'free' });
    expect(done.indexing).toBeNull();
    expect(done.total).toBe(500);
    expect(progress).toBe(Math.ceil(500 / 32));
  });

  it('drops a build under way when reset, and starts afresh on the next search', () => {
    const docs = desks(100);
    const deferred: Array<() => void> = [];
    let clock = 0;
    const index = createSearchIndex(
      { keys: () => docs.keys(), get: (key) => docs.get(key) ?? null },
      { now: () => clock++, defer: (fn) => deferred.push(fn), onProgress: () => {}, sliceMs: 1 },
    );
    index.search('desk', { limitPerGroup: 10, statusOf: () => 'free' });
    index.reset();
    docs.clear();
    while (deferred.length) deferred.shift()!();
    expect(index.size).toBe(0);
    expect(index.search('desk', { limitPerGroup: 10, statusOf: () => 'free' }).total).toBe(0);
  });

  it('does no work for an empty query', () => {
    let reads = 0;
    const index = createSearchIndex(
      { keys: () => { reads += 1; return []; }, get: () => null },
      { now: () => 0, defer: () => {}, onProgress: () => {} },
    );
    expect(index.search('  ', { limitPerGroup: 10, statusOf: () => 'free' }).hits).toEqual([]);
    expect(reads).toBe(0);
    expect(index.built).toBe(false);
  });
});
