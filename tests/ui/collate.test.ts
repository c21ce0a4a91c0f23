// The app's one collator (lib/collate.ts) sorts as localeCompare does, and is made
// after the live floor is drawn rather than in the start-up's tasks.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compareText, prepareCollator } from '../../src/ui/lib/collate.js';

describe('compareText', () => {
  it('orders names as localeCompare does, accents and case included', () => {
    const names = ['Émile', 'eve', 'Zoë', 'adam', 'Ängel', 'Eve', 'zack', 'Ada'];
    prepareCollator();
    expect([...names].sort(compareText)).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(compareText('a', 'a')).toBe(0);
  });
});

describe('prepareCollatorSoon', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  /** a fresh copy of the module (its collator not made yet) and a count of collators made */
  async function fresh() {
    vi.resetModules();
    const Real = Intl.Collator;
    const made = vi.spyOn(Intl, 'Collator').mockImplementation(function (this: unknown, ...args: ConstructorParameters<typeof Intl.Collator>) {
      return new Real(...args);
    } as unknown as typeof Intl.Collator);
    const mod = await import('../../src/ui/lib/collate.js');
    return { ...mod, made };
  }

  it('makes the collator in idle time COLLATOR_IDLE_AFTER_MS later, once however often it is asked', async () => {
    vi.useFakeTimers();
    const idle: Array<() => void> = [];
    vi.stubGlobal('requestIdleCallback', (cb: () => void) => idle.push(cb));
    const { prepareCollatorSoon, COLLATOR_IDLE_AFTER_MS, made } = await fresh();
    expect(COLLATOR_IDLE_AFTER_MS).toBe(1_000);
    prepareCollatorSoon();
    prepareCollatorSoon();
    vi.advanceTimersByTime(COLLATOR_IDLE_AFTER_MS - 1);
    expect(idle).toHaveLength(0);
    vi.advanceTimersByTime(1);
    // asked for idle time once, not made until the browser is idle
    expect(idle).toHaveLength(1);
    expect(made).not.toHaveBeenCalled();
    idle[0]!();
    expect(made).toHaveBeenCalledTimes(1);
    prepareCollatorSoon();
    vi.advanceTimersByTime(COLLATOR_IDLE_AFTER_MS * 2);
    expect(idle).toHaveLength(1);
  });

  it('is made by the first sort that needs it before then, and not again in idle time', async () => {
    vi.useFakeTimers();
    const idle: Array<() => void> = [];
    vi.stubGlobal('requestIdleCallback', (cb: () => void) => idle.push(cb));
    const { prepareCollatorSoon, compareText: compare, COLLATOR_IDLE_AFTER_MS, made } = await fresh();
    prepareCollatorSoon();
    expect(['b', 'a'].sort(compare)).toEqual(['a', 'b']);
    expect(made).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(COLLATOR_IDLE_AFTER_MS);
    for (const cb of idle) cb();
    expect(made).toHaveBeenCalledTimes(1);
  });
});
