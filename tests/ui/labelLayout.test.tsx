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
import { floorMeta, room } from './fakeEngine.js';

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
});
