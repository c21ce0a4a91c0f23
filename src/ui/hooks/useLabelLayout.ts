// Keeps map labels from overlapping: after the zoom settles, when assets
// change (people walk, names change) and when layers are switched, lays the
// labels out (lib/labels.ts) and marks the losers `data-collide="hidden"` on
// their <text> elements (CSS hides them). A room's or zone's name that a
// ticket's or voice's bubble, a device marker or (a room's) a co-worker would cover is moved clear
// inside its shape, drawn a little smaller where that is what fits (a
// `transform` on its <text>); with no clear place inside, it stays.
// Written on the DOM, as the camera writes the transform: a zoom re-renders
// no asset.

import { useCallback, useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import type { DrawState, FloorViewMeta } from '../../shared/api.js';
import type { MapLayer } from '../../shared/constants.js';
import { shownOn } from '../components/AssetNode.js';
import type { ViewMirror } from '../engine/viewMirror.js';
import type { Camera } from '../lib/camera.js';
import { boxOf, svgY } from '../lib/viewport.js';
import { clearOfCovers, collidingLabels, coverBoxOf, coverIndex, labelBoxOf, labelTransform, shiftedBox, shiftTransform, type CoverIndex, type LabelBox, type LabelShift } from '../lib/labels.js';

function sameBox(a: LabelBox, b: LabelBox): boolean {
  return a.cx === b.cx && a.cy === b.cy && a.w === b.w && a.h === b.h && a.priority === b.priority;
}

const areas = new WeakMap<DrawState, LabelBox>();
/** A room's outline's box, SVG units, kept per draw state (the same object while the room does not change). */
function areaOf(entry: DrawState): LabelBox {
  let area = areas.get(entry);
  if (!area) {
    const b = boxOf((entry.outline ?? [[entry.x, entry.y]]).map(([x, y]) => [x, svgY(y)] as const))!;
    area = { id: entry.id, cx: (b.minX + b.maxX) / 2, cy: (b.minY + b.maxY) / 2, w: b.maxX - b.minX, h: b.maxY - b.minY, priority: Infinity };
    areas.set(entry, area);
  }
  return area;
}

function sameList(a: readonly LabelBox[], b: readonly LabelBox[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameLayers(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((l, i) => l === b[i]);
}

/** Live changes are laid out at most this often. */
const LABEL_LAYOUT_THROTTLE_MS = 250;
/**
 * Labels are measured (a room's label point is its outline's pole of inaccessibility) in tasks of
 * about this long, wall time: a floor's 1,690 assets at once, or a live slice of a few hundred with
 * their rooms, was one of the long tasks of the first render and of the cold load (issue 14: no task
 * over 50 ms). Until then those labels are drawn unchecked.
 */
export const LABEL_TRACK_MS = 4;
/** A live change of up to this many keys is measured in the task that brought it. */
const LABEL_TRACK_AT_ONCE = 32;

export interface LabelLayoutOptions {
  svgRef: RefObject<SVGSVGElement | null>;
  mirror: ViewMirror<DrawState, FloorViewMeta>;
  active: ReadonlySet<MapLayer>;
  camera: Camera;
}

export function useLabelLayout({ svgRef, mirror, active, camera }: LabelLayoutOptions): () => void {
  // the layers the next layout reads; kept after each render, not during it
  const activeRef = useRef(active);
  useLayoutEffect(() => {
    activeRef.current = active;
  }, [active]);

  // the label box of every asset that draws a label, kept from the mirror's change sets: a
  // layout reads these few, and a change that moves or resizes no label lays nothing out
  const labelled = useRef(new Map<string, { entry: DrawState; box: LabelBox }>());
  // the bubbles of tickets and voices and the device markers, drawn over rooms and zones: kept from the same
  // change sets (a marker that moves is one box more to keep, no work per frame)
  const covers = useRef(new Map<string, { entry: DrawState; box: LabelBox }>());

  // where each covered name went at the last layout, with the boxes it was found for (kept boxes are replaced when
  // their asset changes, so the same objects mean nothing moved)
  const cleared = useRef(new Map<string, { box: LabelBox; near: readonly LabelBox[]; shift: LabelShift | null; drawn: LabelBox }>());

  const layout = useCallback(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const shown = (entry: DrawState) => shownOn(entry, activeRef.current, 'co-workers-heatmap');
    const over: LabelBox[] = [];
    for (const { entry, box } of covers.current.values()) if (shown(entry)) over.push(box);
    // by place: a floor's co-workers are covers too, and each name meets only those near its shape
    const index = over.length > 0 ? coverIndex(over) : null;
    const boxes: LabelBox[] = [];
    const shifts = new Map<string, string>();
    type Found = { box: LabelBox; near: readonly LabelBox[]; shift: LabelShift | null; drawn: LabelBox };
    const found = new Map<string, Found>();
    // rooms first: they are drawn over zones, so a zone's name keeps clear of them as of a cover (a wing's name lay
    // among its rooms and gave way to their names at every zoom)
    const roomAreas: LabelBox[] = [];
    const place = (entry: DrawState, box: LabelBox, index: CoverIndex | null, extra: CoverIndex | null) => {
      // a turned zone's name keeps its turn where nothing moves it
      const own = box.turn ? labelTransform(box) : null;
      if (own) shifts.set(entry.id, own);
      if (!shown(entry)) return;
      if ((index || extra) && (entry.kind === 'room' || entry.kind === 'zone')) {
        // the pole is inside the shape: its outline lies within its extent of it
        const reach = Math.max(entry.width || 0, entry.depth || 0, box.w, box.h) + 0.5;
        const near = (index?.near(box.cx, box.cy, reach) ?? []).filter((c) => entry.kind === 'room' || !c.passesZones);
        if (extra) near.push(...extra.near(box.cx, box.cy, reach));
        // the place found last time, while neither the name nor the covers near it changed: a zoom or a change
        // elsewhere searches nothing again
        const last = cleared.current.get(entry.id);
        const again = last && last.box === box && sameList(last.near, near) ? last : null;
        const shift = again ? again.shift : near.length > 0 ? clearOfCovers(entry, box, near) : null;
        const transform = shift && shiftTransform(box, shift);
        const drawn = shift && transform ? again?.drawn ?? shiftedBox(box, shift) : box;
        found.set(entry.id, { box, near, shift, drawn });
        if (shift && transform) shifts.set(entry.id, transform);
        boxes.push(drawn);
        if (entry.kind === 'room') roomAreas.push(areaOf(entry));
        return;
      }
      boxes.push(box);
      if (entry.kind === 'room') roomAreas.push(areaOf(entry));
    };
    const zones: Array<{ entry: DrawState; box: LabelBox }> = [];
    for (const kept of labelled.current.values()) {
      if (kept.entry.kind === 'zone') zones.push(kept);
      else place(kept.entry, kept.box, index, null);
    }
    const rooms = roomAreas.length > 0 ? coverIndex(roomAreas) : null;
    for (const { entry, box } of zones) place(entry, box, index, rooms);
    cleared.current = found;
    const hidden = collidingLabels(boxes, camera.viewport().k);
    for (const el of svg.querySelectorAll<SVGTextElement>('text[data-label-for]')) {
      const id = el.getAttribute('data-label-for') ?? '';
      const hide = hidden.has(id);
      if (hide !== (el.getAttribute('data-collide') === 'hidden')) {
        if (hide) el.setAttribute('data-collide', 'hidden');
        else el.removeAttribute('data-collide');
      }
      // a label not measured yet keeps the transform it was drawn with (a turned zone's name its turn)
      if (!shifts.has(id) && !labelled.current.has(id)) continue;
      const shift = shifts.get(id) ?? null;
      if (shift !== el.getAttribute('transform')) {
        if (shift) el.setAttribute('transform', shift);
        else el.removeAttribute('transform');
      }
    }
  }, [svgRef, camera]);

  // after React has drawn the change: a trailing timer, so a burst of live batches is laid out once
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const schedule = useCallback(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      layout();
    }, LABEL_LAYOUT_THROTTLE_MS);
  }, [layout]);

  useEffect(() => {
    const kept = [{ boxes: labelled.current, boxOf: labelBoxOf }, { boxes: covers.current, boxOf: coverBoxOf }];
    /** Takes the keys' new entries; whether a label or a cover came, went, moved, resized or changed layers. */
    const track = (keys: Iterable<string>): boolean => {
      let moved = false;
      for (const key of keys) {
        const entry = mirror.getSnapshot(key);
        for (const { boxes, boxOf } of kept) {
          const before = boxes.get(key);
          if (before?.entry === entry) continue;
          const box = entry ? boxOf(entry) : null;
          if (!box) {
            if (boxes.delete(key)) moved = true;
            continue;
          }
          boxes.set(key, { entry: entry!, box });
          if (!before || !sameBox(before.box, box) || !sameLayers(before.entry.layers, entry!.layers)) moved = true;
        }
      }
      return moved;
    };
    for (const { boxes } of kept) boxes.clear();
    // what the floor holds now, and large changes, measured over tasks of LABEL_TRACK_MS; a small live
    // change as it comes
    const waiting = new Set<string>(mirror.getKeys());
    let moved = false;
    let slicer: ReturnType<typeof setTimeout> | null = null;
    const slice = () => {
      slicer = null;
      const end = performance.now() + LABEL_TRACK_MS;
      for (const key of waiting) {
        waiting.delete(key);
        if (track([key])) moved = true;
        if (performance.now() >= end) break;
      }
      if (waiting.size > 0) {
        slicer = setTimeout(slice, 0);
        return;
      }
      if (moved) schedule();
      moved = false;
    };
    slicer = setTimeout(slice, 0);
    // the first pass lays the labels out when it is done, moved or not
    moved = true;
    const off = mirror.subscribeChanges((changed) => {
      if (changed.size <= LABEL_TRACK_AT_ONCE && waiting.size === 0) {
        if (track(changed)) schedule();
        return;
      }
      for (const key of changed) waiting.add(key);
      slicer ??= setTimeout(slice, 0);
    });
    return () => {
      off();
      if (slicer) clearTimeout(slicer);
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
    };
  }, [mirror, schedule]);
  useEffect(schedule, [active, schedule]);

  return schedule;
}
