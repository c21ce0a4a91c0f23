// Wayfinding between floors (spec §9, docs/wayfinding.md): floors
// are linked through portal assets and their `targets`; a route is the
// cheapest path by the §9 floor link cost, walking metres breaking ties, found
// with graphology's Dijkstra. Pure: the worker feeds it what the viewer may see.

import { DirectedGraph } from 'graphology';
import { dijkstra } from 'graphology-shortest-path';
import type { Id, Vec2 } from '../types.js';
import { floorLinkCost } from './wayfinding.js';

export interface RouteFloor {
  id: Id;
  name: string;
  buildingId: Id;
  buildingName: string;
  /** the floor's place in its building (floorPlace) */
  index: number;
}

export interface RoutePortal {
  id: Id;
  floorId: Id;
  x: number;
  y: number;
  name: string;
  subtype: string | null;
  /** portal ids this one leads to (one-way unless the target lists this one back) */
  targets: readonly Id[];
}

export interface RouteEnd {
  floorId: Id;
  x: number;
  y: number;
  /** for people: 'Room 2.1', 'Mäkelä Aino', 'you' */
  name: string;
}

export interface RouteInput {
  /** the floors the viewer may see; portals on others are not used */
  floors: ReadonlyMap<Id, RouteFloor>;
  portals: readonly RoutePortal[];
  from: RouteEnd;
  to: RouteEnd;
}

export const PORTAL_KINDS = ['lift', 'stairs', 'escalator', 'ramp', 'passage'] as const;
export type PortalKind = (typeof PORTAL_KINDS)[number];

export type RouteStep =
  | { kind: 'walk'; floorId: Id; from: Vec2; to: Vec2; metres: number; toName: string }
  | {
    kind: 'change';
    via: PortalKind;
    portalName: string;
    fromFloorId: Id;
    toFloorId: Id;
    /** where the change starts (on fromFloorId) and ends (on toFloorId) */
    from: Vec2;
    to: Vec2;
    /** spec §9 floor link cost of this change */
    cost: number;
  };

export interface Route {
  steps: RouteStep[];
  /** floors crossed, in order, each once per visit */
  floorIds: Id[];
  /** sum of the §9 floor link costs */
  linkCost: number;
  /** walking distance in local units (metres) */
  metres: number;
}

/**
 * Walking only breaks ties: one floor link outweighs any walk inside a site
 * (sites are far under a million metres across), so the §9 cost decides.
 */
const LINK_WEIGHT = 1e6;
const FROM = 'route:from';
const TO = 'route:to';

export function portalKind(subtype: string | null): PortalKind {
  switch ((subtype ?? '').toLowerCase()) {
    case 'elevator': case 'lift': return 'lift';
    case 'stairs': case 'stair': case 'staircase': return 'stairs';
    case 'escalator': return 'escalator';
    case 'ramp': return 'ramp';
    default: return 'passage';
  }
}

const distance = (a: Vec2, b: Vec2) => Math.hypot(a[0] - b[0], a[1] - b[1]);

interface NodeAttrs { floorId: Id; at: Vec2; portal: RoutePortal | null }
interface EdgeAttrs { weight: number; link: number }

/** The cheapest route, or null when no chain of portals joins the two floors. */
export function findRoute(input: RouteInput): Route | null {
  const { floors, from, to } = input;
  if (!floors.has(from.floorId) || !floors.has(to.floorId)) return null;
  const graph = new DirectedGraph<NodeAttrs, EdgeAttrs>();
  const byFloor = new Map<Id, string[]>();
  const addNode = (key: string, attrs: NodeAttrs) => {
    graph.addNode(key, attrs);
    const list = byFloor.get(attrs.floorId) ?? [];
    list.push(key);
    byFloor.set(attrs.floorId, list);
  };
  addNode(FROM, { floorId: from.floorId, at: [from.x, from.y], portal: null });
  addNode(TO, { floorId: to.floorId, at: [to.x, to.y], portal: null });
  const portals = new Map<Id, RoutePortal>();
  for (const p of input.portals) {
    if (!floors.has(p.floorId) || portals.has(p.id)) continue;
    portals.set(p.id, p);
    addNode(p.id, { floorId: p.floorId, at: [p.x, p.y], portal: p });
  }
  // walking: every two places on one floor (floors hold a handful of portals)
  for (const keys of byFloor.values()) {
    for (const a of keys) {
      for (const b of keys) {
        if (a === b || a === TO || b === FROM) continue;
        graph.addEdge(a, b, { weight: distance(graph.getNodeAttribute(a, 'at'), graph.getNodeAttribute(b, 'at')), link: 0 });
      }
    }
  }
  // floor links: a portal to each portal it targets, costed by §9
  for (const p of portals.values()) {
    for (const targetId of p.targets) {
      const target = portals.get(targetId);
      if (!target || target.id === p.id || graph.hasEdge(p.id, target.id)) continue;
      const link = floorLinkCost(floors.get(p.floorId)!, floors.get(target.floorId)!);
      graph.addEdge(p.id, target.id, { weight: link * LINK_WEIGHT, link });
    }
  }
  const path = dijkstra.bidirectional(graph, FROM, TO, 'weight');
  if (!path) return null;
  return toRoute(graph, path, to.name);
}

function toRoute(graph: DirectedGraph<NodeAttrs, EdgeAttrs>, path: string[], destination: string): Route {
  const steps: RouteStep[] = [];
  let linkCost = 0;
  let metres = 0;
  for (let i = 1; i < path.length; i += 1) {
    const a = graph.getNodeAttributes(path[i - 1]!);
    const b = graph.getNodeAttributes(path[i]!);
    const edge = graph.getEdgeAttributes(path[i - 1]!, path[i]!);
    if (a.floorId === b.floorId) {
      // standing on the spot needs no step, except arriving
      if (edge.weight === 0 && i < path.length - 1) continue;
      metres += edge.weight;
      steps.push({ kind: 'walk', floorId: a.floorId, from: a.at, to: b.at, metres: edge.weight, toName: b.portal ? `the ${portalKind(b.portal.subtype)}` : destination });
      continue;
    }
    linkCost += edge.link;
    const via = portalKind(a.portal?.subtype ?? null);
    const last = steps[steps.length - 1];
    // a chain through one shaft is one step: "take the stairs to Floor 3"
    if (last?.kind === 'change' && last.via === via && last.toFloorId === a.floorId) {
      last.toFloorId = b.floorId;
      last.to = b.at;
      last.cost += edge.link;
    } else {
      steps.push({
        kind: 'change', via, portalName: a.portal?.name ?? '', fromFloorId: a.floorId, toFloorId: b.floorId,
        from: a.at, to: b.at, cost: edge.link,
      });
    }
  }
  const floorIds: Id[] = [];
  for (const step of steps) {
    const ids = step.kind === 'walk' ? [step.floorId] : [step.fromFloorId, step.toFloorId];
    for (const id of ids) if (floorIds[floorIds.length - 1] !== id) floorIds.push(id);
  }
  if (floorIds.length === 0) floorIds.push(graph.getNodeAttribute(path[0]!, 'floorId'));
  return { steps, floorIds, linkCost, metres };
}

const VERBS: Record<PortalKind, string> = {
  lift: 'Take the lift', stairs: 'Take the stairs', escalator: 'Take the escalator', ramp: 'Take the ramp', passage: 'Go through the passage',
};

/** One step in words: "Walk 12 m to the lift", "Take the lift to Floor 2", "Go through the passage to Site B, Floor 0". */
export function routeStepText(step: RouteStep, floors: ReadonlyMap<Id, RouteFloor>): string {
  if (step.kind === 'walk') {
    const m = Math.round(step.metres);
    return m === 0 ? `You are at ${step.toName}` : `Walk ${m} m to ${step.toName}`;
  }
  const from = floors.get(step.fromFloorId);
  const to = floors.get(step.toFloorId);
  const name = to ? (from && from.buildingId !== to.buildingId ? `${to.buildingName}, ${to.name}` : to.name) : 'another floor';
  return `${VERBS[step.via]} to ${name}`;
}
