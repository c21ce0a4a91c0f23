// Reassembles a change the server had to split over several live messages
// (docs/protocol.md §5 "Frames"): frames 0…count-1 arrive with consecutive
// sequences on one stream. Each frame passes on as a packet without changes,
// so stream validation counts its sequence as usual; the last one carries the
// joined change. A missing or reordered slice drops the partial change — the
// stream validator sees the same gap and reloads.

import { normalizeLiveChange } from '../../shared/normalize/livePacket.js';
import type { LiveChange, LivePacket } from '../../shared/protocol.js';
import type { Logger } from '../ports.js';

export interface FrameAssemblerOptions {
  /** base64 → inflate → JSON of the joined slices; undefined when that fails (and was logged) */
  decode(payload: string): unknown;
  logger: Logger;
}

export interface FrameAssembler {
  /** the packet to validate and apply: itself, an empty stand-in for a frame, or the reassembled change */
  accept(packet: LivePacket): LivePacket;
}

interface Partial {
  count: number;
  /** sequence of frame 0 */
  first: number;
  slices: string[];
}

export function createFrameAssembler(options: FrameAssemblerOptions): FrameAssembler {
  const { logger } = options;
  /** stream id → the change being reassembled on it */
  const open = new Map<string, Partial>();

  const standIn = (packet: LivePacket): LivePacket => ({ stream_id: packet.stream_id, stream_sequence: packet.stream_sequence, changes: [] });

  function finish(packet: LivePacket, slices: string[]): LivePacket {
    const raw = options.decode(slices.join(''));
    if (!Array.isArray(raw)) {
      logger.warn('Dropped a framed change: its frames do not decode to a list of changes');
      return standIn(packet);
    }
    const changes: LiveChange[] = [];
    for (const item of raw) {
      const change = normalizeLiveChange(item, { logger });
      if (change) changes.push(change);
    }
    return { stream_id: packet.stream_id, stream_sequence: packet.stream_sequence, changes };
  }

  return {
    accept(packet) {
      const frame = packet.frame;
      if (!frame) return packet;
      let partial = open.get(packet.stream_id);
      if (frame.index === 0) {
        if (partial) logger.warn('Dropped an incomplete framed change: a new one started');
        partial = { count: frame.count, first: packet.stream_sequence, slices: [] };
        open.set(packet.stream_id, partial);
      } else if (!partial || partial.count !== frame.count || partial.slices.length !== frame.index
        || packet.stream_sequence !== partial.first + frame.index) {
        if (partial) logger.warn('Dropped an incomplete framed change: a frame is missing or out of order');
        open.delete(packet.stream_id);
        return standIn(packet);
      }
      partial.slices.push(frame.data);
      if (partial.slices.length < partial.count) return standIn(packet);
      open.delete(packet.stream_id);
      return finish(packet, partial.slices);
    },
  };
}
