// Who uses the cores while the page's main thread works (a diagnostic): the
// CPU time of every traced thread in a window of a Chrome trace, from the
// outermost complete events' thread time (`tdur`), grouped as the page's main
// thread, the engine worker, the renderer's thread pool (V8's GC helpers,
// raster, compile), the browser process and the GPU process. On a 2-core
// machine a main-thread task of a few ms of CPU takes 50 ms of wall time
// when these leave it a fifth of a core (docs/bench.md).

interface Event { name: string; ph: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number; args?: Record<string, unknown> }

export interface ThreadCpu {
  /** process / thread, thread pools folded into one row per process */
  thread: string;
  /** ms of CPU in the window */
  cpuMs: number;
  /** ms of wall time the thread's tasks covered in the window */
  busyMs: number;
  threads: number;
}

const POOL = /^(ThreadPool\w*Worker|ThreadPoolSingleThread\S*|V8 DefaultWorker|CompositorTileWorker\S*)/;

/** CPU per thread (pools folded) between `fromUs` and `toUs` (trace clock), most first. */
export function threadCpu(events: Event[], fromUs: number, toUs: number): ThreadCpu[] {
  const threadNames = new Map<string, string>();
  const processNames = new Map<number, string>();
  for (const e of events) {
    if (e.ph !== 'M') continue;
    const name = String((e.args as { name?: unknown } | undefined)?.name ?? '');
    if (e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, name);
    else if (e.name === 'process_name') processNames.set(e.pid, name);
  }
  const byThread = new Map<string, Event[]>();
  for (const e of events) {
    if (e.ph !== 'X' || e.tdur === undefined || e.dur === undefined) continue;
    const key = `${e.pid}:${e.tid}`;
    let list = byThread.get(key);
    if (!list) byThread.set(key, (list = []));
    list.push(e);
  }
  const rows = new Map<string, ThreadCpu>();
  for (const [key, list] of byThread) {
    list.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
    let end = -Infinity;
    let cpu = 0;
    let busy = 0;
    // only the outermost events: nested ones are already inside their parent's thread time
    for (const e of list) {
      if (e.ts < end) continue;
      end = e.ts + e.dur!;
      const from = Math.max(e.ts, fromUs);
      const to = Math.min(end, toUs);
      if (to <= from) continue;
      cpu += ((to - from) / Math.max(1, e.dur!)) * e.tdur!;
      busy += to - from;
    }
    if (cpu === 0) continue;
    const pid = Number(key.split(':')[0]);
    const name = threadNames.get(key) ?? key;
    const thread = `${processNames.get(pid) ?? pid} / ${POOL.test(name) ? 'thread pool' : name}`;
    const row = rows.get(thread) ?? { thread, cpuMs: 0, busyMs: 0, threads: 0 };
    row.cpuMs += cpu / 1000;
    row.busyMs += busy / 1000;
    row.threads += 1;
    rows.set(thread, row);
  }
  return [...rows.values()].sort((a, b) => b.cpuMs - a.cpuMs);
}
