// Pointer, touch and wheel input of the floor map. A press that is released
// within a few pixels is a click (it reaches the asset under it); one that
// moves further is a drag that pans, wherever it started, an asset included,
// and the click that follows it is swallowed. Two pointers pinch-zoom around
// their midpoint. The wheel zooms at the pointer, honouring deltaMode. All
// three move the map on the compositor until they settle (lib/camera.ts).
//
// The pointer is captured only once a drag starts: capturing on press would
// retarget the release, and with it the click, from the asset to the map.

import { useEffect, type RefObject } from 'react';
import type { Camera } from '../lib/camera.js';
import { wheelZoomFactor } from '../lib/viewport.js';

/** How far a press may move and still be a click: a mouse is precise, a finger is not. */
export const CLICK_SLOP_PX = { mouse: 4, touch: 10 } as const;

interface Tracked {
  x: number;
  y: number;
  startX: number;
  startY: number;
  slop: number;
}

export interface MapGestureOptions {
  camera: Camera;
  /** when set, a click picks the point under it instead of reaching an asset */
  onPick?: ((clientX: number, clientY: number) => void) | null;
}

export function useMapGestures(svgRef: RefObject<SVGSVGElement | null>, { camera, onPick = null }: MapGestureOptions): void {
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const pointers = new Map<number, Tracked>();
    let dragging = false;
    let swallowClick = false;

    const capture = (id: number) => {
      try {
        svg.setPointerCapture(id);
      } catch {
        // the pointer is already gone: the drag goes on without capture
      }
    };

    const onPointerDown = (event: PointerEvent) => {
      if (event.pointerType === 'mouse' && event.button !== 0) return;
      if (pointers.size === 0) {
        dragging = false;
        swallowClick = false;
      }
      const slop = event.pointerType === 'mouse' ? CLICK_SLOP_PX.mouse : CLICK_SLOP_PX.touch;
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY, startX: event.clientX, startY: event.clientY, slop });
      if (pointers.size > 1) {
        // a second finger makes it a pinch: no click at the end of it
        dragging = true;
        for (const id of pointers.keys()) capture(id);
      }
    };

    const onPointerMove = (event: PointerEvent) => {
      const p = pointers.get(event.pointerId);
      if (!p) return;
      if (!dragging) {
        if (Math.hypot(event.clientX - p.startX, event.clientY - p.startY) < p.slop) return;
        dragging = true;
        capture(event.pointerId);
      }
      if (pointers.size === 2) {
        const [a, b] = [...pointers.entries()].map(([id, q]) => (id === event.pointerId ? { x: event.clientX, y: event.clientY } : q));
        const [pa, pb] = [...pointers.values()];
        const before = Math.hypot(pa!.x - pb!.x, pa!.y - pb!.y);
        const after = Math.hypot(a!.x - b!.x, a!.y - b!.y);
        const r = camera.svgRect();
        camera.panBy((event.clientX - p.x) / 2, (event.clientY - p.y) / 2, true);
        if (before > 0) camera.zoomAt(after / before, (a!.x + b!.x) / 2 - r.left, (a!.y + b!.y) / 2 - r.top, true);
      } else if (pointers.size === 1) {
        camera.panBy(event.clientX - p.x, event.clientY - p.y, true);
      }
      p.x = event.clientX;
      p.y = event.clientY;
    };

    const onPointerEnd = (event: PointerEvent) => {
      if (!pointers.delete(event.pointerId)) return;
      if (dragging) swallowClick = true;
    };

    const onClick = (event: MouseEvent) => {
      if (swallowClick) {
        swallowClick = false;
        event.stopPropagation();
        event.preventDefault();
        return;
      }
      if (onPick) {
        event.stopPropagation();
        onPick(event.clientX, event.clientY);
      }
    };

    // non-passive, so the page does not scroll under the map
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const r = camera.svgRect();
      camera.zoomAt(wheelZoomFactor(event, r.height || 600), event.clientX - r.left, event.clientY - r.top, true);
    };

    svg.addEventListener('pointerdown', onPointerDown);
    svg.addEventListener('pointermove', onPointerMove);
    svg.addEventListener('pointerup', onPointerEnd);
    svg.addEventListener('pointercancel', onPointerEnd);
    svg.addEventListener('click', onClick, { capture: true });
    svg.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      svg.removeEventListener('pointerdown', onPointerDown);
      svg.removeEventListener('pointermove', onPointerMove);
      svg.removeEventListener('pointerup', onPointerEnd);
      svg.removeEventListener('pointercancel', onPointerEnd);
      svg.removeEventListener('click', onClick, { capture: true });
      svg.removeEventListener('wheel', onWheel);
    };
  }, [svgRef, camera, onPick]);
}
