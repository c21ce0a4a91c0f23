// The painted floor's two halves together: what lib/paintedFloor.ts stores
// from the screen, and what index.html's inline script paints from it (the
// script is taken from the real index.html and run in this page).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAINT_DEBOUNCE_MS, usePaintedFloor } from '../../src/ui/hooks/usePaintedFloor.js';
import {
  capturePainted, clearPainted, joinPaintEpoch, PAINTED_EPOCH_KEY, PAINTED_HTML_KEY, PAINTED_KEY, PAINTED_MAX_CHARS, readPainted,
  SAVED_DATA_NOTICE, savePainted, startPainted, takePaintedClick, takePaintedView, type PaintedPicture,
} from '../../src/ui/lib/paintedFloor.js';
import { layerMarkup, readLayer } from '../../src/ui/lib/paintedLayer.js';

const INDEX = readFileSync(join(import.meta.dirname, '../../src/ui/index.html'), 'utf8');
// the painting script (index.html's first inline script is the start guard, docs/ui.md "If the app cannot start")
const SCRIPT = [...INDEX.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!).find((text) => text.includes('storey:painted-floor'))!;
const VIEW = { x: 10, y: 20, k: 12 };

/** The built page's head: the hashed entry and stylesheet are the build's identity. */
function head(build = 'A'): void {
  document.head.innerHTML = `<script type="module" src="/assets/index-${build}.js"></script><link rel="stylesheet" href="/assets/index-${build}.css">`;
}

/** A signed-in screen as the app draws it: a shell, a floor with two assets, a chooser, a popup, a layer toggle. */
function screen(): HTMLElement {
  document.body.innerHTML = `<div id="root"><div class="shell">
    <header class="top-bar"><select aria-label="Floor"><option value="f0">Ground</option><option value="f1">First</option></select>
      <span class="user"><span>Ada Lovelace</span><button type="button">Sign out</button></span></header>
    <aside class="left"><label><input type="checkbox"> Desks</label></aside>
    <main class="center"><div class="floor-viewer">
      <svg class="floor-svg" data-from-cache="false" role="application" aria-label="Floor plan of First">
        <g class="world" transform="translate(10 20) scale(12)" data-detail="false"><g><g class="layer-assets">
          <g class="asset asset-room" data-asset-id="r1" data-kind="room" role="button" tabindex="0" aria-label="Room Board &lt;b&gt;"><polygon points="0,0 4,0 4,3"></polygon>
            <text data-label-for="r1">Board &lt;img src=x onerror=alert(1)&gt;</text></g>
          <g class="asset asset-floor_outline" data-asset-id="o1" data-kind="floor_outline" role="img" aria-label="Outline"><polygon points="0,0 9,0 9,9"></polygon></g>
          <g class="asset asset-desk" data-asset-id="d1" data-kind="desk" data-status="free" role="button" tabindex="-1" aria-label="Desk role=&quot;x&quot;"><rect x="1" y="1" width="1" height="1" fill="#4caf50" stroke="#37474f"></rect>
            <path class="status-mark mark-free" d="M0,0" fill="none" pointer-events="none" aria-hidden="true"></path><text data-label-for="d1"> role="button" data-asset-id="z"</text></g>
          <g class="asset asset-desk" data-asset-id="d2" data-kind="desk" role="button" tabindex="-1" aria-label="Desk 2"><rect x="5" y="5" width="1" height="2" fill="#4caf50" stroke="#37474f"></rect>
            <text data-label-for="d2" data-collide="hidden">Desk 2 hidden by the layout</text></g>
          <g class="asset asset-desk" data-asset-id="d3" data-kind="desk" role="button" tabindex="-1" aria-label="Desk 3"><rect x="7" y="1" width="1" height="1" fill="&quot;red" stroke="#37474f"></rect></g>
          <g class="asset asset-employee" data-asset-id="e1" data-kind="employee" transform="translate(6 6)" role="button" aria-label="Ada"><circle r="0.7" fill="#1565c0"></circle>
            <text data-label-for="e1">Ada</text></g>
        </g></g></g>
      </svg>
      <div class="map-legends narrow"><div class="legend-card"><div role="tablist"><button role="tab" id="legend-co2-tab" aria-selected="true">CO₂</button></div>
        <div role="tabpanel" id="legend-co2"><figure class="legend">400 good</figure></div></div></div>
      <div class="map-notices"><div class="live-region" role="status"><span class="message">Booked.</span></div><div class="pick-hint" role="status">Picking a place</div></div>
      <div class="popup-area"><section class="popup">Room Board</section></div>
    </div></main>
    <aside class="right"><div role="tablist"><button role="tab" id="tab-people" aria-selected="false">People</button>
      <button role="tab" id="tab-rooms" aria-selected="true">Rooms</button></div>
      <div role="tabpanel" id="panel-rooms">rooms list</div></aside>
  </div></div>`;
  const root = document.getElementById('root')!;
  root.querySelector('select')!.value = 'f1';
  root.querySelector<HTMLInputElement>('input[type="checkbox"]')!.checked = true;
  return root;
}

const BASE = { userId: 'u1', floorId: 'f1', path: '/', search: '', view: VIEW, boxes: [], fixed: [] };

function store(picture: string | PaintedPicture, patch: Record<string, unknown> = {}): void {
  joinPaintEpoch();
  const taken = typeof picture === 'string' ? { html: picture } : picture;
  expect(savePainted({ ...BASE, w: innerWidth, h: innerHeight, ...taken })).toBe(true);
  if (Object.keys(patch).length) localStorage.setItem(PAINTED_KEY, JSON.stringify({ ...readPainted(), ...patch }));
}

/** jsdom lays nothing out: the painted layer's user space → screen matrix, as Chromium would give it. */
function layerScreenCTM(svg: SVGSVGElement, m: { a: number; b: number; c: number; d: number; e: number; f: number }): void {
  const det = m.a * m.d - m.b * m.c;
  const inverse = { a: m.d / det, b: -m.b / det, c: -m.c / det, d: m.a / det, e: (m.c * m.f - m.d * m.e) / det, f: (m.b * m.e - m.a * m.f) / det };
  Object.assign(svg.querySelector('.layer-assets')!, { getScreenCTM: () => ({ ...m, inverse: () => inverse }) });
}

/** A fresh page load: the splash, then index.html's script; returns the page's body. */
function reload(build = 'A'): HTMLElement {
  head(build);
  document.body.innerHTML = '<div id="root"><div class="splash" role="status">Starting…</div></div>';
  delete window.__storeyPainted;
  new Function(SCRIPT)();
  return document.body;
}

beforeEach(() => {
  localStorage.clear();
  clearPainted({ signedOut: true });
  head();
});
afterEach(() => {
  delete window.__storeyPainted;
});

describe('capturePainted', () => {
  it('keeps the floor as saved data, with the notice, and leaves out what the person did last time', () => {
    const picture = capturePainted(screen())!;
    const page = new DOMParser().parseFromString(picture.html, 'text/html').body.firstElementChild!;
    expect(page.className).toBe('painted');
    expect(page.getAttribute('aria-hidden')).toBe('true');
    expect(page.querySelector('svg.floor-svg')!.getAttribute('data-from-cache')).toBe('true');
    expect(page.querySelector('.cache-indicator')!.textContent).toBe(SAVED_DATA_NOTICE);
    expect(page.querySelector('.popup')).toBeNull();
    expect(page.querySelector('.message')).toBeNull();
    // the chooser and the toggles as they were; the panel reopens on its first tab
    expect(page.querySelector('option[value="f1"]')!.hasAttribute('selected')).toBe(true);
    expect(page.querySelector('input[type="checkbox"]')!.hasAttribute('checked')).toBe(true);
    expect(page.querySelector('aside.right [role="tabpanel"]')!.textContent).toBe('');
    expect(page.querySelector('#tab-people')!.getAttribute('aria-selected')).toBe('true');
    // a narrow map's legend card is shown as it was (its tabs are not the panels'); a pick under way is not
    expect(page.querySelector('#legend-co2')!.textContent).toBe('400 good');
    expect(page.querySelector('#legend-co2-tab')!.getAttribute('aria-selected')).toBe('true');
    expect(page.querySelector('.pick-hint')).toBeNull();
    // assets: drawn for painting, one path per look, without their accessible names, roles and tab stops
    const layer = page.querySelector('.layer-assets')!;
    expect(layer.getAttribute('data-painted-count')).toBe('6');
    expect(page.querySelector('svg.floor-svg')!.querySelector('[data-asset-id], [role], [tabindex], [aria-label], [data-status], [data-label-for]')).toBeNull();
    const desks = [...layer.querySelectorAll('g.asset-desk > path')].map((p) => [p.getAttribute('fill'), p.getAttribute('d')]);
    // the two desks of one colour share a path; a colour with a quote in it stays one attribute value
    expect(desks).toEqual([['#4caf50', 'M1,1h1v1h-1zM5,5h1v2h-1z'], ['"red', 'M7,1h1v1h-1z']]);
    expect(layer.querySelector('g.asset-room > polygon, g.asset-room > path')!.getAttribute('d')).toBe('M0 0 4 0 4 3z');
    // the co-worker is more than plain shapes: kept as drawn, named for index.html's script only
    expect([...layer.querySelectorAll('[data-painted-asset]')].map((el) => el.getAttribute('data-painted-asset'))).toEqual(['e1']);
    expect(layer.querySelector('[data-painted-asset="e1"]')!.getAttribute('transform')).toBe('translate(6 6)');
    // the boxes a click is found by (not the outline's, not the one kept as drawn), and the floor's own assets
    expect(picture.boxes).toEqual([['r1', 0, 0, 4, 3], ['d1', 1, 1, 2, 2], ['d2', 5, 5, 6, 7], ['d3', 7, 1, 8, 2]]);
    expect(picture.fixed).toEqual(['r1', 'o1', 'd1', 'd2', 'd3']);
    // status marks are hidden at this zoom: not kept; labels the layout hid are not kept; text from the server is never rewritten
    expect(page.querySelector('.status-mark')).toBeNull();
    expect([...layer.querySelectorAll('text')].map((t) => t.textContent)).toEqual(['Board <img src=x onerror=alert(1)>', ' role="button" data-asset-id="z"', 'Ada']);
    expect(page.querySelector('header')!.hasAttribute('inert')).toBe(true);
  });

  it('keeps a phone-size screen with its menu and its sheet of panels closed, as it reopens', () => {
    const root = screen();
    const header = root.querySelector('header')!;
    header.classList.add('compact');
    header.insertAdjacentHTML('afterbegin', '<button class="menu-toggle" aria-expanded="true">Menu</button><div class="top-menu" role="group">menu</div>');
    const body = document.createElement('div');
    body.className = 'body compact';
    const shell = root.querySelector('.shell')!;
    for (const part of [...shell.querySelectorAll(':scope > aside, :scope > main')]) body.append(part);
    shell.append(body);
    root.querySelector('aside.right [role="tablist"]')!.insertAdjacentHTML('afterend', '<button class="sheet-hide">Hide panel</button>');
    const page = new DOMParser().parseFromString(capturePainted(root)!.html, 'text/html').body.firstElementChild!;
    expect(page.querySelector('aside.right [role="tabpanel"]')).toBeNull();
    expect(page.querySelector('#legend-co2')).not.toBeNull();
    expect(page.querySelector('.sheet-hide')).toBeNull();
    expect([...page.querySelectorAll('aside.right [role="tab"]')].map((t) => t.getAttribute('aria-selected'))).toEqual(['false', 'false']);
    expect(page.querySelector('.top-menu')!.hasAttribute('hidden')).toBe(true);
    expect(page.querySelector('.menu-toggle')!.getAttribute('aria-expanded')).toBe('false');
  });

  it('has nothing to keep on a screen without a floor', () => {
    document.body.innerHTML = '<div id="root"><main class="sign-in"></main></div>';
    expect(capturePainted(document.getElementById('root')!)).toBeNull();
  });
});

describe('reading the floor in steps (issue 14: no task over 50 ms)', () => {
  it('gives the picture of a read at once, an asset at a time; an asset taken away meanwhile is left out', () => {
    const root = screen();
    const whole = capturePainted(root)!;
    const read = startPainted(root)!;
    let steps = 1;
    while (!read.layer.step(() => false)) steps++;
    expect(steps).toBe(6);
    expect(layerMarkup(read.layer.result())).toEqual(layerMarkup(readLayer(root.querySelector('.layer-assets')!, false)));
    expect(whole.html).toContain(layerMarkup(read.layer.result()).html);

    const later = startPainted(root)!;
    later.layer.step(() => false);
    root.querySelector('[data-asset-id="d2"]')!.remove();
    while (!later.layer.step(() => false));
    expect(later.layer.result().fixed).toEqual(['r1', 'o1', 'd1', 'd3']);
    expect(later.layer.result().count).toBe(5);
  });
});

describe('usePaintedFloor', () => {
  const idle: Array<() => void> = [];
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', (task: () => void) => idle.push(task));
    // each reading of the clock moves it on 4 ms: a step of PAINT_SLICE_MS reads an asset or two
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (clock += 4));
    joinPaintEpoch();
  });
  afterEach(() => {
    // the hooks of one test hear no page events of the next
    cleanup();
    idle.length = 0;
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
  /** Runs the idle callbacks and timers until none is left; returns how many idle tasks ran. */
  function runIdle(): number {
    let ran = 0;
    for (;;) {
      act(() => vi.runAllTimers());
      const task = idle.shift();
      if (!task) return ran;
      ran++;
      act(() => task());
    }
  }

  it('stores the screen over several idle tasks, the same record as a read at once', () => {
    screen();
    let view = VIEW;
    const { result } = renderHook(() => usePaintedFloor({ target: { userId: 'u1', floorId: 'f1' }, ready: () => true, viewport: () => view }));
    act(() => result.current());
    act(() => vi.advanceTimersByTime(PAINT_DEBOUNCE_MS));
    expect(runIdle()).toBeGreaterThan(2);
    const stored = readPainted()!;
    const whole = capturePainted(document.getElementById('root')!)!;
    expect(stored.view).toEqual(VIEW);
    expect(stored.boxes).toEqual(whole.boxes);
    expect(localStorage.getItem(PAINTED_HTML_KEY)).toBe(`${stored.id}\n${whole.html}`);

    // the map moves while the next read is under way: that read writes nothing (the move asks for another)
    clearPainted();
    act(() => result.current());
    act(() => vi.advanceTimersByTime(PAINT_DEBOUNCE_MS));
    act(() => idle.shift()!());
    view = { ...VIEW, k: 20 };
    runIdle();
    expect(readPainted()).toBeNull();
  });

  it('stores the screen at once when the page is hidden or goes, not when it shows again, and no more once unmounted', () => {
    screen();
    clearPainted();
    const visibility = vi.spyOn(document, 'visibilityState', 'get');
    const { unmount } = renderHook(() => usePaintedFloor({ target: { userId: 'u1', floorId: 'f1' }, ready: () => true, viewport: () => VIEW }));
    visibility.mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(readPainted()).toBeNull();
    // in the event's own task: no idle time comes once the page is hidden
    visibility.mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(idle).toHaveLength(0);
    expect(readPainted()!.view).toEqual(VIEW);
    clearPainted();
    window.dispatchEvent(new Event('pagehide'));
    expect(readPainted()!.floorId).toBe('f1');
    clearPainted();
    unmount();
    window.dispatchEvent(new Event('pagehide'));
    document.dispatchEvent(new Event('visibilitychange'));
    expect(readPainted()).toBeNull();
  });
});

describe("index.html's script", () => {
  it('paints the stored screen over #root, with the server text still text, and hands the view over', () => {
    store(capturePainted(screen())!);
    const body = reload();
    const painted = body.querySelector(':scope > .painted')!;
    expect(painted).not.toBeNull();
    expect(painted.querySelector('.layer-assets')!.getAttribute('data-painted-count')).toBe('6');
    expect(painted.querySelector('text')!.textContent).toBe('Board <img src=x onerror=alert(1)>');
    expect(painted.querySelector('img')).toBeNull();
    // assistive technology hears that the app is starting on saved data
    expect(body.querySelector('#root > [role="status"]')!.textContent).toBe('Starting… Showing saved data from this device.');
    expect(takePaintedView('f1')).toBe(true);
    expect(takePaintedView('f1')).toBe(false);
  });

  it('keeps the last click on an asset for the viewer, once: the smallest box around the point, or the asset kept as drawn', () => {
    store(capturePainted(screen())!);
    const body = reload();
    const svg = body.querySelector<SVGSVGElement>('.painted svg.floor-svg')!;
    const click = (target: Element, x: number, y: number) => target.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: x, clientY: y }));
    // the picture's layer at 20× from (100, 50) on screen
    const at = (x: number, y: number): [number, number] => [100 + 20 * x, 50 + 20 * y];
    layerScreenCTM(svg, { a: 20, b: 0, c: 0, d: 20, e: 100, f: 50 });
    const paths = svg.querySelectorAll('.layer-assets path');
    click(paths[0]!, ...at(3, 2.5));
    expect(takePaintedClick('f0')).toBeNull();
    expect(takePaintedClick('f1')).toBe('r1');
    expect(takePaintedClick('f1')).toBeNull();
    // a desk in the room is the desk
    click(paths[0]!, ...at(1.5, 1.5));
    expect(takePaintedClick('f1')).toBe('d1');
    click(svg.querySelector('[data-painted-asset="e1"] circle')!, ...at(9, 9));
    expect(takePaintedClick('f1')).toBe('e1');
    // nothing there, or outside the floor: nothing kept
    click(paths[0]!, ...at(20, 20));
    click(body.querySelector('.painted header')!, ...at(3, 2.5));
    expect(takePaintedClick('f1')).toBeNull();
  });

  it('hands over only well-formed boxes and ids from a record that storage could have changed', () => {
    store(capturePainted(screen())!, {
      boxes: ['r1', [1, 2, 3], [{ id: 'x' }, 0, 0, 9, 9], ['s', '0', 0, 9, 9], null, ['ok', 2.5, 2, 3.5, 3]],
      fixed: ['r1', 7, { toString: 'x' }, null, 'd1'],
    });
    const body = reload();
    const svg = body.querySelector<SVGSVGElement>('.painted svg.floor-svg')!;
    layerScreenCTM(svg, { a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 });
    const path = svg.querySelector('.layer-assets path')!;
    path.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: 1, clientY: 1 }));
    expect(takePaintedClick('f1')).toBeNull();
    path.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: 3, clientY: 2.5 }));
    expect(takePaintedClick('f1')).toBe('ok');
    expect(window.__storeyPainted!.fixed).toEqual(['r1', 'd1']);
  });

  it.each([
    ['another build', () => reload('B')],
    ['a record from before a sign-out', () => { localStorage.removeItem(PAINTED_EPOCH_KEY); return reload(); }],
    ['another sign-in', () => { localStorage.setItem(PAINTED_EPOCH_KEY, 'someone-else'); return reload(); }],
    ['another window size', () => { localStorage.setItem(PAINTED_KEY, JSON.stringify({ ...readPainted(), w: innerWidth + 1 })); return reload(); }],
    ['another deep link', () => { history.replaceState(null, '', '/?floor=f9'); try { return reload(); } finally { history.replaceState(null, '', '/'); } }],
  ])('paints nothing for %s', (_, open) => {
    store(capturePainted(screen())!);
    const body = open();
    expect(body.querySelector('.painted')).toBeNull();
    expect(body.querySelector('#root')!.textContent).toBe('Starting…');
    expect(window.__storeyPainted).toBeUndefined();
  });

  it('drops script, event handlers and script URLs that markup in storage could carry', () => {
    const hostile = '<div class="painted" aria-hidden="true"><script>window.hit = 1</script>'
      + '<svg class="floor-svg"><g class="layer-assets"><g onclick="window.hit=2"><image href="javascript:alert(1)"></image>'
      + '<foreignObject><iframe src="https://evil.example"></iframe></foreignObject><a href="javascript:alert(1)">x</a>'
      + '<image href="/avatar-default.svg"></image></g></g></svg><p style="background:url(https://evil.example/t)">p</p></div>';
    store(hostile);
    const painted = reload().querySelector('.painted')!;
    expect(painted.querySelector('script, foreignObject, iframe')).toBeNull();
    expect(painted.querySelector('[onclick]')).toBeNull();
    expect(painted.querySelectorAll('image')[0]!.hasAttribute('href')).toBe(false);
    expect(painted.querySelectorAll('image')[1]!.getAttribute('href')).toBe('/avatar-default.svg');
    expect(painted.querySelector('a')!.hasAttribute('href')).toBe(false);
    expect(painted.querySelector('p')!.hasAttribute('style')).toBe(false);
    expect((window as { hit?: number }).hit).toBeUndefined();
  });

  it('paints nothing when the markup is of another write than the record', () => {
    store(capturePainted(screen())!);
    localStorage.setItem(PAINTED_HTML_KEY, `other-write\n${localStorage.getItem(PAINTED_HTML_KEY)!.split('\n').slice(1).join('\n')}`);
    expect(reload().querySelector('.painted')).toBeNull();
  });

  it('paints nothing from markup that is not a painted screen', () => {
    store('<div class="shell"><svg class="floor-svg"></svg></div>');
    expect(reload().querySelector('.shell')).toBeNull();
  });
});

describe('savePainted', () => {
  it('writes nothing once another tab signed out, and nothing after its own sign-out', () => {
    joinPaintEpoch();
    localStorage.removeItem(PAINTED_EPOCH_KEY);
    expect(savePainted({ ...BASE, w: 1, h: 1, html: '<div></div>' })).toBe(false);
    clearPainted({ signedOut: true });
    expect(savePainted({ ...BASE, w: 1, h: 1, html: '<div></div>' })).toBe(false);
    expect(localStorage.getItem(PAINTED_KEY)).toBeNull();
  });

  it('does not write an unchanged screen again, and writes a changed one', () => {
    const picture = capturePainted(screen())!;
    store(picture);
    const first = readPainted()!.id;
    const again = { ...BASE, w: innerWidth, h: innerHeight, ...picture };
    expect(savePainted(again)).toBe(true);
    expect(readPainted()!.id).toBe(first);
    expect(savePainted({ ...again, view: { ...VIEW, k: 13 } })).toBe(true);
    expect(readPainted()!.id).not.toBe(first);
    expect(readPainted()!.view.k).toBe(13);
  });

  it('keeps no record larger than its bound, not even the older one', () => {
    store('<div class="painted" aria-hidden="true"></div>');
    expect(savePainted({ ...BASE, w: 1, h: 1, html: 'x'.repeat(PAINTED_MAX_CHARS + 1) })).toBe(false);
    expect(localStorage.getItem(PAINTED_KEY)).toBeNull();
  });
});
