// The UI bench page (bench/ui.ts drives it in Chromium). `?mode=viewer`
// renders the real FloorViewer / AssetNode fed through the real view mirror;
// `?mode=bare` draws the same desk markup by direct DOM writes (no React, no
// mirror); `?mode=plain` draws one rect per desk. Both get the same messages from feeder.ts and expose the same
// measurements on window.__bench.

import { createRoot } from 'react-dom/client';
import type { DrawState, FloorViewMeta, ViewMessage } from '../../src/shared/api.js';
import { DEFAULT_LAYERS } from '../../src/shared/constants.js';
import { FloorViewer } from '../../src/ui/components/FloorViewer.js';
import { createViewMirror } from '../../src/ui/engine/viewMirror.js';
import { nextTask } from '../../src/ui/engine/workerEngine.js';
import { STATUS_MARK_COLOR, STATUS_MARK_MIN_ZOOM, statusMarkShape } from '../../src/ui/lib/statusMark.js';
import '../../src/ui/styles.css';

interface FrameStats { frames: number; ms: number; p95: number; mean: number; max: number; longTasks: number[] }

const params = new URLSearchParams(location.search);
const mode = params.get('mode') === 'bare' ? 'bare' : params.get('mode') === 'plain' ? 'plain' : 'viewer';
const root = document.getElementById('root')!;
const feeder = new Worker(new URL('./feeder.ts', import.meta.url), { type: 'module' });
let applied = 0;
let onMessage: (message: ViewMessage<DrawState, FloorViewMeta>) => void;

if (mode === 'viewer') {
  // as the app's mirrors: a large message applies in slices, one task each
  const mirror = createViewMirror<DrawState, FloorViewMeta>({ schedule: nextTask(), now: () => performance.now() });
  onMessage = (message) => { mirror.apply(message); };
  const policy = { apiHost: null, cdnBaseUrl: null, origin: location.origin };
  createRoot(root).render(<FloorViewer mirror={mirror} layers={DEFAULT_LAYERS} imagePolicy={policy} />);
} else {
  onMessage = createBarePage(mode === 'plain');
}

/**
 * The bare page: the same desk markup the viewer draws (group with
 * aria-label, body rect, status mark path hidden by the same CSS below the
 * same zoom), built and updated by direct DOM writes; `plain` draws one rect
 * per desk and nothing else.
 */
function createBarePage(plain: boolean): (message: ViewMessage<DrawState, FloorViewMeta>) => void {
  const SVG = 'http://www.w3.org/2000/svg';
  const el = (name: string, attrs: Record<string, string | number>) => {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    return node;
  };
  const svg = el('svg', { width: 1280, height: 800 });
  const world = el('g', { class: 'world' });
  svg.appendChild(world);
  root.appendChild(svg);
  const nodes = new Map<string, { g: Element; body: Element; mark: Element | null }>();
  const draw = (id: string, e: DrawState) => {
    const n = nodes.get(id);
    if (!n) return;
    n.body.setAttribute('fill', e.greyedOut ? '#9e9e9e' : e.color ?? '#90a4ae');
    if (plain) return;
    n.g.setAttribute('opacity', String(e.alpha));
    n.g.setAttribute('data-status', e.status ?? '');
    n.g.setAttribute('data-color', e.color ?? '');
    n.g.setAttribute('aria-label', `Desk ${e.name}, ${e.status ?? ''}`);
    const shape = statusMarkShape(e.statusKind, e.width, e.depth, e.x, e.y);
    if (!shape) {
      n.mark?.remove();
      n.mark = null;
    } else {
      if (!n.mark) {
        n.mark = el('path', { fill: 'none', stroke: STATUS_MARK_COLOR, 'pointer-events': 'none', 'aria-hidden': 'true' });
        n.g.appendChild(n.mark);
      }
      n.mark.setAttribute('class', `status-mark mark-${e.statusKind}`);
      n.mark.setAttribute('d', shape.d);
      n.mark.setAttribute('stroke-width', String(shape.strokeWidth));
    }
  };
  return (message) => {
    if (message.type === 'snapshot') {
      let maxX = 1;
      let maxY = 1;
      for (const e of Object.values(message.entries)) {
        if (plain) {
          const body = el('rect', { x: e.x - e.width / 2, y: e.y - e.depth / 2, width: e.width, height: e.depth, stroke: '#37474f', 'stroke-width': 0.05 });
          world.appendChild(body);
          nodes.set(e.id, { g: body, body, mark: null });
        } else {
          // like the viewer's unrotated desks: drawn in place, no transform per desk
          const g = el('g', { class: 'asset asset-shape', 'data-asset-id': e.id, role: 'button', tabindex: 0 });
          const body = el('rect', { x: e.x - e.width / 2, y: e.y - e.depth / 2, width: e.width, height: e.depth, stroke: '#37474f', 'stroke-width': 0.05 });
          g.append(body);
          world.appendChild(g);
          nodes.set(e.id, { g, body, mark: null });
        }
        draw(e.id, e);
        maxX = Math.max(maxX, e.x + e.width);
        maxY = Math.max(maxY, e.y + e.depth);
      }
      const k = Math.min(1280 / maxX, 800 / maxY) * 0.92;
      bareView = { x: 20, y: 20, k };
      setBareView(bareView);
    } else if (message.type === 'patch') {
      for (const [id, e] of Object.entries(message.upserted)) draw(id, e);
    }
  };
}

let bareView = { x: 0, y: 0, k: 1 };
/** The bare page's pan/zoom: what the viewer's apply() does to the world group. */
function setBareView(v: { x: number; y: number; k: number }): void {
  const world = document.querySelector<SVGGElement>('g.world')!;
  world.setAttribute('transform', `translate(${v.x} ${v.y}) scale(${v.k})`);
  const detail = String(v.k >= STATUS_MARK_MIN_ZOOM);
  if (world.getAttribute('data-detail') !== detail) world.setAttribute('data-detail', detail);
}

feeder.onmessage = (event: MessageEvent) => {
  onMessage(event.data as ViewMessage<DrawState, FloorViewMeta>);
  applied += 1;
};

const longTasks: number[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) longTasks.push(entry.duration);
}).observe({ type: 'longtask', buffered: true });

function frames(ms: number, onFrame?: (t: number) => void): Promise<FrameStats> {
  return new Promise((resolve) => {
    const deltas: number[] = [];
    const firstLong = longTasks.length;
    let start = -1;
    let last = -1;
    const tick = (t: number) => {
      if (start < 0) start = t;
      else deltas.push(t - last);
      last = t;
      onFrame?.(t - start);
      if (t - start < ms) { requestAnimationFrame(tick); return; }
      const sorted = [...deltas].sort((a, b) => a - b);
      resolve({
        frames: deltas.length, ms: t - start,
        p95: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? NaN,
        mean: deltas.reduce((a, b) => a + b, 0) / Math.max(1, deltas.length),
        max: sorted[sorted.length - 1] ?? NaN,
        longTasks: longTasks.slice(firstLong),
      });
    };
    requestAnimationFrame(tick);
  });
}

export interface PanOptions {
  /** zoom relative to the fitted floor before panning (2.5: status marks drawn) */
  zoom: number;
  /** bare page: promote the world group while moving, as the viewer does */
  willChange: boolean;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * Pans and zooms for `ms`, once per frame: the viewer through real pointer and
 * wheel events (its own apply(): transform, level of detail, will-change,
 * culling when it settles), the bare page by the same writes to its world group.
 */
async function panZoom(ms: number, options: PanOptions): Promise<FrameStats> {
  const motion = (t: number) => ({ dx: Math.sin(t / 400) * 200, dy: Math.cos(t / 500) * 120, k: 1 + 0.3 * Math.sin(t / 700) });
  if (mode === 'viewer') {
    const svg = document.querySelector<SVGSVGElement>('svg.floor-svg')!;
    const r = svg.getBoundingClientRect();
    const [cx, cy] = [r.left + r.width / 2, r.top + r.height / 2];
    const wheel = (factor: number) => svg.dispatchEvent(new WheelEvent('wheel', { deltaY: -Math.log(factor) / 0.0015, clientX: cx, clientY: cy, bubbles: true, cancelable: true }));
    const pointer = (type: string, x: number, y: number) => svg.dispatchEvent(new PointerEvent(type, { pointerId: 7, isPrimary: true, clientX: x, clientY: y, bubbles: true }));
    wheel(options.zoom);
    await sleep(400);
    pointer('pointerdown', cx, cy);
    let k = 1;
    const stats = await frames(ms, (t) => {
      const m = motion(t);
      pointer('pointermove', cx + m.dx, cy + m.dy);
      wheel(m.k / k);
      k = m.k;
    });
    pointer('pointerup', cx, cy);
    wheel(1 / (options.zoom * k));
    await sleep(400);
    return stats;
  }
  const world = document.querySelector<SVGGElement>('g.world')!;
  const base = { ...bareView, k: bareView.k * options.zoom };
  // zoom about the screen centre, as the viewer's wheel at the centre does
  base.x = 640 - (640 - bareView.x) * options.zoom;
  base.y = 400 - (400 - bareView.y) * options.zoom;
  setBareView(base);
  await sleep(400);
  if (options.willChange) world.style.willChange = 'transform';
  const stats = await frames(ms, (t) => {
    const m = motion(t);
    setBareView({ x: 640 - (640 - base.x) * m.k + m.dx, y: 400 - (400 - base.y) * m.k + m.dy, k: base.k * m.k });
  });
  world.style.removeProperty('will-change');
  setBareView(bareView);
  return stats;
}

Object.assign(window, {
  __bench: {
    start(n: number, rate: number) { feeder.postMessage({ type: 'start', n, rate }); },
    stop() { feeder.postMessage({ type: 'stop' }); },
    applied: () => applied,
    assets: () => document.querySelectorAll(mode === 'viewer' ? 'g.asset' : 'g.world > *').length,
    frames,
    panZoom,
  },
});
