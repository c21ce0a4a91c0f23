// Which map layers (spec §2) an asset is drawn on, by its type, subtype and
// sensors. docs/engine.md has the table. Desks and lockers are 'shape' assets
// told apart by subtype or categories.shape, since the spec has no desk type.

import type { MapLayer } from '../../shared/constants.js';
import { isSensorLayer, RESERVATION_SENSOR_TYPE, type AssetKind } from '../../shared/kinds.js';
import type { Asset, Sensor } from '../../shared/types.js';

const NOT_DRAWN = new Set(['building', 'floor']);

/** The most distinct layer lists kept shared; past it a list is kept as made (bounded by odd data, not by assets). */
const MAX_SHARED_LAYER_LISTS = 512;
const sharedLayerLists = new Map<string, readonly MapLayer[]>();

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

const KIND_LAYERS: Record<AssetKind, readonly MapLayer[]> = {
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

/**
 * One array for each distinct list of layers: thousands of desks are drawn on the same few lists, so
 * their facts and draw states hold one array between them, not one each (issue 14: the floor view's
 * memory per drawn asset). Typed readonly, not frozen: `includes` on frozen arrays cost the ingest mix
 * ~9 % in alternating processes (docs/bench.md "The floor view's memory under 2 KB").
 */
export function sharedLayers(list: readonly MapLayer[]): readonly MapLayer[] {
  const key = list.join(',');
  const shared = sharedLayerLists.get(key);
  if (shared) return shared;
  if (sharedLayerLists.size < MAX_SHARED_LAYER_LISTS) sharedLayerLists.set(key, list);
  return list;
}

/** The layers of `layers` the view shows: the shared list itself when it shows them all. */
export function shownLayers(layers: readonly MapLayer[], shown: ReadonlySet<MapLayer>): readonly MapLayer[] {
  let all = true;
  for (const l of layers) if (!shown.has(l)) { all = false; break; }
  return all ? layers : sharedLayers(layers.filter((l) => shown.has(l)));
}

/** a kind's own layers: the shared list of every asset of that kind drawn on nothing more */
const BASE_LAYERS = Object.fromEntries(Object.entries(KIND_LAYERS).map(([kind, list]) => [kind, sharedLayers(list)])) as
  Readonly<Record<AssetKind, readonly MapLayer[]>>;

/**
 * The asset's layers without duplicates: its kind's, then a room's reservations, a mesh device's mesh, and
 * the environment layers its sensors read (the finder turns the first one on). One shared array per
 * distinct list (never to be changed); an asset with nothing beyond its kind's layers (most desks) gets its kind's list as is.
 */
export function layersOf(kind: AssetKind, asset: Pick<Asset, 'subtype' | 'capabilities'>, sensors: readonly Sensor[]): readonly MapLayer[] {
  const base = BASE_LAYERS[kind];
  let layers: Set<MapLayer> | null = null;
  if (kind === 'room' && sensors.some((s) => s.type === RESERVATION_SENSOR_TYPE)) (layers ??= new Set(base)).add('room_reservation');
  if (kind === 'sensor' && (MESH_SUBTYPES.has(asset.subtype ?? '') || asset.capabilities.includes('mesh'))) (layers ??= new Set(base)).add('mesh');
  for (const s of sensors) {
    if (isSensorLayer(s.type)) {
      layers ??= new Set(base);
      layers.add(s.type);
      layers.add('all_sensors');
    }
  }
  return layers ? sharedLayers([...layers]) : base;
}
