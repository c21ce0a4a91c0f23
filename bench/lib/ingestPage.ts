// The page side of the Chromium ingest benches (bench/ingestBrowser.ts, bench/ingestCompare.ts): one browser
// profile with the ingest page (bench/ingest/) signed in and every view open, and a timed window: the worker
// decodes the payloads (the ceiling), then its engine takes them, each phase's CPU read from a Chrome trace by
// thread (docs/bench.md "Ingest in Chromium").

import type { BrowserContext, Page } from 'playwright-core';
import type { IngestPage } from '../ingest/main.js';
import type { Opened, Persisted } from '../ingest/worker.js';
import type { BenchLocation } from './benchEngine.js';
import { threadCpu } from './threadCpu.js';
import { startTrace } from './trace.js';

/** after each phase the worker idles this long inside the trace, so background work the phase started is seen */
export const TAIL_MS = 250;

/**
 * What the CPU is read from: toplevel gives every thread's tasks with their thread time, user timing the worker's
 * marks, devtools.timeline the garbage collector's work on the worker thread (scavenges, major GC pauses, marking steps)
 */
export const TRACE_CATEGORIES = ['toplevel', 'blink.user_timing', 'devtools.timeline'];
/** the worker thread's GC events: a scavenge (MinorGC), and a major GC's pause, its incremental marking steps, its sweeping */
const MINOR_GC = /^(MinorGC|V8\.GC_SCAVENGER)/;
const GC = /^(MajorGC|MinorGC|V8\.GC_)/;
export interface TraceEvent { name: string; cat: string; ph: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number; args?: Record<string, unknown> }

/**
 * CPU ms of one phase: the worker thread, the renderer's thread pool, the renderer's main thread, the browser
 * process; `poolTail`: the thread pool in the TAIL_MS after the phase's end (helpers finishing what it started)
 */
export interface PhaseCpu { worker: number; pool: number; poolTail: number; page: number; browser: number; wallMs: number; minorGc: number; majorGc: number }

/** CPU ms of the GC's events on one thread between `fromUs` and `toUs`, outermost events only, as scavenges and major GC work. */
function gcCpu(events: TraceEvent[], pid: number, tid: number, fromUs: number, toUs: number): { minor: number; major: number } {
  const mine = events
    .filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.tdur !== undefined && e.dur !== undefined && GC.test(e.name))
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  let end = -Infinity;
  const out = { minor: 0, major: 0 };
  for (const e of mine) {
    if (e.ts < end) continue;
    end = e.ts + e.dur!;
    const from = Math.max(e.ts, fromUs);
    const to = Math.min(end, toUs);
    if (to <= from) continue;
    out[MINOR_GC.test(e.name) ? 'minor' : 'major'] += ((to - from) / Math.max(1, e.dur!)) * e.tdur! / 1000;
  }
  return out;
}
export interface Window { changes: number; ceiling: PhaseCpu; engine: PhaseCpu; persisted: Persisted }

export type Measure = 'worker' | 'all';
export const cpuOf = (p: PhaseCpu, m: Measure) => (m === 'worker' ? p.worker : p.worker + p.pool);
export const rate = (n: number, ms: number) => n / (ms / 1000);

/** The phase between the worker's marks `${mark}:start` and `${mark}:end`, by thread. */
export function phaseCpu(events: TraceEvent[], mark: string, wallMs: number): PhaseCpu {
  const at = (name: string) => {
    const e = events.find((x) => x.name === name && x.cat.includes('blink.user_timing'));
    if (!e) throw new Error(`the trace lacks the worker's mark ${name}`);
    return e;
  };
  const start = at(`${mark}:start`);
  const end = at(`${mark}:end`);
  const names = new Map<number, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'process_name') names.set(e.pid, String((e.args as { name?: unknown }).name));
  const renderer = threadCpu(events.filter((e) => e.pid === start.pid) as never, start.ts, end.ts);
  const browserPid = [...names].find(([, n]) => n === 'Browser')?.[0];
  const browser = threadCpu(events.filter((e) => e.pid === browserPid) as never, start.ts, end.ts);
  const tail = threadCpu(events.filter((e) => e.pid === start.pid) as never, end.ts, end.ts + TAIL_MS * 1000);
  const of = (rows: typeof renderer, suffix: string) => rows.filter((r) => r.thread.endsWith(suffix)).reduce((s, r) => s + r.cpuMs, 0);
  const gc = gcCpu(events, start.pid, start.tid, start.ts, end.ts);
  return {
    minorGc: gc.minor, majorGc: gc.major,
    worker: of(renderer, '/ DedicatedWorker thread'), pool: of(renderer, '/ thread pool'), poolTail: of(tail, '/ thread pool'), page: of(renderer, '/ CrRendererMain'),
    browser: browser.reduce((s, r) => s + r.cpuMs, 0), wallMs,
  };
}

/** One profile's ingest page, signed in with every view open. */
export interface IngestSide {
  page: Page;
  opened: Opened;
  /** page.evaluate of `fn` with the page's bench object */
  call<R>(fn: (bench: IngestPage, arg: never) => Promise<R>, arg?: unknown): Promise<R>;
  /**
   * One traced window on `payloads` (`changes` in all; the stream must stand at `sequence` after them): the
   * ceiling, then the engine, each followed by TAIL_MS of idling; `extraCategories` are traced too
   */
  window(payloads: string[], changes: number, sequence: number, extraCategories?: string[]): Promise<{ window: Window; events: TraceEvent[]; id: string }>;
}

/** Opens the ingest page at `url` in `context`, signs in to `host` as `loc`'s user and opens every view. */
export async function openIngestSide(context: BrowserContext, url: string, host: string, loc: BenchLocation): Promise<IngestSide> {
  const page: Page = context.pages()[0] ?? await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => { errors.push(error.message); });
  await page.goto(url);
  await page.waitForFunction(() => '__ingest' in window);
  const call = <R>(fn: (bench: IngestPage, arg: never) => Promise<R>, arg?: unknown): Promise<R> => {
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    return page.evaluate(`(${fn.toString()})(window.__ingest, ${JSON.stringify(arg ?? null)})`) as Promise<R>;
  };
  const opened = await call((b, a: { host: string; loc: BenchLocation }) => b.open(a.host, a.loc), { host, loc });
  let windows = 0;
  return {
    page,
    opened,
    call,
    async window(payloads, changes, sequence, extraCategories = []) {
      await call((b, p: string[]) => b.give(p), payloads);
      const id = `w${windows++}`;
      const tracer = await startTrace(page, [...TRACE_CATEGORIES, ...extraCategories]);
      const ceiling = await call((b, m: string) => b.ceiling(m), `${id}:ceiling`);
      if (ceiling.changes !== changes) throw new Error(`decoded ${ceiling.changes} of ${changes} changes`);
      await page.waitForTimeout(TAIL_MS);
      const engine = await call((b, a: [string, number]) => b.ingest(a[0], a[1]), [`${id}:engine`, sequence]);
      await page.waitForTimeout(TAIL_MS);
      const events = await tracer.stop() as TraceEvent[];
      const window: Window = { changes, ceiling: phaseCpu(events, `${id}:ceiling`, ceiling.wallMs), engine: phaseCpu(events, `${id}:engine`, engine.wallMs), persisted: engine.persisted };
      return { window, events, id };
    },
  };
}
