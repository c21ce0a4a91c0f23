// Encodes live packets as the wire wants them (docs/protocol.md §5):
// base64(zlib deflate(JSON)), each message below Pusher's 10 KB limit.
// The only server file that imports pako.

import { deflate, inflate } from 'pako';
import { PUSHER_MESSAGE_LIMIT_BYTES } from '../../src/shared/constants.js';
import type { LiveChange, LivePacket } from '../../src/shared/protocol.js';

export function encodePacket(packet: LivePacket): string {
  return Buffer.from(deflate(JSON.stringify(packet))).toString('base64');
}

export function decodePacket(payload: string): LivePacket {
  return JSON.parse(inflate(Buffer.from(payload, 'base64'), { toText: true })) as LivePacket;
}

/**
 * Splits `changes` into packets whose encoded form stays below the limit and
 * numbers them from `firstSequence`. A single change that alone exceeds the
 * limit still travels alone (nothing smaller exists).
 */
export function encodeChanges(
  streamId: string,
  firstSequence: number,
  changes: LiveChange[],
  limitBytes: number = PUSHER_MESSAGE_LIMIT_BYTES,
): string[] {
  const groups = splitChanges(streamId, changes, limitBytes);
  return groups.map((group, i) => encodePacket({ stream_id: streamId, stream_sequence: firstSequence + i, changes: group }));
}

function splitChanges(streamId: string, changes: LiveChange[], limitBytes: number): LiveChange[][] {
  // sequence digits barely change the size; measure with a wide placeholder
  const probe = (group: LiveChange[]) =>
    encodePacket({ stream_id: streamId, stream_sequence: 999_999_999, changes: group }).length;
  if (changes.length <= 1 || probe(changes) < limitBytes) return [changes];
  const mid = Math.ceil(changes.length / 2);
  return [
    ...splitChanges(streamId, changes.slice(0, mid), limitBytes),
    ...splitChanges(streamId, changes.slice(mid), limitBytes),
  ];
}
