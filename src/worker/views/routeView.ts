// The `route` view (docs/wayfinding.md): the way from the viewer (or a chosen
// asset) to an asset or a person, across floors and buildings, from what the
// viewer may see. Re-derived when the structure, a portal, either end, or
// the viewer's position changes; routes are tiny, so each is found afresh.

import { SELF_KEY, type RouteEndpoint, type RouteView, type ViewSpec } from '../../shared/api.js';
import { floorVisibleToRoles } from '../../shared/roles.js';
import type { RouteEnd, RouteFloor, RoutePortal } from '../../shared/rules/route.js';
import { floorPlace } from '../../shared/rules/wayfinding.js';
import type { Id } from '../../shared/types.js';
import type { ViewSource } from './viewHub.js';
import { personEntry, type ViewState } from './sources.js';
import { personAssetIds } from '../store/people.js';
import type { LazyModule } from '../lazyModule.js';

/** The route finding, a chunk of its own (graphology is ~40 % of the worker's code otherwise). */
export type RoutingModule = typeof import('../../shared/rules/route.js');
export const loadRouting = (): Promise<RoutingModule> => import('../../shared/rules/route.js');

const EMPTY = { steps: [], floorIds: [], linkCost: 0, metres: 0 };

export function routeSource(state: ViewState, routing: LazyModule<RoutingModule>, spec: Extract<ViewSpec, { view: 'route' }>): ViewSource {
  const { store } = state;
  routing.load();
  /** assets whose change may change the route (portals, the ends, the people's position assets) */
  const relevant = new Set<Id>();
  const people = new Set<Id>();

  function floors(): Map<Id, RouteFloor> {
    const roles = state.roles();
    const out = new Map<Id, RouteFloor>();
    for (const floor of store.floors.values()) {
      if (!floorVisibleToRoles(floor, roles)) continue;
      const building = store.buildings.get(floor.parent_id) ?? null;
      const place = floorPlace(floor, building);
      out.set(floor.id, { id: floor.id, name: floor.name, buildingId: place.buildingId, buildingName: building?.name ?? '', index: place.index });
    }
    return out;
  }

  function portals(): RoutePortal[] {
    const out: RoutePortal[] = [];
    for (const asset of store.assets.values()) {
      if (asset.type !== 'portal') continue;
      relevant.add(asset.id);
      const facts = state.facts.get(asset.id);
      if (!facts?.reachable || !facts.floorId) continue;
      out.push({ id: asset.id, floorId: facts.floorId, x: asset.x, y: asset.y, name: asset.name, subtype: asset.subtype, targets: asset.targets });
    }
    return out;
  }

  function end(which: RouteEndpoint): RouteEnd | null {
    if (which.kind === 'me' || which.kind === 'person') {
      const userId = which.kind === 'me' ? state.viewerUserId() : which.id;
      if (!userId) return null;
      people.add(userId);
      for (const id of personAssetIds(store, userId)) relevant.add(id);
      const person = personEntry(state, userId);
      if (!person?.visible || !person.floorId || person.x === null || person.y === null) return null;
      return { floorId: person.floorId, x: person.x, y: person.y, name: which.kind === 'me' ? 'you' : person.name };
    }
    relevant.add(which.id);
    const facts = state.facts.get(which.id);
    if (!facts?.reachable || !facts.floorId || !facts.freshness.visible) return null;
    // a room or zone is reached at its centre
    const centre = facts.asset.shape?.center ?? null;
    return { floorId: facts.floorId, x: centre ? centre[0] : facts.asset.x, y: centre ? centre[1] : facts.asset.y, name: facts.asset.name || facts.kind };
  }

  function read(): RouteView | undefined {
    relevant.clear();
    people.clear();
    if (!state.config.location().wayfindingEnabled) return { status: 'off', ...EMPTY };
    const from = end(spec.from);
    if (!from) return { status: 'noStart', ...EMPTY };
    const to = end(spec.to);
    if (!to) return { status: 'noDestination', ...EMPTY };
    const module = routing.get();
    if (!module) return routing.state === 'failed' ? { status: 'unavailable', ...EMPTY } : undefined;
    const { findRoute, routeStepText } = module;
    const floorMap = floors();
    const route = findRoute({ floors: floorMap, portals: portals(), from, to });
    if (!route) return { status: 'noRoute', ...EMPTY };
    return {
      status: 'ok',
      steps: route.steps.map((step, i) => ({
        n: i + 1,
        text: routeStepText(step, floorMap),
        kind: step.kind,
        floorId: step.kind === 'walk' ? step.floorId : step.fromFloorId,
        toFloorId: step.kind === 'walk' ? step.floorId : step.toFloorId,
        from: step.from,
        to: step.to,
      })),
      floorIds: route.floorIds,
      linkCost: route.linkCost,
      metres: Math.round(route.metres),
    };
  }

  return {
    keys: () => [SELF_KEY],
    entry: (key) => (key === SELF_KEY ? read() : undefined),
    meta: () => null,
    affected(d) {
      if (d.has('structure') || d.has('session') || d.has('loaded') || d.get('assets') === 'all' || d.get('users') === 'all') return [SELF_KEY];
      const assets = d.get('assets');
      if (assets && assets !== 'all') for (const id of assets) if (relevant.has(id)) return [SELF_KEY];
      const users = d.get('users');
      if (users && users !== 'all') for (const id of users) if (people.has(id)) return [SELF_KEY];
      return null;
    },
    metaAffected: () => false,
  };
}
