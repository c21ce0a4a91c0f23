// The floor viewer: puts together the camera (lib/camera.ts), pointer and
// wheel gestures (useMapGestures), keyboard and roving focus (useMapKeyboard),
// the SVG (FloorSvg), the popup layer (PopupLayer) and the legends, and fits
// the floor into the part of the map the legends, toolbar and a panel over
// its left side (the directions) leave free.

import { useCallback, useEffect, useEffectEvent, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import type { DrawState, FloorViewMeta } from '../../shared/api.js';
import type { MapLayer } from '../../shared/constants.js';
import type { ViewMirror } from '../engine/viewMirror.js';
import { useLabelLayout } from '../hooks/useLabelLayout.js';
import { useMapGestures } from '../hooks/useMapGestures.js';
import { usePaintedFloor, type PaintTarget } from '../hooks/usePaintedFloor.js';
import { LEGEND_GAP_PX, useMapLayout } from '../hooks/useMapLayout.js';
import { KEY_ZOOM, useMapKeyboard } from '../hooks/useMapKeyboard.js';
import { useKeyboardPick } from '../hooks/useKeyboardPick.js';
import { useViewMeta, useViewReady } from '../hooks/useView.js';
import { createCamera } from '../lib/camera.js';
import { createCullStore, CULL_MIN_ASSETS } from '../lib/cullStore.js';
import { drawOrderOf } from '../lib/drawOrder.js';
import { prepareCollatorSoon } from '../lib/collate.js';
import { afterNextFrame, createRevealStore } from '../lib/revealOrder.js';
import { fileUrl, type ImageUrlPolicy } from '../lib/imageUrl.js';
import { keepForOffline } from '../lib/offlineImages.js';
import { keptViewFor, type ViewKeeper } from '../lib/keptView.js';
import { createRovingStore } from '../lib/rovingFocus.js';
import { dropPainted, isPainted, PAINTED_COVER_WAIT_MS, paintedCovered, paintedPending, paintedViewFor, takePaintedClick, takePaintedView } from '../lib/paintedFloor.js';
import { boxOf, fitBox, freeMiddle, freeMiddlePoint, svgY, visibleBox, type Box, type Viewport } from '../lib/viewport.js';
import { boxOfEntry } from './AssetNode.js';
import { FloorContext, type FloorContextValue } from './floorContext.js';
import { FloorSvg, type FloorPlanImage } from './FloorSvg.js';
import { DrawProgress } from './DrawProgress.js';
import { MapLegends, NARROW_MAP_HEIGHT_PX, NARROW_MAP_WIDTH_PX } from './MapLegends.js';
import { PickMarker } from './PlacePin.js';
import { assetElement, PopupLayer, usePopupLayer } from './PopupLayer.js';
import type { ReportMark } from '../../shared/reports/types.js';
import type { Legend } from '../../shared/api.js';

export interface FloorViewerProps {
  mirror: ViewMirror<DrawState, FloorViewMeta>;
  layers: readonly MapLayer[];
  imagePolicy: ImageUrlPolicy;
  /** asset to highlight and centre (deep link, finder) */
  highlightId?: string | null;
  /** a new number: keyboard focus goes to the highlighted asset once it is drawn (a finder result shown) */
  focusHighlightSeq?: number | null;
  /**
   * a world point to centre on, on `floorId`'s data when given (a floor switch first shows the old floor's);
   * `seq` changes to re-centre on the same point
   */
  focus?: { x: number; y: number; seq: number; floorId?: string | null } | null;
  /** the focus of `seq` was centred: the shell drops it, so no later viewer centres on it again */
  onFocusDone?: (seq: number) => void;
  /** when set, a click on the floor picks a world point instead of opening an asset; so do the marker and Enter */
  onPickPoint?: ((point: { x: number; y: number }) => void) | null;
  /** where the keyboard's marker starts while picking (a place picked before), when it is in sight */
  pickFrom?: { x: number; y: number } | null;
  /** reports the world point at the centre of the view (forms use it without a pointer) */
  onCenterChange?: (point: { x: number; y: number }) => void;
  onOpenAsset?: (id: string | null) => void;
  /** initially open popup */
  openId?: string | null;
  /** messages (connection, saved data, outcomes) shown over the top of the map; popups and fit keep clear of them */
  notices?: ReactNode;
  /** the `report` layer's marks (components/reports/ReportMarks.tsx) */
  reportMarks?: ReadonlyMap<string, ReportMark> | null;
  /** drawn above the assets in world coordinates (directions: components/route/RouteOverlay.tsx) */
  overlay?: ReactNode;
  /** legends to show instead of the floor view's (e.g. with the report's own) */
  legends?: readonly Legend[];
  /** a panel over the map's left side (the directions): fit leaves it room, and refits when it comes, goes or resizes */
  cover?: HTMLElement | null;
  /** a control over the map's top-right corner ("Play back a day"): a fit keeps the floor from under it */
  corner?: HTMLElement | null;
  /** whose floor this is, when the screen may be kept as the painted floor for the next reopen (lib/paintedFloor.ts) */
  paint?: PaintTarget | null;
  /**
   * the pan and zoom shared with the viewers this one replaces or is replaced by (live and the replays of the same
   * floor, lib/keptView.ts): it starts from the kept view of its floor instead of a fit, and keeps its own there
   */
  keepView?: ViewKeeper | null;
}

const NO_OFFSET = [0, 0] as const;
/** A followed co-worker is brought back to the middle once nearer the map's edge than this share of its smaller side. */
export const FOLLOW_MARGIN = 0.08;

/** Where a floor-plan path lives (lib/imageUrl.ts fileUrl). */
export const floorPlanUrl = fileUrl;

export function FloorViewer(props: FloorViewerProps) {
  const { mirror, layers, imagePolicy, highlightId = null, focusHighlightSeq = null, focus = null, onPickPoint = null, onCenterChange, onOpenAsset, keepView = null } = props;
  const meta = useViewMeta(mirror);
  const ready = useViewReady(mirror);
  const containerRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const worldRef = useRef<SVGGElement>(null);
  const legendRef = useRef<HTMLDivElement>(null);
  const noticesRef = useRef<HTMLDivElement>(null);
  const cull = useMemo(() => createCullStore(), []);
  const roving = useMemo(() => createRovingStore(), []);
  // the store attaches to the mirror while subscribed, so StrictMode remounts are safe
  const order = drawOrderOf(mirror);
  const drawOrder = useSyncExternalStore(order.subscribe, order.getSnapshot, order.getSnapshot);
  // index.html painted this floor before the app ran (lib/paintedFloor.ts): the viewer draws it under the
  // picture at the same pan and zoom, and takes the picture away once its own floor is whole
  const [painted] = useState(() => (props.paint && isPainted() ? paintedViewFor(props.paint.floorId) : null));
  // what of it is drawn: a large arrival of live data (a floor's first, a floor switch) over a few frames;
  // the saved floor on reopen is drawn whole at once (docs/ui.md), unless the painted one covers it meanwhile
  const reveal = useMemo(
    () => createRevealStore(order, { schedule: afterNextFrame, now: () => performance.now(), whole: () => !!mirror.getMeta()?.fromCache && !painted }),
    [order, mirror, painted],
  );
  const active = useMemo(() => new Set(layers), [layers]);
  const [offsetX, offsetY] = meta?.building?.location_offset ?? NO_OFFSET;
  const offset = useMemo(() => [offsetX, offsetY] as const, [offsetX, offsetY]);

  // what happens once the view stops moving: culling, the centre for forms, the tab stop
  const settled = useRef<(v: Viewport) => void>(() => undefined);
  // made once; it calls these getters on gestures and timers, after render
  const [camera] = useState(() =>
    createCamera({ world: () => worldRef.current, svg: () => svgRef.current, onSettle: (v) => settled.current(v), initial: painted ?? undefined }),
  );
  useEffect(() => () => camera.dispose(), [camera]);

  // the size and the free part of the map, measured without forcing a layout; a change refits a fitted floor
  const mapLayout = useMapLayout({ host: containerRef, legend: legendRef, notices: noticesRef, cover: props.cover ?? null, corner: props.corner ?? null, onChange: () => refitIfFitted(), onFreeChange: () => {
    recentreIfCentred();
    // once the floor was fitted (no centre before: docs/ui.md, the report form)
    if (centreReported.current) reportCentre(camera.viewport());
  } });
  const { size, noticesHeight, currentSize: size_, insets, corner } = mapLayout;

  const floorBox = useCallback((): Box | null => {
    const [ox, oy] = [offset[0], svgY(offset[1])];
    const outline = meta?.floor?.outline ?? [];
    let box = outline.length > 2 ? boxOf(outline.map(([x, y]) => [x, svgY(y)] as const)) : null;
    if (!box) {
      const corners = mirror.getKeys().flatMap((k) => {
        const e = mirror.getSnapshot(k);
        const b = e ? boxOfEntry(e) : null;
        return b ? [[b.minX, b.minY] as const, [b.maxX, b.maxY] as const] : [];
      });
      box = boxOf(corners);
    }
    return box ? { minX: box.minX + ox, maxX: box.maxX + ox, minY: box.minY + oy, maxY: box.maxY + oy } : null;
  }, [meta, mirror, offset]);

  // the view the last fit gave: while the map still shows it, a change of the legends or the cover refits
  const fitted = useRef<Viewport | null>(null);
  const fit = useCallback(() => {
    const box = floorBox();
    if (!box) return;
    const { w, h } = size_();
    camera.set(fitBox(box, w, h, insets(), corner()));
    fitted.current = camera.viewport();
  }, [camera, floorBox, insets, corner, size_]);
  const refitIfFitted = useCallback(() => {
    const v = camera.viewport();
    const f = fitted.current;
    if (f && v.x === f.x && v.y === f.y && v.k === f.k) fit();
  }, [camera, fit]);

  // an open popup stays at its asset when the map moves under it (a finger's pan, a pinch, the zoom buttons)
  const popupMap = useMemo(() => ({ viewport: () => camera.viewport(), svgRect: () => camera.svgRect() }), [camera]);
  const layer = usePopupLayer(containerRef, svgRef, onOpenAsset, popupMap);
  const openAsset = layer.open;
  const layoutLabels = useLabelLayout({ svgRef, mirror, active, camera });
  // the whole live floor on screen is kept for the next reopen's first paint
  const paintLater = usePaintedFloor({
    target: props.paint ?? null,
    // not mid-gesture: the svg's CSS transform is not what the next page load lays out
    ready: () => mirror.ready && !mirror.getMeta()?.fromCache && reveal.pending() === 0 && !camera.moving(),
    viewport: camera.viewport,
  });
  const keyboard = useMapKeyboard({
    svgRef, camera, mirror, roving, offset, size: size_, insets, fit, open: layer.open, close: layer.close,
  });

  const pick = useKeyboardPick({ onPickPoint, from: props.pickFrom ?? null, svgRef, camera, mirror, offset, size: size_, insets });
  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    if (!pick.onKeyDown(event)) keyboard.onKeyDown(event);
  };

  // the view's centre for the forms (a ticket's red pin, "Use the centre of the view"): the middle of the part of
  // the map nothing covers, like "Show" centres, not the map's own middle under the messages or the legends
  // (docs/ui.md "Centred where nothing covers the map"); again when that part changes without the map moving
  const centreReported = useRef(false);
  const reportCentre = (v: Viewport) => {
    if (!onCenterChange) return;
    centreReported.current = true;
    const { w, h } = size_();
    const at = freeMiddlePoint(v, w, h, insets());
    onCenterChange({ x: at.x - offset[0], y: svgY(at.y - svgY(offset[1])) });
  };
  const onSettle = (v: Viewport) => {
    pick.onSettle(v);
    const { w, h } = size_();
    const [ox, oy] = [offset[0], svgY(offset[1])];
    // the box is in floor coordinates: undo the building offset of the inner group
    const box = visibleBox(v, w, h, 0.5);
    const count = mirror.getKeys().length;
    cull.setBox(count >= CULL_MIN_ASSETS ? { minX: box.minX - ox, maxX: box.maxX - ox, minY: box.minY - oy, maxY: box.maxY - oy } : null);
    reportCentre(v);
    // culling re-renders assets after this task: check the tab stop after it
    setTimeout(keyboard.syncTabStop, 0);
    layer.follow(v);
    // labels that would overlap at this zoom give way
    layoutLabels();
    paintLater();
    const shown = mirror.getMeta()?.floor?.id;
    const f = fitted.current;
    if (shown && keepView) keepView.set({ floorId: shown, view: v, fitted: !!f && f.x === v.x && f.y === v.y && f.k === v.k });
  };
  // the camera calls the latest one; refs are written after render, not during
  useLayoutEffect(() => {
    settled.current = onSettle;
  });

  // the tab stop follows what is drawn: after a render, in a task of its own (it looks at every drawn asset,
  // and a render of the floor's first data is already a large task; issue 14), once for a burst of renders
  const tabStopLater = useRef<ReturnType<typeof setTimeout> | null>(null);
  const syncTabStop = useRef(keyboard.syncTabStop);
  useEffect(() => {
    syncTabStop.current = keyboard.syncTabStop;
    tabStopLater.current ??= setTimeout(() => {
      tabStopLater.current = null;
      syncTabStop.current();
    }, 0);
  });
  useEffect(() => () => { if (tabStopLater.current) clearTimeout(tabStopLater.current); }, []);
  // a finder result shown: the keyboard goes on from its asset (Enter opens it, `/` goes back to the finder),
  // once the asset is drawn (a switched floor draws over a few frames)
  const focusWanted = useRef<string | null>(null);
  const focusTakenSeq = useRef<number | null>(null);
  const takeWantedFocus = () => {
    const svg = svgRef.current;
    const id = focusWanted.current;
    const el = svg && id ? assetElement(svg, id) : null;
    if (!el) return;
    focusWanted.current = null;
    roving.setCurrent(id);
    el.focus({ preventScroll: true });
  };
  useEffect(() => {
    if (focusHighlightSeq === null || !highlightId || focusTakenSeq.current === focusHighlightSeq) return;
    focusTakenSeq.current = focusHighlightSeq;
    focusWanted.current = highlightId;
  }, [focusHighlightSeq, highlightId]);
  useEffect(() => {
    if (focusWanted.current && ready) takeWantedFocus();
  });
  // a floor drawn over a few frames: its tab stop and its labels once it is all there
  const onDrawn = () => {
    takeWantedFocus();
    keyboard.syncTabStop();
    layoutLabels();
    paintLater();
    takeOverPainted();
  };
  // the painted picture goes, and a click made on it opens its popup, once the floor behind it is whole:
  // every message applied and drawn, and, while the data is saved, every asset the picture shows there
  // (saved data can hold less of the floor than the picture: a reopen before the floor's part was written
  // draws only what the shared part places on it until the rest or live data comes)
  const takeOver = useRef(false);
  const coverWait = useRef<{ since: number; timer: ReturnType<typeof setTimeout> | null } | null>(null);
  const takeOverPainted = () => {
    if (!floorId || !paintedPending()) return;
    const drawing = !mirror.ready || !mirror.settled || reveal.pending() > 0;
    if (drawing) {
      // looked at again after the next frame while it draws, and on every later change of the floor
      scheduleTakeOver();
      return;
    }
    const saved = !!mirror.getMeta()?.fromCache;
    const has = (id: string) => mirror.getSnapshot(id) !== undefined;
    if (saved && isPainted() && !paintedCovered(floorId, has)) {
      // saved data with less than the picture (another tab's older write, a part not written yet): the rest or
      // live data may come at once; offline it does not, so after a short wait the app shows what it has
      const wait = (coverWait.current ??= { since: performance.now(), timer: null });
      const left = PAINTED_COVER_WAIT_MS - (performance.now() - wait.since);
      if (left > 0) {
        if (!wait.timer) wait.timer = setTimeout(() => { wait.timer = null; takeOverLatest.current(); }, left);
        return;
      }
    }
    dropPainted();
    // a click on an asset of the painted floor, made before the viewer was ready, opens its popup now; while
    // saved data lacks that asset the click stays kept for the rest or live data (nothing if live data lacks it)
    const handoff = window.__storeyPainted;
    if (!handoff?.clicked) return;
    if (handoff.floorId === floorId && saved && !has(handoff.clicked)) return;
    const clicked = takePaintedClick(floorId);
    if (handoff.clicked && handoff.floorId !== floorId) handoff.clicked = null;
    if (clicked && has(clicked)) openAsset(clicked, svgRef.current ? assetElement(svgRef.current, clicked) : null);
  };
  useEffect(() => () => { if (coverWait.current?.timer) clearTimeout(coverWait.current.timer); }, []);
  const takeOverLatest = useRef(takeOverPainted);
  useLayoutEffect(() => {
    takeOverLatest.current = takeOverPainted;
  });
  const scheduleTakeOver = () => {
    if (takeOver.current) return;
    takeOver.current = true;
    afterNextFrame(() => {
      takeOver.current = false;
      takeOverLatest.current();
    });
  };
  useEffect(() => mirror.subscribeAll(() => { if (paintedPending()) scheduleTakeOver(); }), [mirror]);
  const fromCache = !!meta?.fromCache;
  useEffect(() => {
    if (!ready || fromCache) return;
    paintLater();
    // the finders' collator, once the live floor's frames are done (lib/collate.ts)
    prepareCollatorSoon();
  }, [ready, fromCache, paintLater]);

  // fit once per floor, when its first data is there
  const fittedFloor = useRef<string | null>(null);
  const floorId = meta?.floor?.id ?? null;
  /** the highlighted asset centred on this floor (`id@floor`): each is centred once, when its floor's data has it */
  const centredHighlight = useRef<string | null>(null);
  useEffect(() => {
    if (!ready || !floorId || fittedFloor.current === floorId) return;
    fittedFloor.current = floorId;
    // the painted floor's view stays (set again so culling and labels follow it); a fit would move the picture
    if (painted && takePaintedView(floorId)) {
      camera.set(painted);
      return;
    }
    // the view the live floor or another replay of this floor had (lib/keptView.ts): a highlight already there
    // (shown before the switch) is not centred over it again
    const kept = keptViewFor(keepView, floorId);
    if (kept) {
      camera.set(kept);
      if (highlightId) centredHighlight.current = `${highlightId}@${floorId}`;
    } else fit();
  }, [ready, floorId, fit, painted, camera, keepView, highlightId]);

  // centring is an event: a new `focus.seq` moves the map once its floor's data is there and fitted (a viewer
  // mounted for a floor switch first holds the old floor's data, whose fit would undo it), once: the shell drops
  // the focus when told (onFocusDone), so a later viewer (another floor, the replay) does not centre on it again
  /** the view the map was put in to show something: while it is still the view, a highlighted person who moves is followed */
  const followView = useRef<Viewport | null>(null);
  /** the SVG point the map was last centred on, in the middle of the part of the map nothing covers */
  const centredAt = useRef<{ x: number; y: number } | null>(null);
  const centre = (x: number, y: number, k?: number) => {
    const { w, h } = size_();
    camera.centerOn(x, y, freeMiddle(w, h, insets()), k);
    centredAt.current = { x, y };
    followView.current = camera.viewport();
  };
  // a message that comes with "Show" (or goes), a legend, the sheet: while the map is still where the centring put
  // it, what it centred stays in the middle of what is left free (docs/ui.md "Centred where nothing covers the map")
  const recentreIfCentred = () => {
    const v = camera.viewport();
    const f = followView.current;
    const at = centredAt.current;
    if (at && f && v.x === f.x && v.y === f.y && v.k === f.k) centre(at.x, at.y);
  };
  const centreOnFocus = useEffectEvent(() => {
    if (!focus) return;
    centre(focus.x + offset[0], svgY(focus.y) + svgY(offset[1]), Math.max(camera.viewport().k, 25));
    props.onFocusDone?.(focus.seq);
  });
  const focusSeq = focus?.seq ?? null;
  const focusFloor = focus?.floorId ?? null;
  const focusedSeq = useRef<number | null>(null);
  useEffect(() => {
    if (focusSeq === null || !ready || !floorId || focusedSeq.current === focusSeq) return;
    if (focusFloor !== null && focusFloor !== floorId) return;
    focusedSeq.current = focusSeq;
    centreOnFocus();
  }, [focusSeq, focusFloor, ready, floorId]);

  // a highlighted asset (link, finder) is centred; one the user opened on the map stays where it is
  const centreOn = (id: string) => {
    const entry = mirror.getSnapshot(id);
    const box = entry ? boxOfEntry(entry) : null;
    if (!box) return;
    centre((box.minX + box.maxX) / 2 + offset[0], (box.minY + box.maxY) / 2 + svgY(offset[1]));
  };
  /** Centres the highlighted asset once its floor's data has it (a later slice may bring it: followAsset). */
  const centreHighlight = useEffectEvent((id: string) => {
    if (!floorId || !mirror.getSnapshot(id)) return;
    centredHighlight.current = `${id}@${floorId}`;
    if (id !== layer.popup?.id) centreOn(id);
  });
  useEffect(() => {
    if (highlightId && ready && floorId && centredHighlight.current !== `${highlightId}@${floorId}`) centreHighlight(highlightId);
  }, [highlightId, ready, floorId]);
  // a shown co-worker (or tag) who walks out of sight is followed (docs/ui.md "A shown co-worker is followed"),
  // until the person moves the map themselves
  const followAsset = useEffectEvent((id: string) => {
    // an asset the floor's data did not have yet when it was highlighted (a slice still to come): centred now
    if (centredHighlight.current !== `${id}@${floorId}`) {
      centreHighlight(id);
      return;
    }
    const entry = mirror.getSnapshot(id);
    if (!entry || (entry.kind !== 'employee' && entry.kind !== 'auto_tag')) return;
    const v = camera.viewport();
    const f = followView.current;
    // the person's own pan or zoom (even mid-gesture) changes the view: one still the one the map was put in means
    // nobody moved it since
    if (!f || f.x !== v.x || f.y !== v.y || f.k !== v.k) return;
    const box = boxOfEntry(entry);
    if (!box) return;
    const { w, h } = size_();
    const edge = insets();
    const margin = FOLLOW_MARGIN * Math.min(w, h);
    const sx = ((box.minX + box.maxX) / 2 + offset[0]) * v.k + v.x;
    const sy = ((box.minY + box.maxY) / 2 + svgY(offset[1])) * v.k + v.y;
    const inSight = sx >= edge.left + margin && sx <= w - edge.right - margin && sy >= edge.top + margin && sy <= h - edge.bottom - margin;
    if (!inSight) centreOn(id);
  });
  useEffect(() => {
    if (!highlightId || !ready) return;
    return mirror.subscribe(highlightId, () => followAsset(highlightId));
  }, [highlightId, ready, mirror]);

  const onPick = useMemo(
    () =>
      onPickPoint
        ? (clientX: number, clientY: number) => {
            const r = camera.svgRect();
            const v = camera.viewport();
            const sx = (clientX - r.left - v.x) / v.k - offset[0];
            const sy = (clientY - r.top - v.y) / v.k - svgY(offset[1]);
            onPickPoint({ x: sx, y: svgY(sy) });
          }
        : null,
    [onPickPoint, camera, offset],
  );
  useMapGestures(svgRef, { camera, onPick });

  // a click (not a drag: the gesture hook swallows those) on an asset opens its popup
  const onClick = (event: MouseEvent<SVGSVGElement>) => {
    const target = event.target as Element;
    const asset = target.closest?.('[data-asset-id][role="button"]');
    if (asset) { layer.open(asset.getAttribute('data-asset-id')!, asset); return; }
    // the highlighted asset's picture on top (FloorSvg RaisedAsset) opens the asset, anchored at the asset itself
    const id = target.closest?.('[data-raised-for]')?.getAttribute('data-raised-for');
    const svg = svgRef.current;
    if (id && svg) layer.open(id, assetElement(svg, id));
  };

  const reportMarks = active.has('report') ? props.reportMarks ?? null : null;
  const context = useMemo<FloorContextValue>(
    () => ({ mirror, cull, imagePolicy, roving, open: layer.open, reportMarks }),
    [mirror, cull, imagePolicy, roving, layer.open, reportMarks],
  );
  const floor = meta?.floor ?? null;
  const planUrl = active.has('floorplan') ? floorPlanUrl(floor?.floor_plan_img_path, imagePolicy) : null;
  const planBox = floor && floor.outline.length > 2 ? boxOf(floor.outline.map(([x, y]) => [x, svgY(y)] as const)) : null;
  const plan: FloorPlanImage | null = planUrl && planBox
    ? {
        href: planUrl,
        box: {
          minX: planBox.minX + (floor?.floor_plan_img_offset_x ?? 0),
          minY: planBox.minY + svgY(floor?.floor_plan_img_offset_y ?? 0),
          maxX: planBox.maxX + (floor?.floor_plan_img_offset_x ?? 0),
          maxY: planBox.maxY + svgY(floor?.floor_plan_img_offset_y ?? 0),
        },
      }
    : null;
  useEffect(() => {
    void keepForOffline(planUrl);
  }, [planUrl]);
  const floorName = floor ? `${floor.name}${meta?.building ? `, ${meta.building.name}` : ''}` : 'Floor';
  const zoomBy = (factor: number) => camera.zoomAt(factor, size.w / 2, size.h / 2);

  return (
    <div className={`floor-viewer${onPickPoint ? ' picking' : ''}`} ref={containerRef}>
      <FloorContext.Provider value={context}>
        <FloorSvg
          ref={svgRef}
          worldRef={worldRef}
          initial={camera.drawn()}
          offset={offset}
          plan={plan}
          reveal={reveal}
          active={active}
          highlightId={highlightId}
          reportMarks={reportMarks}
          overlay={(
            <>
              {props.overlay}
              {pick.marker ? <PickMarker point={pick.marker} zoom={pick.zoom} /> : null}
            </>
          )}
          label={`Floor plan of ${floorName}. Arrow keys move between places and pan at the edge, Shift with arrows pans, plus and minus zoom, 0 fits the floor, Enter opens details.`}
          fromCache={!!meta?.fromCache}
          onKeyDown={onKeyDown}
          onClick={onClick}
          onFocus={keyboard.onFocus}
          onBlur={keyboard.onBlur}
        />
        <MapLegends
          ref={legendRef}
          legends={props.legends ?? meta?.legends ?? []}
          active={layers}
          onResize={mapLayout.legendsChanged}
          narrow={size.w < NARROW_MAP_WIDTH_PX || size.h < NARROW_MAP_HEIGHT_PX}
        />
        <div className="viewer-controls" role="toolbar" aria-label="Zoom">
          <button type="button" onClick={() => zoomBy(KEY_ZOOM)} aria-label="Zoom in">+</button>
          <button type="button" onClick={() => zoomBy(1 / KEY_ZOOM)} aria-label="Zoom out">−</button>
          <button type="button" onClick={fit} aria-label="Fit to floor">⤢</button>
        </div>
        <div className="map-notices" ref={noticesRef}>
          {props.notices}
          {onPickPoint ? (
            <div className="pick-hint" role="status" data-testid="pick-hint">
              <span>Picking a place: click the floor, or move the marker with the arrow keys (Shift: further) and press Enter. Escape cancels.</span>
              {pick.words ? <span className="pick-where">{` Marker ${pick.words}.`}</span> : null}
            </div>
          ) : null}
          {!ready || (meta?.loading && drawOrder.main.length === 0) ? (
            <div className="viewer-status" role="status">Loading floor…</div>
          ) : drawOrder.main.length === 0 ? (
            <div className="viewer-status" role="status">Nothing to show on this floor yet.</div>
          ) : (
            <DrawProgress reveal={reveal} total={drawOrder.main.length} onDone={onDrawn} />
          )}
        </div>
        <PopupLayer
          popup={layer.popup}
          bounds={size}
          top={noticesHeight > 0 ? noticesHeight + LEGEND_GAP_PX : 0}
          onClose={layer.close}
          initialId={props.openId ?? null}
          ready={ready}
          open={layer.open}
        />
      </FloorContext.Provider>
    </div>
  );
}
