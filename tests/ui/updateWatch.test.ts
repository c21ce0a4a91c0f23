import { describe, expect, it } from 'vitest';
import { UPDATE_CHECK_MS, watchForUpdates, type UpdateWatchEnv, type WatchedRegistration } from '../../src/ui/lib/updateWatch.js';

class FakeWorker {
  state = 'installing';
  private listeners: (() => void)[] = [];
  addEventListener(_type: 'statechange', fn: () => void) { this.listeners.push(fn); }
  become(state: string) { this.state = state; for (const fn of this.listeners) fn(); }
}

class FakeRegistration implements WatchedRegistration {
  installing: FakeWorker | null = null;
  waiting: object | null = null;
  updates = 0;
  failUpdates = false;
  private found: (() => void)[] = [];
  update() {
    this.updates += 1;
    return this.failUpdates ? Promise.reject(new Error('Failed to fetch')) : Promise.resolve();
  }
  addEventListener(_type: 'updatefound', fn: () => void) { this.found.push(fn); }
  /** the browser found a new build: it installs, then waits */
  findUpdate(): FakeWorker {
    const worker = new FakeWorker();
    this.installing = worker;
    for (const fn of this.found) fn();
    return worker;
  }
  installed(worker: FakeWorker) {
    this.installing = null;
    this.waiting = worker;
    worker.become('installed');
  }
}

function fakeEnv(over: Partial<{ controlled: boolean; online: boolean; visible: boolean }> = {}) {
  const state = { controlled: true, online: true, visible: true, now: 1_000_000, ...over };
  const intervals: { fn: () => void; ms: number }[] = [];
  const events = new Map<string, (() => void)[]>();
  const env: UpdateWatchEnv = {
    controlled: () => state.controlled,
    online: () => state.online,
    visible: () => state.visible,
    now: () => state.now,
    setInterval: (fn, ms) => intervals.push({ fn, ms }),
    on: (type, fn) => events.set(type, [...(events.get(type) ?? []), fn]),
  };
  const fire = (type: string) => { for (const fn of events.get(type) ?? []) fn(); };
  return { env, state, intervals, fire };
}

describe('watchForUpdates', () => {
  it('checks for a new build every hour', () => {
    expect(UPDATE_CHECK_MS).toBe(3_600_000);
  });

  it('offers a build found and installed after the watch began', () => {
    const r = new FakeRegistration();
    const { env } = fakeEnv();
    let offers = 0;
    watchForUpdates(r, () => { offers += 1; }, env);
    const worker = r.findUpdate();
    expect(offers).toBe(0);
    r.installed(worker);
    expect(offers).toBe(1);
  });

  it('offers a build that was already waiting, or still installing, when the watch began (an update it would have missed)', () => {
    const waiting = new FakeRegistration();
    waiting.waiting = new FakeWorker();
    let offers = 0;
    watchForUpdates(waiting, () => { offers += 1; }, fakeEnv().env);
    expect(offers).toBe(1);

    const installing = new FakeRegistration();
    const worker = new FakeWorker();
    installing.installing = worker;
    let later = 0;
    watchForUpdates(installing, () => { later += 1; }, fakeEnv().env);
    expect(later).toBe(0);
    installing.installed(worker);
    expect(later).toBe(1);
  });

  it('offers nothing for the very first install of a page no worker controls yet', () => {
    const r = new FakeRegistration();
    let offers = 0;
    watchForUpdates(r, () => { offers += 1; }, fakeEnv({ controlled: false }).env);
    r.installed(r.findUpdate());
    expect(offers).toBe(0);
  });

  it('asks the server hourly while the tab is shown and online, never while offline, hidden or installing', () => {
    const r = new FakeRegistration();
    const { env, state, intervals } = fakeEnv();
    watchForUpdates(r, () => undefined, env);
    expect(intervals.map((i) => i.ms)).toEqual([UPDATE_CHECK_MS]);
    const tick = intervals[0]!.fn;
    tick();
    expect(r.updates).toBe(1);
    state.online = false;
    tick();
    expect(r.updates).toBe(1);
    state.online = true;
    state.visible = false;
    tick();
    expect(r.updates).toBe(1);
    state.visible = true;
    r.findUpdate();
    tick();
    expect(r.updates).toBe(1);
  });

  it('asks again when the network comes back, and when the tab is shown after a check was due', () => {
    const r = new FakeRegistration();
    const { env, state, fire } = fakeEnv();
    watchForUpdates(r, () => undefined, env);
    fire('online');
    expect(r.updates).toBe(1);
    // shown again soon after: no new check
    state.now += 10 * 60_000;
    fire('visibilitychange');
    expect(r.updates).toBe(1);
    // shown again an hour after the last check
    state.now += UPDATE_CHECK_MS;
    fire('visibilitychange');
    expect(r.updates).toBe(2);
  });

  it('a check that cannot reach the server throws nothing and the next one still runs', async () => {
    const r = new FakeRegistration();
    r.failUpdates = true;
    const { env, fire } = fakeEnv();
    const watch = watchForUpdates(r, () => undefined, env);
    expect(watch.check()).toBe(true);
    await Promise.resolve();
    fire('online');
    expect(r.updates).toBe(2);
  });
});
