// Encodes live packets as the wire wants them (docs/protocol.md §5):
// base64(zlib deflate(JSON)), each message below Pusher's 10 KB limit. A
// single change too large for one message is split over frames the client
// reassembles, each with its own sequence, so nothing is dropped and no
// sequence number is burnt. The only server file that imports pako.

import { deflate, inflate } from 'pako';
import { PUSHER_MESSAGE_LIMIT_BYTES } from '../../src/shared/constants.js';
import type { LiveChange, LivePacket } from '../../src/shared/protocol.js';

/** sequence digits barely change the size; measure with the widest */
const PROBE_SEQUENCE = 999_999_999;

export function encodePacket(packet: LivePacket): string {
  return encodeJson(packet);
}

function encodeJson(value: unknown): string {
  return Buffer.from(deflate(JSON.stringify(value))).toString('base64');
}

export function decodePacket(payload: string): LivePacket {
  return JSON.parse(inflate(Buffer.from(payload, 'base64'), { toText: true })) as LivePacket;
}

/**
 * Splits `changes` into messages whose encoded form stays below the limit
 * and numbers them from `firstSequence`: packets of whole changes, and the
 * frames of any change that alone exceeds the limit.
 */
export function encodeChanges(
  streamId: string,
  firstSequence: number,
  changes: LiveChange[],
  limitBytes: number = PUSHER_MESSAGE_LIMIT_BYTES,
): string[] {
  const out: string[] = [];
  for (const group of splitChanges(streamId, changes, limitBytes)) {
    const sequence = firstSequence + out.length;
    const whole = encodePacket({ stream_id: streamId, stream_sequence: sequence, changes: group });
    if (whole.length < limitBytes) out.push(whole);
    else out.push(...encodeFrames(streamId, sequence, group, limitBytes));
  }
  return out;
}

function splitChanges(streamId: string, changes: LiveChange[], limitBytes: number): LiveChange[][] {
  const probe = (group: LiveChange[]) => encodePacket({ stream_id: streamId, stream_sequence: PROBE_SEQUENCE, changes: group }).length;
  if (changes.length <= 1 || probe(changes) < limitBytes) return [changes];
  const mid = Math.ceil(changes.length / 2);
  return [
    ...splitChanges(streamId, changes.slice(0, mid), limitBytes),
    ...splitChanges(streamId, changes.slice(mid), limitBytes),
  ];
}

/**
 * The frames of one oversized change: the encoded change list cut into
 * slices, each slice in a packet of its own (docs/protocol.md §5 "Frames").
 * Slices shrink until every frame fits (base64 barely deflates).
 */
export function encodeFrames(streamId: string, firstSequence: number, changes: LiveChange[], limitBytes: number): string[] {
  const text = encodeJson(changes);
  for (let slice = limitBytes - 512; slice > 256; slice = Math.floor(slice * 0.9)) {
    const count = Math.ceil(text.length / slice);
    const frames: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const data = text.slice(index * slice, (index + 1) * slice);
      const frame = encodePacket({ stream_id: streamId, stream_sequence: firstSequence + index, changes: [], frame: { index, count, data } });
      if (frame.length >= limitBytes) break;
      frames.push(frame);
    }
    if (frames.length === count && count >= 2) return frames;
  }
  throw new RangeError(`cannot frame a change of ${text.length} encoded bytes below ${limitBytes} bytes`);
}
