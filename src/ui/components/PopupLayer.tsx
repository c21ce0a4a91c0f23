// The popup layer of the floor viewer: which asset's popup is open and where,
// opening it at the asset (click, tap, Enter), and closing it with the focus
// handed back to the asset it came from, so a keyboard user goes on from there.

import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { Popup } from './Popup.js';

export interface PopupPlace {
  id: string;
  /** anchor in the viewer, px */
  left: number;
  top: number;
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
}

export function usePopupLayer(
  containerRef: RefObject<HTMLElement | null>,
  svgRef: RefObject<SVGSVGElement | null>,
  onOpenAsset?: (id: string | null) => void,
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
      setPopup({ id, left, top });
      latest.current.onOpenAsset?.(id);
    },
    [containerRef],
  );

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

  return { popup, open, close };
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
      <Popup id={popup.id} left={popup.left} top={popup.top - top} bounds={{ w: bounds.w, h: bounds.h - top }} onClose={onClose} />
    </div>
  );
}
