// The painted floor (issue 14, docs/ui.md "Painted floor"): when the live floor
// is on screen, the app's own rendered markup of the screen is kept in
// localStorage, so that index.html's small inline script can paint the
// user's saved floor at the same pan and zoom before the bundle and the
// engine worker have started; the app draws the same floor under it and
// takes the picture away once its own is whole. This module writes, clears
// and takes away that picture; index.html reads it (same keys, same build
// id). docs/ui.md "Painted floor" says why it is safe.

import { layerMarkup, layerReader, type LayerReader, type PaintedBox, type PaintedPicture, type ReadLayer } from './paintedLayer.js';
import type { Viewport } from './viewport.js';

export type { PaintedBox, PaintedPicture } from './paintedLayer.js';

/** localStorage key of the record (JSON, small); index.html's inline script reads the same one */
export const PAINTED_KEY = 'storey:painted-floor';
/** localStorage key of the record's markup, kept apart as plain text: no JSON escaping, no parse of it to read the record */
export const PAINTED_HTML_KEY = 'storey:painted-floor-html';
/** localStorage key of the sign-in a record belongs to: removed at sign-out, so no record outlives it */
export const PAINTED_EPOCH_KEY = 'storey:painted-epoch';
export const PAINTED_VERSION = 2;
/** A record larger than this is not kept (about 3 MB of UTF-16, well inside the origin's 10 MB quota). */
export const PAINTED_MAX_CHARS = 1_500_000;
/** The words the viewer shows over saved data; the painted floor shows the same. */
export const SAVED_DATA_NOTICE = 'Showing saved data from this device.';

export interface PaintedRecord {
  v: number;
  /** the app build that wrote it (buildIdOf): markup of another build is never shown */
  build: string;
  /** the sign-in it belongs to (PAINTED_EPOCH_KEY at the time of writing) */
  epoch: string;
  userId: string;
  floorId: string;
  /** the page it was taken on: path and query (the deep link); shown only there or on the bare path */
  path: string;
  search: string;
  /** the window's size: at another size the same pan and zoom would not be the same picture */
  w: number;
  h: number;
  /** the camera's viewport, restored by the viewer that takes over */
  view: Viewport;
  /** names this write: the markup starts with it and a newline, so a record is never paired with another write's markup */
  id: string;
  /** the assets a click on the picture can open, by box (the picture draws many in one path) */
  boxes: PaintedBox[];
  /** the floor's own assets the picture shows: it stays until the viewer has them */
  fixed: string[];
}

/** What index.html's script leaves for the app: whether it painted, and the asset a person clicked on it. */
export interface PaintedHandoff {
  floorId: string;
  view: Viewport | null;
  clicked: string | null;
  /** the record's fixed assets, strings only */
  fixed: string[];
}

declare global {
  interface Window {
    __storeyPainted?: PaintedHandoff;
  }
}

/**
 * The build's identity, read the same way by index.html's script: the hashed
 * entry script and stylesheet of the built page (a new build names new files).
 */
export function buildIdOf(doc: Document): string {
  const main = doc.querySelector('script[type="module"][src]')?.getAttribute('src') ?? '';
  const css = doc.querySelector('link[rel="stylesheet"][href]')?.getAttribute('href') ?? '';
  return `${main}|${css}`;
}

function storageOf(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** the last record parsed, by its text: the app's start reads it in two effects, and its boxes make it ~60 KB of JSON */
let lastRead: { raw: string; record: PaintedRecord } | null = null;

/** The stored record (the same object while its text is the same: do not change it), or null. */
export function readPainted(storage: Storage | null = storageOf()): PaintedRecord | null {
  try {
    const raw = storage?.getItem(PAINTED_KEY);
    if (!raw) return null;
    if (lastRead?.raw !== raw) lastRead = { raw, record: JSON.parse(raw) as PaintedRecord };
    return lastRead.record;
  } catch {
    return null;
  }
}

/** Forgets the painted floor; with `signedOut` also the sign-in it belonged to (other tabs then stop writing). */
export function clearPainted(options: { signedOut?: boolean } = {}, storage: Storage | null = storageOf()): void {
  try {
    storage?.removeItem(PAINTED_KEY);
    storage?.removeItem(PAINTED_HTML_KEY);
    if (options.signedOut) storage?.removeItem(PAINTED_EPOCH_KEY);
  } catch {
    // storage unavailable: nothing was kept either
  }
  if (options.signedOut) epoch = null;
}

/** this page's sign-in, once it is signed in (joinPaintEpoch) */
let epoch: string | null = null;

/**
 * Called when this page is signed in: takes the sign-in's epoch, or starts one.
 * A tab that stays signed in after another tab signed out keeps the old epoch
 * and so never writes again (its record would not match PAINTED_EPOCH_KEY).
 */
export function joinPaintEpoch(storage: Storage | null = storageOf()): void {
  if (epoch !== null) return;
  try {
    let current = storage?.getItem(PAINTED_EPOCH_KEY) ?? null;
    if (!current && storage) {
      current = crypto.randomUUID();
      storage.setItem(PAINTED_EPOCH_KEY, current);
    }
    epoch = current;
  } catch {
    epoch = null;
  }
}

/** Takes (once) the asset a person clicked on the painted floor before the viewer was ready. */
export function takePaintedClick(floorId: string): string | null {
  const handoff = window.__storeyPainted;
  if (!handoff || handoff.floorId !== floorId) return null;
  const id = handoff.clicked;
  handoff.clicked = null;
  return id;
}

/** Whether the painted floor still waits for the viewer: the picture is up, or a click made on it is not opened yet. */
export function paintedPending(): boolean {
  return isPainted() || !!window.__storeyPainted?.clicked;
}

/**
 * Whether the viewer has every fixed asset the picture shows of this floor
 * (rooms, desks, zones, the outline…), and the one clicked on it: saved data
 * may hold less than the picture (docs/ui.md "Painted floor"), and the picture
 * stays rather than give way to a floor that lacks them.
 */
export function paintedCovered(floorId: string, has: (id: string) => boolean): boolean {
  const handoff = window.__storeyPainted;
  if (!handoff || handoff.floorId !== floorId) return true;
  if (handoff.clicked && !has(handoff.clicked)) return false;
  if (!document.querySelector('body > .painted')) return true;
  return handoff.fixed.every(has);
}

/**
 * How long the picture stays over a drawn saved floor that lacks assets it shows, waiting for the
 * rest of the saved data or live data: offline neither may come, and the app must not stay hidden.
 */
export const PAINTED_COVER_WAIT_MS = 1_500;

/** How long the picture may stay over an app that has started: past it the app shows what it has. */
export const PAINTED_MAX_MS = 10_000;

/** Whether index.html painted a floor on this page load that is still over the app. */
export function isPainted(): boolean {
  return !!window.__storeyPainted && !!document.querySelector('body > .painted');
}

/** Takes the picture away: the app's own screen is ready, or is not the painted floor's. */
export function dropPainted(): void {
  document.querySelector('body > .painted')?.remove();
}

/** The painted view for this floor, if index.html painted it on this page load and no viewer took it over yet. */
export function paintedViewFor(floorId: string): Viewport | null {
  const handoff = window.__storeyPainted;
  return handoff && handoff.floorId === floorId ? handoff.view : null;
}

/** The viewer took the painted view over: a later viewer of this floor (a floor switch and back) fits as usual. */
export function takePaintedView(floorId: string): boolean {
  const handoff = window.__storeyPainted;
  if (!handoff || handoff.floorId !== floorId || !handoff.view) return false;
  handoff.view = null;
  return true;
}

/** Parts of the screen that are not the saved floor's picture: what a person did in the last session. */
const TRANSIENT = ['.popup-area > *', '.update-prompt', '.connection-banner', '.cache-indicator', '.live-region > *', '.drawing-floor', '.pick-hint', '.pick-marker'];
/** Controls shown in the picture but not usable until the app is: inert (no focus, no click) */
const INERT = ['.skip-links', 'header', 'aside', '.viewer-controls', '.playback-open'];
/** Stands for the floor's assets in the copy of the rest of the screen, replaced by the picture's own. */
const FLOOR_SLOT = 'painted-floor-slot';

/** The picture's form controls show what the live ones hold (values live in properties, markup has attributes). */
function freezeForms(live: Element, copy: Element): void {
  const [a, b] = [live.querySelectorAll('input, select'), copy.querySelectorAll('input, select')];
  for (let i = 0; i < a.length && i < b.length; i++) {
    const [from, to] = [a[i]!, b[i]!];
    if (from instanceof HTMLSelectElement) {
      to.querySelectorAll('option').forEach((o, j) => (j === from.selectedIndex ? o.setAttribute('selected', '') : o.removeAttribute('selected')));
    } else if (from instanceof HTMLInputElement) {
      if (from.type === 'checkbox' || from.type === 'radio') {
        if (from.checked) to.setAttribute('checked', '');
        else to.removeAttribute('checked');
      } else if (from.type === 'search' || from.type === 'text') {
        // a query typed last time is not there after a reopen
        to.setAttribute('value', '');
      }
    }
  }
}

/** A copy of the screen without the floor's assets (a slot element in their place): a few hundred elements, not thousands. */
function copyAround(node: Node, floor: Element): Node {
  if (node === floor) return document.createElement(FLOOR_SLOT);
  const copy = node.cloneNode(false);
  for (let child = node.firstChild; child; child = child.nextSibling) copy.appendChild(copyAround(child, floor));
  return copy;
}

/** The screen as read (takePainted): the rest of the screen's markup with a slot, and the floor's assets as read. */
export interface TakenScreen {
  around: string;
  layer: ReadLayer;
}

/** A read of the screen under way (startPainted): the rest of the screen is read, the floor's assets are read by `layer.step`. */
export interface ScreenRead {
  around: string;
  layer: LayerReader;
}

/**
 * Starts reading the screen for the painted floor: a copy of the app's own DOM
 * (React's output, so every server text is a text node and every attribute the
 * app set), with what was transient taken out, the saved-data notice put in,
 * read now (a few hundred elements); the floor's assets are read for a picture
 * built for painting (lib/paintedLayer.ts) by the returned reader, in as many
 * steps as the caller likes. Null when the screen has no floor.
 */
export function startPainted(root: HTMLElement): ScreenRead | null {
  const svg = root.querySelector('svg.floor-svg');
  const assets = svg?.querySelector('g.layer-assets');
  if (!svg || !assets) return null;
  const copy = copyAround(root, assets) as HTMLElement;
  freezeForms(root, copy);
  copy.querySelectorAll(TRANSIENT.join(',')).forEach((el) => el.remove());
  copy.querySelectorAll(INERT.join(',')).forEach((el) => el.setAttribute('inert', ''));
  // the right-hand panel reopens on its first tab: show that tab, or an empty panel; a phone-size
  // screen reopens with its sheet of panels and its menu closed (TopBar, docs/ui.md)
  const compact = copy.querySelector('.body.compact') !== null;
  // the side panels' (a narrow map's legends are tabs too)
  const panel = copy.querySelector('aside.right [role="tabpanel"]');
  if (compact) {
    panel?.remove();
    copy.querySelector('.sheet-hide')?.remove();
    copy.querySelector('.top-menu')?.setAttribute('hidden', '');
    copy.querySelector('.menu-toggle')?.setAttribute('aria-expanded', 'false');
  } else if (panel && panel.id !== 'panel-people') panel.replaceChildren();
  copy.querySelectorAll('aside.right [role="tab"]').forEach((tab) => tab.setAttribute('aria-selected', String(!compact && tab.id === 'tab-people')));
  const notices = copy.querySelector('.map-notices');
  if (notices) {
    const note = document.createElement('p');
    note.className = 'cache-indicator';
    note.textContent = SAVED_DATA_NOTICE;
    notices.prepend(note);
  }
  // the floor's SVG is a picture now: hidden from assistive technology (the splash speaks), saved data
  const floor = copy.querySelector('svg.floor-svg')!;
  for (const name of ['role', 'aria-label', 'aria-roledescription', 'tabindex']) floor.removeAttribute(name);
  floor.setAttribute('data-from-cache', 'true');
  const painted = document.createElement('div');
  painted.className = 'painted';
  painted.setAttribute('aria-hidden', 'true');
  painted.append(...copy.childNodes);
  const detail = svg.querySelector('g.world')?.getAttribute('data-detail') !== 'false';
  return { around: painted.outerHTML, layer: layerReader(assets, detail) };
}

/** Reads the screen for the painted floor in one go (startPainted, every asset at once); null when it has no floor. */
export function takePainted(root: HTMLElement): TakenScreen | null {
  const read = startPainted(root);
  if (!read) return null;
  read.layer.step(() => true);
  return { around: read.around, layer: read.layer.result() };
}

/** The painted floor's markup and its assets from what was read (string work only: it may run in a task of its own). */
export function finishPainted({ around, layer }: TakenScreen): PaintedPicture {
  const [before, after] = around.split(`<${FLOOR_SLOT}></${FLOOR_SLOT}>`);
  const { html, boxes, fixed } = layerMarkup(layer);
  return { html: `${before}${html}${after}`, boxes, fixed };
}

/** `div.painted` markup of the screen and its assets (takePainted, then finishPainted), or null when it has no floor. */
export function capturePainted(root: HTMLElement): PaintedPicture | null {
  const taken = takePainted(root);
  return taken ? finishPainted(taken) : null;
}

/**
 * Whether the stored record already says this. The browser writes localStorage to disk with
 * a delay and limits how many bytes it commits an hour, so a picture written again and again
 * (after each draw, each settle, each hiding of the page) can still be unwritten when the
 * browser closes: an unchanged screen is not written again.
 */
function unchanged(storage: Storage, record: PaintedRecord, html: string): boolean {
  const before = readPainted(storage);
  if (!before) return false;
  const same = (Object.keys(record) as Array<keyof PaintedRecord>).every((k) => k === 'id' || JSON.stringify(before[k]) === JSON.stringify(record[k]));
  return same && storage.getItem(PAINTED_HTML_KEY) === `${before.id}\n${html}`;
}

/** What a caller gives to be stored: the record's own fields and the markup. */
export type PaintedCapture = Omit<PaintedRecord, 'v' | 'epoch' | 'build' | 'id'> & { html: string };

/** Writes the record when it fits; an oversized or refused one leaves no stale record behind. */
export function savePainted(capture: PaintedCapture, storage: Storage | null = storageOf()): boolean {
  if (!storage || epoch === null) return false;
  try {
    // another tab signed out (or in as someone else) since this page joined: write nothing
    if (storage.getItem(PAINTED_EPOCH_KEY) !== epoch) return false;
    const { html, ...rest } = capture;
    const record: PaintedRecord = { v: PAINTED_VERSION, build: buildIdOf(document), epoch, id: '', ...rest };
    if (html.length + JSON.stringify(record).length > PAINTED_MAX_CHARS) {
      clearPainted({}, storage);
      return false;
    }
    if (unchanged(storage, record, html)) return true;
    record.id = crypto.randomUUID();
    // a write cut short (the page closing) leaves a record and a markup of two writes: their ids differ
    storage.setItem(PAINTED_HTML_KEY, `${record.id}\n${html}`);
    storage.setItem(PAINTED_KEY, JSON.stringify(record));
    return true;
  } catch {
    // quota: better no picture than an old one
    try {
      storage.removeItem(PAINTED_KEY);
      storage.removeItem(PAINTED_HTML_KEY);
    } catch {
      /* nothing more to do */
    }
    return false;
  }
}
