// Where the time goes in the browser: a Chrome trace of the page's renderer
// (main thread and workers) with V8's sampling profiler, summarised per
// thread as self time per function and as time in top-level tasks. Used by
// bench/profileApp.ts; never by a timed target.

import type { CDPSession, Page } from 'playwright-core';

// NO_SAMPLES=1 leaves V8's sampling profiler out: with it on, V8 reuses no code cache, so a trace without
// it shows the start-up as users get it (a script's code cache read, not a compile)
const CATEGORIES = [
  'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'v8',
  ...(process.env.NO_SAMPLES ? [] : ['disabled-by-default-v8.cpu_profiler']), 'toplevel', 'blink.user_timing',
  ...(process.env.TRACE_CATEGORIES ? process.env.TRACE_CATEGORIES.split(',') : []),
].join(',');

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  id?: string;
  args?: { name?: string; data?: Record<string, unknown> } & Record<string, unknown>;
}

export interface Tracer {
  stop(): Promise<TraceEvent[]>;
}

/** Traces the browser (every process) from `page`'s session; `categories`: others than the profiling ones above. */
export async function startTrace(page: Page, categories: string[] = CATEGORIES.split(',')): Promise<Tracer> {
  const session: CDPSession = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  session.on('Tracing.dataCollected', (e) => { events.push(...(e.value as unknown as TraceEvent[])); });
  await session.send('Tracing.start', { traceConfig: { includedCategories: categories, recordMode: 'recordContinuously' }, transferMode: 'ReportEvents' } as never);
  return {
    async stop() {
      const done = new Promise<void>((resolve) => session.once('Tracing.tracingComplete', () => resolve()));
      await session.send('Tracing.end');
      await done;
      await session.detach();
      return events;
    },
  };
}

interface CpuNode { id: number; parent?: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }

export interface ThreadSummary {
  thread: string;
  /** ms of samples per function (self time), largest first */
  self: Array<{ fn: string; ms: number }>;
  /** ms of samples per function including callees, largest first */
  total: Array<{ fn: string; ms: number }>;
  /** top-level tasks longer than 50 ms: start (ms, trace clock), duration */
  longTasks: Array<{ at: number; ms: number }>;
  sampledMs: number;
}

/** A thread's sampled CPU profile, joined from the trace's events. */
interface CpuProfile { key: string; start: number; nodes: Map<number, CpuNode>; samples: number[]; deltas: number[] }

/** The trace's CPU profiles (of one thread, `pid:tid`, when given): a Profile event and the ProfileChunks sharing its id. */
function cpuProfiles(events: TraceEvent[], threadKey?: string): CpuProfile[] {
  const profiles = new Map<string, CpuProfile>();
  for (const e of events) {
    if (e.name === 'Profile' && (threadKey === undefined || `${e.pid}:${e.tid}` === threadKey)) {
      profiles.set(`${e.pid}:${e.id}`, { key: `${e.pid}:${e.tid}`, start: Number((e.args?.data as { startTime?: number })?.startTime ?? e.ts), nodes: new Map(), samples: [], deltas: [] });
    } else if (e.name === 'ProfileChunk') {
      const p = profiles.get(`${e.pid}:${e.id}`);
      const data = e.args?.data as { cpuProfile?: { nodes?: CpuNode[]; samples?: number[] }; timeDeltas?: number[] } | undefined;
      if (!p || !data) continue;
      for (const n of data.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n);
      p.samples.push(...(data.cpuProfile?.samples ?? []));
      p.deltas.push(...(data.timeDeltas ?? []));
    }
  }
  return [...profiles.values()];
}

/** Self and inclusive time per function and long tasks, per named thread of the trace. */
export function summarise(events: TraceEvent[], sinceUs = 0, untilUs = Infinity): ThreadSummary[] {
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, String(e.args?.name));
  const profiles = cpuProfiles(events);
  const out: ThreadSummary[] = [];
  for (const p of profiles) {
    const label = (n: CpuNode) => {
      const f = n.callFrame;
      const file = (f.url ?? '').split('/').pop() ?? '';
      return `${f.functionName || '(anonymous)'} ${file}:${(f.lineNumber ?? -1) + 1}`;
    };
    const self = new Map<string, number>();
    const total = new Map<string, number>();
    let t = p.start;
    let sampled = 0;
    for (let i = 0; i < p.samples.length; i++) {
      const dt = p.deltas[i] ?? 0;
      t += dt;
      if (t < sinceUs || t > untilUs) continue;
      const node = p.nodes.get(p.samples[i]!);
      if (!node) continue;
      const ms = Math.max(0, (p.deltas[i + 1] ?? dt)) / 1000;
      const name = label(node);
      if (node.callFrame.functionName === '(idle)' || node.callFrame.functionName === '(program)') continue;
      sampled += ms;
      self.set(name, (self.get(name) ?? 0) + ms);
      const seen = new Set<string>();
      for (let n: CpuNode | undefined = node; n; n = n.parent !== undefined ? p.nodes.get(n.parent) : undefined) {
        const l = label(n);
        if (seen.has(l)) continue;
        seen.add(l);
        total.set(l, (total.get(l) ?? 0) + ms);
      }
    }
    // parents are given as children lists in some versions
    const longTasks = events
      .filter((e) => `${e.pid}:${e.tid}` === p.key && e.name === 'RunTask' && (e.dur ?? 0) > 50_000 && e.ts >= sinceUs && e.ts <= untilUs)
      .map((e) => ({ at: e.ts / 1000, ms: (e.dur ?? 0) / 1000 }));
    const sorted = (m: Map<string, number>) => [...m].map(([fn, ms]) => ({ fn, ms })).sort((a, b) => b.ms - a.ms);
    out.push({ thread: names.get(p.key) ?? p.key, self: sorted(self), total: sorted(total), longTasks, sampledMs: sampled });
  }
  return out;
}

/** Fills in `parent` from `children` lists (newer V8 sends children, not parents). */
export function linkParents(events: TraceEvent[]): void {
  for (const e of events) {
    if (e.name !== 'ProfileChunk') continue;
    const nodes = (e.args?.data as { cpuProfile?: { nodes?: Array<CpuNode & { children?: number[] }> } })?.cpuProfile?.nodes ?? [];
    for (const n of nodes) for (const c of n.children ?? []) {
      const child = nodes.find((x) => x.id === c);
      if (child) child.parent = n.id;
    }
  }
}

/** The navigation of the page under test: its first main-frame navigationStart with an http URL. */
export function pageNavigation(events: TraceEvent[]): TraceEvent | null {
  return events.find((e) => e.name === 'navigationStart' && /^http/.test(String((e.args?.data as { documentLoaderURL?: string } | undefined)?.documentLoaderURL))) ?? null;
}

/**
 * Steps of a page's start-up read from the trace, in ms after `nav`: the HTML parsed, the page's
 * first module evaluated, the engine worker's thread running, its script compiled and evaluated,
 * and its first message handled. A step the trace lacks is left out.
 */
export function startupSteps(events: TraceEvent[], nav: TraceEvent): Array<[string, number]> {
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, String(e.args?.name));
  const on = (thread: string, name: string, end: boolean): number | null => {
    const hit = events
      .filter((e) => e.ts >= nav.ts && e.name === name && names.get(`${e.pid}:${e.tid}`) === thread)
      .sort((a, b) => a.ts - b.ts)[0];
    return hit ? (hit.ts + (end ? hit.dur ?? 0 : 0) - nav.ts) / 1000 : null;
  };
  const steps: Array<[string, number | null]> = [
    ['HTML parsed (service worker, then the page)', on('CrRendererMain', 'ParseHTML', true)],
    ["page's first module evaluated (worker created)", on('CrRendererMain', 'v8.evaluateModule', true)],
    ["engine worker's thread running", on('DedicatedWorker thread', 'ThreadControllerImpl::RunTask', false)],
    ["worker's script compiled", on('DedicatedWorker thread', 'v8.compileModule', true)],
    ["worker's script evaluated", on('DedicatedWorker thread', 'v8.evaluateModule', true)],
    ["worker's first message handled (init)", on('DedicatedWorker thread', 'HandlePostMessage', false)],
  ];
  return steps.filter((s): s is [string, number] => s[1] !== null);
}

export interface ScriptCompile {
  thread: string;
  /** the script's file name */
  script: string;
  compileMs: number;
  /** of compileMs, the thread's own CPU time (the rest it waited for a core) */
  compileCpuMs: number;
  /** thread CPU time spent making a code cache for it */
  cacheCpuMs: number;
  /** bytes of V8 code cache used for it (classic scripts say so; module scripts do not report it) */
  consumed: number | null;
  /** bytes of code cache V8 made for it after this load: a script with a cache to reuse makes none */
  produced: number | null;
}

/**
 * Each script of the page's origin compiled after `nav` on each thread (the page, its workers, the service
 * worker) and what V8's code cache did for it: a warm load that reuses the cache compiles from it and
 * makes no new one; a script that makes one on every load (the engine worker's, docs/bench.md) reuses none.
 */
export function codeCacheUse(events: TraceEvent[], nav: TraceEvent): ScriptCompile[] {
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, String(e.args?.name));
  const origin = new URL(String((nav.args?.data as { documentLoaderURL?: string } | undefined)?.documentLoaderURL)).origin;
  const out = new Map<string, ScriptCompile>();
  for (const e of events) {
    if (e.ts < nav.ts || !/^v8\.(compile|compileModule|produceCache|produceModuleCache)$/.test(e.name)) continue;
    const data = (e.args?.data ?? {}) as { url?: string; consumedCacheSize?: number; producedCacheSize?: number };
    if (!data.url?.startsWith(origin)) continue;
    const thread = names.get(`${e.pid}:${e.tid}`) ?? `${e.pid}:${e.tid}`;
    const script = data.url.slice(origin.length + 1) || '/';
    const key = `${thread}|${script}`;
    const row = out.get(key) ?? { thread, script, compileMs: 0, compileCpuMs: 0, cacheCpuMs: 0, consumed: null, produced: null };
    const cpu = ((e as { tdur?: number }).tdur ?? 0) / 1000;
    if (e.name.startsWith('v8.produce')) {
      row.produced = (row.produced ?? 0) + (data.producedCacheSize ?? 0);
      row.cacheCpuMs += cpu;
    } else {
      row.compileMs += (e.dur ?? 0) / 1000;
      row.compileCpuMs += cpu;
      if (data.consumedCacheSize) row.consumed = (row.consumed ?? 0) + data.consumedCacheSize;
    }
    out.set(key, row);
  }
  return [...out.values()];
}

/**
 * The module evaluations (a module graph's top-level code) on each thread after `nav`, in order: wall ms and the
 * thread's CPU ms. On a loaded machine the CPU time is what the code costs; the wall time adds the wait for a core.
 */
export function moduleEvaluations(events: TraceEvent[], nav: TraceEvent): Array<{ thread: string; at: number; ms: number; cpuMs: number }> {
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, String(e.args?.name));
  return events
    .filter((e) => e.ts >= nav.ts && e.name === 'v8.evaluateModule')
    .sort((a, b) => a.ts - b.ts)
    .map((e) => ({ thread: names.get(`${e.pid}:${e.tid}`) ?? '', at: (e.ts - nav.ts) / 1000, ms: (e.dur ?? 0) / 1000, cpuMs: ((e as { tdur?: number }).tdur ?? 0) / 1000 }));
}

/** Timeline events whose time a long task's breakdown names (forced ones show up inside FunctionCall too). */
const PHASES = new Set([
  'FunctionCall', 'TimerFire', 'FireAnimationFrame', 'RunMicrotasks', 'EventDispatch', 'ParseHTML', 'EvaluateScript', 'v8.compile',
  'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'HitTest', 'MinorGC', 'MajorGC', 'ResizeObserverLoop',
]);

export interface TaskBreakdown {
  /** ms on the trace clock */
  at: number;
  ms: number;
  /** the main thread's CPU time in the task: what it costs without the machine's other load */
  cpuMs: number;
  /** ms per timeline event name inside the task (nested events counted in each) */
  phases: Array<{ name: string; ms: number }>;
  /** sampled ms per function inside the task, including callees, largest first */
  functions: Array<{ fn: string; ms: number }>;
}

/** The main thread's CPU samples: time (trace clock, µs) and the stack's function labels, leaf first. */
function mainSamples(events: TraceEvent[], threadKey: string): Array<{ t: number; ms: number; stack: string[] }> {
  const out: Array<{ t: number; ms: number; stack: string[] }> = [];
  const profiles = cpuProfiles(events, threadKey);
  for (const p of profiles) {
    let t = p.start;
    for (let i = 0; i < p.samples.length; i++) {
      const dt = p.deltas[i] ?? 0;
      t += dt;
      const node = p.nodes.get(p.samples[i]!);
      if (!node || node.callFrame.functionName === '(idle)' || node.callFrame.functionName === '(program)') continue;
      const stack: string[] = [];
      for (let n: CpuNode | undefined = node; n; n = n.parent !== undefined ? p.nodes.get(n.parent) : undefined) {
        const f = n.callFrame;
        stack.push(`${f.functionName || '(anonymous)'} ${(f.url ?? '').split('/').pop() ?? ''}:${(f.lineNumber ?? -1) + 1}`);
      }
      out.push({ t, ms: Math.max(0, p.deltas[i + 1] ?? dt) / 1000, stack });
    }
  }
  return out;
}

/** Main-thread tasks of at least `minMs` wall time, or `minCpuMs` of the thread's CPU time, with what ran inside. */
export function longTaskBreakdown(events: TraceEvent[], minMs = 50, minCpuMs = Infinity): TaskBreakdown[] {
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, String(e.args?.name));
  // the page's renderer only (the browser's own pages have renderers too)
  const pid = pageNavigation(events)?.pid;
  const main = [...names].filter(([k, n]) => n === 'CrRendererMain' && (pid === undefined || k.startsWith(`${pid}:`))).map(([k]) => k);
  const out: TaskBreakdown[] = [];
  for (const key of main) {
    const mine = events.filter((e) => `${e.pid}:${e.tid}` === key && e.ph === 'X');
    const samples = mainSamples(events, key);
    for (const task of mine) {
      const cpu = ((task as { tdur?: number }).tdur ?? 0) / 1000;
      if (task.name !== 'RunTask' || ((task.dur ?? 0) < minMs * 1000 && cpu < minCpuMs)) continue;
      const end = task.ts + task.dur!;
      const phases = new Map<string, number>();
      for (const e of mine) {
        if (e.ts < task.ts || e.ts >= end || !PHASES.has(e.name)) continue;
        phases.set(e.name, (phases.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
      }
      const functions = new Map<string, number>();
      for (const sample of samples) {
        if (sample.t < task.ts || sample.t >= end) continue;
        for (const fn of new Set(sample.stack)) functions.set(fn, (functions.get(fn) ?? 0) + sample.ms);
      }
      const sorted = (m: Map<string, number>) => [...m].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
      out.push({
        at: task.ts / 1000, ms: task.dur! / 1000, cpuMs: cpu, phases: sorted(phases),
        functions: sorted(functions).filter((f) => f.name !== '(root) :0').map((f) => ({ fn: f.name, ms: f.ms })),
      });
    }
  }
  return out.sort((a, b) => a.at - b.at);
}

export interface MajorCollection {
  /** ms on the trace clock */
  at: number;
  ms: number;
  cpuMs: number;
  /** V8's name for it, e.g. "finalize incremental marking via task" */
  reason: string;
  heapMbBefore: number;
  heapMbAfter: number;
  /** the page's DOM nodes (Blink's counter: detached ones count until collected) before, and the fewest in the 2 s after */
  nodesBefore: number | null;
  nodesAfter: number | null;
}

/**
 * The page's full garbage collections on its main thread, with what they freed: V8's heap, and the DOM nodes
 * Blink's counter holds (it counts detached nodes until a full collection sweeps them). A task over 50 ms that
 * is one of these is the collector's, and the nodes say whether a whole detached tree was its garbage.
 */
export function majorCollections(events: TraceEvent[]): MajorCollection[] {
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, String(e.args?.name));
  const pid = pageNavigation(events)?.pid;
  const out: MajorCollection[] = [];
  for (const [key, name] of names) {
    if (name !== 'CrRendererMain' || (pid !== undefined && !key.startsWith(`${pid}:`))) continue;
    const mine = events.filter((e) => `${e.pid}:${e.tid}` === key).sort((a, b) => a.ts - b.ts);
    const counters = mine.filter((e) => e.name === 'UpdateCounters')
      .map((e) => ({ ts: e.ts, nodes: Number((e.args?.data as { nodes?: number } | undefined)?.nodes ?? NaN) }))
      .filter((c) => Number.isFinite(c.nodes));
    for (const gc of mine) {
      if (gc.name !== 'MajorGC' || gc.ph !== 'X') continue;
      const args = (gc.args ?? {}) as { usedHeapSizeBefore?: number; usedHeapSizeAfter?: number; type?: string };
      const before = counters.filter((c) => c.ts <= gc.ts).at(-1);
      const after = counters.filter((c) => c.ts > gc.ts && c.ts <= gc.ts + 2_000_000);
      out.push({
        at: gc.ts / 1000, ms: (gc.dur ?? 0) / 1000, cpuMs: ((gc as { tdur?: number }).tdur ?? 0) / 1000, reason: args.type ?? '',
        heapMbBefore: (args.usedHeapSizeBefore ?? NaN) / 1e6, heapMbAfter: (args.usedHeapSizeAfter ?? NaN) / 1e6,
        nodesBefore: before?.nodes ?? null, nodesAfter: after.length ? Math.min(...after.map((c) => c.nodes)) : null,
      });
    }
  }
  return out;
}
