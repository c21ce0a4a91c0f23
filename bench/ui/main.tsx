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
import { statusPattern } from '../../src/ui/lib/describe.js';

interface FrameStats { frames: number; ms: number; p95: number; mean: number; max: number; longTasks: number[] }

const params = new URLSearchParams(location.search);
const mode = params.get('mode') === 'bare' ? 'bare' : params.get('mode') === 'plain' ? 'plain' : 'viewer';
const root = document.getElementById('root')!;
const feeder = new Worker(new URL('./feeder.ts', import.meta.url), { type: 'module' });
let applied = 0;
let onMessage: (message: ViewMessage<DrawState, FloorViewMeta>) => void;

if (mode === 'viewer') {
  const mirror = createViewMirror<DrawState, FloorViewMeta>();
  onMessage = (message) => { mirror.apply(message); };
  const policy = { apiHost: null, cdnBaseUrl: null, origin: location.origin };
  createRoot(root).render(<FloorViewer mirror={mirror} layers={DEFAULT_LAYERS} imagePolicy={policy} />);
} else {
  onMessage = createBarePage(mode === 'plain');
}

/**
 * The bare page: the same desk markup the viewer draws (group, title, body,
 * status pattern overlay, the viewer's pattern defs), built and updated by
 * direct DOM writes; `plain` draws one rect per desk and nothing else.
 */
function createBarePage(plain: boolean): (message: ViewMessage<DrawState, FloorViewMeta>) => void {
  const SVG = 'http://www.w3.org/2000/svg';
  const el = (name: string, attrs: Record<string, string | number>) => {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    return node;
  };
  const svg = el('svg', { width: 1280, height: 800 });
  svg.innerHTML = PATTERN_DEFS;
  const world = el('g', { class: 'world' });
  svg.appendChild(world);
  root.appendChild(svg);
  const nodes = new Map<string, { g: Element; title: Element; body: Element; overlay: Element | null; rotor: Element }>();
  const draw = (id: string, e: DrawState) => {
    const n = nodes.get(id);
    if (!n) return;
    n.body.setAttribute('fill', e.greyedOut ? '#9e9e9e' : e.color ?? '#90a4ae');
    if (plain) return;
    n.g.setAttribute('opacity', String(e.alpha));
    n.g.setAttribute('data-status', e.status ?? '');
    n.g.setAttribute('aria-label', `Desk ${e.name}, ${e.status ?? ''}`);
    n.title.textContent = `Desk ${e.name}, ${e.status ?? ''}`;
    const pattern = statusPattern(e.status);
    if (pattern === 'none') {
      n.overlay?.remove();
      n.overlay = null;
    } else {
      if (!n.overlay) {
        n.overlay = el('rect', { x: -e.width / 2, y: -e.depth / 2, width: e.width, height: e.depth, 'pointer-events': 'none' });
        n.rotor.appendChild(n.overlay);
      }
      n.overlay.setAttribute('fill', `url(#pattern-${pattern})`);
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
          nodes.set(e.id, { g: body, title: body, body, overlay: null, rotor: body });
        } else {
          const g = el('g', { class: 'asset asset-shape', 'data-asset-id': e.id, transform: `translate(${e.x} ${e.y})`, role: 'button', tabindex: 0 });
          const title = el('title', {});
          const rotor = el('g', { transform: `rotate(${e.angle})` });
          const body = el('rect', { x: -e.width / 2, y: -e.depth / 2, width: e.width, height: e.depth, rx: 0.08, stroke: '#37474f', 'stroke-width': 0.05 });
          rotor.appendChild(body);
          g.append(title, rotor);
          world.appendChild(g);
          nodes.set(e.id, { g, title, body, overlay: null, rotor });
        }
        draw(e.id, e);
        maxX = Math.max(maxX, e.x + e.width);
        maxY = Math.max(maxY, e.y + e.depth);
      }
      const k = Math.min(1280 / maxX, 800 / maxY) * 0.92;
      world.setAttribute('transform', `translate(20 20) scale(${k})`);
    } else {
      for (const [id, e] of Object.entries(message.upserted)) draw(id, e);
    }
  };
}

// the viewer's own pattern defs (FloorViewer.tsx), so both pages raster the same fills
const PATTERN_DEFS = `<defs>
  <pattern id="pattern-hatch" width="0.5" height="0.5" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
    <line x1="0" y1="0" x2="0" y2="0.5" stroke="#000" stroke-opacity="0.45" stroke-width="0.12" /></pattern>
  <pattern id="pattern-cross" width="0.6" height="0.6" patternUnits="userSpaceOnUse">
    <path d="M0,0 L0.6,0.6 M0.6,0 L0,0.6" stroke="#000" stroke-opacity="0.4" stroke-width="0.08" /></pattern>
  <pattern id="pattern-dots" width="0.5" height="0.5" patternUnits="userSpaceOnUse">
    <circle cx="0.25" cy="0.25" r="0.08" fill="#000" fill-opacity="0.45" /></pattern>
</defs>`;

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

/** Pans and zooms by rewriting the world group's transform once per frame, as the viewer does on drag and wheel. */
function panZoom(ms: number): Promise<FrameStats> {
  const world = document.querySelector<SVGGElement>('g.world')!;
  const base = world.getAttribute('transform') ?? '';
  return frames(ms, (t) => {
    const dx = Math.sin(t / 400) * 200;
    const dy = Math.cos(t / 500) * 120;
    const k = 1 + 0.3 * Math.sin(t / 700);
    world.setAttribute('transform', `translate(${dx} ${dy}) ${base} scale(${k})`);
  }).then((stats) => { world.setAttribute('transform', base); return stats; });
}

Object.assign(window, {
  __bench: {
    start(n: number, rate: number) { feeder.postMessage({ type: 'start', n, rate }); },
    stop() { feeder.postMessage({ type: 'stop' }); },
    applied: () => applied,
    assets: () => document.querySelectorAll(mode === 'plain' ? 'g.world > rect' : 'g.asset').length,
    frames,
    panZoom,
  },
});
