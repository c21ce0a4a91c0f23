// Normalizers of the site structure (spec §3): organizations, locations,
// buildings and floors, with the §3/§9 defaults (floor height 2.8,
// default_floor 0, north_vector 0, location_offset 80 × building index).

import { DEFAULT_BUILDING_OFFSET, FLOOR_DEFAULT_HEIGHT } from '../constants.js';
import type { Building, Floor, Id, Location, Organization, Vec2 } from '../types.js';
import {
  isRecord, toBool, toConfig, toId, toIntOrNull, toNum, toNumOrNull, toNumberTuple,
  toPositive, toStr, toStrOrNull, type NormalizeContext,
} from './primitives.js';
import { identifiedRecord } from './list.js';
import { normalizeOutline } from './geometry.js';

export function normalizeOrganization(raw: unknown, ctx: NormalizeContext): Organization | null {
  const got = identifiedRecord(raw, 'organization', ctx);
  if (!got) return null;
  const { r, id } = got;
  const locationsMap: Organization['locations_map'] = {};
  if (isRecord(r.locations_map)) {
    for (const [key, value] of Object.entries(r.locations_map)) {
      const info = isRecord(value) ? value : {};
      locationsMap[key] = { id: toId(info.id) ?? key, name: toStr(info.name) };
    }
  }
  // `locations` may be ids or embedded location objects
  const locations = Array.isArray(r.locations)
    ? r.locations.map((l) => (isRecord(l) ? toId(l.id) : toId(l))).filter((l): l is Id => l !== null)
    : Object.keys(locationsMap);
  for (const l of Array.isArray(r.locations) ? r.locations : []) {
    if (isRecord(l)) {
      const lid = toId(l.id);
      if (lid !== null && !locationsMap[lid]) locationsMap[lid] = { id: lid, name: toStr(l.name) };
    }
  }
  return {
    id,
    uuid: toStr(r.uuid),
    name: toStr(r.name),
    locations,
    locations_map: locationsMap,
    config: toConfig(r.config),
  };
}

export function normalizeLocation(raw: unknown, ctx: NormalizeContext): Location | null {
  const got = identifiedRecord(raw, 'location', ctx);
  if (!got) return null;
  const { r, id } = got;
  return {
    id,
    organization_id: toStr(toId(r.organization_id) ?? ''),
    name: toStr(r.name),
    timezone: typeof r.timezone === 'string' && r.timezone !== '' ? r.timezone : 'UTC',
    latitude: toNum(r.latitude, 0),
    longitude: toNum(r.longitude, 0),
    buildings: Array.isArray(r.buildings)
      ? r.buildings.map((b) => (isRecord(b) ? toId(b.id) : toId(b))).filter((b): b is Id => b !== null)
      : [],
    config: toConfig(r.config),
  };
}

function toOffset(value: unknown): Vec2 | null {
  const tuple = toNumberTuple(value, 2, 3);
  if (tuple) return [tuple[0]!, tuple[1]!];
  if (isRecord(value)) {
    const x = toNumOrNull(value.x);
    const y = toNumOrNull(value.y);
    if (x !== null && y !== null) return [x, y];
  }
  return null;
}

/** `ctx.buildingIndex` is the building's place in its location's list (offset default). */
export function normalizeBuilding(raw: unknown, ctx: NormalizeContext): Building | null {
  const got = identifiedRecord(raw, 'building', ctx);
  if (!got) return null;
  const { r, id } = got;
  const index = ctx.buildingIndex ?? 0;
  return {
    id,
    name: toStr(r.name),
    floors: Array.isArray(r.floors)
      ? r.floors.map((f) => (isRecord(f) ? toId(f.id) : toId(f))).filter((f): f is Id => f !== null)
      : [],
    default_floor: toIntOrNull(r.default_floor) ?? 0,
    ground_level: toNum(r.ground_level, 0),
    ground_floor_adjust: toNum(r.ground_floor_adjust, 0),
    latitude: toNumOrNull(r.latitude),
    longitude: toNumOrNull(r.longitude),
    north_vector: toNum(r.north_vector, 0),
    location_offset: toOffset(r.location_offset) ?? [DEFAULT_BUILDING_OFFSET * index, 0],
    config: toConfig(r.config),
  };
}

/** `ctx.floorIndex` is the floor's place in its building's list (index default). */
export function normalizeFloor(raw: unknown, ctx: NormalizeContext): Floor | null {
  const got = identifiedRecord(raw, 'floor', ctx);
  if (!got) return null;
  const { r, id } = got;
  const height = toPositive(r.height, FLOOR_DEFAULT_HEIGHT);
  const index = toIntOrNull(r.building_relative_index) ?? ctx.floorIndex ?? 0;
  return {
    id,
    name: toStr(r.name),
    parent_id: toStr(toId(r.parent_id) ?? toId(r.building_id) ?? ''),
    height,
    hidden: toBool(r.hidden),
    building_relative_z: toNum(r.building_relative_z, index * height),
    building_relative_index: index,
    outline: normalizeOutline(r, 'floor', id, ctx).outline ?? [],
    floor_plan_img_path: toStrOrNull(r.floor_plan_img_path),
    zones_img_path: toStrOrNull(r.zones_img_path),
    floor_plan_img_offset_x: toNum(r.floor_plan_img_offset_x, 0),
    floor_plan_img_offset_y: toNum(r.floor_plan_img_offset_y, 0),
    config: toConfig(r.config),
  };
}
