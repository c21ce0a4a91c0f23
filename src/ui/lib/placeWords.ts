// Where a point of the floor is, in words, for a person who cannot see the
// map: the room and zone it is in, else how far it is from the nearest named
// place drawn (a desk, a locker, a room…). Used by keyboard picking (the
// marker's live announcement). Floor coordinates, as the draw state's.

import type { DrawState } from '../../shared/api.js';
import { pointInPolygon } from '../../shared/geo.js';
import { kindWord, namesItsKind } from './describe.js';

/** Places that stay put and have a name: what a person finds their way by (not people, tickets or voices). */
const LANDMARK_KINDS: ReadonlySet<DrawState['kind']> = new Set(['room', 'zone', 'desk', 'locker', 'portal', 'container', 'sensor', 'shape', 'other']);

interface Area {
  entry: DrawState;
  area: number;
}

function areaOf(outline: readonly (readonly [number, number])[]): number {
  let a = 0;
  for (let i = 0, j = outline.length - 1; i < outline.length; j = i++) a += (outline[j]![0] + outline[i]![0]) * (outline[j]![1] - outline[i]![1]);
  return Math.abs(a / 2);
}

/** Distance from a point to an asset: to its outline's box, or to its point. */
function distanceTo(x: number, y: number, e: DrawState): number {
  if (e.outline && e.outline.length > 2) {
    let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const [px, py] of e.outline) {
      minX = Math.min(minX, px); maxX = Math.max(maxX, px);
      minY = Math.min(minY, py); maxY = Math.max(maxY, py);
    }
    return Math.hypot(Math.max(minX - x, 0, x - maxX), Math.max(minY - y, 0, y - maxY));
  }
  return Math.hypot(e.x - x, e.y - y);
}

/** "room Aalto"; a name that says its kind ("Desk 12") is not given the kind again. */
function nameOf(e: DrawState): string {
  const name = e.name || e.label || '';
  const kind = kindWord(e.kind);
  return namesItsKind(name, kind) ? name : `${kind.toLowerCase()} ${name}`.trim();
}

/** "in room F0-R1", "in room F0-R1, zone Quiet", "2 m from desk D4", "outside the floor". */
export function placeWords(point: { x: number; y: number }, entries: Iterable<DrawState>): string {
  const at = [point.x, point.y] as const;
  let room: Area | null = null;
  let zone: Area | null = null;
  let nearest: { entry: DrawState; d: number } | null = null;
  let outlines = 0;
  let onFloor = false;
  for (const e of entries) {
    const shaped = e.outline && e.outline.length > 2;
    if (e.kind === 'floor_outline' && shaped) {
      outlines += 1;
      if (pointInPolygon(at, e.outline!)) onFloor = true;
      continue;
    }
    if (!LANDMARK_KINDS.has(e.kind) || !(e.name || e.label)) continue;
    if ((e.kind === 'room' || e.kind === 'zone') && shaped && pointInPolygon(at, e.outline!)) {
      const area = areaOf(e.outline!);
      if (e.kind === 'room' && (!room || area < room.area)) room = { entry: e, area };
      if (e.kind === 'zone' && (!zone || area < zone.area)) zone = { entry: e, area };
      continue;
    }
    const d = distanceTo(point.x, point.y, e);
    if (!nearest || d < nearest.d) nearest = { entry: e, d };
  }
  if (room || zone) return `in ${[room, zone].filter((a): a is Area => a !== null).map((a) => nameOf(a.entry)).join(', ')}`;
  if (outlines > 0 && !onFloor) return 'outside the floor';
  if (!nearest) return 'on the floor, away from named places';
  if (nearest.d < 0.5) return `at ${nameOf(nearest.entry)}`;
  return `${Math.max(1, Math.round(nearest.d))} m from ${nameOf(nearest.entry)}`;
}
