// The painted floor's assets as a picture built for painting (issue 14, docs/ui.md
// "Painted floor"): not a copy of the viewer's ~3,700 elements, which cost the
// reopen ~390 ms of parse, style, layout and paint before anything else ran
// (docs/bench.md), but one <path> per look (the same group class, fill, stroke…)
// holding every plain shape of that look as subpaths, the labels the layout
// shows, and the few assets that are more than plain shapes as they are drawn.
// A click on the picture is found by the assets' boxes (index.html's script).

/** An asset the picture answers a click for: its id and its box in the assets layer's coordinates. */
export type PaintedBox = [id: string, minX: number, minY: number, maxX: number, maxY: number];

/** What the painted floor stores: its markup, the boxes for clicks, and the fixed assets it shows. */
export interface PaintedPicture {
  html: string;
  boxes: PaintedBox[];
  /** the floor's own assets it shows (not people, tags, tickets, voices): the viewer keeps the picture until it has them */
  fixed: string[];
}

/** Shapes of one look in one run of a kind: their group's and their own attributes, and their path data. */
interface Look {
  group: string;
  shape: string;
  d: string[];
}

/** Assets of one kind in a row (the layer is in paint order: outlines, zones, rooms, things, people…). */
interface Run {
  kind: string;
  looks: Map<string, Look>;
  /** assets that are more than plain shapes at floor coordinates, as the viewer drew them */
  whole: string[];
  /** the labels shown, by their asset group's attributes */
  labels: Map<string, string[]>;
}

/** The floor's assets as read from the viewer's DOM (one task), before any string is joined. */
export interface ReadLayer {
  runs: Run[];
  count: number;
  boxes: PaintedBox[];
  fixed: string[];
}

/** what a plain shape's markup may say besides its geometry: a shape with any other attribute is kept as drawn */
const LOOK = ['class', 'fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-opacity', 'opacity'];
/** said by the viewer's shapes for assistive technology and clicks, not needed by a picture */
const UNUSED = ['aria-hidden', 'pointer-events'];
const GEOMETRY: Record<string, readonly string[]> = { rect: ['x', 'y', 'width', 'height'], polygon: ['points'], path: ['d'] };
/** what comes and goes on a floor by itself: people, tags, tickets and voices may have moved or closed since the picture */
const COMES_AND_GOES = new Set(['employee', 'auto_tag', 'ticket', 'voice']);
/** drawn, but not something a click opens */
const NOT_CLICKABLE = new Set(['floor_outline', 'floor_hole']);
/** attributes of the viewer's asset groups the picture does not need (it is hidden from assistive technology) */
const DROPPED = / (?:aria-label|aria-roledescription|role|tabindex|data-kind|data-status-kind|data-status|data-color|aria-hidden|pointer-events|data-label-for|data-asset-id|data-collide)="[^"]*"/g;

function escapeAttr(value: string): string {
  return /[&"<>]/.test(value) ? value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : value;
}

/**
 * A shape's look as markup (its LOOK attributes), or null when it says more than
 * its geometry, its look and UNUSED. Named reads only: walking `attributes` makes an
 * Attr object per attribute, and made reading the 10k-desk floor a 400 ms task.
 */
function lookOf(el: Element, geometry: readonly string[]): string | null {
  let known = 0;
  let out = '';
  for (const name of LOOK) {
    const value = el.getAttribute(name);
    if (value === null) continue;
    known++;
    out += ` ${name}="${escapeAttr(value)}"`;
  }
  for (const name of UNUSED) if (el.hasAttribute(name)) known++;
  for (const name of geometry) if (el.hasAttribute(name)) known++;
  return known === el.attributes.length ? out : null;
}

/** Start tags trimmed of what the picture does not need; text (names from the server) is never rewritten. */
function trimmed(html: string): string {
  return html.replace(/<[a-zA-Z][^>]*>/g, (tag) => tag.replace(DROPPED, ''));
}

const num = (el: Element, name: string) => Number(el.getAttribute(name) ?? 0);
const round = (v: number) => Math.round(v * 100) / 100;

/** A plain shape's look, path data and box; null for anything else (a transform, rounded corners, a circle…). */
function subpath(el: Element): { look: string; d: string; box: [number, number, number, number] | null } | null {
  const geometry = GEOMETRY[el.localName];
  const look = geometry ? lookOf(el, geometry) : null;
  if (look === null) return null;
  switch (el.localName) {
    case 'rect': {
      const [x, y, w, h] = [num(el, 'x'), num(el, 'y'), num(el, 'width'), num(el, 'height')];
      return { look, d: `M${x},${y}h${w}v${h}h${-w}z`, box: [x, y, x + w, y + h] };
    }
    case 'polygon': {
      const values = (el.getAttribute('points') ?? '').trim().split(/[\s,]+/).map(Number);
      if (values.length < 6 || values.some((v) => !Number.isFinite(v))) return null;
      const xs = values.filter((_, i) => i % 2 === 0);
      const ys = values.filter((_, i) => i % 2 === 1);
      return { look, d: `M${values.join(' ')}z`, box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] };
    }
    default: {
      const d = el.getAttribute('d') ?? '';
      // absolute start: its subpaths stay where they are after another's
      return /^\s*M/.test(d) ? { look, d, box: null } : null;
    }
  }
}

/** Reads the viewer's assets layer in steps (readLayer says what it keeps); `step` reads until `more()` says stop. */
export interface LayerReader {
  /** reads assets while `more()` allows (asked after each asset); true once every asset is read */
  step(more: () => boolean): boolean;
  /** what was read (whole once `step` said true) */
  result(): ReadLayer;
}

/**
 * Reads the viewer's assets layer: each asset drawn as plain shapes at floor
 * coordinates (rooms, zones, outlines, unrotated desks) gives its shapes to
 * the look they share with others, its visible labels to its run's labels
 * and its box to the click list; any other asset is kept as drawn. Status
 * marks only when the zoom shows them; labels the layout hid are left out.
 * The assets are those of the layer when the reader is made, in its paint
 * order; one taken out of the layer meanwhile is left out (issue 14: the
 * read runs over several short tasks, docs/ui.md "Painted floor").
 */
export function layerReader(layer: Element, detail: boolean): LayerReader {
  const runs: Run[] = [];
  const boxes: PaintedBox[] = [];
  const fixed: string[] = [];
  let count = 0;
  const assets = [...layer.children];
  let next = 0;

  function read(asset: Element): void {
    const id = asset.getAttribute('data-asset-id');
    if (!id || asset.parentNode !== layer) return;
    count++;
    const kind = asset.getAttribute('data-kind') ?? '';
    if (!COMES_AND_GOES.has(kind)) fixed.push(id);
    let run = runs[runs.length - 1];
    if (!run || run.kind !== kind) runs.push((run = { kind, looks: new Map(), whole: [], labels: new Map() }));
    const cls = asset.getAttribute('class') ?? '';
    const parts: Array<{ look: string; d: string }> = [];
    const labels: Element[] = [];
    let box: [number, number, number, number] | null = null;
    let plain = !asset.hasAttribute('transform') && !/\b(?:highlighted|unpublished)\b/.test(cls);
    for (let child = asset.firstElementChild; plain && child; child = child.nextElementSibling) {
      if (child.localName === 'text') {
        labels.push(child);
        continue;
      }
      if (!detail && child.getAttribute('class')?.startsWith('status-mark')) continue;
      const part = subpath(child);
      if (!part) {
        plain = false;
        break;
      }
      parts.push({ look: part.look, d: part.d });
      if (part.box) box = box ? [Math.min(box[0], part.box[0]), Math.min(box[1], part.box[1]), Math.max(box[2], part.box[2]), Math.max(box[3], part.box[3])] : part.box;
    }
    if (!plain || !box) {
      // drawn as the viewer drew it; a click finds it by its id
      const html = trimmed(asset.outerHTML).replace(/^<g/, `<g data-painted-asset="${escapeAttr(id)}"`);
      run.whole.push(detail ? html : html.replace(/<path class="status-mark[^"]*"[^>]*><\/path>/g, ''));
      return;
    }
    const opacity = asset.getAttribute('opacity');
    const group = ` class="${escapeAttr(cls)}"${opacity === null ? '' : ` opacity="${escapeAttr(opacity)}"`}`;
    for (const { look: shape, d } of parts) {
      const key = `${group}|${shape}`;
      const look = run.looks.get(key);
      if (look) look.d.push(d);
      else run.looks.set(key, { group, shape, d: [d] });
    }
    for (const label of labels) {
      if (label.getAttribute('data-collide') === 'hidden') continue;
      const shown = run.labels.get(group);
      if (shown) shown.push(trimmed(label.outerHTML));
      else run.labels.set(group, [trimmed(label.outerHTML)]);
    }
    if (!NOT_CLICKABLE.has(kind)) boxes.push([id, round(box[0]), round(box[1]), round(box[2]), round(box[3])]);
  }

  return {
    step(more) {
      while (next < assets.length) {
        read(assets[next++]!);
        if (next < assets.length && !more()) return false;
      }
      return true;
    },
    result: () => ({ runs, count, boxes, fixed }),
  };
}

/** The whole layer read at once (layerReader). */
export function readLayer(layer: Element, detail: boolean): ReadLayer {
  const reader = layerReader(layer, detail);
  reader.step(() => true);
  return reader.result();
}

/** The layer's markup: per run, one path per look, then the assets kept as drawn, then the labels. */
export function layerMarkup({ runs, count, boxes, fixed }: ReadLayer): PaintedPicture {
  let html = `<g class="layer-assets" data-painted-count="${count}">`;
  for (const run of runs) {
    for (const { group, shape, d } of run.looks.values()) html += `<g${group}><path${shape} d="${escapeAttr(d.join(''))}"></path></g>`;
    html += run.whole.join('');
    for (const [group, labels] of run.labels) html += `<g${group}>${labels.join('')}</g>`;
  }
  return { html: `${html}</g>`, boxes, fixed };
}
