// Which map layers (spec §2) an asset is drawn on, by its type, subtype and
// sensors. docs/engine.md has the table. Desks and lockers are 'shape' assets
// told apart by subtype or categories.shape, since the spec has no desk type.

import type { MapLayer } from '../../shared/constants.js';
import { isSensorLayer, RESERVATION_SENSOR_TYPE, type AssetKind } from '../../shared/kinds.js';
import type { Asset, Sensor } from '../../shared/types.js';

const NOT_DRAWN = new Set(['building', 'floor']);

export function assetKind(asset: Pick<Asset, 'type' | 'subtype' | 'categories'>): AssetKind | null {
  if (NOT_DRAWN.has(asset.type)) return null;
  const shape = typeof asset.categories?.shape === 'string' ? asset.categories.shape : null;
  if (asset.type === 'desk' || asset.subtype === 'desk' || shape === 'desk') return 'desk';
  if (asset.type === 'locker' || asset.subtype === 'locker' || shape === 'locker') return 'locker';
  switch (asset.type) {
    case 'room': return 'room';
    case 'zone': case 'zone_auto': return 'zone';
    case 'floor_outline': return 'floor_outline';
    case 'floor_hole': return 'floor_hole';
    case 'portal': return 'portal';
    case 'employee': return 'employee';
    case 'auto_tag': return 'auto_tag';
    case 'ticket': return 'ticket';
    case 'voice': return 'voice';
    case 'container': return 'container';
    case 'sensor': return 'sensor';
    case 'shape': return 'shape';
    default: return 'other';
  }
}

const BASE_LAYERS: Record<AssetKind, readonly MapLayer[]> = {
  floor_outline: ['floorplan'],
  floor_hole: ['floorplan'],
  shape: ['floorplan'],
  room: ['rooms', 'report'],
  zone: ['zones'],
  desk: ['desks', 'desk_usage', 'report'],
  locker: ['lockers'],
  portal: ['info'],
  container: ['info'],
  other: ['info'],
  voice: ['info'],
  ticket: ['info', 'service'],
  employee: ['co-workers', 'co-workers-heatmap'],
  auto_tag: ['co-workers', 'co-workers-heatmap'],
  sensor: ['devices', 'monitoring', 'all_sensors'],
};

const MESH_SUBTYPES = new Set(['mesh', 'gateway', 'router']);

/** Layers in MAP_LAYERS order without duplicates. */
export function layersOf(kind: AssetKind, asset: Pick<Asset, 'subtype' | 'capabilities'>, sensors: readonly Sensor[]): MapLayer[] {
  const layers = new Set<MapLayer>(BASE_LAYERS[kind]);
  if (kind === 'room' && sensors.some((s) => s.type === RESERVATION_SENSOR_TYPE)) layers.add('room_reservation');
  if (kind === 'sensor' && (MESH_SUBTYPES.has(asset.subtype ?? '') || asset.capabilities.includes('mesh'))) layers.add('mesh');
  for (const s of sensors) {
    if (isSensorLayer(s.type)) {
      layers.add(s.type);
      layers.add('all_sensors');
    }
  }
  return [...layers];
}
