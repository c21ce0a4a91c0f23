// Builds one demo location: buildings of floors (one hidden plant floor),
// rooms with reservation and occupancy sensors, zones of every kind, desks,
// lockers, linked portals (passages between buildings), environment and other layer sensors, their
// history, and the generated floor-plan images.

import { randomBytes } from 'node:crypto';
import { DEFAULT_BUILDING_OFFSET, FLOOR_DEFAULT_HEIGHT } from '../../src/shared/constants.js';
import type { WireAsset } from '../../src/shared/rest.js';
import type { Id } from '../../src/shared/types.js';
import type { Store } from '../store/store.js';
import { floorPlanSvg, planFloor, rectOutline, type FloorPlan, type Rect } from './floorLayout.js';
import type { Prng } from './prng.js';
import { ENVIRONMENT_TYPES, OTHER_SENSOR_LAYERS, SENSOR_UNITS } from './sensorValues.js';

export const ZONE_KINDS = ['generic', 'communication', 'collaboration', 'concentration', 'chilling'] as const;
/** air sensors in every meeting room, so the environment report has rooms to rank */
export const ROOM_AIR_TYPES = ['co2', 'temperature', 'humidity'] as const;

export interface LocationSpec {
  organizationId: Id;
  name: string;
  timezone: string;
  latitude: number;
  longitude: number;
  buildings: number;
  floorsPerBuilding: number;
  desks: number;
  /** total sensors wanted; environment sensor assets are added until reached */
  sensors: number;
}

export interface SeededFloor {
  floor: WireAsset;
  buildingIndex: number;
  plan: FloorPlan;
  zones: Array<{ asset: WireAsset; rect: Rect }>;
}

export interface SeededLocation {
  locationId: Id;
  floors: SeededFloor[];
  rooms: WireAsset[];
}

export function seedLocation(store: Store, rng: Prng, spec: LocationSpec): SeededLocation {
  const loc = store.createLocation(spec.organizationId, {
    name: spec.name, timezone: spec.timezone, latitude: spec.latitude, longitude: spec.longitude,
  });
  const floorsTotal = spec.buildings * spec.floorsPerBuilding;
  const desksPerFloor = Math.max(1, Math.ceil(spec.desks / floorsTotal));
  const envPerFloor = Math.max(1, Math.ceil(desksPerFloor / 25));
  const floors: SeededFloor[] = [];
  const rooms: WireAsset[] = [];
  let desksLeft = spec.desks;
  const add = (body: Partial<WireAsset>) => store.createAsset(loc.id, body, null);
  const sensorFor = (asset: WireAsset, type: string, subtype: string | null = null) => {
    const sensor = store.createSensor(loc.id, { type, subtype, asset_id: asset.id, unit: SENSOR_UNITS[type] ?? null, vendor_id: `demo-${type}` });
    asset.data_providers.push(sensor.id);
    asset.data_provider_refs[type] = sensor.id;
    return sensor;
  };

  for (let b = 0; b < spec.buildings; b += 1) {
    const building = add({
      type: 'building', name: `${spec.name} ${String.fromCharCode(65 + b)}`, location_offset: [DEFAULT_BUILDING_OFFSET * b, 0],
      latitude: spec.latitude + b * 0.0005, longitude: spec.longitude, floors: [], default_floor: 0,
    });
    const floorCount = spec.floorsPerBuilding + (b === 0 ? 1 : 0);
    const buildingFloors: SeededFloor[] = [];
    for (let f = 0; f < floorCount; f += 1) {
      const hidden = f === spec.floorsPerBuilding; // the plant floor on top of building A
      const deskCount = hidden ? 0 : Math.min(desksLeft, desksPerFloor);
      desksLeft -= deskCount;
      const plan = planFloor(deskCount, hidden ? 0 : envPerFloor);
      const floor = add({
        type: 'floor', name: hidden ? 'Plant room' : `Floor ${f}`, parent_id: building.id, hidden,
        height: FLOOR_DEFAULT_HEIGHT, building_relative_index: f, building_relative_z: f * FLOOR_DEFAULT_HEIGHT,
        outline: rectOutline({ x: 0, y: 0, w: plan.width, d: plan.depth }),
      });
      // an unguessable name: files are served without a token, and a hidden floor's plan must not answer a guess
      floor.floor_plan_img_path = `floorplans/${floor.id}-${randomBytes(12).toString('hex')}.svg`;
      const seeded = populateFloor(rng, floor, plan, add, sensorFor, rooms);
      store.files.set(floor.floor_plan_img_path, {
        contentType: 'image/svg+xml', data: Buffer.from(floorPlanSvg(plan, `${building.name} ${floor.name}`)),
      });
      buildingFloors.push({ floor, buildingIndex: b, plan, zones: seeded });
    }
    linkPortals(store, buildingFloors);
    floors.push(...buildingFloors);
  }

  // top up with environment sensor assets until the wanted sensor count is reached
  const visible = floors.filter((f) => !f.floor.hidden);
  let count = [...store.sensors.values()].filter((s) => s.location_id === loc.id).length;
  for (let i = 0; count < spec.sensors; i += 1) {
    const target = visible[i % visible.length]!;
    const asset = add({
      type: 'sensor', subtype: 'environment', name: `Air ${i + 1}`, parent_id: target.floor.id,
      x: rng.range(2, target.plan.width - 2), y: rng.range(2, target.plan.depth - 2), default_sensor_type: 'co2',
    });
    for (const type of ENVIRONMENT_TYPES) {
      if (count >= spec.sensors) break;
      sensorFor(asset, type);
      count += 1;
    }
  }

  linkBuildings(floors, add);
  return { locationId: loc.id, floors, rooms };
}

/** a passage on each building's ground floor leads to every other building's (wayfinding across buildings) */
function linkBuildings(floors: SeededFloor[], add: AddAsset): void {
  const grounds = floors.filter((f) => f.floor.building_relative_index === 0);
  if (grounds.length < 2) return;
  const passages = grounds.map((g) => add({
    type: 'portal', subtype: 'passage', name: 'Passage', parent_id: g.floor.id, x: 1.5, y: g.plan.depth - 1.5,
  }));
  for (const p of passages) p.targets = passages.filter((q) => q !== p).map((q) => q.id);
}

type AddAsset = (body: Partial<WireAsset>) => WireAsset;
type SensorFor = (asset: WireAsset, type: string, subtype?: string | null) => unknown;

function populateFloor(
  rng: Prng, floor: WireAsset, plan: FloorPlan, add: AddAsset, sensorFor: SensorFor, rooms: WireAsset[],
): Array<{ asset: WireAsset; rect: Rect }> {
  const on = { parent_id: floor.id };
  add({ ...on, type: 'floor_outline', name: 'Outline', outline: rectOutline({ x: 0, y: 0, w: plan.width, d: plan.depth }) });
  add({ ...on, type: 'floor_hole', name: 'Light well', outline: rectOutline(plan.hole) });
  add({ ...on, type: 'zone_auto', name: 'Meeting wing', outline: rectOutline({ x: 0, y: 0, w: plan.width, d: 7 }) });
  if (floor.hidden) return [];
  const zones = plan.zones.map((rect, i) => {
    const kind = i < ZONE_KINDS.length ? ZONE_KINDS[i]! : 'privacy';
    const asset = add({ ...on, type: 'zone', subtype: kind, name: kind === 'privacy' ? 'Quiet booths (private)' : `${kind} zone`, outline: rectOutline(rect) });
    return { asset, rect };
  });
  plan.rooms.forEach((rect, i) => {
    const room = add({
      ...on, type: 'room', subtype: 'meeting', name: `${floor.name.replace('Floor ', 'F')}-R${i + 1}`, outline: rectOutline(rect),
      x: rect.x + rect.w / 2, y: rect.y + rect.d / 2, default_sensor_type: 'reservation',
      config: { capacity: rng.pick([4, 6, 8, 10]) }, popup_type: 'room',
    });
    sensorFor(room, 'reservation');
    sensorFor(room, 'occupancy');
    rooms.push(room);
    const air = add({ ...on, type: 'sensor', subtype: 'environment', name: `${room.name} air`, x: rect.x + rect.w - 0.8, y: rect.y + 0.8, default_sensor_type: 'co2' });
    for (const type of ROOM_AIR_TYPES) sensorFor(air, type);
  });
  plan.desks.forEach(([x, y], i) => {
    const desk = add({
      ...on, type: 'shape', subtype: 'desk', name: `Desk ${floor.name.replace('Floor ', '')}.${i + 1}`, x, y,
      width: 1.6, depth: 0.8, categories: { shape: 'desk' }, default_sensor_type: 'occupancy',
      unpublished: i === plan.desks.length - 1 && plan.desks.length > 3,
    });
    sensorFor(desk, 'occupancy');
  });
  plan.lockers.forEach(([x, y], i) => {
    const locker = add({
      ...on, type: 'container', subtype: 'locker', name: `Locker ${i + 1}`, x, y, width: 1, depth: 0.6,
      categories: { shape: 'locker' }, default_sensor_type: 'occupancy', timeout_action: 'missing',
    });
    sensorFor(locker, 'occupancy');
  });
  add({ ...on, type: 'portal', subtype: 'stairs', name: 'Stairs', x: plan.stairs[0], y: plan.stairs[1] });
  add({ ...on, type: 'portal', subtype: 'elevator', name: 'Lift', x: plan.elevator[0], y: plan.elevator[1] });
  plan.envSensors.forEach(([x, y], i) => {
    const asset = add({ ...on, type: 'sensor', subtype: 'environment', name: `Air ${floor.id}-${i + 1}`, x, y, default_sensor_type: 'co2' });
    for (const type of ENVIRONMENT_TYPES) sensorFor(asset, type);
  });
  OTHER_SENSOR_LAYERS.forEach((type, i) => {
    const asset = add({
      ...on, type: 'sensor', subtype: type, name: `${type} sensor`, x: 3 + i * 1.5, y: plan.depth - 2, default_sensor_type: type,
    });
    sensorFor(asset, type);
  });
  return zones;
}

/** stairs and lifts of consecutive floors target each other */
function linkPortals(store: Store, floors: SeededFloor[]): void {
  for (const subtype of ['stairs', 'elevator']) {
    const portals = floors.map((f) =>
      [...store.assets.values()].find((a) => a.type === 'portal' && a.subtype === subtype && a.parent_id === f.floor.id));
    portals.forEach((p, i) => {
      if (!p) return;
      p.targets = [portals[i - 1]?.id, portals[i + 1]?.id].filter((id): id is Id => !!id);
    });
  }
}
