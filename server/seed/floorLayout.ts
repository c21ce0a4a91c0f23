// Geometry of one generated floor: meeting rooms along the north wall, a desk
// grid split into zones, lockers, stairs and a lift, a light well, and the
// SVG floor-plan image drawn from the same plan (1 SVG unit = 1 local unit,
// origin at the floor's top-left, y growing south as in local coordinates).

import type { Vec2 } from '../../src/shared/types.js';

export interface Rect { x: number; y: number; w: number; d: number }

export interface FloorPlan {
  width: number;
  depth: number;
  rooms: Rect[];
  desks: Vec2[];
  /** zones over the desk area, in order; the kind is assigned by the caller */
  zones: Rect[];
  lockers: Vec2[];
  stairs: Vec2;
  elevator: Vec2;
  hole: Rect;
  envSensors: Vec2[];
}

const DESK_PITCH_X = 2;
const DESK_PITCH_Y = 2.5;
const ROOM_STRIP_DEPTH = 7;
const ROOM_WIDTH = 6;
const MARGIN = 4;

export function planFloor(deskCount: number, envSensorCount: number): FloorPlan {
  const cols = Math.max(6, Math.ceil(Math.sqrt(deskCount * 2.5)));
  const rows = Math.max(2, Math.ceil(deskCount / cols));
  const width = cols * DESK_PITCH_X + 2 * MARGIN + 10;
  const deskTop = ROOM_STRIP_DEPTH + MARGIN;
  const depth = deskTop + rows * DESK_PITCH_Y + MARGIN + 4;
  const roomCount = Math.max(2, Math.min(Math.floor((width - 14) / (ROOM_WIDTH + 1)), Math.ceil(deskCount / 12)));
  const rooms: Rect[] = [];
  for (let i = 0; i < roomCount; i += 1) rooms.push({ x: 2 + i * (ROOM_WIDTH + 1), y: 1, w: ROOM_WIDTH, d: ROOM_STRIP_DEPTH - 1.5 });
  const desks: Vec2[] = [];
  for (let i = 0; i < deskCount; i += 1) {
    const c = i % cols;
    const r = Math.floor(i / cols);
    desks.push([MARGIN + 10 + c * DESK_PITCH_X + 1, deskTop + r * DESK_PITCH_Y + 1]);
  }
  // five zone bands across the desk area, plus a privacy corner at the start
  const bandWidth = (cols * DESK_PITCH_X) / 5;
  const zones: Rect[] = [];
  for (let i = 0; i < 5; i += 1) {
    zones.push({ x: MARGIN + 10 + i * bandWidth, y: deskTop - 1, w: bandWidth, d: rows * DESK_PITCH_Y + 1 });
  }
  zones.push({ x: 1, y: deskTop + 8, w: MARGIN + 8, d: Math.max(4, depth - deskTop - 10) });
  const lockers: Vec2[] = [];
  for (let i = 0; i < 6; i += 1) lockers.push([2 + (i % 3) * 1.2, deskTop + 1 + Math.floor(i / 3) * 1.2]);
  const envSensors: Vec2[] = [];
  for (let i = 0; i < envSensorCount; i += 1) {
    envSensors.push([MARGIN + 10 + ((i * 7.3) % (cols * DESK_PITCH_X)), deskTop + ((i * 3.1) % Math.max(1, rows * DESK_PITCH_Y))]);
  }
  return {
    width,
    depth,
    rooms,
    desks,
    zones,
    lockers,
    stairs: [width - 4, depth - 3],
    elevator: [width - 8, depth - 3],
    hole: { x: width - 10, y: ROOM_STRIP_DEPTH + 1, w: 3, d: 3 },
    envSensors,
  };
}

export function rectOutline(r: Rect): Vec2[] {
  return [[r.x, r.y], [r.x + r.w, r.y], [r.x + r.w, r.y + r.d], [r.x, r.y + r.d]];
}

export function rectContains(r: Rect, x: number, y: number): boolean {
  return x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.d;
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The floor-plan image: walls, room outlines with their doors, the light well,
 * stairs and lift. No names: the viewer draws each room's name live, once, at
 * the room's pole of inaccessibility (a name baked into the image would show
 * twice and go stale on a rename).
 */
export function floorPlanSvg(plan: FloorPlan, title: string): string {
  const wall = 'fill="none" stroke="#6b7280" stroke-width="0.2"';
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${plan.width} ${plan.depth}" width="${plan.width * 10}" height="${plan.depth * 10}">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect x="0" y="0" width="${plan.width}" height="${plan.depth}" fill="#f8fafc" stroke="#374151" stroke-width="0.4"/>`,
    `<line x1="0" y1="${ROOM_STRIP_DEPTH}" x2="${plan.width}" y2="${ROOM_STRIP_DEPTH}" stroke="#9ca3af" stroke-width="0.15"/>`,
  ];
  for (const r of plan.rooms) {
    parts.push(`<rect x="${r.x}" y="${r.y}" width="${r.w}" height="${r.d}" ${wall}/>`);
    parts.push(`<rect x="${r.x + r.w / 2 - 0.6}" y="${r.y + r.d - 0.1}" width="1.2" height="0.3" fill="#f8fafc"/>`);
  }
  const h = plan.hole;
  parts.push(`<rect x="${h.x}" y="${h.y}" width="${h.w}" height="${h.d}" fill="#e5e7eb" stroke="#6b7280" stroke-width="0.2"/>`);
  parts.push(`<rect x="${plan.stairs[0] - 1.5}" y="${plan.stairs[1] - 1.5}" width="3" height="3" ${wall}/>`);
  parts.push(`<rect x="${plan.elevator[0] - 1}" y="${plan.elevator[1] - 1}" width="2" height="2" ${wall}/>`);
  parts.push('</svg>');
  return parts.join('\n');
}

/** A small initials avatar for demo users. */
export function avatarSvg(initials: string, hue: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">`
    + `<circle cx="32" cy="32" r="32" fill="hsl(${Math.round(hue)},55%,45%)"/>`
    + `<text x="32" y="41" font-family="sans-serif" font-size="26" text-anchor="middle" fill="#fff">${escapeXml(initials)}</text></svg>`;
}
