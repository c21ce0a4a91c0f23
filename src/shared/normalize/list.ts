// List normalization shared by every collection: non-lists and bad items are
// dropped with a warning, and duplicate ids warn (spec §5) with the later
// item winning, as the later one is the newer copy in every server listing.

import type { Id } from '../types.js';
import { isRecord, toId, type NormalizeContext, type Raw } from './primitives.js';
import { WARN } from './warnings.js';

export function normalizeList<T extends { id: Id }>(
  raw: unknown,
  kind: string,
  ctx: NormalizeContext,
  normalizeOne: (item: unknown, ctx: NormalizeContext, index: number) => T | null,
): T[] {
  if (!Array.isArray(raw)) {
    if (raw !== undefined && raw !== null) ctx.logger.warn(WARN.notAList(kind), raw);
    return [];
  }
  const byId = new Map<Id, T>();
  raw.forEach((item, index) => {
    const normalized = normalizeOne(item, ctx, index);
    if (!normalized) return;
    if (byId.has(normalized.id)) ctx.logger.warn(WARN.duplicateId(kind, normalized.id));
    byId.set(normalized.id, normalized);
  });
  return [...byId.values()];
}

/**
 * The guard every entity normalizer starts with: an object with a usable id,
 * or null after a warning naming the kind.
 */
export function identifiedRecord(raw: unknown, kind: string, ctx: NormalizeContext): { r: Raw; id: Id } | null {
  if (!isRecord(raw)) {
    ctx.logger.warn(WARN.notAnObject(kind), raw);
    return null;
  }
  const id = toId(raw.id);
  if (id === null) {
    ctx.logger.warn(WARN.missingId(kind), raw);
    return null;
  }
  return { r: raw, id };
}
