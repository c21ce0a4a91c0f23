// One replay of a floor and day (docs/reports.md "## Playback"): what it has
// read, its shadow store, the instant it shows, and the step to an instant,
// which tells the floor views which assets may look different so that a step
// costs what changed, as a live flush does.

import type { CalendarDay } from '../../shared/reports/calendar.js';
import { emptySkipped, type ReportProgress } from '../../shared/reports/types.js';
import type { Asset, Id } from '../../shared/types.js';
import type { createConfigResolver } from '../derive/configResolver.js';
import { computeFacts, type AssetFacts, type DeriveContext } from '../derive/assetFacts.js';
import { PERSON_TYPES } from '../store/assetMap.js';
import type { Basis } from './playbackBasis.js';
import type { Replay } from './playbackReadings.js';
import { ownValueAfter, shadowAt, type Shadow } from './playbackShadow.js';

export interface Session {
  key: string;
  floorId: Id;
  day: CalendarDay;
  time: number;
  progress: ReportProgress;
  shadow: Shadow;
  config: ReturnType<typeof createConfigResolver>;
  replay: Replay;
  /** the sensors paged, per type */
  known: Map<string, Set<string>>;
  basis: Basis;
  /** the readings are complete up to this time: the day's end once it had ended when read */
  readUntil: number;
  readingOn: boolean;
  signal: { cancelled: boolean };
  /** the instant the shadow was last set to (null: not yet) */
  appliedAt: number | null;
  /** the facts of the floor's assets as last derived, kept while nothing they read or their own times changed */
  facts: Map<Id, AssetFacts | null>;
  /** the floor's assets whose showing follows the instant besides their facts: people (placed then) and tickets and voices (posted by then) */
  timed: Id[];
  /** the floor views of this replay, told which of the floor's assets may have changed at each instant */
  floorViews: Set<(changed: ReadonlySet<Id> | 'all') => void>;
}

/** The floor's assets whose showing follows the instant besides their facts: people, and tickets and voices with a posting time. */
export function timedOn(shadow: Shadow, floorId: Id): Id[] {
  const out: Id[] = [];
  for (const id of shadow.store.assetsByFloor.get(floorId) ?? []) {
    const asset = shadow.store.assets.get(id);
    if (asset && (PERSON_TYPES.has(asset.type) || ownValueAfter(asset, -Infinity))) out.push(id);
  }
  return out;
}

/** The instant within the day. */
export const clampTo = (day: CalendarDay, time: number) => Math.max(day.start, Math.min(day.end - 1, time));

export const loading = (): ReportProgress => ({ state: 'loading', pagesLoaded: 0, pagesEstimated: 0, pagesFromCache: 0, rows: 0, elapsedMs: 0, skipped: emptySkipped(), message: null });

/**
 * Sets every sensor and placed person to the instant, and tells the floor views which assets may look
 * different: those fed by a sensor set anew, the people and the posted ones, and those whose facts said
 * they change by then (`nextChangeAt`, or `continuous`: a fade, a clean-desk phase); every asset when
 * the instant went back. The others keep their facts: a step costs what changed, as a live flush does.
 */
export function applyInstant(s: Session): void {
  const changed = shadowAt(s.shadow, s.replay.readings, s.time);
  const back = s.appliedAt === null || s.time < s.appliedAt;
  s.appliedAt = s.time;
  let keys: Set<Id> | 'all' = 'all';
  if (back) s.facts.clear();
  else {
    keys = new Set(s.timed);
    const { store } = s.shadow;
    for (const sid of changed) for (const id of store.assetsBySensor.get(sid) ?? []) keys.add(id);
    for (const a of s.shadow.placed) keys.add(a.id);
    for (const [id, f] of s.facts) if (f && (f.continuous || (f.nextChangeAt !== null && f.nextChangeAt <= s.time))) keys.add(id);
    for (const id of keys) s.facts.delete(id);
  }
  for (const view of s.floorViews) view(keys);
}

/** The asset's facts at the session's instant: kept ones while they hold (applyInstant drops those that may not). */
export function factsOf(s: Session, asset: Asset, ctx: DeriveContext): AssetFacts | null {
  let f = s.facts.get(asset.id);
  if (f === undefined) s.facts.set(asset.id, (f = computeFacts(asset, ctx)));
  return f;
}
