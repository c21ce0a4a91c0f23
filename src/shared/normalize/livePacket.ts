// Validation of decoded live packets (spec §3 "Live packet", DESIGN §3). A
// packet without a usable stream position is dropped whole; a bad change is
// dropped alone, so the packet still advances the stream and no gap appears.

import { CHANGE_KINDS, COLLECTIONS, type ChangeKind, type Collection, type LiveChange, type LivePacket } from '../protocol.js';
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
  return { stream_id: raw.stream_id, stream_sequence: sequence, changes };
}
