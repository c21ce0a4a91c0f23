// What a report reads, taken from the loaded location in the store: the
// desks, rooms, environment sensors (grouped by the room or zone they stand
// in) and floors of the report's scope, only those the viewer may see.

import type { ReportKind } from '../../shared/config.js';
import { pointInPolygon } from '../../shared/geo.js';
import type { Aggregator, ReportContext } from '../../shared/reports/aggregator.js';
import { createDeskAggregator, type ScopeDesk } from '../../shared/reports/deskReport.js';
import { COMFORT_BANDS, createEnvironmentAggregator, type ScopeEnvironmentSensor } from '../../shared/reports/environmentReport.js';
import { createLocationAggregator, type ScopeFloor } from '../../shared/reports/locationReport.js';
import { createRoomAggregator, type ScopeRoom } from '../../shared/reports/roomReport.js';
import type { ReportScope } from '../../shared/reports/types.js';
import { assetVisibleToRoles, floorVisibleToRoles } from '../../shared/roles.js';
import type { Asset, Id, Role, Vec2 } from '../../shared/types.js';
import { linkedUserId } from '../store/people.js';
import type { Store } from '../store/store.js';

function inScope(store: Store, floorId: Id | null | undefined, scope: ReportScope): boolean {
  if (!floorId) return false;
  if (scope.kind === 'location') return true;
  if (scope.kind === 'floor') return floorId === scope.id;
  return store.floors.get(floorId)?.parent_id === scope.id;
}

function contains(outline: readonly Vec2[] | null, x: number, y: number): boolean {
  return !!outline && outline.length >= 3 && pointInPolygon([x, y], outline);
}

const isDesk = (a: Asset) => a.subtype === 'desk' || a.categories?.shape === 'desk';

/**
 * A location sensor that places only equipment: no user wears it, and every asset it feeds is an auto tag that
 * stands for no user (spec §3: tracked equipment). A sensor feeding an employee, a user's tag, or one whose assets
 * this viewer does not have (unknown, so counted as before) places a person.
 */
export function tracksEquipmentOnly(store: Store, sensorId: Id): boolean {
  if (store.userByTag.has(sensorId)) return false;
  const fed = store.assetsBySensor.get(sensorId);
  if (!fed || fed.size === 0) return false;
  for (const id of fed) {
    const asset = store.assets.get(id);
    if (!asset || asset.type !== 'auto_tag' || linkedUserId(store, asset) !== null) return false;
  }
  return true;
}

export function createScopedAggregator(store: Store, kind: ReportKind, scope: ReportScope, ctx: ReportContext, roles: readonly Role[]): Aggregator {
  const assets: Asset[] = [];
  for (const asset of store.assets.values()) {
    const floorId = store.floorOf.get(asset.id);
    const floor = floorId ? store.floors.get(floorId) : undefined;
    if (!floor || !floorVisibleToRoles(floor, roles) || !assetVisibleToRoles(asset, roles) || !inScope(store, floorId, scope)) continue;
    assets.push(asset);
  }
  const floorIdOf = (a: Asset) => store.floorOf.get(a.id) ?? null;
  const rooms = assets.filter((a) => a.type === 'room');
  switch (kind) {
    case 'desk': {
      const desks: ScopeDesk[] = assets.filter(isDesk).map((a) => ({ id: a.id, name: a.name, floorId: floorIdOf(a), sensorId: a.data_provider_refs.occupancy ?? null }));
      return createDeskAggregator(ctx, desks);
    }
    case 'room': {
      const list: ScopeRoom[] = rooms.map((a) => ({
        id: a.id, name: a.name, floorId: floorIdOf(a),
        occupancySensorId: a.data_provider_refs.occupancy ?? null, reservationSensorId: a.data_provider_refs.reservation ?? null,
      }));
      return createRoomAggregator(ctx, list);
    }
    case 'environment': {
      const zones = assets.filter((a) => a.type === 'zone');
      const sensors: ScopeEnvironmentSensor[] = [];
      for (const a of assets) {
        if (a.type === 'room' || isDesk(a)) continue;
        const floorId = floorIdOf(a);
        const room = rooms.find((r) => floorIdOf(r) === floorId && contains(r.outline, a.x, a.y));
        const zone = room ? null : zones.find((z) => floorIdOf(z) === floorId && contains(z.outline, a.x, a.y));
        const group = room ?? zone ?? a;
        for (const [type, sensorId] of Object.entries(a.data_provider_refs)) {
          if (!COMFORT_BANDS[type] || store.sensors.get(sensorId)?.type !== type) continue;
          sensors.push({ sensorId, type, groupId: group.id, groupName: group.name, groupKind: room ? 'room' : zone ? 'zone' : 'sensor', floorId });
        }
      }
      return createEnvironmentAggregator(ctx, sensors);
    }
    case 'location': {
      const floors: ScopeFloor[] = [];
      for (const floor of store.floors.values()) {
        if (!floorVisibleToRoles(floor, roles) || !inScope(store, floor.id, scope)) continue;
        const building = store.buildings.get(floor.parent_id);
        const occupancy = assets.filter((a) => floorIdOf(a) === floor.id && (isDesk(a) || a.type === 'room'))
          .map((a) => a.data_provider_refs.occupancy).filter((id): id is Id => !!id);
        floors.push({ id: floor.id, name: floor.name, buildingId: building?.id ?? null, buildingName: building?.name ?? '', occupancySensorIds: occupancy });
      }
      // people's location sensors only: not a tracked piece of equipment's (a wheelchair's tag reports all night and
      // would count as someone present); local sensors (manual locations) have no history on the server
      const people = [...store.sensors.values()].filter((s) => s.type === 'location' && !s.local && !tracksEquipmentOnly(store, s.id)).map((s) => s.id);
      return createLocationAggregator(ctx, floors, people);
    }
  }
}
