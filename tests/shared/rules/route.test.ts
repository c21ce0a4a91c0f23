import { describe, expect, it } from 'vitest';
import { FLOOR_LINK_CROSS_BUILDING_COST } from '../../../src/shared/constants.js';
import { findRoute, portalKind, routeStepText, type RouteFloor, type RoutePortal } from '../../../src/shared/rules/route.js';

// Site A has four floors with stairs between neighbours and a lift serving
// every floor; site B two floors with a lift; a passage joins A0 and B0.
function floor(id: string, buildingId: string, index: number): [string, RouteFloor] {
  return [id, { id, name: `Floor ${index}`, buildingId, buildingName: `Site ${buildingId}`, index }];
}
const FLOORS = new Map<string, RouteFloor>([
  floor('A0', 'A', 0), floor('A1', 'A', 1), floor('A2', 'A', 2), floor('A3', 'A', 3), floor('B0', 'B', 0), floor('B1', 'B', 1),
]);

function portal(id: string, floorId: string, subtype: string, x: number, y: number, targets: string[]): RoutePortal {
  return { id, floorId, subtype, x, y, name: subtype, targets };
}

const A_STAIRS = ['A0', 'A1', 'A2', 'A3'].map((f, i, all) =>
  portal(`s-${f}`, f, 'stairs', 10, 0, [all[i - 1], all[i + 1]].filter((x): x is string => !!x).map((t) => `s-${t}`)));
const A_LIFT = ['A0', 'A1', 'A2', 'A3'].map((f, _, all) => portal(`l-${f}`, f, 'elevator', 20, 0, all.filter((t) => t !== f).map((t) => `l-${t}`)));
const B_LIFT = [portal('l-B0', 'B0', 'elevator', 5, 5, ['l-B1']), portal('l-B1', 'B1', 'elevator', 5, 5, ['l-B0'])];
const PASSAGE = [portal('p-A0', 'A0', 'passage', 0, 50, ['p-B0']), portal('p-B0', 'B0', 'passage', 0, 0, ['p-A0'])];
const PORTALS = [...A_STAIRS, ...A_LIFT, ...B_LIFT, ...PASSAGE];

const at = (floorId: string, x: number, y: number, name = 'Room') => ({ floorId, x, y, name });
const texts = (route: ReturnType<typeof findRoute>) => route!.steps.map((s) => routeStepText(s, FLOORS));

describe('findRoute', () => {
  it('walks straight to a place on the same floor', () => {
    const route = findRoute({ floors: FLOORS, portals: PORTALS, from: at('A1', 0, 0, 'you'), to: at('A1', 3, 4, 'Room 1.1') });
    expect(route).toMatchObject({ linkCost: 0, metres: 5, floorIds: ['A1'] });
    expect(texts(route)).toEqual(['Walk 5 m to Room 1.1']);
  });

  it('costs one floor change by the floor distance and breaks the tie by walking', () => {
    // stairs at x=10 are nearer than the lift at x=20 from x=0
    const route = findRoute({ floors: FLOORS, portals: PORTALS, from: at('A0', 0, 0), to: at('A1', 0, 0, 'Desk 1.4') });
    expect(route!.linkCost).toBe(1);
    expect(texts(route)).toEqual(['Walk 10 m to the stairs', 'Take the stairs to Floor 1', 'Walk 10 m to Desk 1.4']);
  });

  it('takes a chain of stairs as one step and costs it by the floors climbed', () => {
    const route = findRoute({ floors: FLOORS, portals: PORTALS, from: at('A0', 9, 0), to: at('A3', 9, 0, 'Roof terrace') });
    expect(route!.linkCost).toBe(3);
    expect(texts(route)).toEqual(['Walk 1 m to the stairs', 'Take the stairs to Floor 3', 'Walk 1 m to Roof terrace']);
    expect(route!.floorIds).toEqual(['A0', 'A3']);
  });

  it('prefers the lift when it is the nearer way up the same number of floors', () => {
    const route = findRoute({ floors: FLOORS, portals: PORTALS, from: at('A0', 21, 0), to: at('A3', 21, 0, 'Room 3.2') });
    expect(route!.linkCost).toBe(3);
    expect(texts(route)).toEqual(['Walk 1 m to the lift', 'Take the lift to Floor 3', 'Walk 1 m to Room 3.2']);
  });

  it('crosses to another building through the passage at the §9 cost of 1000, naming the building', () => {
    const route = findRoute({ floors: FLOORS, portals: PORTALS, from: at('A2', 20, 0), to: at('B1', 5, 5, 'Room B1.1') });
    expect(route!.linkCost).toBe(2 + FLOOR_LINK_CROSS_BUILDING_COST + 1);
    expect(texts(route)).toEqual([
      'Take the lift to Floor 0',
      'Walk 54 m to the passage',
      'Go through the passage to Site B, Floor 0',
      'Walk 7 m to the lift',
      'Take the lift to Floor 1',
      'You are at Room B1.1',
    ]);
    expect(route!.floorIds).toEqual(['A2', 'A0', 'B0', 'B1']);
  });

  it('stays inside the building even when a shortcut through another one is shorter to walk', () => {
    // a bridge A3↔B0 next to the start: walking 1 m and crossing twice costs 2000, the stairs 3
    const bridge = [portal('x-A3', 'A3', 'bridge', 0, 1, ['x-B0']), portal('x-B0', 'B0', 'bridge', 0, 1, ['x-A3', 'y-B0']), portal('y-B0', 'B0', 'bridge', 0, 2, ['y-A0']), portal('y-A0', 'A0', 'bridge', 0, 1, ['y-B0'])];
    const route = findRoute({ floors: FLOORS, portals: [...PORTALS, ...bridge], from: at('A3', 0, 0), to: at('A0', 0, 0) });
    expect(route!.linkCost).toBe(3);
    expect(route!.steps.some((s) => s.kind === 'change' && s.via === 'passage')).toBe(false);
  });

  it('follows one-way portals only the way they lead', () => {
    const up = [portal('e-A0', 'A0', 'escalator', 0, 0, ['e-A1']), portal('e-A1', 'A1', 'escalator', 0, 0, [])];
    expect(findRoute({ floors: FLOORS, portals: up, from: at('A0', 0, 0), to: at('A1', 0, 0) })!.linkCost).toBe(1);
    expect(findRoute({ floors: FLOORS, portals: up, from: at('A1', 0, 0), to: at('A0', 0, 0) })).toBeNull();
  });

  it('finds no route to a floor the viewer may not see, nor through one', () => {
    const visible = new Map([...FLOORS].filter(([id]) => id !== 'A1'));
    expect(findRoute({ floors: visible, portals: PORTALS, from: at('A0', 0, 0), to: at('A1', 0, 0) })).toBeNull();
    // the lift serves A0→A2 directly; the stairs would need the hidden A1
    const route = findRoute({ floors: visible, portals: PORTALS, from: at('A0', 10, 0), to: at('A2', 10, 0) });
    expect(texts(route)).toEqual(['Walk 10 m to the lift', 'Take the lift to Floor 2', 'Walk 10 m to Room']);
  });

  it('finds no route between buildings without a portal joining them', () => {
    expect(findRoute({ floors: FLOORS, portals: [...A_STAIRS, ...B_LIFT], from: at('A0', 0, 0), to: at('B1', 0, 0) })).toBeNull();
  });

  it('ignores targets that name unknown portals or the portal itself', () => {
    const odd = [portal('o-A0', 'A0', 'stairs', 0, 0, ['o-A0', 'nowhere']), ...A_LIFT];
    const route = findRoute({ floors: FLOORS, portals: odd, from: at('A0', 0, 0), to: at('A1', 20, 0) });
    expect(route!.linkCost).toBe(1);
  });
});

describe('portalKind', () => {
  it('reads lifts, stairs, escalators and ramps from the subtype; anything else is a passage', () => {
    expect(['elevator', 'Lift', 'stairs', 'escalator', 'ramp', 'bridge', null].map(portalKind))
      .toEqual(['lift', 'lift', 'stairs', 'escalator', 'ramp', 'passage', 'passage']);
  });
});
