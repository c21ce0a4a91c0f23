import { beforeEach, afterEach, describe, expect, it, vi } from 'vitest';
import { createScheduler } from '../../src/worker/scheduler.js';
import { systemClock } from '../../src/worker/systemClock.js';

describe('scheduler', () => {
  beforeEach(() => { vi.useFakeTimers(); vi.setSystemTime(0); });
  afterEach(() => { vi.useRealTimers(); });

  it('runs tasks in due order with a single platform timer', async () => {
    const spy = vi.spyOn(globalThis, 'setTimeout');
    const s = createScheduler(systemClock);
    const ran: string[] = [];
    for (let i = 0; i < 1000; i++) s.scheduleAt(`a${i}`, 10_000 - i, () => ran.push(`a${i}`));
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(ran[0]).toBe('a999');
    expect(ran.at(-1)).toBe('a0');
    expect(ran).toHaveLength(1000);
    spy.mockRestore();
  });

  it('replaces a task scheduled again under the same key', async () => {
    const s = createScheduler(systemClock);
    const ran: number[] = [];
    s.scheduleIn('k', 100, () => ran.push(1));
    s.scheduleIn('k', 300, () => ran.push(2));
    await vi.advanceTimersByTimeAsync(200);
    expect(ran).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    expect(ran).toEqual([2]);
  });

  it('hands a task its argument, so thousands of keyed re-checks share one function', async () => {
    const s = createScheduler(systemClock);
    const ran: string[] = [];
    const task = (id: string) => ran.push(id);
    s.scheduleAt('asset:b', 200, task, 'b');
    s.scheduleAt('asset:a', 100, task, 'a');
    s.scheduleAt('asset:a', 150, task, 'a again');
    await vi.advanceTimersByTimeAsync(300);
    expect(ran).toEqual(['a again', 'b']);
  });

  it('does not run a cancelled task', async () => {
    const s = createScheduler(systemClock);
    const ran: number[] = [];
    s.scheduleIn('k', 100, () => ran.push(1));
    s.cancel('k');
    await vi.advanceTimersByTimeAsync(1000);
    expect(ran).toEqual([]);
    expect(s.size()).toBe(0);
  });

  it('keeps running later tasks when one throws', async () => {
    const s = createScheduler(systemClock);
    const ran: number[] = [];
    s.scheduleIn('a', 10, () => { throw new Error('boom'); });
    s.scheduleIn('b', 10, () => ran.push(2));
    await vi.advanceTimersByTimeAsync(10);
    expect(ran).toEqual([2]);
  });
});
