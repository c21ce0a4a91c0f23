// The route drawn on the floor shown (docs/wayfinding.md): each walk on this
// floor as a dashed line, numbered circles where each step begins, and where
// a floor change arrives. World coordinates, inside the viewer's transform.

import type { RouteView } from '../../../shared/api.js';
import { svgY } from '../../lib/viewport.js';

export function RouteOverlay({ route, floorId }: { route: RouteView; floorId: string }) {
  const steps = route.steps;
  const walks = steps.filter((s) => s.kind === 'walk' && s.floorId === floorId);
  const starts = steps.filter((s) => s.floorId === floorId);
  const arrivals = steps.filter((s) => s.kind === 'change' && s.toFloorId === floorId);
  if (starts.length === 0 && arrivals.length === 0) return null;
  return (
    <g className="route-overlay" aria-label="Route on this floor" data-steps={starts.map((s) => s.n).join(',')}>
      {walks.map((s) => (
        <line key={`w${s.n}`} className="route-line" x1={s.from[0]} y1={svgY(s.from[1])} x2={s.to[0]} y2={svgY(s.to[1])} />
      ))}
      {arrivals.map((s) => (
        <circle key={`a${s.n}`} className="route-arrival" cx={s.to[0]} cy={svgY(s.to[1])} r={0.9} />
      ))}
      {starts.map((s) => (
        <g key={`n${s.n}`} className="route-step" data-step={s.n} transform={`translate(${s.from[0]} ${svgY(s.from[1])})`}>
          <circle r={0.9} />
          <text textAnchor="middle" dominantBaseline="central">{s.n}</text>
          <title>{`${s.n}. ${s.text}`}</title>
        </g>
      ))}
    </g>
  );
}
