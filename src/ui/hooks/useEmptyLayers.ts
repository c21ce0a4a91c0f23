// Which of the active layers draw nothing on this floor, so the layer panel
// can say so instead of leaving a person to wonder why a switched-on layer
// shows nothing. Only active layers can be told: the floor view carries the
// assets of the active layers. The floor plan (an image) and the report layer
// (report marks) are not asset layers and are never listed.

import { useEffect, useMemo, useState } from 'react';
import type { DrawState, FloorViewMeta } from '../../shared/api.js';
import type { MapLayer } from '../../shared/constants.js';
import type { ViewMirror } from '../engine/viewMirror.js';

const NOT_ASSET_LAYERS: ReadonlySet<MapLayer> = new Set(['floorplan', 'report']);
const RECHECK_MS = 300;

/**
 * The active asset layers no entry of `keys` is on. Reads entries until every active layer is seen: on a
 * floor that has them all (the common case) that is a few entries, and it builds no list of the floor's.
 */
export function emptyLayers(keys: readonly string[], entryOf: (key: string) => DrawState | undefined, active: readonly MapLayer[]): MapLayer[] {
  const wanted = new Set(active.filter((l) => !NOT_ASSET_LAYERS.has(l)));
  for (let i = 0; i < keys.length && wanted.size > 0; i++) {
    const entry = entryOf(keys[i]!);
    if (entry) for (let j = 0; j < entry.layers.length; j++) wanted.delete(entry.layers[j]!);
  }
  return active.filter((l) => wanted.has(l));
}

export function useEmptyLayers(mirror: ViewMirror<DrawState, FloorViewMeta> | null, active: readonly MapLayer[]): ReadonlySet<MapLayer> {
  const [empty, setEmpty] = useState<readonly MapLayer[]>([]);
  useEffect(() => {
    if (!mirror) {
      setEmpty([]);
      return;
    }
    let timer: ReturnType<typeof setTimeout> | null = null;
    const check = () => {
      timer = null;
      // never "nothing" before the floor's data is there
      const next = !mirror.ready || mirror.getMeta()?.loading ? [] : emptyLayers(mirror.getKeys(), mirror.getSnapshot, active);
      setEmpty((prev) => (prev.length === next.length && prev.every((l, i) => l === next[i]) ? prev : next));
    };
    const schedule = () => {
      timer ??= setTimeout(check, RECHECK_MS);
    };
    check();
    const offChanges = mirror.subscribeChanges(schedule);
    const offMeta = mirror.subscribeMeta(schedule);
    return () => {
      offChanges();
      offMeta();
      if (timer) clearTimeout(timer);
    };
  }, [mirror, active]);
  return useMemo(() => new Set(empty), [empty]);
}
