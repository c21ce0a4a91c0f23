// Stream validation of one scope (DESIGN §3, docs/protocol.md §5): the initial
// loads tell which stream position they contain; packets up to it are dropped,
// the next one must be position + 1, and each change is dropped when its
// collection's own load already contains it.

import type { Collection, LivePacket, LiveChange, StreamPosition } from '../../shared/protocol.js';

/** Live collections whose base is another collection's load. */
export const SOURCE_COLLECTION: Partial<Record<Collection, Collection>> = {
  measurements: 'sensors',
  heartbeats: 'sensors',
};

export type PacketVerdict =
  /** apply these changes (possibly empty when all were contained) */
  | { kind: 'apply'; changes: LiveChange[]; unsourced: LiveChange[] }
  /** already contained in the initial loads */
  | { kind: 'contained' }
  /** packet of another stream than the loads' (server restart, never-loaded scope) */
  | { kind: 'uninitialized' }
  /** out of order or a gap */
  | { kind: 'invalid'; expected: number; got: number };

export interface StreamValidator {
  readonly streamId: string;
  readonly lastSequence: number;
  check(packet: LivePacket): PacketVerdict;
}

/**
 * `positions` maps each loaded collection to the position its load reflects.
 * Throws StreamMismatchError when the loads saw different streams.
 */
export function createStreamValidator(positions: ReadonlyMap<Collection, StreamPosition>): StreamValidator {
  const ids = new Set([...positions.values()].map((p) => p.stream_id));
  if (ids.size !== 1) throw new StreamMismatchError([...ids]);
  const streamId = [...ids][0]!;
  const seqOf = new Map<Collection, number>();
  for (const [collection, pos] of positions) seqOf.set(collection, pos.stream_sequence);
  const floor = Math.min(...seqOf.values());
  /** past every load's position, a change of a loaded collection always applies */
  const newest = Math.max(...seqOf.values());
  let last = floor;
  const isSourced = (change: LiveChange) => seqOf.has(SOURCE_COLLECTION[change.collection] ?? change.collection);

  return {
    streamId,
    get lastSequence() { return last; },
    check(packet) {
      if (packet.stream_id !== streamId) return { kind: 'uninitialized' };
      const seq = packet.stream_sequence;
      // late delivery of a packet the loads contain (it may trail the HTTP answer)
      if (seq <= floor) return { kind: 'contained' };
      if (seq !== last + 1) return { kind: 'invalid', expected: last + 1, got: seq };
      last = seq;
      // the live steady state: the packet as it came, no lists made per packet (issue 14)
      if (seq > newest && packet.changes.every(isSourced)) return { kind: 'apply', changes: packet.changes, unsourced: [] };
      const changes: LiveChange[] = [];
      const unsourced: LiveChange[] = [];
      for (const change of packet.changes) {
        const source = SOURCE_COLLECTION[change.collection] ?? change.collection;
        const loadedAt = seqOf.get(source);
        if (loadedAt === undefined) unsourced.push(change);
        else if (seq > loadedAt) changes.push(change);
      }
      return { kind: 'apply', changes, unsourced };
    },
  };
}

export class StreamMismatchError extends Error {
  constructor(readonly streamIds: string[]) {
    super(`Initial loads of one scope saw different streams (${streamIds.length})`);
    this.name = 'StreamMismatchError';
  }
}
