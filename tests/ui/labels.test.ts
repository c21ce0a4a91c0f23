import { describe, expect, it } from 'vitest';
import {
  AVATAR_R, bubbleBoxOf, clearOfCovers, CLEAR_SCALES, coverIndex, collidingLabels, coverBoxOf, labelBoxOf, labelTransform, markerBoxOf, MARKER_BODY, nameTurned, STATUS_LINE_EM, labelPoint,
  shapeFontSize, shiftedBox, shiftTransform, statusFontSize, ZONE_NAME_MIN_PX, type LabelBox,
} from '../../src/ui/lib/labels.js';
import { draw, room } from './fakeEngine.js';
import { svgY } from '../../src/ui/lib/viewport.js';

/** Where an SVG `transform` list (translate, rotate about the origin, scale) takes the point (x, y). */
function apply(transform: string, x: number, y: number): [number, number] {
  const ops = [...transform.matchAll(/(translate|rotate|scale)\(([^)]*)\)/g)].map((m) => [m[1]!, m[2]!.trim().split(/[\s,]+/).map(Number)] as const);
  let [px, py] = [x, y];
  // the last in the list is applied first
  for (const [op, a] of ops.reverse()) {
    if (op === 'translate') [px, py] = [px + a[0]!, py + (a[1] ?? 0)];
    else if (op === 'scale') [px, py] = [px * a[0]!, py * (a[1] ?? a[0]!)];
    else {
      const r = (a[0]! * Math.PI) / 180;
      [px, py] = [px * Math.cos(r) - py * Math.sin(r), px * Math.sin(r) + py * Math.cos(r)];
    }
  }
  return [px, py];
}

describe('labels', () => {
  describe('labelPoint', () => {
    it('puts an L-shaped room\'s name inside the room, where its box centre is outside', () => {
      // an L: the box centre (5, 5) lies in the cut-out corner
      const outline: Array<[number, number]> = [[0, 0], [10, 0], [10, 3], [3, 3], [3, 10], [0, 10]];
      const [x, y] = labelPoint(outline);
      const inside = (x >= 0 && x <= 10 && y >= 0 && y <= 3) || (x >= 0 && x <= 3 && y >= 0 && y <= 10);
      expect(inside).toBe(true);
      expect(x < 3 || y < 3).toBe(true);
    });

    it('is the centre of a rectangle', () => {
      const [x, y] = labelPoint([[0, 0], [8, 0], [8, 4], [0, 4]]);
      expect(x).toBeCloseTo(4, 1);
      expect(y).toBeCloseTo(2, 1);
    });
  });

  describe('collidingLabels', () => {
    const box = (id: string, cx: number, priority: number): LabelBox => ({ id, cx, cy: 0, w: 2, h: 0.5, priority });

    it('hides the lower-priority of two labels that overlap at this zoom', () => {
      const labels = [box('sensor', 1, 10), box('room', 0, 50)];
      expect([...collidingLabels(labels, 10)]).toEqual(['sensor']);
    });

    it('shows both once zoomed in far enough that they clear each other', () => {
      const labels = [box('a', 0, 10), box('b', 2.5, 10)];
      expect(collidingLabels(labels, 10).size).toBe(0);
      // nearer, they overlap at any zoom: one gives way
      expect(collidingLabels([box('a', 0, 10), box('b', 1.5, 10)], 10).size).toBe(1);
    });

    it('keeps a little air between labels', () => {
      const labels = [box('a', 0, 10), box('b', 2.1, 20)];
      expect([...collidingLabels(labels, 10, 2)]).toEqual(['a']);
      expect(collidingLabels(labels, 10, 0).size).toBe(0);
    });
  });

  describe('labelBoxOf', () => {
    it('gives rooms and people a box and desks none', () => {
      expect(labelBoxOf(room('r1'))!.priority).toBeGreaterThan(labelBoxOf(draw('e1', { kind: 'employee', name: 'Ann' }))!.priority);
      expect(labelBoxOf(draw('d1'))).toBeNull();
    });

    it("keeps a room's status inside the room: a long status in a narrow room is drawn smaller, a short one at four fifths of the name", () => {
      const narrow = room('r2', { outline: [[0, 0], [3, 0], [3, 3], [0, 3]], width: 3, depth: 3, status: 'occupied and reserved' });
      const name = shapeFontSize(narrow);
      const size = statusFontSize(narrow, 'occupied and reserved', name);
      expect(size).toBeLessThan(name * 0.8);
      expect('occupied and reserved'.length * size * 0.56).toBeLessThanOrEqual(3 * 0.9 + 1e-9);
      expect(labelBoxOf(narrow)!.w).toBeLessThanOrEqual(3);
      const wide = room('r3', { status: 'free' });
      expect(statusFontSize(wide, 'free')).toBeCloseTo(shapeFontSize(wide) * 0.8);
    });
  });
  describe('zone names', () => {
    // the seeded floor's five zone bands: 2.4 m wide, 5 m deep, side by side; their names 4–6 m at the size of their area
    const NAMES = ['generic zone', 'communication zone', 'collaboration zone', 'concentration zone', 'chilling zone'];
    const band = (i: number) => draw(`z${i}`, {
      kind: 'zone', name: NAMES[i]!, label: NAMES[i]!, status: null, layers: ['zones'],
      outline: [[i * 2.4, 0], [(i + 1) * 2.4, 0], [(i + 1) * 2.4, 5], [i * 2.4, 5]], x: i * 2.4 + 1.2, y: 2.5, width: 2.4, depth: 5,
    });
    const bands = NAMES.map((_, i) => band(i));

    it("fits a zone's name in its zone's width; a wide zone's name keeps the size of its area", () => {
      for (const zone of bands) {
        const box = labelBoxOf(zone)!;
        expect(box.w).toBeLessThanOrEqual(2.4 * 0.9 + 1e-9);
        expect(Math.abs(box.cx - zone.x)).toBeLessThan(1e-6);
      }
      const wide = draw('zw', { kind: 'zone', label: 'Quiet zone', status: null, outline: [[0, 0], [20, 0], [20, 12], [0, 12]], x: 10, y: 6, width: 20, depth: 12 });
      expect(shapeFontSize(wide)).toBe(1.2);
      // rooms keep theirs (their status line has its own rule)
      expect(shapeFontSize(room('r1', { label: 'A very long room name indeed', width: 2.4, depth: 5 }))).toBeCloseTo(Math.sqrt(12) / 6);
    });

    it(`hides a zone's name smaller than ${ZONE_NAME_MIN_PX} px at this zoom, and shows it from the zoom where it is that size`, () => {
      const name = labelBoxOf(bands[2]!)!;
      const fontSize = shapeFontSize(bands[2]!);
      const readable = ZONE_NAME_MIN_PX / fontSize;
      expect(name.minK).toBeCloseTo(readable);
      expect([...collidingLabels([name], readable * 0.99)]).toEqual(['z2']);
      expect(collidingLabels([name], readable).size).toBe(0);
    });

    it("names every band of a row of narrow zones on a laptop's fitted floor, each turned along its band, inside it, none over another", () => {
      const boxes = bands.map((z) => labelBoxOf(z)!);
      // as the seeded floor is fitted on a laptop (~24 px a metre): across its 2.4 m band a name was 5–8 px and none
      // was shown; turned along the band's 5 m each is readable
      expect(collidingLabels(boxes, 24).size).toBe(0);
      bands.forEach((zone, i) => {
        expect(nameTurned(zone), zone.label!).toBe(true);
        expect(shapeFontSize(zone) * 24, zone.label!).toBeGreaterThanOrEqual(ZONE_NAME_MIN_PX);
        // where the <text> is drawn: its own box's corners through its transform, inside its band
        const b = boxes[i]!;
        const own = { x0: b.turn!.px - b.h / 2, x1: b.turn!.px + b.h / 2, y0: b.turn!.py - b.w / 2, y1: b.turn!.py + b.w / 2 };
        const t = labelTransform(b)!;
        const corners = [apply(t, own.x0, own.y0), apply(t, own.x1, own.y0), apply(t, own.x0, own.y1), apply(t, own.x1, own.y1)];
        const xs = corners.map((c) => c[0]);
        const ys = corners.map((c) => c[1]);
        expect(Math.min(...xs)).toBeCloseTo(b.cx - b.w / 2);
        expect(Math.max(...ys)).toBeCloseTo(b.cy + b.h / 2);
        expect(Math.min(...xs)).toBeGreaterThanOrEqual(i * 2.4);
        expect(Math.max(...xs)).toBeLessThanOrEqual((i + 1) * 2.4);
        expect(Math.min(...ys)).toBeGreaterThanOrEqual(Math.min(0, svgY(5)));
        expect(Math.max(...ys)).toBeLessThanOrEqual(Math.max(0, svgY(5)));
        // reading bottom to top: the line's start (its left end unturned) is at the foot
        expect(apply(t, own.x0, b.turn!.py)[1]).toBeGreaterThan(apply(t, own.x1, b.turn!.py)[1]);
      });
      // zoomed in: still all five
      expect(collidingLabels(boxes, 24 * 3).size).toBe(0);
    });

    it('keeps a name across a zone that is wide, or not narrow enough for turning to gain much', () => {
      const wide = draw('zw', { kind: 'zone', label: 'Quiet zone', status: null, outline: [[0, 0], [20, 0], [20, 12], [0, 12]], x: 10, y: 6, width: 20, depth: 12 });
      const squarish = draw('zs', { kind: 'zone', label: 'collaboration zone', status: null, outline: [[0, 0], [6, 0], [6, 7], [0, 7]], x: 3, y: 3.5, width: 6, depth: 7 });
      for (const zone of [wide, squarish]) {
        expect(nameTurned(zone)).toBe(false);
        expect(labelBoxOf(zone)!.turn).toBeUndefined();
        expect(labelTransform(labelBoxOf(zone)!)).toBeNull();
      }
      // rooms are never turned
      expect(nameTurned(room('r1', { label: 'A long room name', outline: [[0, 0], [2.4, 0], [2.4, 6], [0, 6]], width: 2.4, depth: 6 }))).toBe(false);
    });

    it("moves a turned name clear of a bubble across its band's middle, drawn across the band above or below it", () => {
      const zone = bands[2]!;
      const name = labelBoxOf(zone)!;
      const bubble = bubbleBoxOf(draw('t1', { kind: 'ticket', name: 'Radiator is cold', text: 'Radiator is cold', layers: ['service'], x: 6, y: 3.4 }))!;
      expect(Math.abs(name.cy - bubble.cy) * 2 < name.h + bubble.h).toBe(true);
      const shift = clearOfCovers(zone, name, [bubble])!;
      expect(shift).not.toBeNull();
      expect(shift.across).toBe(true);
      const moved = shiftedBox(name, shift);
      expect(moved.w).toBeGreaterThan(moved.h);
      expect(Math.abs(moved.cy - bubble.cy) * 2 >= moved.h + bubble.h || Math.abs(moved.cx - bubble.cx) * 2 >= moved.w + bubble.w).toBe(true);
      expect(moved.cx - moved.w / 2).toBeGreaterThanOrEqual(4.8);
      expect(moved.cx + moved.w / 2).toBeLessThanOrEqual(7.2);
      // the transform draws the name unturned, the box's centre where the moved box is
      const t = shiftTransform(name, shift)!;
      expect(t).not.toMatch(/rotate/);
      const [x, y] = apply(t, name.turn!.px, name.turn!.py);
      expect(x).toBeCloseTo(moved.cx);
      expect(y).toBeCloseTo(moved.cy);
      // drawn across at the size that fits the band's width: readable from a closer zoom
      expect(moved.minK).toBeGreaterThan(name.minK!);
    });
  });
  describe('clearOfCovers', () => {
    // a 20 × 12 zone with its name at the centre (10, 6)
    const zone = draw('z1', {
      kind: 'zone', name: 'Collaboration zone', label: 'Collaboration zone', status: null, layers: ['zones'],
      outline: [[0, 0], [20, 0], [20, 12], [0, 12]], x: 10, y: 6, width: 20, depth: 12,
    });
    const ticket = (id: string, x: number, y: number, text = 'Printer jammed') => draw(id, { kind: 'ticket', name: text, text, layers: ['service'], x, y });
    const meets = (a: LabelBox, b: LabelBox) => Math.abs(a.cx - b.cx) * 2 < a.w + b.w && Math.abs(a.cy - b.cy) * 2 < a.h + b.h;

    it('knows where a bubble is drawn: above its ticket, as wide as its line', () => {
      const box = bubbleBoxOf(ticket('t1', 10, 7))!;
      // the tail's tip at the ticket's point, the bubble 1.3 high above its 0.5 tail
      expect(box.cy + box.h / 2).toBeCloseTo(7);
      expect(box.h).toBeCloseTo(1.8);
      expect(box.w).toBeCloseTo((14 + 2) * 0.22 + 0.8);
      expect(bubbleBoxOf(zone)).toBeNull();
    });

    it('leaves a name no bubble covers where it is', () => {
      const name = labelBoxOf(zone)!;
      expect(clearOfCovers(zone, name, [bubbleBoxOf(ticket('t1', 2, 2))!])).toEqual({ dx: 0, dy: 0, scale: 1 });
    });

    it('moves a name a bubble covers to the nearest clear place inside its zone', () => {
      const name = labelBoxOf(zone)!;
      const bubble = bubbleBoxOf(ticket('t1', 10, 7))!;
      expect(meets(name, bubble)).toBe(true);
      const shift = clearOfCovers(zone, name, [bubble])!;
      const moved = { ...name, cx: name.cx + shift.dx, cy: name.cy + shift.dy };
      expect(meets(moved, bubble)).toBe(false);
      // inside the zone, and near where it was: a line up or down, not across the zone
      expect(moved.cx - moved.w / 2).toBeGreaterThanOrEqual(0);
      expect(moved.cx + moved.w / 2).toBeLessThanOrEqual(20);
      expect(moved.cy - moved.h / 2).toBeGreaterThanOrEqual(0);
      expect(moved.cy + moved.h / 2).toBeLessThanOrEqual(12);
      expect(Math.hypot(shift.dx, shift.dy)).toBeLessThan(3);
    });

    const kit = (x: number, y: number) => draw('a1', { kind: 'auto_tag', name: 'First-aid kit', label: null, layers: ['co-workers', 'co-workers-heatmap'], x, y });

    it("knows where a device marker is drawn: its tag at its point and its name under it", () => {
      const box = markerBoxOf(kit(10, 6))!;
      const name = labelBoxOf(kit(10, 6))!;
      // the tag's top edge, the name's foot
      expect(box.cy - box.h / 2).toBeCloseTo(svgY(6) - MARKER_BODY.h / 2);
      expect(box.cy + box.h / 2).toBeCloseTo(name.cy + name.h / 2);
      expect(box.w).toBeCloseTo(Math.max(MARKER_BODY.w, name.w));
      expect(coverBoxOf(kit(10, 6))).toEqual(box);
      expect(markerBoxOf(zone)).toBeNull();
      expect(markerBoxOf(ticket('t1', 10, 7))).toBeNull();
    });

    it("reaches the foot of a room's status line, drawn smaller when long but as far under the name", () => {
      const narrow = draw('r2', { kind: 'room', label: 'F0-R1', status: 'occupied and reserved', outline: [[0, 0], [3, 0], [3, 4], [0, 4]], x: 1.5, y: 2, width: 3, depth: 4 });
      const box = labelBoxOf(narrow)!;
      const fs = shapeFontSize(narrow);
      const sfs = statusFontSize(narrow, 'occupied and reserved', fs);
      expect(sfs).toBeLessThan(fs * 0.8);
      const baseline = labelPoint(narrow.outline!)[1];
      expect(box.cy + box.h / 2).toBeCloseTo(baseline + fs * STATUS_LINE_EM + sfs * 0.3);
    });

    it("moves a room's name a device marker stands on clear of it and its name, so both are read", () => {
      const office = draw('r1', { kind: 'room', label: 'F0-R1', status: 'occupied', outline: [[0, 0], [8, 0], [8, 6], [0, 6]], x: 4, y: 3, width: 8, depth: 6 });
      const name = labelBoxOf(office)!;
      // the kit at the name's middle: its tag over the name, its own name then lost the collision to the room's
      const marker = coverBoxOf(kit(name.cx, svgY(name.cy)))!;
      expect(meets(name, marker)).toBe(true);
      expect(collidingLabels([name, labelBoxOf(kit(name.cx, svgY(name.cy)))!], 40).has('a1')).toBe(true);
      const shift = clearOfCovers(office, name, [marker])!;
      const moved = { ...name, cx: name.cx + shift.dx, cy: name.cy + shift.dy };
      expect(meets(moved, marker)).toBe(false);
      expect(Math.min(moved.cy - moved.h / 2, moved.cy + moved.h / 2)).toBeGreaterThanOrEqual(Math.min(0, svgY(6)));
      expect(Math.max(moved.cy - moved.h / 2, moved.cy + moved.h / 2)).toBeLessThanOrEqual(Math.max(0, svgY(6)));
      // moved clear, neither name gives way
      expect(collidingLabels([moved, labelBoxOf(kit(name.cx, svgY(name.cy)))!], 40).size).toBe(0);
    });

    /** Whether the box lies inside the ring: a 9 × 9 grid of its points, each inside (even-odd rule). */
    const boxWithin = (b: LabelBox, outline: Array<[number, number]>) => {
      const ring = outline.map(([x, y]) => [x, svgY(y)] as const);
      const at = (x: number, y: number) => {
        let within = false;
        for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
          const [xi, yi] = ring[i]!;
          const [xj, yj] = ring[j]!;
          if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) within = !within;
        }
        return within;
      };
      for (let i = 0; i <= 8; i++) {
        for (let j = 0; j <= 8; j++) if (!at(b.cx - b.w / 2 + (b.w * i) / 8, b.cy - b.h / 2 + (b.h * j) / 8)) return false;
      }
      return true;
    };

    it("never draws a room's name across its wall to clear a device: in the seeded F0-R1 it is drawn a little smaller above the kit, both read", () => {
      // the seeded F0-R1: 6 × 5.5 m, free (a short status: the name's own width is its box's), the kit at its middle
      const outline: Array<[number, number]> = [[2, 1], [8, 1], [8, 6.5], [2, 6.5]];
      const office = draw('r1', { kind: 'room', label: 'F0-R1', status: 'free', outline, x: 5, y: 3.75, width: 6, depth: 5.5 });
      const name = labelBoxOf(office)!;
      const marker = coverBoxOf(kit(5, 3.55))!;
      expect(meets(name, marker)).toBe(true);
      const shift = clearOfCovers(office, name, [marker])!;
      expect(shift).not.toBeNull();
      const moved = shiftedBox(name, shift);
      // the whole name inside the room (it stood centred on the room's left wall: only its middle column was checked)
      expect(boxWithin(moved, outline)).toBe(true);
      expect(meets(moved, marker)).toBe(false);
      // smaller, by no more than the least it is drawn at, and neither name gives way
      expect(shift.scale).toBeLessThan(1);
      expect(shift.scale).toBeGreaterThanOrEqual(Math.min(...CLEAR_SCALES));
      expect(collidingLabels([moved, labelBoxOf(kit(5, 3.55))!], 30).size).toBe(0);
    });

    it("keeps a moved name inside an L-shaped room, clear of its inner corner", () => {
      // an L: 8 × 6 with its top-right 4 × 3 quarter cut away; the kit at the name's place
      const outline: Array<[number, number]> = [[0, 0], [4, 0], [4, 3], [8, 3], [8, 6], [0, 6]];
      const office = draw('r1', { kind: 'room', label: 'Lounge', status: 'occupied and reserved', outline, x: 4, y: 3, width: 8, depth: 6 });
      const name = labelBoxOf(office)!;
      const marker = coverBoxOf(kit(name.cx, svgY(name.cy)))!;
      const shift = clearOfCovers(office, name, [marker])!;
      expect(shift).not.toBeNull();
      const moved = shiftedBox(name, shift);
      expect(boxWithin(moved, outline)).toBe(true);
      expect(meets(moved, marker.body!)).toBe(false);
    });

    it("keeps clear of a device's tag alone in a room too small for its name beside the device even drawn smaller: the device's name gives way", () => {
      // a 4 × 3 m room, its status long and drawn smaller; the kit at its middle
      const outline: Array<[number, number]> = [[0, 0], [4, 0], [4, 3], [0, 3]];
      const office = draw('r1', { kind: 'room', label: 'F0-R1', status: 'occupied and reserved', outline, x: 2, y: 1.5, width: 4, depth: 3 });
      const name = labelBoxOf(office)!;
      const marker = coverBoxOf(kit(2, 1.3))!;
      const shift = clearOfCovers(office, name, [marker])!;
      expect(shift).not.toBeNull();
      const moved = shiftedBox(name, shift);
      expect(meets(moved, marker.body!)).toBe(false);
      expect(boxWithin(moved, outline)).toBe(true);
      // the room's name read, the kit's hidden (its popup and its accessible name still say it)
      expect([...collidingLabels([moved, labelBoxOf(kit(2, 1.3))!], 30)]).toEqual(['a1']);
    });

    it("draws a name smaller about its box's centre, and a zone's name so drawn from a closer zoom", () => {
      const name = labelBoxOf(zone)!;
      expect(shiftTransform(name, { dx: 0, dy: 0, scale: 1 })).toBeNull();
      expect(shiftTransform(name, { dx: 1, dy: -2, scale: 1 })).toBe('translate(1 -2)');
      // the transform takes the box's centre to the moved centre, and a corner to the scaled box's corner
      const m = /^translate\(([-\d.e]+) ([-\d.e]+)\) scale\(([\d.]+)\) translate\(([-\d.e]+) ([-\d.e]+)\)$/.exec(shiftTransform(name, { dx: 1, dy: -2, scale: 0.5 })!)!;
      const [tx, ty, s, ux, uy] = m.slice(1).map(Number) as [number, number, number, number, number];
      const apply = (x: number, y: number) => [tx + s * (x + ux), ty + s * (y + uy)];
      const moved = shiftedBox(name, { dx: 1, dy: -2, scale: 0.5 });
      expect(apply(name.cx, name.cy)[0]).toBeCloseTo(moved.cx);
      expect(apply(name.cx, name.cy)[1]).toBeCloseTo(moved.cy);
      expect(apply(name.cx - name.w / 2, name.cy - name.h / 2)[0]).toBeCloseTo(moved.cx - moved.w / 2);
      expect(apply(name.cx - name.w / 2, name.cy - name.h / 2)[1]).toBeCloseTo(moved.cy - moved.h / 2);
      expect(moved.minK).toBeCloseTo(name.minK! * 2);
    });

    const coworker = (x: number, y: number, decoration: string | null = null) => draw('p1', {
      kind: 'employee', name: 'Aino Virtanen', label: 'Aino Virtanen', status: null, layers: ['co-workers'], x, y, decoration,
    });

    it("knows where a co-worker is drawn: the avatar's disc at their point, a decoration above it, their name under it", () => {
      const box = markerBoxOf(coworker(10, 6))!;
      const name = labelBoxOf(coworker(10, 6))!;
      expect(box.body!.w).toBeCloseTo(2 * (AVATAR_R + 0.08));
      expect(box.body!.cy - box.body!.h / 2).toBeCloseTo(svgY(6) - AVATAR_R - 0.08);
      expect(box.cy + box.h / 2).toBeCloseTo(name.cy + name.h / 2);
      expect(box.w).toBeCloseTo(name.w);
      // a crown stands above the disc
      expect(markerBoxOf(coworker(10, 6, 'crown'))!.body!.cy - markerBoxOf(coworker(10, 6, 'crown'))!.body!.h / 2).toBeCloseTo(svgY(6) - 2.1 * AVATAR_R);
      // a room's name keeps clear of it, a zone's does not
      expect(coverBoxOf(coworker(10, 6))!.passesZones).toBe(true);
      expect(coverBoxOf(kit(10, 6))!.passesZones).toBeUndefined();
    });

    it("moves a room's name a co-worker stands on clear of their avatar, inside the room; their name gives way where both do not fit", () => {
      // the seeded F0-R1, free, a co-worker in the meeting at its middle: "F0-R1" read "F R1" under the avatar
      const outline: Array<[number, number]> = [[2, 1], [8, 1], [8, 6.5], [2, 6.5]];
      const office = draw('r1', { kind: 'room', label: 'F0-R1', status: 'free', outline, x: 5, y: 3.75, width: 6, depth: 5.5 });
      const name = labelBoxOf(office)!;
      const person = coworker(4.7, 3.45, 'crown');
      const cover = coverBoxOf(person)!;
      expect(meets(name, cover.body!)).toBe(true);
      const shift = clearOfCovers(office, name, [cover])!;
      expect(shift).not.toBeNull();
      const moved = shiftedBox(name, shift);
      expect(meets(moved, cover.body!)).toBe(false);
      expect(boxWithin(moved, outline)).toBe(true);
      // the room's name read; the co-worker's, the smaller thing's, gives way to it (their avatar and popup say who)
      expect([...collidingLabels([moved, labelBoxOf(person)!], 30)]).toEqual(['p1']);
      // in a larger room, both
      const large: Array<[number, number]> = [[0, 0], [10, 0], [10, 8], [0, 8]];
      const hall = draw('r2', { kind: 'room', label: 'F0-R1', status: 'free', outline: large, x: 5, y: 4, width: 10, depth: 8 });
      const hallName = labelBoxOf(hall)!;
      const there = coworker(hallName.cx, svgY(hallName.cy));
      const clear = shiftedBox(hallName, clearOfCovers(hall, hallName, [coverBoxOf(there)!])!);
      expect(meets(clear, coverBoxOf(there)!)).toBe(false);
      expect(boxWithin(clear, large)).toBe(true);
      expect(collidingLabels([clear, labelBoxOf(there)!], 30).size).toBe(0);
    });

    it('finds the covers near a place by a grid, each once, and none far away', () => {
      const near = coverBoxOf(coworker(10, 6))!;
      const wide = bubbleBoxOf(ticket('t1', 14, 9, 'A long message about the heating on this floor'))!;
      const far = { ...coverBoxOf(kit(80, 60))!, id: 'far' };
      const index = coverIndex([near, wide, far]);
      expect(index.near(10, svgY(6), 3).map((c) => c.id).sort()).toEqual(['p1', 't1']);
      expect(index.near(80, svgY(60), 1).map((c) => c.id)).toEqual(['far']);
      expect(index.near(40, svgY(30), 5)).toEqual([]);
    });

    it('stays put when no place inside its shape is clear', () => {
      const small = draw('r9', { kind: 'room', label: 'F0-R9', status: 'free', outline: [[0, 0], [3, 0], [3, 2], [0, 2]], x: 1.5, y: 1, width: 3, depth: 2 });
      const over = [bubbleBoxOf(ticket('t1', 1.5, 1.9, 'A long message about the heating'))!, bubbleBoxOf(ticket('t2', 1.5, 0.6, 'Another long message here'))!];
      expect(clearOfCovers(small, labelBoxOf(small)!, over)).toBeNull();
    });
  });
});
