// Where a ticket or voice being written goes: a pin on the floor at the
// form's point (the view centre until a place is picked), so the words
// "placed at" have something to point at. World coordinates, inside the
// viewer's transform, like the route; it takes no pointer, so a click still
// reaches the asset under it or picks the place. Also the keyboard's marker
// while a place is picked (hooks/useKeyboardPick.ts).

import { svgY } from '../lib/viewport.js';

export function PlacePin({ point, label }: { point: { x: number; y: number }; label: string }) {
  return (
    <g className="place-pin" transform={`translate(${point.x} ${svgY(point.y)})`} data-x={point.x} data-y={point.y} role="img" aria-label={label}>
      <path d="M0 0 C -0.3 -0.55 -0.7 -0.85 -0.7 -1.35 A 0.7 0.7 0 1 1 0.7 -1.35 C 0.7 -0.85 0.3 -0.55 0 0 Z" />
      <circle cx={0} cy={-1.35} r={0.27} />
    </g>
  );
}

/**
 * The keyboard's marker while a place is picked: a crosshair drawn at the same
 * size on screen at any zoom (scaled by 1 / the zoom it is drawn for).
 */
export function PickMarker({ point, zoom }: { point: { x: number; y: number }; zoom: number }) {
  return (
    <g className="pick-marker" transform={`translate(${point.x} ${svgY(point.y)}) scale(${1 / zoom})`} data-x={point.x} data-y={point.y} aria-hidden="true">
      {['halo', 'line'].map((part) => (
        <g key={part} className={`pick-marker-${part}`}>
          <circle r={11} />
          <path d="M-20 0H-6M6 0H20M0 -20V-6M0 6V20" />
        </g>
      ))}
      <circle className="pick-marker-dot" r={2.5} />
    </g>
  );
}
