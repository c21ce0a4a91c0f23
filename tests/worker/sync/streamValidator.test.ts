import { describe, expect, it } from 'vitest';
import { createStreamValidator, StreamMismatchError } from '../../../src/worker/sync/streamValidator.js';
import type { Collection, LiveChange, StreamPosition } from '../../../src/shared/protocol.js';

const positions = (entries: Array<[Collection, string, number]>) =>
  new Map<Collection, StreamPosition>(entries.map(([c, id, seq]) => [c, { stream_id: id, stream_sequence: seq }]));
const change = (collection: Collection, id = '1'): LiveChange => ({ collection, kind: 'modified', id });
const packet = (seq: number, changes: LiveChange[] = [change('assets')], id = 's') => ({ stream_id: id, stream_sequence: seq, changes });

describe('streamValidator', () => {
  describe('check', () => {
    it('drops packets up to the lowest load position and applies the next one', () => {
      const v = createStreamValidator(positions([['assets', 's', 3], ['sensors', 's', 3]]));
      expect(v.check(packet(2))).toEqual({ kind: 'contained' });
      expect(v.check(packet(3))).toEqual({ kind: 'contained' });
      expect(v.check(packet(4))).toMatchObject({ kind: 'apply', changes: [change('assets')] });
      expect(v.lastSequence).toBe(4);
    });

    it("drops a change its own collection's load already contains", () => {
      const v = createStreamValidator(positions([['assets', 's', 5], ['sensors', 's', 3]]));
      const verdict = v.check(packet(4, [change('assets'), change('sensors'), change('measurements'), change('heartbeats')]));
      expect(verdict).toEqual({ kind: 'apply', changes: [change('sensors'), change('measurements'), change('heartbeats')], unsourced: [] });
      expect(v.check(packet(5, [change('assets')]))).toMatchObject({ kind: 'apply', changes: [] });
      expect(v.check(packet(6, [change('assets')]))).toMatchObject({ kind: 'apply', changes: [change('assets')] });
    });

    it('reports a gap and a repeated or reordered packet as invalid', () => {
      const v = createStreamValidator(positions([['assets', 's', 0]]));
      expect(v.check(packet(2))).toEqual({ kind: 'invalid', expected: 1, got: 2 });
      expect(v.check(packet(1)).kind).toBe('apply');
      expect(v.check(packet(1))).toEqual({ kind: 'invalid', expected: 2, got: 1 });
    });

    it('reports a packet of another stream as uninitialized', () => {
      const v = createStreamValidator(positions([['assets', 's', 0]]));
      expect(v.check(packet(1, [], 'other'))).toEqual({ kind: 'uninitialized' });
    });

    it('separates changes of collections the scope did not load', () => {
      const v = createStreamValidator(positions([['assets', 's', 0]]));
      expect(v.check(packet(1, [change('users'), change('assets')]))).toEqual({ kind: 'apply', changes: [change('assets')], unsourced: [change('users')] });
    });
  });

  describe('createStreamValidator', () => {
    it('past every load, applies the sourced changes of a packet in order and still separates the unsourced ones', () => {
      const v = createStreamValidator(positions([['assets', 's', 3], ['sensors', 's', 5]]));
      expect(v.check(packet(4, [change('assets')]))).toMatchObject({ kind: 'apply', changes: [change('assets')] });
      expect(v.check(packet(5, [change('sensors')]))).toMatchObject({ kind: 'apply', changes: [] });
      const live = [change('measurements', 'a'), change('assets', 'b'), change('heartbeats', 'c'), change('sensors', 'd')];
      expect(v.check(packet(6, live))).toEqual({ kind: 'apply', changes: live, unsourced: [] });
      expect(v.check(packet(7, [change('measurements', 'e'), change('users', 'f'), change('assets', 'g')])))
        .toEqual({ kind: 'apply', changes: [change('measurements', 'e'), change('assets', 'g')], unsourced: [change('users', 'f')] });
      expect(v.check(packet(9, live))).toEqual({ kind: 'invalid', expected: 8, got: 9 });
    });

    it('refuses loads that saw different streams', () => {
      expect(() => createStreamValidator(positions([['assets', 'a', 1], ['sensors', 'b', 1]]))).toThrow(StreamMismatchError);
    });
  });
});
