// Legends of the active layers, drawn as a strip over the bottom of the map so
// the key stays in sight next to the colours it explains. The strip collapses
// to one button, and the viewer's "fit" keeps the floor clear of it.

import { forwardRef, useEffectEvent, useLayoutEffect, useState } from 'react';
import { COMPACT_SCREEN, useMediaQuery } from '../hooks/useMediaQuery.js';
import type { Legend } from '../../shared/api.js';
import type { MapLayer } from '../../shared/constants.js';
import type { StatusKind } from '../../shared/kinds.js';
import { STATUS_MARK_COLOR, statusMarkShape } from '../lib/statusMark.js';

export function LegendView({ legend }: { legend: Legend }) {
  return (
    <figure className="legend" aria-label={`Legend: ${legend.title}`}>
      <figcaption>
        {legend.title}
        {legend.unit ? ` (${legend.unit})` : ''}
      </figcaption>
      <ul>
        {legend.stops.map((stop, i) => {
          const mark = stop.mark ? statusMarkShape(stop.mark, 2, 2) : null;
          return (
            <li key={`${stop.value}-${i}`}>
              {mark ? (
                <svg className="swatch" viewBox="-1 -1 2 2" aria-hidden="true" style={{ background: stop.color }}>
                  <path d={mark.d} stroke={STATUS_MARK_COLOR} strokeWidth={mark.strokeWidth} fill="none" />
                </svg>
              ) : (
                <span className="swatch" style={{ background: stop.color }} aria-hidden="true" />
              )}
              {stop.label}
            </li>
          );
        })}
      </ul>
    </figure>
  );
}

/** Layers whose assets carry the status marks of lib/statusMark.ts. */
const MARKED_LAYERS: readonly MapLayer[] = ['desks', 'desk_usage', 'lockers'];

const MARK_WORDS: ReadonlyArray<[StatusKind, string]> = [
  ['busy', 'Busy (occupied, short break)'],
  ['booked', 'Booked (reserved)'],
  ['attention', 'Needs attention (to be cleared, battery low)'],
  ['unknown', 'No recent data'],
];

/** Key of the non-colour marks drawn on desks and lockers when zoomed in. */
export function StatusMarksLegend() {
  return (
    <figure className="legend" aria-label="Legend: Desk status marks">
      <figcaption>Desk status marks</figcaption>
      <ul>
        {MARK_WORDS.map(([kind, words]) => {
          const mark = statusMarkShape(kind, 2, 2)!;
          return (
            <li key={kind}>
              <svg className="swatch" viewBox="-1 -1 2 2" aria-hidden="true">
                <path d={mark.d} stroke={STATUS_MARK_COLOR} strokeWidth={mark.strokeWidth} fill="none" />
              </svg>
              {words}
            </li>
          );
        })}
      </ul>
    </figure>
  );
}

export interface MapLegendsProps {
  legends: readonly Legend[];
  active: readonly MapLayer[];
  /** the strip changed size (layers switched, folded): a fitted floor is fitted again, clear of it */
  onResize?(): void;
}

export const MapLegends = forwardRef<HTMLDivElement, MapLegendsProps>(function MapLegends({ legends, active, onResize }, ref) {
  // on a phone-size screen the legends would cover a third of the map: they start folded there
  const compact = useMediaQuery(COMPACT_SCREEN);
  const [collapsed, setCollapsed] = useState(compact);
  const on = new Set(active);
  const shown = legends.filter((l) => on.has(l.layer));
  // the marks' own key only when no legend already shows them next to their colours
  const marks = MARKED_LAYERS.some((layer) => on.has(layer)) && !shown.some((l) => l.stops.some((s) => s.mark));
  const count = shown.length + (marks ? 1 : 0);
  const shape = `${collapsed}|${count}|${shown.map((l) => `${l.layer}:${l.stops.length}`).join(',')}`;
  // the strip's size changes with its shape only; a new onResize callback is not a resize
  const resized = useEffectEvent(() => onResize?.());
  useLayoutEffect(() => {
    resized();
  }, [shape]);
  if (!count) return null;
  return (
    <div className={`map-legends${collapsed ? ' collapsed' : ''}`} ref={ref} role="region" aria-label="Legends">
      <button type="button" className="legend-toggle" aria-expanded={!collapsed} onClick={() => setCollapsed(!collapsed)}>
        {collapsed ? `Show legends (${count})` : 'Hide legends'}
      </button>
      {collapsed ? null : (
        <>
          {shown.map((legend) => (
            <LegendView key={legend.layer} legend={legend} />
          ))}
          {marks ? <StatusMarksLegend /> : null}
        </>
      )}
    </div>
  );
});
