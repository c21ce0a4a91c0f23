// Adapts the shared normalizers (src/shared/normalize) to the store: one
// entry per collection, the normalize context of the loaded location, and
// buildings/floors, which travel as assets of type 'building' and 'floor'.

import { normalizeAsset, normalizeAssets } from '../../shared/normalize/asset.js';
import {
  normalizeExternalObject, normalizeExternalObjects, normalizeNotification, normalizeNotifications,
  normalizeUser, normalizeUsers,
} from '../../shared/normalize/people.js';
import type { NormalizeContext } from '../../shared/normalize/primitives.js';
import { toId } from '../../shared/normalize/primitives.js';
import { normalizeSensor, normalizeSensors } from '../../shared/normalize/sensor.js';
import {
  normalizeBuilding, normalizeFloor, normalizeLocation, normalizeOrganization,
} from '../../shared/normalize/structure.js';
import type { Asset, Building, Floor, Id } from '../../shared/types.js';
import type { Logger } from '../ports.js';
import type { Store } from './store.js';

export type EntityCollection = 'organizations' | 'locations' | 'users' | 'external_objects' | 'sensors' | 'notifications';

export function normalizeContext(store: Store, logger: Logger): NormalizeContext {
  const location = store.locationId ? store.locations.get(store.locationId) : undefined;
  return { logger, location: location ? { latitude: location.latitude, longitude: location.longitude } : null };
}

const one: Record<EntityCollection, (raw: unknown, ctx: NormalizeContext) => { id: Id } | null> = {
  organizations: normalizeOrganization,
  locations: normalizeLocation,
  users: normalizeUser,
  external_objects: normalizeExternalObject,
  sensors: normalizeSensor,
  notifications: normalizeNotification,
};

const list: Record<EntityCollection, (raw: unknown, ctx: NormalizeContext) => Array<{ id: Id }>> = {
  organizations: (raw, ctx) => (Array.isArray(raw) ? raw : []).map((r) => normalizeOrganization(r, ctx)).filter((o): o is NonNullable<typeof o> => o !== null),
  locations: (raw, ctx) => (Array.isArray(raw) ? raw : []).map((r) => normalizeLocation(r, ctx)).filter((o): o is NonNullable<typeof o> => o !== null),
  users: normalizeUsers,
  external_objects: normalizeExternalObjects,
  sensors: normalizeSensors,
  notifications: normalizeNotifications,
};

export const normalizeEntity = {
  one: (collection: EntityCollection, raw: unknown, ctx: NormalizeContext) => one[collection](raw, ctx),
  list: (collection: EntityCollection, raw: unknown, ctx: NormalizeContext) => list[collection](raw, ctx),
  asset: (raw: unknown, ctx: NormalizeContext): Asset | null => normalizeAsset(raw, ctx),
  assets: (raw: unknown, ctx: NormalizeContext): Asset[] => normalizeAssets(raw, ctx),
  idOf: (raw: unknown): Id | null => (raw && typeof raw === 'object' ? toId((raw as { id?: unknown }).id) : null),
};

function buildingIndex(store: Store, id: Id): number {
  const location = store.locationId ? store.locations.get(store.locationId) : undefined;
  const i = location?.buildings.indexOf(id) ?? -1;
  return i < 0 ? 0 : i;
}

function floorIndex(buildings: Iterable<Building>, floorId: Id, parentId: unknown): number | undefined {
  for (const b of buildings) {
    if (parentId !== undefined && b.id !== toId(parentId)) continue;
    const i = b.floors.indexOf(floorId);
    if (i >= 0) return i;
  }
  return undefined;
}

export type StructureEntity = { kind: 'building'; value: Building } | { kind: 'floor'; value: Floor };

export const normalizeStructureAsset = {
  one(store: Store, raw: object, ctx: NormalizeContext): StructureEntity | null {
    const r = raw as { type?: unknown; id?: unknown; parent_id?: unknown };
    const id = toId(r.id);
    if (r.type === 'building') {
      const value = normalizeBuilding(raw, { ...ctx, buildingIndex: id ? buildingIndex(store, id) : 0 });
      return value ? { kind: 'building', value } : null;
    }
    const index = id ? floorIndex(store.buildings.values(), id, r.parent_id) : undefined;
    const value = normalizeFloor(raw, index === undefined ? ctx : { ...ctx, floorIndex: index });
    return value ? { kind: 'floor', value } : null;
  },
  /** buildings first, so floors find their index in the building's ordered list */
  all(store: Store, raws: unknown[], ctx: NormalizeContext): { buildings: Building[]; floors: Floor[] } {
    const buildings: Building[] = [];
    const floors: Floor[] = [];
    const seen = new Set<Id>();
    const warnDuplicate = (id: Id) => {
      if (seen.has(id)) ctx.logger.warn(`Duplicate asset id ${id}; the later one wins`);
      seen.add(id);
    };
    for (const raw of raws) {
      if ((raw as { type?: unknown }).type !== 'building') continue;
      const r = normalizeStructureAsset.one(store, raw as object, ctx);
      if (r?.kind === 'building') { warnDuplicate(r.value.id); buildings.push(r.value); }
    }
    // a floor whose building the load does not carry readably keeps its place in the stored one
    const loaded = new Set(buildings.map((b) => b.id));
    const known = [...buildings, ...[...store.buildings.values()].filter((b) => !loaded.has(b.id))];
    for (const raw of raws) {
      if ((raw as { type?: unknown }).type !== 'floor') continue;
      const r = raw as { id?: unknown; parent_id?: unknown };
      const id = toId(r.id);
      const index = id ? floorIndex(known, id, r.parent_id) : undefined;
      const value = normalizeFloor(raw, index === undefined ? ctx : { ...ctx, floorIndex: index });
      if (value) { warnDuplicate(value.id); floors.push(value); }
    }
    return { buildings: dedupe(buildings), floors: dedupe(floors) };
  },
};

function dedupe<T extends { id: Id }>(list: T[]): T[] {
  return [...new Map(list.map((e) => [e.id, e])).values()];
}
