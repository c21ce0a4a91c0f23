// Validation of decoded live packets (spec §3 "Live packet", DESIGN §3). A
// packet without a usable stream position is dropped whole; a bad change is
// dropped alone, so the packet still advances the stream and no gap appears.

import {
  CHANGE_KINDS, COLLECTIONS, type ChangeKind, type Collection, type LiveChange, type LiveFrame, type LivePacket,
} from '../protocol.js';
import { isRecord, toId, type NormalizeContext } from './primitives.js';
import { WARN } from './warnings.js';

export function normalizeLiveChange(raw: unknown, ctx: NormalizeContext): LiveChange | null {
  if (!isRecord(raw)) {
    ctx.logger.warn(WARN.changeMalformed('not an object'), raw);
    return null;
  }
  if (typeof raw.collection !== 'string' || !(COLLECTIONS as readonly string[]).includes(raw.collection)) {
    ctx.logger.warn(WARN.changeMalformed(`unknown collection ${String(raw.collection)}`), raw);
    return null;
  }
  if (typeof raw.kind !== 'string' || !(CHANGE_KINDS as readonly string[]).includes(raw.kind)) {
    ctx.logger.warn(WARN.changeMalformed(`unknown kind ${String(raw.kind)}`), raw);
    return null;
  }
  const id = toId(raw.id);
  if (id === null) {
    ctx.logger.warn(WARN.changeMalformed('no id'), raw);
    return null;
  }
  const change: LiveChange = { collection: raw.collection as Collection, kind: raw.kind as ChangeKind, id };
  if (raw.data !== undefined) change.data = raw.data;
  return change;
}

/** A decoded packet, or null (with a warning) when its stream position is unusable. */
export function normalizeLivePacket(raw: unknown, ctx: NormalizeContext): LivePacket | null {
  if (!isRecord(raw)) {
    ctx.logger.warn(WARN.packetMalformed('not an object'), raw);
    return null;
  }
  if (typeof raw.stream_id !== 'string' || raw.stream_id === '') {
    ctx.logger.warn(WARN.packetMalformed('no stream_id'), raw.stream_id);
    return null;
  }
  const sequence = raw.stream_sequence;
  if (typeof sequence !== 'number' || !Number.isInteger(sequence) || sequence < 1) {
    ctx.logger.warn(WARN.packetMalformed('stream_sequence is not a positive integer'), sequence);
    return null;
  }
  if (!Array.isArray(raw.changes)) {
    ctx.logger.warn(WARN.packetMalformed('no list of changes'), raw.changes);
    return null;
  }
  const changes: LiveChange[] = [];
  for (const item of raw.changes) {
    const change = normalizeLiveChange(item, ctx);
    if (change) changes.push(change);
  }
  if (raw.frame === undefined) return { stream_id: raw.stream_id, stream_sequence: sequence, changes };
  // a slice of a change too large for one message (src/worker/sync/frames.ts joins them)
  const frame = normalizeLiveFrame(raw.frame);
  if (!frame) {
    // dropped whole: the next packet shows the gap, and the client reloads
    ctx.logger.warn(WARN.packetMalformed('malformed frame'), raw.frame);
    return null;
  }
  return { stream_id: raw.stream_id, stream_sequence: sequence, changes, frame };
}

function normalizeLiveFrame(raw: unknown): LiveFrame | null {
  if (!isRecord(raw)) return null;
  const { index, count, data } = raw;
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) return null;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 2 || index >= count) return null;
  if (typeof data !== 'string') return null;
  return { index, count, data };
}
