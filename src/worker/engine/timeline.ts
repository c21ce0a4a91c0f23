// The real-time timeline's minute (docs/engine.md §3 "engine:timeline"): what
// changes continuously between change instants (a voice fading, a clean-desk
// colour moving, a co-worker's heatmap weight) is derived again each minute.
// Only those assets are touched, and only on the readings' channel: their
// standing facts (kind, floor, user, layers) do not move with time, so the
// views that show no readings (people, routes, structure) sleep through it.
// Everything else that time changes has an instant of its own on the
// scheduler: an asset's re-check, a person's note (`recheckPersonAt`).

import type { Id } from '../../shared/types.js';
import type { FactsCache } from '../derive/factsCache.js';
import type { ViewHub } from '../views/viewHub.js';

/** One minute passed: the continuous assets are derived again on their next read. Returns them. */
export function timelineMinute(facts: FactsCache, hub: ViewHub): Id[] {
  const ids = facts.timePassed();
  if (ids.length) hub.markDirty('values', ids);
  return ids;
}
