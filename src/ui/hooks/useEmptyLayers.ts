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

export function emptyLayers(entries: Iterable<DrawState | undefined>, active: readonly MapLayer[]): MapLayer[] {
  const present = new Set<MapLayer>();
  for (const e of entries) if (e) for (const l of e.layers) present.add(l);
  return active.filter((l) => !NOT_ASSET_LAYERS.has(l) && !present.has(l));
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
      const next = !mirror.ready || mirror.getMeta()?.loading ? [] : emptyLayers(mirror.getKeys().map((k) => mirror.getSnapshot(k)), active);
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
