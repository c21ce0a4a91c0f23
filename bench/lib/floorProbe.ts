// What the browser benches watch in the app page, installed before any of the
// page's scripts (context.addInitScript with { content }): main-thread long tasks (a buffered
// PerformanceObserver), the sign-in submit, and once per animation frame the
// floor's state — how many assets are drawn and whether they are saved data.
// A state is stamped with the frame after the one that showed it, so the time
// includes painting it.
// Shared with them too: the long-task bound, when a floor counts as settled,
// signing in until it is, and a tap on the view messages that reach the page.

import type { Page } from 'playwright-core';

/** A main-thread task longer than this is a long task (DESIGN §7: none over 50 ms). */
export const LONG_TASK_MS = 50;
/** The floor counts as settled when nothing drawn changed for this long. */
export const FLOOR_SETTLED_MS = 1_500;

export interface FloorFrame {
  /** ms since navigation start: the frame after the state was first seen (painted by then) */
  at: number;
  /** drawn asset nodes (children of the viewer's assets layer; the painted picture's data-painted-count) */
  count: number;
  /** the viewer's data-from-cache, or null while no floor viewer is shown */
  fromCache: boolean | null;
}

/** A script of a long animation frame (the Long Animation Frames API): what ran, from which file, for how long. */
export interface FrameScript {
  /** e.g. "IdleRequestCallback", "MessagePort.onmessage", "FrameRequestCallback", "TimerHandler:setTimeout", "Module" */
  invoker: string;
  /** the script file's name (no path) and the function, where the browser knows them */
  source: string;
  at: number;
  ms: number;
  /** style and layout the script forced */
  forcedMs: number;
}

/** A long animation frame: the tasks of one frame and its rendering, with the scripts that ran in them. */
export interface LongFrame {
  start: number;
  duration: number;
  /** the frame's own style, layout and paint (from renderStart) */
  renderMs: number;
  scripts: FrameScript[];
}

export interface ProbeData {
  longTasks: Array<{ start: number; duration: number }>;
  /** long animation frames (> 50 ms), which say what ran in a long task */
  longFrames: LongFrame[];
  frames: FloorFrame[];
  submitAt: number | null;
  /** first-contentful-paint, ms since navigation start */
  fcp: number | null;
  /** when the page got its first view message from the engine worker */
  firstMessageAt: number | null;
  /** when the page got the first snapshot of saved data (meta.fromCache: the saved floor) */
  savedSnapshotAt: number | null;
}

/**
 * Page script text (run before the page's own scripts) that calls `handler`, a JavaScript function's source
 * text, with each view message (snapshot, snapshotPart, patch) after the page's listener handled it, as
 * `handler(message, startedAt, ms)`: `startedAt` is when the listener was called (performance.now()) and `ms`
 * how long it took. View messages come on one-way ports whose listener is set as `onmessage`
 * (src/ui/engine/viewPort.ts); a message carried by a Comlink call (its first argument) counts too. One
 * wrapper of the ports serves every handler a page installs.
 */
export function tapViewMessages(handler: string): string {
  return `(() => {
    const taps = window.__viewTaps || (window.__viewTaps = []);
    taps.push(${handler});
    if (taps.length > 1) return;
    const wrap = (inner) => function (event) {
      const startedAt = performance.now();
      const result = inner.call(this, event);
      const d = event.data;
      const args = d && d.argumentList;
      const m = args && args[0] ? args[0].value : d;
      if (m && (m.type === 'snapshot' || m.type === 'snapshotPart' || m.type === 'patch')) {
        const ms = performance.now() - startedAt;
        for (const tap of taps) tap(m, startedAt, ms);
      }
      return result;
    };
    const addListener = MessagePort.prototype.addEventListener;
    MessagePort.prototype.addEventListener = function (type, listener, options) {
      return addListener.call(this, type, type === 'message' && typeof listener === 'function' ? wrap(listener) : listener, options);
    };
    const onmessage = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage');
    Object.defineProperty(MessagePort.prototype, 'onmessage', {
      configurable: true,
      get() { return onmessage.get.call(this); },
      set(listener) { onmessage.set.call(this, typeof listener === 'function' ? wrap(listener) : listener); },
    });
  })();`;
}

/**
 * The probe's source, run in the page before its own scripts. Plain
 * JavaScript text: a serialised TypeScript function would carry the
 * bundler's helpers (`__name`), which do not exist in the page.
 */
export const FLOOR_PROBE_SCRIPT = `(() => {
  const data = { longTasks: [], longFrames: [], frames: [], submitAt: null, fcp: null, firstMessageAt: null, savedSnapshotAt: null };
  window.__probe = data;
  ${tapViewMessages(`(m, at) => {
    if (m.type !== 'snapshot' && m.type !== 'patch') return;
    if (data.firstMessageAt === null) data.firstMessageAt = at;
    if (m.type === 'snapshot' && m.meta && m.meta.fromCache === true && data.savedSnapshotAt === null) data.savedSnapshotAt = at;
  }`)}
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) data.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') data.fcp = e.startTime;
    }).observe({ type: 'paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        data.longFrames.push({
          start: e.startTime, duration: e.duration, renderMs: e.renderStart ? e.startTime + e.duration - e.renderStart : 0,
          scripts: (e.scripts || []).map((s) => ({
            invoker: (s.invoker || s.invokerType || '').split(location.origin + '/').join('').split('assets/').join(''),
            source: ((s.sourceURL || '').split('/').pop() || '') + (s.sourceFunctionName ? ' ' + s.sourceFunctionName : '') + (s.sourceCharPosition >= 0 ? ':' + s.sourceCharPosition : ''),
            at: s.startTime, ms: s.duration, forcedMs: s.forcedStyleAndLayoutDuration || 0,
          })),
        });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch (error) {
    // without these entry types the bench reports what it has
  }
  document.addEventListener('submit', () => { data.submitAt = performance.now(); }, true);
  let last = '';
  let pending = null;
  const tick = () => {
    if (pending) {
      data.frames.push({ at: performance.now(), count: pending.count, fromCache: pending.fromCache });
      pending = null;
    }
    const svg = document.querySelector('svg.floor-svg');
    const layer = svg ? svg.querySelector('g.layer-assets') : null;
    // the painted picture draws many assets in one path and says how many it draws
    const painted = layer ? layer.getAttribute('data-painted-count') : null;
    const count = layer ? (painted !== null ? Number(painted) : layer.childElementCount) : 0;
    const attr = svg ? svg.getAttribute('data-from-cache') : null;
    const fromCache = attr === 'true' ? true : attr === 'false' ? false : null;
    const key = count + '|' + fromCache;
    if (key !== last) {
      last = key;
      pending = { count, fromCache };
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

/** The frame at which the floor reached `count` assets (the first of a run of frames that satisfy `when`). */
export function firstFrame(frames: readonly FloorFrame[], when: (f: FloorFrame) => boolean): FloorFrame | null {
  return frames.find(when) ?? null;
}

/**
 * What ran in each long task: the scripts (over 5 ms) of the long animation frame holding it, and the
 * frame's rendering when it was long. One line per task; the bench prints them under its table.
 */
export function describeTasks(data: ProbeData, tasks: ReadonlyArray<{ start: number; duration: number }>): string[] {
  return tasks.map((t) => {
    const end = t.start + t.duration;
    const scripts = data.longFrames.flatMap((f) => f.scripts).filter((s) => s.at >= t.start - 1 && s.at < end && s.ms >= 5);
    const frame = data.longFrames.find((f) => f.start <= t.start + 1 && f.start + f.duration >= end - 1);
    const parts = scripts.map((s) => `${s.invoker} ${s.source} ${Math.round(s.ms)}${s.forcedMs >= 5 ? ` (forced layout ${Math.round(s.forcedMs)})` : ''}`);
    if (frame && frame.renderMs >= 10 && frame.start + frame.duration <= end + 1) parts.push(`rendering ${Math.round(frame.renderMs)}`);
    return `${Math.round(t.duration)} ms at ${Math.round(t.start)}: ${parts.join('; ') || '(no script over 5 ms)'}`;
  });
}

/** Long tasks that started in [from, to) (ms since navigation start). */
export function tasksIn(data: ProbeData, from: number, to: number): Array<{ start: number; duration: number }> {
  return data.longTasks.filter((t) => t.start >= from && t.start < to);
}

/**
 * Signs in at `url` through the form as `account`, then waits until the floor is drawn from live data and
 * has not changed for FLOOR_SETTLED_MS (the page runs FLOOR_PROBE_SCRIPT).
 */
export async function signInOnSettledFloor(page: Page, url: string, account: { email: string; password: string }, options: { timeoutMs: number; label: string }): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const t0 = Date.now();
  for (;;) {
    if (Date.now() - t0 > options.timeoutMs) throw new Error(`${options.label}the floor did not settle`);
    await page.waitForTimeout(250);
    const ok = await page.evaluate((settle) => {
      const p = (window as unknown as { __probe: ProbeData }).__probe;
      const last = p.frames[p.frames.length - 1];
      return !!last && last.fromCache === false && last.count > 0 && performance.now() - last.at > settle;
    }, FLOOR_SETTLED_MS);
    if (ok) return;
  }
}
