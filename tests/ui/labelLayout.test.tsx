// The label layout's scheduling (hooks/useLabelLayout.ts): a large arrival's labels are
// measured over short tasks, never in the task that brought them (issue 14: no main-thread
// task over 50 ms), and laid out once all are measured; a small live change as it comes.

import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DrawState, FloorViewMeta } from '../../src/shared/api.js';
import type { MapLayer } from '../../src/shared/constants.js';
import { createViewMirror } from '../../src/ui/engine/viewMirror.js';
import { LABEL_TRACK_MS, useLabelLayout } from '../../src/ui/hooks/useLabelLayout.js';
import type { Camera } from '../../src/ui/lib/camera.js';
import { labelBoxOf, labelTransform, bubbleBoxOf, markerBoxOf } from '../../src/ui/lib/labels.js';
import { svgY } from '../../src/ui/lib/viewport.js';
import { draw, floorMeta, room } from './fakeEngine.js';

const ROOMS = 40;
const STEP_MS = 1.5;

/** Rooms in a row, 1 unit apart: at zoom 10 their names overlap, and all but some give way. */
function rooms(count: number, from = 0): Record<string, DrawState> {
  const out: Record<string, DrawState> = {};
  for (let i = from; i < from + count; i++) {
    const x = i;
    out[`r${i}`] = room(`r${i}`, { outline: [[x, 0], [x + 1, 0], [x + 1, 1], [x, 1]], x: x + 0.5, y: 0.5, width: 1, depth: 1 });
  }
  return out;
}

function svgWithLabels(ids: string[]): SVGSVGElement {
  document.body.innerHTML = `<svg>${ids.map((id) => `<text data-label-for="${id}">${id}</text>`).join('')}</svg>`;
  return document.querySelector('svg')!;
}

const hidden = () => document.querySelectorAll('text[data-collide="hidden"]').length;

describe('useLabelLayout', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    // every reading of the clock moves it on: a task of LABEL_TRACK_MS measures two or three labels
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (clock += STEP_MS));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    document.body.innerHTML = '';
  });

  it("measures a large arrival's labels over short tasks, then lays them out once", () => {
    const mirror = createViewMirror<DrawState, FloorViewMeta>();
    const all = rooms(ROOMS);
    const svgRef = { current: svgWithLabels(Object.keys(all)) };
    const camera = { viewport: () => ({ x: 0, y: 0, k: 10 }) } as unknown as Camera;
    const active = new Set<MapLayer>(['rooms']);
    renderHook(() => useLabelLayout({ svgRef, mirror, active, camera }));
    // the floor's data comes after the viewer mounted, in one message
    act(() => { mirror.apply({ type: 'snapshot', version: 1, entries: all, meta: floorMeta() }); });
    let tasks = 0;
    while (hidden() === 0 && tasks < 200) {
      act(() => { vi.advanceTimersToNextTimer(); });
      tasks++;
    }
    // about 4 / STEP_MS labels a task, then the layout's own timer
    expect(tasks).toBeGreaterThan(ROOMS / Math.ceil(LABEL_TRACK_MS / STEP_MS + 1));
    expect(hidden()).toBeGreaterThan(ROOMS / 2);
    expect(hidden()).toBeLessThan(ROOMS);

    // a small live change is measured as it comes: a room moved far away no longer collides
    const before = hidden();
    const moved = room('r1', { outline: [[500, 0], [501, 0], [501, 1], [500, 1]], x: 500.5, y: 0.5, width: 1, depth: 1 });
    act(() => { mirror.apply({ type: 'patch', version: 2, upserted: { r1: moved }, removed: [] }); });
    act(() => { vi.runAllTimers(); });
    expect(document.querySelector('text[data-label-for="r1"]')!.hasAttribute('data-collide')).toBe(false);
    expect(hidden()).toBeLessThanOrEqual(before);
  });
  it("moves a zone's name clear of a ticket's bubble drawn over it, and back once the ticket goes", () => {
    const mirror = createViewMirror<DrawState, FloorViewMeta>();
    const zone = draw('z1', {
      kind: 'zone', name: 'Quiet zone', label: 'Quiet zone', status: null, layers: ['zones'],
      outline: [[0, 0], [20, 0], [20, 12], [0, 12]], x: 10, y: 6, width: 20, depth: 12,
    });
    // its bubble's box spans the zone's middle, where the name is
    const ticket = draw('t1', { kind: 'ticket', name: 'Printer jammed', text: 'Printer jammed', layers: ['service'], x: 10, y: 7 });
    const svgRef = { current: svgWithLabels(['z1']) };
    const camera = { viewport: () => ({ x: 0, y: 0, k: 30 }) } as unknown as Camera;
    const active = new Set<MapLayer>(['zones', 'service']);
    renderHook(() => useLabelLayout({ svgRef, mirror, active, camera }));
    act(() => { mirror.apply({ type: 'snapshot', version: 1, entries: { z1: zone, t1: ticket }, meta: floorMeta() }); });
    act(() => { vi.runAllTimers(); });
    const text = document.querySelector('text[data-label-for="z1"]')!;
    const m = /^translate\(([-\d.e]+) ([-\d.e]+)\)$/.exec(text.getAttribute('transform') ?? '');
    expect(m).not.toBeNull();
    const name = labelBoxOf(zone)!;
    const bubble = bubbleBoxOf(ticket)!;
    const moved = { cx: name.cx + Number(m![1]), cy: name.cy + Number(m![2]) };
    const clear = Math.abs(moved.cx - bubble.cx) * 2 >= name.w + bubble.w || Math.abs(moved.cy - bubble.cy) * 2 >= name.h + bubble.h;
    expect(clear).toBe(true);
    expect(text.hasAttribute('data-collide')).toBe(false);
    // the ticket closed: the name goes back to its place
    act(() => { mirror.apply({ type: 'patch', version: 2, upserted: {}, removed: ['t1'] }); });
    act(() => { vi.runAllTimers(); });
    expect(text.hasAttribute('transform')).toBe(false);
  });
  it("moves a room's name clear of a device marker standing on it, both names shown, and back once the device is carried away", () => {
    const mirror = createViewMirror<DrawState, FloorViewMeta>();
    const office = room('r1', { label: 'F0-R1', status: null, outline: [[0, 0], [8, 0], [8, 6], [0, 6]], x: 4, y: 3, width: 8, depth: 6 });
    const name = labelBoxOf(office)!;
    // the kit's tag on the middle of the room's name
    const kit = draw('a1', { kind: 'auto_tag', name: 'First-aid kit', label: null, layers: ['co-workers', 'co-workers-heatmap'], x: name.cx, y: svgY(name.cy) });
    const svgRef = { current: svgWithLabels(['r1', 'a1']) };
    const camera = { viewport: () => ({ x: 0, y: 0, k: 40 }) } as unknown as Camera;
    const active = new Set<MapLayer>(['rooms', 'co-workers']);
    renderHook(() => useLabelLayout({ svgRef, mirror, active, camera }));
    act(() => { mirror.apply({ type: 'snapshot', version: 1, entries: { r1: office, a1: kit }, meta: floorMeta() }); });
    act(() => { vi.runAllTimers(); });
    const text = document.querySelector('text[data-label-for="r1"]')!;
    const m = /^translate\(([-\d.e]+) ([-\d.e]+)\)$/.exec(text.getAttribute('transform') ?? '');
    expect(m).not.toBeNull();
    const marker = markerBoxOf(kit)!;
    const moved = { cx: name.cx + Number(m![1]), cy: name.cy + Number(m![2]) };
    const clear = Math.abs(moved.cx - marker.cx) * 2 >= name.w + marker.w || Math.abs(moved.cy - marker.cy) * 2 >= name.h + marker.h;
    expect(clear).toBe(true);
    // neither name gives way: the kit's name lost to the room's while the room's stood under its tag
    expect(hidden()).toBe(0);
    // the kit carried to the corridor: the room's name goes back to its place
    act(() => { mirror.apply({ type: 'patch', version: 2, upserted: { a1: { ...kit, x: 40, y: 40 } }, removed: [] }); });
    act(() => { vi.runAllTimers(); });
    expect(text.hasAttribute('transform')).toBe(false);
    expect(hidden()).toBe(0);
  });
  it("draws a room's name a little smaller above a device at its middle, inside the room, where at its size it stood across the wall", () => {
    const mirror = createViewMirror<DrawState, FloorViewMeta>();
    // the seeded F0-R1 (6 × 5.5 m), free, the kit at its middle
    const office = room('r1', { label: 'F0-R1', status: 'free', outline: [[2, 1], [8, 1], [8, 6.5], [2, 6.5]], x: 5, y: 3.75, width: 6, depth: 5.5 });
    const kit = draw('a1', { kind: 'auto_tag', name: 'First-aid kit', label: null, layers: ['co-workers', 'co-workers-heatmap'], x: 5, y: 3.55 });
    const svgRef = { current: svgWithLabels(['r1', 'a1']) };
    const camera = { viewport: () => ({ x: 0, y: 0, k: 30 }) } as unknown as Camera;
    renderHook(() => useLabelLayout({ svgRef, mirror, active: new Set<MapLayer>(['rooms', 'co-workers']), camera }));
    act(() => { mirror.apply({ type: 'snapshot', version: 1, entries: { r1: office, a1: kit }, meta: floorMeta() }); });
    act(() => { vi.runAllTimers(); });
    const transform = document.querySelector('text[data-label-for="r1"]')!.getAttribute('transform') ?? '';
    const m = /^translate\(([-\d.e]+) ([-\d.e]+)\) scale\(([\d.]+)\) translate\(([-\d.e]+) ([-\d.e]+)\)$/.exec(transform);
    expect(m, transform).not.toBeNull();
    const [tx, ty, s, ux, uy] = m!.slice(1).map(Number) as [number, number, number, number, number];
    // where the name's box is drawn: each corner through the transform
    const name = labelBoxOf(office)!;
    const at = (x: number, y: number) => [tx + s * (x + ux), ty + s * (y + uy)] as const;
    const [x0, y0] = at(name.cx - name.w / 2, name.cy - name.h / 2);
    const [x1, y1] = at(name.cx + name.w / 2, name.cy + name.h / 2);
    expect(x0).toBeGreaterThanOrEqual(2);
    expect(x1).toBeLessThanOrEqual(8);
    expect(y0).toBeGreaterThanOrEqual(1);
    expect(y1).toBeLessThanOrEqual(6.5);
    // clear of the kit's tag and name, and both names shown
    const marker = markerBoxOf(kit)!;
    expect(y1 <= marker.cy - marker.h / 2 || y0 >= marker.cy + marker.h / 2 || x1 <= marker.cx - marker.w / 2 || x0 >= marker.cx + marker.w / 2).toBe(true);
    expect(hidden()).toBe(0);
  });
  it("keeps a turned zone's name turned, draws it across its band while a bubble stands on it, and turns it back once the ticket goes", () => {
    const mirror = createViewMirror<DrawState, FloorViewMeta>();
    // a seeded band: 2.4 m wide, 6 m deep; its name reads along it
    const band = draw('z1', {
      kind: 'zone', name: 'collaboration zone', label: 'collaboration zone', status: null, layers: ['zones'],
      outline: [[0, 0], [2.4, 0], [2.4, 6], [0, 6]], x: 1.2, y: 3, width: 2.4, depth: 6,
    });
    const name = labelBoxOf(band)!;
    const turned = labelTransform(name)!;
    expect(turned).toMatch(/rotate\(-90\)/);
    const svgRef = { current: svgWithLabels(['z1']) };
    const text = document.querySelector('text[data-label-for="z1"]')!;
    // as AssetNode draws it
    text.setAttribute('transform', turned);
    const camera = { viewport: () => ({ x: 0, y: 0, k: 24 }) } as unknown as Camera;
    renderHook(() => useLabelLayout({ svgRef, mirror, active: new Set<MapLayer>(['zones', 'service']), camera }));
    act(() => { mirror.apply({ type: 'snapshot', version: 1, entries: { z1: band }, meta: floorMeta() }); });
    act(() => { vi.runAllTimers(); });
    // laid out: still turned, and shown on a laptop's fitted floor
    expect(text.getAttribute('transform')).toBe(turned);
    expect(text.hasAttribute('data-collide')).toBe(false);
    // a ticket's bubble across the band's middle: the name is drawn across the band, clear of it
    const ticket = draw('t1', { kind: 'ticket', name: 'Radiator is cold', text: 'Radiator is cold', layers: ['service'], x: 1.2, y: 3.9 });
    act(() => { mirror.apply({ type: 'patch', version: 2, upserted: { t1: ticket }, removed: [] }); });
    act(() => { vi.runAllTimers(); });
    expect(text.getAttribute('transform')).not.toMatch(/rotate/);
    expect(text.getAttribute('transform')).toMatch(/^translate\(/);
    // the ticket closed: turned again, where it was
    act(() => { mirror.apply({ type: 'patch', version: 3, upserted: {}, removed: ['t1'] }); });
    act(() => { vi.runAllTimers(); });
    expect(text.getAttribute('transform')).toBe(turned);
  });
  it("moves a room's name off a co-worker standing on it, and leaves a zone's name where a co-worker stands on it", () => {
    const mirror = createViewMirror<DrawState, FloorViewMeta>();
    const office = room('r1', { label: 'F0-R1', status: 'free', outline: [[0, 0], [10, 0], [10, 8], [0, 8]], x: 5, y: 4, width: 10, depth: 8 });
    const band = draw('z1', {
      kind: 'zone', name: 'collaboration zone', label: 'collaboration zone', status: null, layers: ['zones'],
      outline: [[20, 0], [22.4, 0], [22.4, 6], [20, 6]], x: 21.2, y: 3, width: 2.4, depth: 6,
    });
    const [roomName, zoneName] = [labelBoxOf(office)!, labelBoxOf(band)!];
    const person = (id: string, x: number, y: number) => draw(id, { kind: 'employee', name: id, label: id, status: null, layers: ['co-workers'], x, y });
    const inMeeting = person('Aino Virtanen', roomName.cx, svgY(roomName.cy));
    const atDesk = person('Emma Nieminen', zoneName.cx, svgY(zoneName.cy));
    const svgRef = { current: svgWithLabels(['r1', 'z1', inMeeting.id, atDesk.id]) };
    const camera = { viewport: () => ({ x: 0, y: 0, k: 30 }) } as unknown as Camera;
    renderHook(() => useLabelLayout({ svgRef, mirror, active: new Set<MapLayer>(['rooms', 'zones', 'co-workers']), camera }));
    act(() => { mirror.apply({ type: 'snapshot', version: 1, entries: { r1: office, z1: band, [inMeeting.id]: inMeeting, [atDesk.id]: atDesk }, meta: floorMeta() }); });
    act(() => { vi.runAllTimers(); });
    const roomText = document.querySelector('text[data-label-for="r1"]')!;
    const m = /^translate\(([-\d.e]+) ([-\d.e]+)\)/.exec(roomText.getAttribute('transform') ?? '');
    expect(m, 'the room name moved').not.toBeNull();
    const avatar = markerBoxOf(inMeeting)!;
    const moved = { cx: roomName.cx + Number(m![1]), cy: roomName.cy + Number(m![2]) };
    expect(Math.abs(moved.cx - avatar.cx) * 2 >= roomName.w + avatar.w || Math.abs(moved.cy - avatar.cy) * 2 >= roomName.h + avatar.h).toBe(true);
    expect(roomText.hasAttribute('data-collide')).toBe(false);
    // the zone's name keeps its own place and turn; the co-worker's name gives way to it
    expect(document.querySelector('text[data-label-for="z1"]')!.getAttribute('transform')).toBe(labelTransform(zoneName));
    expect(document.querySelector(`text[data-label-for="${atDesk.id}"]`)!.getAttribute('data-collide')).toBe('hidden');
  });
  it("moves a wing's name clear of its rooms, drawn over it, where it gave way to their names at every zoom", () => {
    const mirror = createViewMirror<DrawState, FloorViewMeta>();
    // the seeded meeting wing: a 30 × 7 m strip along the floor, its rooms 6 × 5.5 m from its left end
    const wing = draw('w1', {
      kind: 'zone', name: 'Meeting wing', label: 'Meeting wing', status: null, layers: ['zones'],
      outline: [[0, 0], [30, 0], [30, 7], [0, 7]], x: 15, y: 3.5, width: 30, depth: 7,
    });
    const rooms = [0, 1].map((i) => room(`r${i + 1}`, {
      label: `F0-R${i + 1}`, status: 'free', outline: [[2 + i * 7, 1], [8 + i * 7, 1], [8 + i * 7, 6.5], [2 + i * 7, 6.5]], x: 5 + i * 7, y: 3.75, width: 6, depth: 5.5,
    }));
    const wingName = labelBoxOf(wing)!;
    const meets = (a: { cx: number; cy: number; w: number; h: number }, b: { cx: number; cy: number; w: number; h: number }) =>
      Math.abs(a.cx - b.cx) * 2 < a.w + b.w && Math.abs(a.cy - b.cy) * 2 < a.h + b.h;
    expect(meets(wingName, labelBoxOf(rooms[1]!)!)).toBe(true);
    const svgRef = { current: svgWithLabels(['w1', 'r1', 'r2']) };
    // a laptop's fitted floor and zoomed in
    for (const k of [20, 40]) {
      const camera = { viewport: () => ({ x: 0, y: 0, k }) } as unknown as Camera;
      const { unmount } = renderHook(() => useLabelLayout({ svgRef, mirror, active: new Set<MapLayer>(['rooms', 'zones']), camera }));
      act(() => { mirror.apply({ type: 'snapshot', version: k, entries: { w1: wing, r1: rooms[0]!, r2: rooms[1]! }, meta: floorMeta() }); });
      act(() => { vi.runAllTimers(); });
      // the wing named, inside the wing
      expect(hidden(), `zoom ${k}`).toBe(0);
      const m = /^translate\(([-\d.e]+) ([-\d.e]+)\)$/.exec(document.querySelector('text[data-label-for="w1"]')!.getAttribute('transform') ?? '');
      expect(m, `zoom ${k}`).not.toBeNull();
      const moved = { ...wingName, cx: wingName.cx + Number(m![1]), cy: wingName.cy + Number(m![2]) };
      // clear of the rooms themselves, which are drawn over the wing
      rooms.forEach((_, i) => expect(meets(moved, { cx: 5 + i * 7, cy: svgY(3.75), w: 6, h: 5.5 })).toBe(false));
      expect(moved.cx + moved.w / 2).toBeLessThanOrEqual(30);
      unmount();
    }
  });
});
