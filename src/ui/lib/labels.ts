// Map labels: where each asset's label goes and how big it is (one place,
// used to draw it and to lay labels out), and which labels to hide so none
// overlap at the current zoom. Room and zone names sit at the polygon's pole
// of inaccessibility (polylabel), the inside point farthest from the edges,
// which stays inside L-shaped and concave rooms where a centroid does not.
// Tickets' and voices' bubbles and device markers (a tracked "First-aid kit"
// with its name) are drawn over rooms and zones: a name one of them would cover
// moves to the nearest clear place inside its shape (docs/ui.md "Names clear of
// bubbles and device markers").

import polylabel from 'polylabel';
import type { DrawState } from '../../shared/api.js';
import { pointInPolygon } from '../../shared/geo.js';
import type { AssetKind } from '../../shared/kinds.js';
import { boxOf, svgY } from './viewport.js';

export interface LabelBox {
  id: string;
  /** centre of the label, SVG units */
  cx: number;
  cy: number;
  /** size, SVG units */
  w: number;
  h: number;
  /** higher wins a collision */
  priority: number;
  /** the zoom (screen px per SVG unit) below which the label is too small to read: it is hidden there (a zone's name) */
  minK?: number;
  /** a marker's box (markerBoxOf): its tag or avatar alone, which a room's name keeps clear of when it and its name do not fit */
  body?: LabelBox;
  /**
   * a zone's name drawn turned, reading bottom to top along its zone (nameTurned): (px, py) is its box's centre in its
   * <text>'s own coordinates, which its transform turns about; `across` the size, as a share of the drawn one, it is
   * drawn at across its zone when it moves clear of a cover there
   */
  turn?: { px: number; py: number; across: number };
  /** a cover a zone's name does not keep clear of (a co-worker: people stand and walk in zones all day) */
  passesZones?: boolean;
}

/** A label's place: its text's anchor point and font size, SVG units. */
export interface LabelPlace {
  x: number;
  y: number;
  fontSize: number;
}

/** How far a room's or zone's status line stands under its name, baseline to baseline, as a share of the name's size. */
export const STATUS_LINE_EM = 1.15;
/** Average glyph width of the UI's sans-serif as a share of the font size. */
const GLYPH_EM = 0.56;
const LINE_EM = 1.2;

const PRIORITY: Partial<Record<AssetKind, number>> = { room: 50, zone: 40, employee: 30, auto_tag: 20, sensor: 10 };

const poleCache = new WeakMap<object, [number, number]>();
// by the outline's numbers too: each live change of a room (its status, its colour) comes
// from the worker as a new object with a new, equal outline array, and polylabel is the
// costliest step of drawing a room and of laying its label out
const poleByShape = new Map<string, [number, number]>();
const POLE_BY_SHAPE_MAX = 4_096;

/** The pole of inaccessibility of an outline, in SVG coordinates (memoized per outline array and per shape). */
export function labelPoint(outline: NonNullable<DrawState['outline']>): [number, number] {
  const hit = poleCache.get(outline);
  if (hit) return hit;
  const shape = outline.join(';');
  const same = poleByShape.get(shape);
  if (same) {
    poleCache.set(outline, same);
    return same;
  }
  const ring = outline.map(([x, y]) => [x, svgY(y)] as [number, number]);
  const box = boxOf(ring)!;
  // a hundredth of the smaller side: precise enough to look centred, a few dozen cells to search
  const precision = Math.max(0.01, Math.min(box.maxX - box.minX, box.maxY - box.minY) / 100);
  const p = polylabel([ring], precision);
  const point: [number, number] = Number.isFinite(p[0]) && Number.isFinite(p[1]) ? [p[0], p[1]] : [(box.minX + box.maxX) / 2, (box.minY + box.maxY) / 2];
  poleCache.set(outline, point);
  if (poleByShape.size >= POLE_BY_SHAPE_MAX) poleByShape.clear();
  poleByShape.set(shape, point);
  return point;
}

/**
 * A zone's name is never drawn smaller than this on screen: below it, it is hidden until the map is zoomed in
 * (docs/ui.md "Zone names fit their zone").
 */
export const ZONE_NAME_MIN_PX = 9;
/** The share of a zone's width its name may take. */
const ZONE_NAME_FILL = 0.9;

/**
 * A zone's name turns to read bottom to top along its zone's upright length when that draws it at least this many
 * times larger than across it.
 */
const TURN_GAIN = 1.25;
/** How thick a zone's name is across its line, as a share of its size: one line, or the name over its status. */
const nameThicknessEm = (entry: DrawState) => (entry.status ? 0.9 + STATUS_LINE_EM + 0.8 * 0.3 : 0.9 + 0.3);

const sizeFontSize = (entry: DrawState) => Math.max(0.5, Math.min(1.2, Math.sqrt(Math.abs((entry.width || 4) * (entry.depth || 4))) / 6));
/** A zone's name's size with its line `run` long (its zone's width across, its depth turned), at most that of its area. */
const zoneFit = (entry: DrawState, run: number) => Math.min(sizeFontSize(entry), (run * ZONE_NAME_FILL) / ((entry.label?.length || 1) * GLYPH_EM));
/** A zone's name's size turned: its line along the zone's depth, its thickness within the zone's width. */
const turnedFit = (entry: DrawState) => Math.min(zoneFit(entry, entry.depth || 4), ((entry.width || 4) * ZONE_NAME_FILL) / nameThicknessEm(entry));

/**
 * Whether a zone's name is drawn turned, reading bottom to top along its zone's length: in a zone taller than it is
 * wide where that draws it at least TURN_GAIN times larger (the seeded bands, 2.4 m wide and 5–6 m deep, whose names
 * across them were too small to read on a laptop's fitted floor), as floor plans and maps letter a long, narrow
 * space along it. Rooms keep theirs across: their names are short.
 */
export function nameTurned(entry: DrawState): boolean {
  if (entry.kind !== 'zone' || !entry.label) return false;
  return turnedFit(entry) > TURN_GAIN * zoneFit(entry, entry.width || 4);
}

/**
 * Font size of a room's or zone's name, from its size (metres). A zone's name also fits its zone: zones lie side by
 * side (the seeded ones are ~2.4 m wide, their names 4–6 m at the size of their area), and a name wider than its zone
 * ran over its neighbours and hid theirs. It fits the zone's width, or turned (nameTurned) its depth.
 */
export function shapeFontSize(entry: DrawState): number {
  if (entry.kind !== 'zone' || !entry.label) return sizeFontSize(entry);
  return nameTurned(entry) ? turnedFit(entry) : zoneFit(entry, entry.width || 4);
}

/**
 * Font size of a room's or zone's status line: four fifths of its name's, made
 * smaller when the words would run past the shape's width (an "occupied and
 * reserved" in a 3 m room), so a status never spills over its neighbour (its
 * depth, for a zone's name drawn turned).
 */
export function statusFontSize(entry: DrawState, status: string, nameSize = shapeFontSize(entry)): number {
  const wanted = nameSize * 0.8;
  const room = ((nameTurned(entry) ? entry.depth : entry.width) || 4) * 0.9;
  const needed = status.length * wanted * GLYPH_EM;
  return needed > room ? Math.max(wanted * 0.5, (wanted * room) / needed) : wanted;
}

/** Text drawn as the asset's label and its extra line (a shape's status), or null. */
function linesOf(entry: DrawState): [string, string | null] | null {
  switch (entry.kind) {
    case 'room':
    case 'zone':
      return entry.label || entry.status ? [entry.label ?? '', entry.status] : null;
    case 'employee':
    case 'auto_tag': {
      const text = entry.label ?? entry.name;
      return text ? [text, null] : null;
    }
    case 'sensor': {
      const text = entry.text ?? entry.label;
      return text ? [text, null] : null;
    }
    default:
      return null;
  }
}

/** What a speech bubble's one line holds: about 8 floor units at its font size, mark or quotes included. */
export const BUBBLE_MAX_CHARS = 32;
/** A bubble's height and the tail under it down to its asset's point, floor units. */
export const BUBBLE_HEIGHT = 1.3;
export const BUBBLE_TAIL = 0.5;

/**
 * A ticket's or voice's text on its bubble: one line, cut at a word with "…" when longer than the bubble
 * holds (a long message, a pasted link); the popup and the accessible name keep the whole text.
 */
export function bubbleLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= BUBBLE_MAX_CHARS) return flat;
  const cut = flat.slice(0, BUBBLE_MAX_CHARS - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space >= BUBBLE_MAX_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A bubble's width for its line, floor units (the mark or the quotes are two characters more). */
export function bubbleWidth(line: string): number {
  return Math.min(8, Math.max(2.4, (line.length + 2) * 0.22 + 0.8));
}

/** The box of a ticket's or voice's bubble and its tail on the map, SVG units, or null for an asset that draws none. */
export function bubbleBoxOf(entry: DrawState): LabelBox | null {
  if (entry.kind !== 'ticket' && entry.kind !== 'voice') return null;
  const w = bubbleWidth(bubbleLine(entry.text ?? entry.label ?? entry.name ?? ''));
  const h = BUBBLE_HEIGHT + BUBBLE_TAIL;
  // the tail's tip is at the asset's point, the bubble above it
  return { id: entry.id, cx: entry.x, cy: svgY(entry.y) - h / 2, w, h, priority: Infinity };
}

/** A device marker's tag body (an auto_tag: "Wheelchair", "First-aid kit"), floor units, centred on its point. */
export const MARKER_BODY = { w: 0.9, h: 0.6 } as const;

/** A co-worker's avatar's radius, floor units (its ring 0.08 more); a decoration (a hat, a crown) stands up to 2.1 radii above its centre. */
export const AVATAR_R = 0.6;

/**
 * The box of a device marker or a co-worker's avatar and the name under it on the map, SVG units, or null for another
 * asset. A room's name keeps clear of it as of a bubble (a zone's of a device's only, `passesZones`): the marker is
 * drawn over rooms and zones, and its own name gave way to theirs (a lower priority) while its body still stood on
 * their name ("F0-R1" read "F R1" under a co-worker in the meeting).
 */
export function markerBoxOf(entry: DrawState): LabelBox | null {
  if (entry.kind !== 'auto_tag' && entry.kind !== 'employee') return null;
  const y = svgY(entry.y);
  const person = entry.kind === 'employee';
  const ring = AVATAR_R + 0.08;
  const [bw, above, below] = person ? [2 * ring, entry.decoration ? 2.1 * AVATAR_R : ring, ring] : [MARKER_BODY.w, MARKER_BODY.h / 2, MARKER_BODY.h / 2];
  const name = labelBoxOf(entry);
  const w = Math.max(bw, name?.w ?? 0);
  const top = y - above;
  const bottom = Math.max(y + below, name ? name.cy + name.h / 2 : -Infinity);
  const body: LabelBox = { id: entry.id, cx: entry.x, cy: y + (below - above) / 2, w: bw, h: above + below, priority: Infinity };
  const box: LabelBox = { id: entry.id, cx: entry.x, cy: (top + bottom) / 2, w, h: bottom - top, priority: Infinity, body };
  if (person) box.passesZones = true;
  return box;
}

/** What a room's or zone's name keeps clear of: a ticket's or voice's bubble, a device marker or a co-worker with their name. */
export function coverBoxOf(entry: DrawState): LabelBox | null {
  return bubbleBoxOf(entry) ?? markerBoxOf(entry);
}

/** Covers by a grid of CELL-unit squares, so a shape's name meets only those near it whatever a floor holds. */
export interface CoverIndex {
  /** the covers whose boxes come within `reach` of (x, y), each once */
  near(x: number, y: number, reach: number): LabelBox[];
}

const COVER_CELL = 8;

export function coverIndex(covers: readonly LabelBox[]): CoverIndex {
  const cells = new Map<string, LabelBox[]>();
  for (const c of covers) {
    for (let gx = Math.floor((c.cx - c.w / 2) / COVER_CELL); gx <= Math.floor((c.cx + c.w / 2) / COVER_CELL); gx++) {
      for (let gy = Math.floor((c.cy - c.h / 2) / COVER_CELL); gy <= Math.floor((c.cy + c.h / 2) / COVER_CELL); gy++) {
        const key = `${gx},${gy}`;
        const list = cells.get(key);
        if (list) list.push(c);
        else cells.set(key, [c]);
      }
    }
  }
  return {
    near(x, y, reach) {
      const found = new Set<LabelBox>();
      for (let gx = Math.floor((x - reach) / COVER_CELL); gx <= Math.floor((x + reach) / COVER_CELL); gx++) {
        for (let gy = Math.floor((y - reach) / COVER_CELL); gy <= Math.floor((y + reach) / COVER_CELL); gy++) {
          for (const c of cells.get(`${gx},${gy}`) ?? []) {
            if (Math.abs(c.cx - x) - c.w / 2 < reach && Math.abs(c.cy - y) - c.h / 2 < reach) found.add(c);
          }
        }
      }
      return [...found];
    },
  };
}

const overlaps = (a: LabelBox, b: LabelBox, gap: number) =>
  Math.abs(a.cx - b.cx) * 2 < a.w + b.w + 2 * gap && Math.abs(a.cy - b.cy) * 2 < a.h + b.h + 2 * gap;

/** Whether (x, y) lies inside the ring (even-odd rule, shared/geo.ts). */
const inside = (ring: ReadonlyArray<readonly [number, number]>, x: number, y: number): boolean => pointInPolygon([x, y], ring);

/** Candidate places per side of a shape's box, searched for a clear spot for its name. */
const CLEAR_SPOT_STEPS = 16;
/** Air between a moved name's box and its shape's walls, floor units. */
const WALL_PAD = 0.1;
/**
 * The sizes a room's or zone's name is tried at, as a share of its own, when it moves clear of covers: a name a little
 * smaller beside a device is read with it, where at its full size one of the two had to give way.
 */
export const CLEAR_SCALES = [1, 0.85, 0.7] as const;
/** The same for a zone's name turned along its zone: down to the size it has across the zone, which is tried next. */
const TURNED_SCALES = [1, 0.85, 0.7, 0.55, 0.4] as const;

/** Where a room's or zone's name is drawn to keep clear of covers: moved by (dx, dy) and drawn `scale` times its size. */
export interface LabelShift {
  dx: number;
  dy: number;
  /** the name's size as a share of its own, about its box's centre (1: unchanged) */
  scale: number;
  /** a turned name (LabelBox.turn) drawn across its zone instead */
  across?: boolean;
}

/** Whether segment (ax, ay)–(bx, by) meets the open box x0 < x < x1, y0 < y < y1 (Liang–Barsky). */
function segmentMeetsBox(ax: number, ay: number, bx: number, by: number, x0: number, y0: number, x1: number, y1: number): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = bx - ax;
  const dy = by - ay;
  for (const [p, q] of [[-dx, ax - x0], [dx, x1 - ax], [-dy, ay - y0], [dy, y1 - ay]] as const) {
    if (p === 0) {
      if (q <= 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) {
      if (t > t1) return false;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return false;
      if (t < t1) t1 = t;
    }
  }
  return t0 < t1;
}

/** Whether the whole box lies inside the ring: its corners inside, and no wall runs through it (a notch, a pillar's corner). */
function boxInside(ring: ReadonlyArray<readonly [number, number]>, x0: number, y0: number, x1: number, y1: number): boolean {
  if (!inside(ring, x0, y0) || !inside(ring, x1, y0) || !inside(ring, x0, y1) || !inside(ring, x1, y1)) return false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    if (segmentMeetsBox(ring[j]![0], ring[j]![1], ring[i]![0], ring[i]![1], x0, y0, x1, y1)) return false;
  }
  return true;
}

/**
 * Where a room's or zone's name goes so that no bubble or device marker (coverBoxOf) covers it, as a
 * shift of its box `box` (labelBoxOf): none when nothing covers it, else the nearest place inside its
 * shape that every cover leaves clear; null when there is none (it then stays at its own place, inside
 * its shape). Inside means the whole box, with a little air from the walls: a moved name is never drawn
 * across its room's wall (it was, when only the middle of its top and bottom edges was checked). When
 * no place holds it at its size, it is tried a little smaller (CLEAR_SCALES), so that it is read beside
 * the device or bubble rather than one of the two giving way. In a room too small for its name, a device's
 * tag and the device's name even so, the name keeps clear of the tag alone: the device's name, the
 * smaller thing's, then gives way to it in the collision layout.
 */
export function clearOfCovers(entry: DrawState, box: LabelBox, covers: readonly LabelBox[], gap = 0.15): LabelShift | null {
  if (!covers.some((b) => overlaps(box, b, gap))) return { dx: 0, dy: 0, scale: 1 };
  const outline = entry.outline;
  if (!outline || outline.length < 3) return null;
  const ring = outline.map(([x, y]) => [x, svgY(y)] as const);
  const area = boxOf(ring)!;
  // the covers near the shape are the only ones a place inside it can meet
  const near = covers.filter((b) => b.cx + b.w / 2 + gap > area.minX && b.cx - b.w / 2 - gap < area.maxX && b.cy + b.h / 2 + gap > area.minY && b.cy - b.h / 2 - gap < area.maxY);
  // a grid over the shape, the same at every size
  const grid: Array<[number, number]> = [];
  const stepX = (area.maxX - area.minX) / CLEAR_SPOT_STEPS;
  const stepY = (area.maxY - area.minY) / CLEAR_SPOT_STEPS;
  for (let i = 0; i <= CLEAR_SPOT_STEPS; i++) {
    for (let j = 0; j <= CLEAR_SPOT_STEPS; j++) grid.push([area.minX + i * stepX, area.minY + j * stepY]);
  }
  const tries = [near];
  if (near.some((c) => c.body)) tries.push(near.map((c) => c.body ?? c));
  // a turned name is tried smaller along its zone, as long as that is larger than across it; then across it, from
  // the size that fits the zone's width
  const forms: Array<{ box: LabelBox; scales: readonly number[]; across?: boolean }> = [
    { box, scales: box.turn ? TURNED_SCALES.filter((s) => s === 1 || s > box.turn!.across) : CLEAR_SCALES },
  ];
  if (box.turn) forms.push({ box: { ...box, w: box.h, h: box.w }, scales: CLEAR_SCALES.map((s) => s * box.turn!.across), across: true });
  for (const against of tries) {
    for (const form of forms) {
      for (const scale of form.scales) {
        const shift = clearPlace(ring, area, form.box, scale, grid, against, gap);
        if (shift) return form.across ? { ...shift, across: true } : shift;
      }
    }
  }
  return null;
}

function clearPlace(
  ring: ReadonlyArray<readonly [number, number]>, area: NonNullable<ReturnType<typeof boxOf>>, box: LabelBox, scale: number,
  grid: ReadonlyArray<readonly [number, number]>, covers: readonly LabelBox[], gap: number,
): LabelShift | null {
  const hw = (box.w * scale) / 2;
  const hh = (box.h * scale) / 2;
  // the grid's points, the places along the walls and those beside each cover (a grid's step can miss a tight fit),
  // with twice the air: a small name's glyphs are drawn a little taller than its box says
  const spots: Array<readonly [number, number]> = [
    ...grid,
    [box.cx, area.minY + WALL_PAD + hh], [box.cx, area.maxY - WALL_PAD - hh], [area.minX + WALL_PAD + hw, box.cy], [area.maxX - WALL_PAD - hw, box.cy],
  ];
  const air = 2 * gap;
  for (const c of covers) {
    spots.push(
      [box.cx, c.cy - c.h / 2 - air - hh], [box.cx, c.cy + c.h / 2 + air + hh],
      [c.cx - c.w / 2 - air - hw, box.cy], [c.cx + c.w / 2 + air + hw, box.cy],
    );
  }
  const places = spots
    .filter(([x, y]) => x - hw - WALL_PAD >= area.minX && x + hw + WALL_PAD <= area.maxX && y - hh - WALL_PAD >= area.minY && y + hh + WALL_PAD <= area.maxY)
    .map(([x, y]) => ({ x, y, d: Math.hypot(x - box.cx, y - box.cy) }))
    .sort((a, b) => a.d - b.d);
  for (const { x, y } of places) {
    const moved: LabelBox = { ...box, cx: x, cy: y, w: hw * 2, h: hh * 2 };
    if (covers.some((b) => overlaps(moved, b, gap))) continue;
    if (!boxInside(ring, x - hw - WALL_PAD, y - hh - WALL_PAD, x + hw + WALL_PAD, y + hh + WALL_PAD)) continue;
    return { dx: x - box.cx, dy: y - box.cy, scale };
  }
  return null;
}

/** A name's box drawn where `shift` puts it: moved, scaled about its centre, and a turned one maybe across. */
export function shiftedBox(box: LabelBox, shift: LabelShift): LabelBox {
  const [w, h] = shift.across ? [box.h, box.w] : [box.w, box.h];
  const moved: LabelBox = { ...box, cx: box.cx + shift.dx, cy: box.cy + shift.dy, w: w * shift.scale, h: h * shift.scale };
  // a zone's name drawn smaller is readable from a closer zoom
  if (box.minK !== undefined) moved.minK = box.minK / shift.scale;
  return moved;
}

/** The `transform` a name's <text> is drawn with where it stands (a turned zone's name: turned about its box's centre), or null. */
export function labelTransform(box: LabelBox): string | null {
  return box.turn ? shiftTransform(box, { dx: 0, dy: 0, scale: 1 }) : null;
}

/**
 * The `transform` that draws a name where `shift` puts it (its box's centre the fixed point of the scale and the
 * turn), or null for none.
 */
export function shiftTransform(box: LabelBox, shift: LabelShift): string | null {
  const { dx, dy, scale } = shift;
  if (box.turn) {
    const turn = shift.across ? '' : ' rotate(-90)';
    return `translate(${box.cx + dx} ${box.cy + dy})${turn}${scale === 1 ? '' : ` scale(${scale})`} translate(${-box.turn.px} ${-box.turn.py})`;
  }
  if (scale === 1) return dx === 0 && dy === 0 ? null : `translate(${dx} ${dy})`;
  return `translate(${box.cx + dx} ${box.cy + dy}) scale(${scale}) translate(${-box.cx} ${-box.cy})`;
}

/** Where a thing's label sits relative to its centre, and its font size (AssetNode draws it there). */
export const THING_LABELS: Partial<Record<AssetKind, { dy: number; fontSize: number }>> = {
  employee: { dy: 1.15, fontSize: 0.45 },
  auto_tag: { dy: 0.85, fontSize: 0.4 },
  sensor: { dy: -0.5, fontSize: 0.35 },
};

/** The label's box on the map, SVG units, or null when the asset draws no label. */
export function labelBoxOf(entry: DrawState, offset: readonly [number, number] = [0, 0]): LabelBox | null {
  const lines = linesOf(entry);
  if (!lines) return null;
  const [main, extra] = lines;
  if ((entry.kind === 'room' || entry.kind === 'zone') && entry.outline && entry.outline.length > 2) {
    const fs = shapeFontSize(entry);
    const [x, y] = labelPoint(entry.outline);
    const sfs = extra ? statusFontSize(entry, extra, fs) : 0;
    const w = Math.max(main.length * fs, (extra?.length ?? 0) * sfs) * GLYPH_EM;
    // the first line's baseline is at the point; the status line's baseline STATUS_LINE_EM of the name's size
    // below it, however small its own font (a long status in a narrow room): the box reaches the status's foot
    const first = main ? fs : sfs;
    const top = y - first * 0.9;
    const bottom = main && extra ? y + fs * STATUS_LINE_EM + sfs * 0.3 : y + first * 0.3;
    const h = bottom - top;
    const area = Math.abs((entry.width || 1) * (entry.depth || 1));
    const priority = PRIORITY[entry.kind]! + Math.min(9, Math.log10(1 + area));
    const [ox, oy] = [offset[0], svgY(offset[1])];
    let box: LabelBox;
    if (nameTurned(entry)) {
      // turned a quarter counter-clockwise about its box's centre, which is put at the point: centred across the zone
      const across = zoneFit(entry, entry.width || 4) / fs;
      box = { id: entry.id, cx: x + ox, cy: y + oy, w: h, h: w, priority, turn: { px: x, py: top + h / 2, across } };
    } else {
      box = { id: entry.id, cx: x + ox, cy: top + h / 2 + oy, w, h, priority };
    }
    // a zone's name, sized to fit its zone, shows from the zoom where it can be read
    if (entry.kind === 'zone' && entry.label) box.minK = ZONE_NAME_MIN_PX / fs;
    return box;
  }
  const place = THING_LABELS[entry.kind];
  if (!place) return null;
  const w = main.length * place.fontSize * GLYPH_EM;
  const h = place.fontSize * LINE_EM;
  const baseline = svgY(entry.y) + place.dy;
  return { id: entry.id, cx: entry.x + offset[0], cy: baseline - place.fontSize * 0.35 + svgY(offset[1]), w, h, priority: PRIORITY[entry.kind] ?? 0 };
}

/**
 * The labels to hide at zoom k (screen px per SVG unit) so that no two shown
 * labels overlap on screen: higher priority first, each kept only if it
 * clears every label kept before it (a grid of screen cells finds the
 * neighbours). `gapPx` keeps a little air between labels. A label too small
 * to read at k (`minK`) is hidden first.
 */
export function collidingLabels(boxes: readonly LabelBox[], k: number, gapPx = 2): Set<string> {
  const hidden = new Set<string>();
  const cell = 64;
  const grid = new Map<string, Array<{ x0: number; y0: number; x1: number; y1: number }>>();
  // ids are codes, not words: any fixed order will do, and a collator would cost the start-up its data (lib/collate.ts)
  const order = [...boxes].sort((a, b) => b.priority - a.priority || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const b of order) {
    // too small to read at this zoom: hidden, and it takes no room from the others
    if (b.minK !== undefined && k < b.minK) {
      hidden.add(b.id);
      continue;
    }
    const x0 = (b.cx - b.w / 2) * k - gapPx;
    const x1 = (b.cx + b.w / 2) * k + gapPx;
    const y0 = (b.cy - b.h / 2) * k - gapPx;
    const y1 = (b.cy + b.h / 2) * k + gapPx;
    const cells: string[] = [];
    for (let gx = Math.floor(x0 / cell); gx <= Math.floor(x1 / cell); gx++) {
      for (let gy = Math.floor(y0 / cell); gy <= Math.floor(y1 / cell); gy++) cells.push(`${gx},${gy}`);
    }
    const clash = cells.some((c) => grid.get(c)?.some((o) => x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1));
    if (clash) {
      hidden.add(b.id);
      continue;
    }
    const rect = { x0, y0, x1, y1 };
    for (const c of cells) {
      const list = grid.get(c);
      if (list) list.push(rect);
      else grid.set(c, [rect]);
    }
  }
  return hidden;
}
