// The SVG floor viewer: floor-plan image and every drawn asset under one
// transformed <g> (DESIGN §7), pan and zoom by wheel, drag, pinch and
// keyboard, fit to floor, culling on large floors, and the asset popup.

import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { DrawState, FloorViewMeta } from '../../shared/api.js';
import type { MapLayer } from '../../shared/constants.js';
import type { ViewMirror } from '../engine/viewMirror.js';
import { useViewMeta, useViewReady } from '../hooks/useView.js';
import { createCullStore, CULL_MIN_ASSETS } from '../lib/cullStore.js';
import { createDrawOrderStore } from '../lib/drawOrder.js';
import { allowedImageUrl, type ImageUrlPolicy } from '../lib/imageUrl.js';
import { STATUS_MARK_MIN_ZOOM } from '../lib/statusMark.js';
import {
  boxOf, centerOn, fitBox, panBy, svgY, transformOf, visibleBox, zoomAt, type Box, type Viewport,
} from '../lib/viewport.js';
import { AssetNode, boxOfEntry, HeatNode } from './AssetNode.js';
import { FloorContext, type FloorContextValue } from './floorContext.js';
import { Popup } from './Popup.js';
import { ReportMarks } from './reports/ReportMarks.js';
import type { ReportMark } from '../../shared/reports/types.js';

export interface FloorViewerProps {
  mirror: ViewMirror<DrawState, FloorViewMeta>;
  layers: readonly MapLayer[];
  imagePolicy: ImageUrlPolicy;
  /** asset to highlight and centre (deep link, finder) */
  highlightId?: string | null;
  /** a world point to centre on; `seq` changes to re-centre on the same point */
  focus?: { x: number; y: number; seq: number } | null;
  /** when set, a click on the floor picks a world point instead of panning */
  onPickPoint?: ((point: { x: number; y: number }) => void) | null;
  /** reports the world point at the centre of the view (forms use it without a pointer) */
  onCenterChange?: (point: { x: number; y: number }) => void;
  onOpenAsset?: (id: string | null) => void;
  /** initially open popup */
  openId?: string | null;
  /** the `report` layer's marks (components/reports/ReportMarks.tsx) */
  reportMarks?: ReadonlyMap<string, ReportMark> | null;
  /** drawn above the assets in world coordinates (directions: components/route/RouteOverlay.tsx) */
  overlay?: ReactNode;
}

const KEY_PAN_PX = 60;
const KEY_ZOOM = 1.25;
const DRAG_THRESHOLD_PX = 4;
const CULL_SETTLE_MS = 120;
const DEFAULT_SIZE = { w: 800, h: 600 };

/** Where a floor-plan path lives: absolute URLs as they are, relative ones under the CDN or the API host. */
export function floorPlanUrl(path: string | null | undefined, policy: ImageUrlPolicy): string | null {
  if (!path) return null;
  if (/^[a-z]+:/i.test(path) || path.startsWith('//')) return allowedImageUrl(path, policy);
  const base = policy.cdnBaseUrl ?? policy.apiHost ?? policy.origin;
  const joined = `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  return allowedImageUrl(joined, policy);
}

export function FloorViewer(props: FloorViewerProps) {
  const { mirror, layers, imagePolicy, highlightId = null, focus = null, onPickPoint = null } = props;
  const meta = useViewMeta(mirror);
  const ready = useViewReady(mirror);
  const containerRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const worldRef = useRef<SVGGElement>(null);
  const viewport = useRef<Viewport>({ x: 0, y: 0, k: 20 });
  const [size, setSize] = useState(DEFAULT_SIZE);
  const sizeRef = useRef(size);
  sizeRef.current = size;
  const cull = useMemo(() => createCullStore(), []);
  // the store attaches to the mirror while subscribed, so StrictMode remounts are safe
  const order = useMemo(() => createDrawOrderStore(mirror), [mirror]);
  const drawOrder = useSyncExternalStore(order.subscribe, order.getSnapshot, order.getSnapshot);
  const active = useMemo(() => new Set(layers), [layers]);
  const [popup, setPopup] = useState<{ id: string; left: number; top: number } | null>(null);
  const cullTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onCenterChange = props.onCenterChange;
  const offset = meta?.building?.location_offset ?? [0, 0];

  // Pan and zoom touch the world group only, never React: its transform, its
  // level of detail (status marks shown from STATUS_MARK_MIN_ZOOM, by CSS) and,
  // while moving, `will-change: transform` so Chromium moves one composited
  // layer instead of repainting every asset each frame; dropped when the move
  // settles so the floor is re-rastered sharp at the new zoom.
  const moving = useRef(false);
  const apply = useCallback(
    (next: Viewport) => {
      viewport.current = next;
      const world = worldRef.current;
      if (world) {
        world.setAttribute('transform', transformOf(next));
        const detail = String(next.k >= STATUS_MARK_MIN_ZOOM);
        // written only when it flips: the flip restyles every mark once
        if (world.getAttribute('data-detail') !== detail) world.setAttribute('data-detail', detail);
        if (!moving.current) {
          moving.current = true;
          world.style.willChange = 'transform';
        }
      }
      if (cullTimer.current) clearTimeout(cullTimer.current);
      cullTimer.current = setTimeout(() => {
        moving.current = false;
        worldRef.current?.style.removeProperty('will-change');
        const { w, h } = sizeRef.current;
        const count = mirror.getKeys().length;
        // the box is in floor coordinates: undo the building offset of the inner group
        const box = visibleBox(next, w, h, 0.5);
        const ox = offset[0];
        const oy = svgY(offset[1]);
        cull.setBox(count >= CULL_MIN_ASSETS ? { minX: box.minX - ox, maxX: box.maxX - ox, minY: box.minY - oy, maxY: box.maxY - oy } : null);
        onCenterChange?.({ x: (w / 2 - next.x) / next.k - ox, y: svgY((h / 2 - next.y) / next.k - oy) });
      }, CULL_SETTLE_MS);
    },
    [cull, mirror, onCenterChange, offset[0], offset[1]],
  );
  useEffect(() => () => {
    if (cullTimer.current) clearTimeout(cullTimer.current);
  }, []);

  const floorBox = useCallback((): Box | null => {
    const ox = offset[0];
    const oy = svgY(offset[1]);
    const outline = meta?.floor?.outline ?? [];
    let box = outline.length > 2 ? boxOf(outline.map(([x, y]) => [x, svgY(y)] as const)) : null;
    if (!box) {
      const boxes = mirror.getKeys().flatMap((k) => {
        const e = mirror.getSnapshot(k);
        const b = e ? boxOfEntry(e) : null;
        return b ? [[b.minX, b.minY] as const, [b.maxX, b.maxY] as const] : [];
      });
      box = boxOf(boxes);
    }
    return box ? { minX: box.minX + ox, maxX: box.maxX + ox, minY: box.minY + oy, maxY: box.maxY + oy } : null;
  }, [meta, mirror, offset[0], offset[1]]);

  const fit = useCallback(() => {
    const box = floorBox();
    if (box) apply(fitBox(box, sizeRef.current.w, sizeRef.current.h));
  }, [apply, floorBox]);

  useLayoutEffect(() => {
    const el = containerRef.current;
    if (!el) return;
    const measure = () => {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) setSize({ w: r.width, h: r.height });
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // fit once per floor, when its first data is there
  const fittedFloor = useRef<string | null>(null);
  const floorId = meta?.floor?.id ?? null;
  useEffect(() => {
    if (!ready || !floorId || fittedFloor.current === floorId) return;
    fittedFloor.current = floorId;
    fit();
  }, [ready, floorId, fit]);

  useEffect(() => {
    if (!focus) return;
    const [sx, sy] = [focus.x + offset[0], svgY(focus.y) + svgY(offset[1])];
    apply(centerOn(viewport.current, sx, sy, sizeRef.current.w, sizeRef.current.h, Math.max(viewport.current.k, 25)));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focus?.seq]);

  // an asset the user opened on the map becomes the highlight without moving the map
  const openedHere = useRef<string | null>(null);
  useEffect(() => {
    if (!highlightId || !ready || highlightId === openedHere.current) return;
    const entry = mirror.getSnapshot(highlightId);
    const box = entry ? boxOfEntry(entry) : null;
    if (!box) return;
    const sx = (box.minX + box.maxX) / 2 + offset[0];
    const sy = (box.minY + box.maxY) / 2 + svgY(offset[1]);
    apply(centerOn(viewport.current, sx, sy, sizeRef.current.w, sizeRef.current.h));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [highlightId, ready]);

  // The svg's place on the page, read once per gesture: reading it while the
  // world group's transform is dirty forces a layout of every asset, once per
  // wheel event, on top of the frame's own.
  const rectRef = useRef<DOMRect | null>(null);
  const svgRect = useCallback((): DOMRect => {
    if (!moving.current || !rectRef.current) rectRef.current = svgRef.current!.getBoundingClientRect();
    return rectRef.current;
  }, []);

  // wheel zoom needs a non-passive listener to keep the page from scrolling
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const r = svgRect();
      apply(zoomAt(viewport.current, Math.exp(-event.deltaY * 0.0015), event.clientX - r.left, event.clientY - r.top));
    };
    svg.addEventListener('wheel', onWheel, { passive: false });
    return () => svg.removeEventListener('wheel', onWheel);
  }, [apply, svgRect]);

  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const dragged = useRef(0);

  const onPointerDown = (event: React.PointerEvent<SVGSVGElement>) => {
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.current.size === 1) dragged.current = 0;
  };
  // captured only once the pointer really drags: capturing at pointerdown would retarget the
  // click to the svg, and a click on an asset (or a report mark) would open nothing
  const capture = (event: React.PointerEvent<SVGSVGElement>) => {
    try {
      if (!(event.currentTarget as Element).hasPointerCapture?.(event.pointerId)) (event.currentTarget as Element).setPointerCapture?.(event.pointerId);
    } catch {
      // the pointer is already gone (or synthetic): the drag works without capture
    }
  };
  const onPointerMove = (event: React.PointerEvent<SVGSVGElement>) => {
    const prev = pointers.current.get(event.pointerId);
    if (!prev) return;
    const next = { x: event.clientX, y: event.clientY };
    if (pointers.current.size === 2) {
      const [a, b] = [...pointers.current.entries()].map(([id, p]) => (id === event.pointerId ? next : p));
      const [pa, pb] = [...pointers.current.values()];
      const before = Math.hypot(pa!.x - pb!.x, pa!.y - pb!.y);
      const after = Math.hypot(a!.x - b!.x, a!.y - b!.y);
      const r = svgRect();
      const mx = (a!.x + b!.x) / 2 - r.left;
      const my = (a!.y + b!.y) / 2 - r.top;
      let v = panBy(viewport.current, (next.x - prev.x) / 2, (next.y - prev.y) / 2);
      if (before > 0) v = zoomAt(v, after / before, mx, my);
      apply(v);
    } else {
      apply(panBy(viewport.current, next.x - prev.x, next.y - prev.y));
    }
    dragged.current += Math.abs(next.x - prev.x) + Math.abs(next.y - prev.y);
    if (dragged.current > DRAG_THRESHOLD_PX) capture(event);
    pointers.current.set(event.pointerId, next);
  };
  const onPointerUp = (event: React.PointerEvent<SVGSVGElement>) => {
    pointers.current.delete(event.pointerId);
  };

  const onClickCapture = (event: React.MouseEvent<SVGSVGElement>) => {
    // a drag that ends over an asset is a pan, not a click
    if (dragged.current > DRAG_THRESHOLD_PX) {
      event.stopPropagation();
      dragged.current = 0;
      return;
    }
    if (onPickPoint) {
      event.stopPropagation();
      const r = svgRef.current!.getBoundingClientRect();
      const v = viewport.current;
      const sx = (event.clientX - r.left - v.x) / v.k - offset[0];
      const sy = (event.clientY - r.top - v.y) / v.k - svgY(offset[1]);
      onPickPoint({ x: sx, y: svgY(sy) });
    }
  };

  const onKeyDown = (event: React.KeyboardEvent<SVGSVGElement>) => {
    const { w, h } = sizeRef.current;
    const v = viewport.current;
    const actions: Record<string, () => Viewport> = {
      ArrowLeft: () => panBy(v, KEY_PAN_PX, 0),
      ArrowRight: () => panBy(v, -KEY_PAN_PX, 0),
      ArrowUp: () => panBy(v, 0, KEY_PAN_PX),
      ArrowDown: () => panBy(v, 0, -KEY_PAN_PX),
      '+': () => zoomAt(v, KEY_ZOOM, w / 2, h / 2),
      '=': () => zoomAt(v, KEY_ZOOM, w / 2, h / 2),
      '-': () => zoomAt(v, 1 / KEY_ZOOM, w / 2, h / 2),
    };
    if (event.key === '0' || event.key === 'f') {
      event.preventDefault();
      fit();
    } else if (actions[event.key]) {
      event.preventDefault();
      apply(actions[event.key]!());
    } else if (event.key === 'Escape') {
      setPopup(null);
    }
  };

  const onOpenAsset = props.onOpenAsset;
  const open = useCallback(
    (id: string, anchor: Element | null) => {
      const host = containerRef.current?.getBoundingClientRect();
      const a = anchor?.getBoundingClientRect();
      const left = a && host ? a.left + a.width / 2 - host.left : sizeRef.current.w / 2;
      const top = a && host ? a.top + a.height / 2 - host.top : sizeRef.current.h / 2;
      openedHere.current = id;
      setPopup({ id, left, top });
      onOpenAsset?.(id);
    },
    [onOpenAsset],
  );
  const closePopup = useCallback(() => {
    setPopup(null);
    onOpenAsset?.(null);
  }, [onOpenAsset]);
  useEffect(() => {
    if (props.openId && ready) setPopup({ id: props.openId, left: sizeRef.current.w / 2, top: sizeRef.current.h / 2 });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.openId, ready]);

  const reportMarks = active.has('report') ? props.reportMarks ?? null : null;
  const context = useMemo<FloorContextValue>(() => ({ mirror, cull, imagePolicy, open, reportMarks }), [mirror, cull, imagePolicy, open, reportMarks]);
  const floor = meta?.floor ?? null;
  const planUrl = active.has('floorplan') ? floorPlanUrl(floor?.floor_plan_img_path, imagePolicy) : null;
  const planBox = floor && floor.outline.length > 2 ? boxOf(floor.outline.map(([x, y]) => [x, svgY(y)] as const)) : null;
  const floorName = floor ? `${floor.name}${meta?.building ? `, ${meta.building.name}` : ''}` : 'Floor';

  return (
    <div className={`floor-viewer${onPickPoint ? ' picking' : ''}`} ref={containerRef}>
      <FloorContext.Provider value={context}>
        <svg
          ref={svgRef}
          className="floor-svg"
          width="100%"
          height="100%"
          role="application"
          aria-roledescription="floor plan"
          aria-label={`Floor plan of ${floorName}. Arrow keys pan, plus and minus zoom, 0 fits the floor.`}
          tabIndex={0}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onClickCapture={onClickCapture}
          onKeyDown={onKeyDown}
          data-from-cache={meta?.fromCache ? 'true' : 'false'}
        >
          <defs>
            <radialGradient id="heat-gradient">
              <stop offset="0%" stopColor="#ff3d00" stopOpacity="0.8" />
              <stop offset="60%" stopColor="#ffab00" stopOpacity="0.35" />
              <stop offset="100%" stopColor="#ffd600" stopOpacity="0" />
            </radialGradient>
          </defs>
          <g
            ref={worldRef}
            className="world"
            transform={transformOf(viewport.current)}
            data-detail={String(viewport.current.k >= STATUS_MARK_MIN_ZOOM)}
          >
            <g transform={`translate(${offset[0]} ${svgY(offset[1])})`}>
              {planUrl && planBox ? (
                <image
                  className="floor-plan"
                  href={planUrl}
                  x={planBox.minX + (floor?.floor_plan_img_offset_x ?? 0)}
                  y={planBox.minY + svgY(floor?.floor_plan_img_offset_y ?? 0)}
                  width={planBox.maxX - planBox.minX}
                  height={planBox.maxY - planBox.minY}
                  preserveAspectRatio="none"
                  aria-hidden="true"
                />
              ) : null}
              {active.has('co-workers-heatmap') ? (
                <g className="layer-heat">
                  {drawOrder.heat.map((id) => (
                    <HeatNode key={id} id={id} />
                  ))}
                </g>
              ) : null}
              <g className="layer-assets">
                {drawOrder.main.map((id) => (
                  <AssetNode key={id} id={id} active={active} highlighted={id === highlightId} />
                ))}
              </g>
              {reportMarks ? <ReportMarks marks={reportMarks} /> : null}
              {props.overlay ?? null}
            </g>
          </g>
        </svg>
        <div className="viewer-controls" role="toolbar" aria-label="Zoom">
          <button type="button" onClick={() => apply(zoomAt(viewport.current, KEY_ZOOM, size.w / 2, size.h / 2))} aria-label="Zoom in">+</button>
          <button type="button" onClick={() => apply(zoomAt(viewport.current, 1 / KEY_ZOOM, size.w / 2, size.h / 2))} aria-label="Zoom out">−</button>
          <button type="button" onClick={fit} aria-label="Fit to floor">⤢</button>
        </div>
        {!ready || (meta?.loading && drawOrder.main.length === 0) ? (
          <div className="viewer-status" role="status">Loading floor…</div>
        ) : drawOrder.main.length === 0 ? (
          <div className="viewer-status" role="status">Nothing to show on this floor yet.</div>
        ) : null}
        {meta?.fromCache ? (
          <div className="viewer-badge" role="status">Showing saved data; live data is loading.</div>
        ) : null}
        {popup ? <Popup id={popup.id} left={popup.left} top={popup.top} bounds={size} onClose={closePopup} /> : null}
      </FloorContext.Provider>
    </div>
  );
}
