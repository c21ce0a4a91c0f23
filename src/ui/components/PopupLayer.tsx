// The popup layer of the floor viewer: which asset's popup is open and where,
// opening it at the asset (click, tap, Enter), and closing it with the focus
// handed back to the asset it came from, so a keyboard user goes on from there.

import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { HIGHLIGHT_RING_REACH } from './AssetNode.js';
import { Popup } from './Popup.js';
import type { Viewport } from '../lib/viewport.js';

export interface PopupPlace {
  id: string;
  /** anchor in the viewer, px: the asset's centre */
  left: number;
  top: number;
  /** half the asset's drawn width and height, px: the popup opens beside it */
  halfW: number;
  halfH: number;
  /**
   * the anchor and the asset's half-size in the map's own space (the world group's), when the map was known at
   * opening: the popup follows it, and keeps clear of it at the new zoom
   */
  at?: { x: number; y: number; hw: number; hh: number; ox: number; oy: number };
}

/** What the popup layer reads of the map to keep a popup at its asset while the map moves. */
export interface PopupMap {
  viewport(): Viewport;
  /** the svg's place on the page */
  svgRect(): DOMRect;
}

/** The drawn, focusable element of an asset, if it is on the map now. */
export function assetElement(svg: SVGSVGElement, id: string): SVGGElement | null {
  // one selector match, not a walk over every drawn asset (this runs after each viewer render)
  return svg.querySelector<SVGGElement>(`[data-asset-id="${id.replace(/["\\]/g, '\\$&')}"][role="button"]`);
}

export interface PopupLayerState {
  popup: PopupPlace | null;
  open(id: string, anchor: Element | null): void;
  close(): void;
  /** the map settled at `v`: an open popup moves to where its asset is now */
  follow(v: Viewport): void;
}

export function usePopupLayer(
  containerRef: RefObject<HTMLElement | null>,
  svgRef: RefObject<SVGSVGElement | null>,
  onOpenAsset?: (id: string | null) => void,
  map?: PopupMap,
): PopupLayerState {
  const [popup, setPopup] = useState<PopupPlace | null>(null);
  // `open` goes into the floor context that every drawn asset reads: a new function would
  // re-render the whole floor, so open and close stay the same and read these after render
  const latest = useRef({ popup, onOpenAsset });
  useLayoutEffect(() => {
    latest.current = { popup, onOpenAsset };
  });

  const open = useCallback(
    (id: string, anchor: Element | null) => {
      const host = containerRef.current?.getBoundingClientRect();
      const a = anchor?.getBoundingClientRect();
      const left = a && host ? a.left + a.width / 2 - host.left : (host?.width ?? 0) / 2;
      const top = a && host ? a.top + a.height / 2 - host.top : (host?.height ?? 0) / 2;
      // the asset's box, and the ring drawn around it while its popup is open (AssetNode.tsx): the popup clears both
      const ring = map && a ? HIGHLIGHT_RING_REACH * map.viewport().k : 0;
      const halfW = a && host ? Math.max(a.width / 2, ring) : 0;
      const halfH = a && host ? Math.max(a.height / 2, ring) : 0;
      let at: PopupPlace['at'];
      // (a popup opened without its asset drawn, a deep link's, sits at the middle and stays there)
      if (map && host && a) {
        // the svg's origin in the viewer, and the anchor in the map's space at the view it was opened in
        const r = map.svgRect();
        const v = map.viewport();
        const [ox, oy] = [r.left - host.left, r.top - host.top];
        at = { x: (left - ox - v.x) / v.k, y: (top - oy - v.y) / v.k, hw: halfW / v.k, hh: halfH / v.k, ox, oy };
      }
      setPopup({ id, left, top, halfW, halfH, at });
      latest.current.onOpenAsset?.(id);
    },
    [containerRef, map],
  );

  const follow = useCallback((v: Viewport) => {
    setPopup((p) => {
      if (!p?.at) return p;
      const left = p.at.ox + v.x + v.k * p.at.x;
      const top = p.at.oy + v.y + v.k * p.at.y;
      const halfW = v.k * p.at.hw;
      const halfH = v.k * p.at.hh;
      return Math.abs(left - p.left) < 0.5 && Math.abs(top - p.top) < 0.5 && Math.abs(halfW - p.halfW) < 0.5 && Math.abs(halfH - p.halfH) < 0.5
        ? p : { ...p, left, top, halfW, halfH };
    });
  }, []);

  const close = useCallback(() => {
    const { popup: was, onOpenAsset: tell } = latest.current;
    setPopup(null);
    tell?.(null);
    if (!was) return;
    const svg = svgRef.current;
    const asset = svg ? assetElement(svg, was.id) : null;
    // back to where the user was; the map itself when the asset is gone
    (asset ?? svg)?.focus({ preventScroll: true });
  }, [svgRef]);

  return { popup, open, close, follow };
}

export interface PopupLayerProps {
  popup: PopupPlace | null;
  bounds: { w: number; h: number };
  /** px at the top of the map kept for messages: the popup stays below them */
  top?: number;
  onClose(): void;
  /** opens this asset once the floor is ready (deep link) */
  initialId?: string | null;
  ready: boolean;
  open(id: string, anchor: Element | null): void;
}

export function PopupLayer({ popup, bounds, top = 0, onClose, initialId = null, ready, open }: PopupLayerProps) {
  const opened = useRef<string | null>(null);
  useEffect(() => {
    if (!initialId || !ready || opened.current === initialId) return;
    opened.current = initialId;
    open(initialId, null);
  }, [initialId, ready, open]);
  if (!popup) return null;
  return (
    <div className="popup-area" style={{ top }}>
      <Popup id={popup.id} left={popup.left} top={popup.top - top} halfW={popup.halfW} halfH={popup.halfH} bounds={{ w: bounds.w, h: bounds.h - top }} onClose={onClose} />
    </div>
  );
}
