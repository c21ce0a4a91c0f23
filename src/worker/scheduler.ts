// One timer queue ordered by due time (DESIGN §2): freshness re-checks,
// reservation refreshes, time sync, reconnect back-off and the timeline all
// share it, so a 10,000-asset floor holds one platform timer, not 10,000.

import type { Clock, TimerHandle } from './ports.js';

export interface Scheduler {
  /**
   * (re)schedules the task under `key` at `dueAt` (scheduler time); replaces an earlier one. The task is
   * called with `arg`, so thousands of re-checks can share one function rather than hold a closure each.
   */
  scheduleAt<A = undefined>(key: string, dueAt: number, task: (arg: A) => void, arg?: A): void;
  scheduleIn(key: string, delayMs: number, task: () => void): void;
  cancel(key: string): void;
  has(key: string): boolean;
  dueAt(key: string): number | null;
  size(): number;
  /** cancels everything */
  clear(): void;
}

interface Entry {
  key: string;
  dueAt: number;
  seq: number;
  task: (arg: unknown) => void;
  arg: unknown;
}

/** `now` may be a corrected clock; delays are handed to `clock.setTimeout`. */
export function createScheduler(clock: Clock, now: () => number = () => clock.now()): Scheduler {
  const heap: Entry[] = [];
  const byKey = new Map<string, Entry>();
  let seq = 0;
  let timer: TimerHandle | null = null;
  let timerDue = Infinity;

  const less = (a: Entry, b: Entry) => a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.seq < b.seq);
  const swap = (i: number, j: number) => { const t = heap[i]!; heap[i] = heap[j]!; heap[j] = t; };
  function up(i: number) {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(heap[i]!, heap[p]!)) break;
      swap(i, p); i = p;
    }
  }
  function down(i: number) {
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      swap(i, m); i = m;
    }
  }
  function pop(): Entry | undefined {
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) { heap[0] = last; down(0); }
    return top;
  }
  // Cancelled entries stay in the heap and are skipped lazily: O(log n) per change.
  function peekLive(): Entry | undefined {
    while (heap.length > 0 && byKey.get(heap[0]!.key) !== heap[0]) pop();
    return heap[0];
  }
  function arm() {
    const next = peekLive();
    const due = next ? next.dueAt : Infinity;
    if (due === timerDue) return;
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
    timerDue = due;
    if (!next) return;
    timer = clock.setTimeout(run, Math.max(0, due - now()));
  }
  function run() {
    timer = null;
    timerDue = Infinity;
    const t = now();
    for (let e = peekLive(); e && e.dueAt <= t; e = peekLive()) {
      pop();
      byKey.delete(e.key);
      try { e.task(e.arg); } catch { /* a failing task must not stop the queue */ }
    }
    arm();
  }
  return {
    scheduleAt<A>(key: string, dueAt: number, task: (arg: A) => void, arg?: A) {
      const e: Entry = { key, dueAt, seq: seq++, task: task as (arg: unknown) => void, arg };
      byKey.set(key, e);
      heap.push(e); up(heap.length - 1);
      if (heap.length > 64 && heap.length > 4 * byKey.size) {
        // compact when cancelled entries dominate
        const live = heap.filter((x) => byKey.get(x.key) === x);
        heap.length = 0;
        for (const x of live) { heap.push(x); up(heap.length - 1); }
      }
      arm();
    },
    scheduleIn(key, delayMs, task) { this.scheduleAt(key, now() + delayMs, task); },
    cancel(key) { if (byKey.delete(key)) arm(); },
    has: (key) => byKey.has(key),
    dueAt: (key) => byKey.get(key)?.dueAt ?? null,
    size: () => byKey.size,
    clear() {
      byKey.clear(); heap.length = 0;
      if (timer !== null) clock.clearTimeout(timer);
      timer = null; timerDue = Infinity;
    },
  };
}
