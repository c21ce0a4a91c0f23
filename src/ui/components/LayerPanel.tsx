// The layer panel: every map layer of spec §2 as a checkbox in its group
// (defaults come from DEFAULT_LAYERS via the deep link). The legends of the
// active layers are drawn over the map (MapLegends.tsx).

import { MAP_LAYERS, type MapLayer } from '../../shared/constants.js';
import { SENSOR_LAYER_TITLES } from '../../shared/kinds.js';

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
  tvoc: SENSOR_LAYER_TITLES.tvoc,
  temperature: SENSOR_LAYER_TITLES.temperature,
  humidity: SENSOR_LAYER_TITLES.humidity,
  co2: SENSOR_LAYER_TITLES.co2,
  illuminance: SENSOR_LAYER_TITLES.illuminance,
  pressure: SENSOR_LAYER_TITLES.pressure,
  loudness: SENSOR_LAYER_TITLES.loudness,
  satisfaction: SENSOR_LAYER_TITLES.satisfaction,
  stress: SENSOR_LAYER_TITLES.stress,
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
  /** active layers that draw nothing on this floor: said next to their switch */
  empty?: ReadonlySet<MapLayer>;
}

export function LayerPanel({ active, onChange, unavailable, empty }: LayerPanelProps) {
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
              <div key={layer} className="layer-row">
                <label className="layer-toggle">
                  <input
                    type="checkbox"
                    name={layer}
                    checked={on.has(layer)}
                    onChange={(e) => toggle(layer, e.target.checked)}
                    aria-describedby={empty?.has(layer) ? `layer-empty-${layer}` : undefined}
                  />
                  {LAYER_LABELS[layer]}
                </label>
                {empty?.has(layer) ? (
                  <span className="layer-empty" id={`layer-empty-${layer}`}>
                    none on this floor
                  </span>
                ) : null}
              </div>
            ))}
        </fieldset>
      ))}
    </section>
  );
}
