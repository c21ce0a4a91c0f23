// Where a ticket or voice being written goes: a pin on the floor at the
// form's point (the view centre until a place is picked), so the words
// "placed at" have something to point at. World coordinates, inside the
// viewer's transform, like the route; it takes no pointer, so a click still
// reaches the asset under it or picks the place.

import { svgY } from '../lib/viewport.js';

export function PlacePin({ point, label }: { point: { x: number; y: number }; label: string }) {
  return (
    <g className="place-pin" transform={`translate(${point.x} ${svgY(point.y)})`} data-x={point.x} data-y={point.y} role="img" aria-label={label}>
      <path d="M0 0 C -0.3 -0.55 -0.7 -0.85 -0.7 -1.35 A 0.7 0.7 0 1 1 0.7 -1.35 C 0.7 -0.85 0.3 -0.55 0 0 Z" />
      <circle cx={0} cy={-1.35} r={0.27} />
    </g>
  );
}
