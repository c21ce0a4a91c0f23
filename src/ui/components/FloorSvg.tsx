// The SVG of the floor viewer: one transformed world group (DESIGN §7) with
// the floor-plan image, the heatmap, every drawn asset in paint order, and the
// keyboard focus ring. Input handling lives in the viewer's hooks; this file
// only draws.

import { forwardRef, memo, useMemo, useSyncExternalStore, type ReactNode, type KeyboardEvent, type MouseEvent, type FocusEvent, type RefObject } from 'react';
import { HEATMAP_COLORS, type MapLayer } from '../../shared/constants.js';
import type { DrawTile } from '../lib/drawOrder.js';
import type { RevealStore } from '../lib/revealOrder.js';
import { STATUS_MARK_MIN_ZOOM } from '../lib/statusMark.js';
import { svgY, transformOf, type Box, type Viewport } from '../lib/viewport.js';
import { useViewEntry } from '../hooks/useView.js';
import { createTileSource } from '../lib/tileSource.js';
import { AssetNode, cachedBoxOfEntry, focusBoxOf, HEAT_LAYER, HeatNode, isShapeEntry, shownOn } from './AssetNode.js';
import { useFloorContext } from './floorContext.js';
import { ReportMarks } from './reports/ReportMarks.js';
import type { ReportMark } from '../../shared/reports/types.js';

export interface FloorPlanImage {
  href: string;
  box: Box;
}

export interface FloorSvgProps {
  worldRef: RefObject<SVGGElement | null>;
  /** the viewport at first render; afterwards the camera writes the transform */
  initial: Viewport;
  offset: readonly [number, number];
  plan: FloorPlanImage | null;
  /** the draw order as far as it is shown (a large arrival is drawn over a few frames) */
  reveal: RevealStore;
  active: ReadonlySet<MapLayer>;
  highlightId: string | null;
  /** the `report` layer's marks, drawn above the assets */
  reportMarks: ReadonlyMap<string, ReportMark> | null;
  /** drawn above the assets in world coordinates (directions: components/route/RouteOverlay.tsx) */
  overlay?: ReactNode;
  label: string;
  fromCache: boolean;
  onKeyDown(event: KeyboardEvent<SVGSVGElement>): void;
  onClick(event: MouseEvent<SVGSVGElement>): void;
  onFocus(event: FocusEvent<SVGSVGElement>): void;
  onBlur(event: FocusEvent<SVGSVGElement>): void;
}

/**
 * The ring around the asset that has keyboard focus, drawn once for the map
 * with a non-scaling stroke so it stays a few screen pixels wide at any zoom
 * (an outline on the asset itself would scale with the map).
 */
function FocusRing() {
  const { mirror, roving } = useFloorContext();
  const id = useSyncExternalStore(roving.subscribe, roving.focused, roving.focused);
  const measured = useSyncExternalStore(roving.subscribe, roving.focusBox, roving.focusBox);
  const entry = useViewEntry(mirror, id ?? '');
  if (!id || !entry) return null;
  const box = measured ?? focusBoxOf(entry);
  const pad = Math.max(0.1, Math.min(box.maxX - box.minX, box.maxY - box.minY) * 0.08);
  return (
    <g className="focus-ring" pointerEvents="none" aria-hidden="true">
      {['outer', 'inner'].map((part) => (
        <rect
          key={part}
          className={`focus-ring-${part}`}
          x={box.minX - pad}
          y={box.minY - pad}
          width={box.maxX - box.minX + 2 * pad}
          height={box.maxY - box.minY + 2 * pad}
          fill="none"
          vectorEffect="non-scaling-stroke"
        />
      ))}
    </g>
  );
}

/** The highlighted id when these tiles hold it, else null: only its block and tile re-render when it moves. */
function highlightIn(tiles: readonly DrawTile[], id: string | null): string | null {
  return id !== null && tiles.some((t) => t.ids.includes(id)) ? id : null;
}

/**
 * A block and a tile of the floor's assets (lib/drawOrder.ts), memoized on
 * their arrays, so a live change walks the blocks, one block's tiles and one
 * tile's assets, not the whole floor's. Fragments: no elements of their own,
 * the SVG is what it was. The tile holds the one subscription of its assets
 * (lib/tileSource.ts) and leaves out those culled, hidden by the layers, or gone.
 */
const AssetTile = memo(function AssetTile({ ids, active, highlightId }: { ids: readonly string[]; active: ReadonlySet<MapLayer>; highlightId: string | null }) {
  const { mirror, cull, roving } = useFloorContext();
  const source = useMemo(() => createTileSource({ mirror, cull, roving }, ids, cachedBoxOfEntry), [mirror, cull, roving, ids]);
  const { entries, inside, tabStop } = useSyncExternalStore(source.subscribe, source.getSnapshot, source.getSnapshot);
  const nodes: ReactNode[] = [];
  for (let i = 0; i < ids.length; i++) {
    const entry = entries[i];
    if (!entry || !(inside & (1 << i)) || !shownOn(entry, active, HEAT_LAYER)) continue;
    const id = ids[i]!;
    nodes.push(<AssetNode key={id} entry={entry} highlighted={id === highlightId} tabStop={id === tabStop} />);
  }
  return nodes;
});

const AssetBlock = memo(function AssetBlock({ tiles, active, highlightId }: { tiles: readonly DrawTile[]; active: ReadonlySet<MapLayer>; highlightId: string | null }) {
  return tiles.map((tile) => (
    <AssetTile key={tile.key} ids={tile.ids} active={active} highlightId={highlightId !== null && tile.ids.includes(highlightId) ? highlightId : null} />
  ));
});

/**
 * The highlighted asset (a co-worker shown from the People list, a found or linked asset, the open popup's) drawn
 * once more, last, so above every other: a ticket's bubble or another person standing over them must not hide
 * what the user asked to see. A picture only (AssetNode `copy`): the asset itself stays in its tile, so its focus
 * and accessible name stay where they are; a click on the copy opens the asset (FloorViewer). Not for a room or
 * zone, which drawn on top would cover the desks standing in it.
 */
function RaisedAsset({ id, active }: { id: string; active: ReadonlySet<MapLayer> }) {
  const { mirror } = useFloorContext();
  const entry = useViewEntry(mirror, id);
  if (!entry || isShapeEntry(entry) || !shownOn(entry, active, HEAT_LAYER)) return null;
  return (
    <g className="layer-raised">
      <AssetNode entry={entry} highlighted tabStop={false} copy />
    </g>
  );
}

/** The heatmap and the assets, as far as they are shown: the one part of the SVG that re-renders per step of a large arrival. */
function AssetLayers({ reveal, active, highlightId }: { reveal: RevealStore; active: ReadonlySet<MapLayer>; highlightId: string | null }) {
  const order = useSyncExternalStore(reveal.subscribe, reveal.getSnapshot, reveal.getSnapshot);
  return (
    <>
      {active.has('co-workers-heatmap') ? (
        <g className="layer-heat">
          {order.heat.map((id) => (
            <HeatNode key={id} id={id} />
          ))}
        </g>
      ) : null}
      <g className="layer-assets">
        {order.blocks.map((block) => (
          <AssetBlock key={block.key} tiles={block.tiles} active={active} highlightId={highlightIn(block.tiles, highlightId)} />
        ))}
      </g>
      {highlightId !== null ? <RaisedAsset id={highlightId} active={active} /> : null}
    </>
  );
}

export const FloorSvg = forwardRef<SVGSVGElement, FloorSvgProps>(function FloorSvg(props, ref) {
  const { worldRef, initial, offset, plan, reveal, active, highlightId } = props;
  return (
    <svg
      ref={ref}
      className="floor-svg"
      width="100%"
      height="100%"
      role="application"
      aria-roledescription="floor plan"
      aria-label={props.label}
      onKeyDown={props.onKeyDown}
      onClick={props.onClick}
      onFocus={props.onFocus}
      onBlur={props.onBlur}
      data-from-cache={props.fromCache ? 'true' : 'false'}
    >
      <defs>
        <radialGradient id="heat-gradient">
          <stop offset="0%" stopColor={HEATMAP_COLORS[2]} stopOpacity="0.8" />
          <stop offset="60%" stopColor={HEATMAP_COLORS[1]} stopOpacity="0.35" />
          <stop offset="100%" stopColor={HEATMAP_COLORS[0]} stopOpacity="0" />
        </radialGradient>
      </defs>
      <g ref={worldRef} className="world" transform={transformOf(initial)} data-detail={String(initial.k >= STATUS_MARK_MIN_ZOOM)}>
        <g transform={`translate(${offset[0]} ${svgY(offset[1])})`}>
          {plan ? (
            <image
              className="floor-plan"
              href={plan.href}
              x={plan.box.minX}
              y={plan.box.minY}
              width={plan.box.maxX - plan.box.minX}
              height={plan.box.maxY - plan.box.minY}
              preserveAspectRatio="none"
              aria-hidden="true"
            />
          ) : null}
          <AssetLayers reveal={reveal} active={active} highlightId={highlightId} />
          {props.reportMarks ? <ReportMarks marks={props.reportMarks} /> : null}
          {props.overlay ?? null}
          <FocusRing />
        </g>
      </g>
    </svg>
  );
});
