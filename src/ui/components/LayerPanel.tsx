// The layer panel: every map layer of spec §2 as a checkbox (defaults come
// from DEFAULT_LAYERS via the deep link), the legends of the active scale-
// coloured layers, with words next to every colour.

import type { Legend } from '../../shared/api.js';
import { MAP_LAYERS, type MapLayer } from '../../shared/constants.js';
import type { StatusKind } from '../../shared/kinds.js';
import { STATUS_MARK_COLOR, statusMarkShape } from '../lib/statusMark.js';

export const LAYER_LABELS: Record<MapLayer, string> = {
  floorplan: 'Floor plan',
  info: 'Info labels',
  zones: 'Zones',
  rooms: 'Rooms',
  room_reservation: 'Room reservations',
  desks: 'Desks',
  desk_usage: 'Desk usage',
  'co-workers': 'Co-workers',
  'co-workers-heatmap': 'Co-worker heatmap',
  lockers: 'Lockers',
  tvoc: 'TVOC',
  temperature: 'Temperature',
  humidity: 'Humidity',
  co2: 'CO₂',
  illuminance: 'Illuminance',
  pressure: 'Pressure',
  loudness: 'Loudness',
  satisfaction: 'Satisfaction',
  stress: 'Stress',
  service: 'Service tickets',
  devices: 'Devices',
  monitoring: 'Monitoring',
  mesh: 'Mesh network',
  all_sensors: 'All sensors',
  report: 'Report',
};

export const LAYER_GROUPS: Array<{ title: string; layers: MapLayer[] }> = [
  { title: 'Base', layers: ['floorplan', 'info', 'zones', 'rooms', 'room_reservation'] },
  { title: 'Workplace', layers: ['desks', 'desk_usage', 'lockers', 'co-workers', 'co-workers-heatmap'] },
  { title: 'Environment', layers: ['tvoc', 'temperature', 'humidity', 'co2', 'illuminance', 'pressure', 'loudness'] },
  { title: 'Feedback', layers: ['satisfaction', 'stress', 'service'] },
  { title: 'Devices', layers: ['devices', 'monitoring', 'mesh', 'all_sensors', 'report'] },
];

export interface LayerPanelProps {
  active: readonly MapLayer[];
  onChange(layers: MapLayer[]): void;
  /** layers this user may not see (e.g. report below the configured role) */
  unavailable?: ReadonlySet<MapLayer>;
}

export function LegendView({ legend }: { legend: Legend }) {
  return (
    <figure className="legend" aria-label={`Legend: ${legend.title}`}>
      <figcaption>
        {legend.title}
        {legend.unit ? ` (${legend.unit})` : ''}
      </figcaption>
      <ul>
        {legend.stops.map((stop, i) => (
          <li key={`${stop.value}-${i}`}>
            <span className="swatch" style={{ background: stop.color }} aria-hidden="true" />
            {stop.label}
          </li>
        ))}
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

/**
 * Legends of the active scale-coloured layers, drawn over the map so the key
 * stays in sight next to the colours it explains.
 */
export function MapLegends({ legends, active }: { legends: readonly Legend[]; active: readonly MapLayer[] }) {
  const on = new Set(active);
  const shown = legends.filter((l) => on.has(l.layer));
  const marks = MARKED_LAYERS.some((layer) => on.has(layer));
  if (!shown.length && !marks) return null;
  return (
    <div className="map-legends" aria-label="Legends">
      {shown.map((legend) => (
        <LegendView key={legend.layer} legend={legend} />
      ))}
      {marks ? <StatusMarksLegend /> : null}
    </div>
  );
}

export function LayerPanel({ active, onChange, unavailable }: LayerPanelProps) {
  const on = new Set(active);
  const toggle = (layer: MapLayer, checked: boolean) => {
    const next = new Set(on);
    if (checked) next.add(layer);
    else next.delete(layer);
    onChange(MAP_LAYERS.filter((l) => next.has(l)));
  };
  return (
    <section className="layer-panel" aria-label="Map layers">
      <h2>Layers</h2>
      {LAYER_GROUPS.map((group) => (
        <fieldset key={group.title}>
          <legend>{group.title}</legend>
          {group.layers
            .filter((layer) => !unavailable?.has(layer))
            .map((layer) => (
              <label key={layer} className="layer-toggle">
                <input
                  type="checkbox"
                  name={layer}
                  checked={on.has(layer)}
                  onChange={(e) => toggle(layer, e.target.checked)}
                />
                {LAYER_LABELS[layer]}
              </label>
            ))}
        </fieldset>
      ))}
    </section>
  );
}
