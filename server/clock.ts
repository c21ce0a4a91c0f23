// The server's time source, injected so tests and the simulator can run on a
// controlled clock while production uses the system one.

export interface ServerClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: ServerClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A clock that moves only when told; timers fire during `advance`. */
export interface ManualClock extends ServerClock {
  advance(ms: number): void;
  set(time: number): void;
}

export function createManualClock(start: number): ManualClock {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { due: number; fn: () => void }>();
  const clock: ManualClock = {
    now: () => now,
    setTimeout(fn, ms) {
      seq += 1;
      timers.set(seq, { due: now + Math.max(0, ms), fn });
      return seq;
    },
    clearTimeout(handle) { timers.delete(handle as number); },
    advance(ms) { clock.set(now + ms); },
    set(time) {
      for (;;) {
        let next: [number, { due: number; fn: () => void }] | null = null;
        for (const entry of timers) if (entry[1].due <= time && (!next || entry[1].due < next[1].due)) next = entry;
        if (!next) break;
        timers.delete(next[0]);
        now = Math.max(now, next[1].due);
        next[1].fn();
      }
      now = time;
    },
  };
  return clock;
}
