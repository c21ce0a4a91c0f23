// Legends of the active layers, drawn as a strip over the bottom of the map so
// the key stays in sight next to the colours it explains. The strip collapses
// to one button, and the viewer's "fit" keeps the floor clear of it. On a
// narrow map the strip is one compact card: a tab per legend, the chosen
// legend's colours in a line that wraps (docs/ui.md "Legends on narrow maps").

import { forwardRef, useEffect, useEffectEvent, useLayoutEffect, useRef, useState } from 'react';
import { useRovingTabs } from '../hooks/useRovingTabs.js';
import { COMPACT_SCREEN, useMediaQuery } from '../hooks/useMediaQuery.js';
import type { Legend } from '../../shared/api.js';
import type { MapLayer } from '../../shared/constants.js';
import type { StatusKind } from '../../shared/kinds.js';
import { STATUS_MARK_COLOR, statusMarkShape } from '../lib/statusMark.js';

/** A legend in the narrow map's card: its colours in one line that wraps; its caption hidden when a tab names it. */
interface CardPlace {
  captionHidden: boolean;
}

function cardProps(card: CardPlace | undefined) {
  if (!card) return { className: 'legend', captionClass: undefined };
  return { className: 'legend legend-inline', captionClass: card.captionHidden ? 'visually-hidden' : undefined };
}

export function LegendView({ legend, card }: { legend: Legend; card?: CardPlace }) {
  const { captionClass, ...props } = cardProps(card);
  return (
    <figure {...props} aria-label={`Legend: ${legend.title}`}>
      <figcaption className={captionClass}>
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
export function StatusMarksLegend({ card }: { card?: CardPlace }) {
  const { captionClass, ...props } = cardProps(card);
  return (
    <figure {...props} aria-label="Legend: Desk status marks">
      <figcaption className={captionClass}>Desk status marks</figcaption>
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
  /** the map is narrow: one compact card with a tab per legend instead of the strip of legends */
  narrow?: boolean;
}

/** The map is narrow below this width or height, px (docs/ui.md "Legends on narrow maps"). */
export const NARROW_MAP_WIDTH_PX = 800;
export const NARROW_MAP_HEIGHT_PX = 500;
const MARKS_KEY = 'marks';

export const MapLegends = forwardRef<HTMLDivElement, MapLegendsProps>(function MapLegends({ legends, active, onResize, narrow = false }, ref) {
  // on a phone-size screen the legends would cover a third of the map: they start folded there
  const compact = useMediaQuery(COMPACT_SCREEN);
  const [collapsed, setCollapsed] = useState(compact);
  const on = new Set(active);
  const shown = legends.filter((l) => on.has(l.layer));
  // the marks' own key only when no legend already shows them next to their colours
  const marks = MARKED_LAYERS.some((layer) => on.has(layer)) && !shown.some((l) => l.stops.some((s) => s.mark));
  const count = shown.length + (marks ? 1 : 0);
  const keys: string[] = [...shown.map((l) => l.layer), ...(marks ? [MARKS_KEY] : [])];
  // the narrow card shows one legend: the one chosen, or the layer the person switched on last (its key comes to
  // the front once the floor view has it), else the first
  const [chosen, setChosen] = useState<string | null>(null);
  const before = useRef<readonly MapLayer[] | null>(null);
  const layersChanged = useEffectEvent(() => {
    const added = before.current ? active.filter((l) => !before.current!.includes(l)) : [];
    before.current = active;
    if (added.length) setChosen(added[added.length - 1]!);
  });
  const activeList = active.join(',');
  useEffect(() => layersChanged(), [activeList]);
  const current = chosen !== null && keys.includes(chosen) ? chosen : keys[0] ?? '';
  const tabs = useRovingTabs({ ids: keys, selected: current, automatic: true, onSelect: setChosen });
  const shape = `${collapsed}|${count}|${narrow ? `narrow:${current}` : 'wide'}|${shown.map((l) => `${l.layer}:${l.stops.length}`).join(',')}`;
  // the strip's size changes with its shape only; a new onResize callback is not a resize
  const resized = useEffectEvent(() => onResize?.());
  useLayoutEffect(() => {
    resized();
  }, [shape]);
  if (!count) return null;
  const toggle = (
    <button type="button" className="legend-toggle" aria-expanded={!collapsed} onClick={() => setCollapsed(!collapsed)}>
      {collapsed ? `Show legends (${count})` : 'Hide legends'}
    </button>
  );
  if (narrow && !collapsed) {
    const titleOf = (key: string) => {
      if (key === MARKS_KEY) return 'Desk status marks';
      const l = shown.find((x) => x.layer === key)!;
      return l.unit ? `${l.title} (${l.unit})` : l.title;
    };
    const legend = shown.find((l) => l.layer === current);
    const panelId = `legend-${current}`;
    const card: CardPlace = { captionHidden: keys.length > 1 };
    return (
      <div className="map-legends narrow" ref={ref} role="region" aria-label="Legends">
        <div className="legend-card">
          <div className="legend-card-head">
            {keys.length > 1 ? (
              <div role="tablist" aria-label="Legends" className="legend-tabs" {...tabs.listProps}>
                {keys.map((key) => (
                  <button
                    key={key}
                    type="button"
                    role="tab"
                    id={`legend-${key}-tab`}
                    aria-selected={key === current}
                    aria-controls={key === current ? panelId : undefined}
                    onClick={() => setChosen(key)}
                    {...tabs.tabProps(key)}
                  >
                    {titleOf(key)}
                  </button>
                ))}
              </div>
            ) : null}
            {toggle}
          </div>
          <div role={keys.length > 1 ? 'tabpanel' : undefined} id={panelId} aria-labelledby={keys.length > 1 ? `${panelId}-tab` : undefined}>
            {legend ? <LegendView legend={legend} card={card} /> : <StatusMarksLegend card={card} />}
          </div>
        </div>
      </div>
    );
  }
  return (
    <div className={`map-legends${collapsed ? ' collapsed' : ''}`} ref={ref} role="region" aria-label="Legends">
      {toggle}
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
