import * as Comlink from 'comlink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionView, DrawState, EngineApi, ViewListener, ViewMessage, ViewPatchMessage } from '../../../src/shared/api.js';
import { ENGINE_UNAVAILABLE, SELF_KEY } from '../../../src/shared/api.js';
import { createEngineClient, type EngineLike } from '../../../src/ui/engine/engineClient.js';
import { oneWayListener, registerViewPortSender } from '../../../src/ui/engine/viewPort.js';
import type { Engine } from '../../../src/worker/engine.js';
import { boot, loadEngineCode, start, type EngineCode } from '../../../src/worker/entry.js';
import { createMemoryStorage } from '../../../src/worker/storage/memoryStorage.js';
import { createFakeBackend, createTestLogger, feedLocation, measurement, wireDesk, wireOccupancySensor } from './harness.js';

// The real worker entry, driven over a MessageChannel pair with Comlink: port1
// plays the worker's `self`, port2 the main thread's Worker object.
const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => { for (const c of cleanups.splice(0).reverse()) await c(); });

async function startOverChannel() {
  const { port1, port2 } = new MessageChannel();
  const backend = createFakeBackend();
  backend.routes.set('POST /v1/login', () => ({ status: 401, body: { statusCode: 401, error: 'Unauthorized', message: 'Wrong email or password' } }));
  const events = new EventTarget();
  const engine: Engine = start(port1, await loadEngineCode(), {
    deps: { fetch: backend.fetch, transportFactory: backend.transportFactory, storage: createMemoryStorage(), logger: createTestLogger() },
    events,
  });
  const remote = Comlink.wrap<EngineApi>(port2);
  // as the app's page does (ui/engine/workerEngine.ts): each view's messages over a one-way port
  registerViewPortSender();
  const client = createEngineClient(remote as unknown as EngineLike, { markCallback: oneWayListener });
  cleanups.push(async () => {
    client.dispose();
    await vi.waitFor(() => { expect(engine.internals.hub.specs()).toHaveLength(0); });
    remote[Comlink.releaseProxy]();
    await engine.dispose();
    port1.close();
    port2.close();
  });
  return { engine, remote, client, events };
}

describe('worker entry', () => {
  describe('start', () => {
    it("tells the engine each change of the browser's online state once, whichever of the worker's global and the page says it first", async () => {
      const { engine, remote, events } = await startOverChannel();
      const told = vi.spyOn(engine, 'setOnline');
      // the page starts offline and says so; the worker's global says nothing (a start offline fires no event)
      await remote.setOnline(false);
      events.dispatchEvent(new Event('offline'));
      // back online: the worker's global first, then the page (each going online forces a reconnect: once)
      events.dispatchEvent(new Event('online'));
      await remote.setOnline(true);
      await remote.setOnline(true);
      expect(told.mock.calls).toEqual([[false], [true]]);
    });

    it('serves views over one-way ports: a snapshot, then a patch with only the changed desk\'s changed fields, and no call or answer per message', async () => {
      const { engine, remote, client } = await startOverChannel();
      await remote.init({ host: 'http://127.0.0.1:9' });
      feedLocation(engine, [wireDesk('d1', 'f1'), wireDesk('d2', 'f1')], [wireOccupancySensor('s-d1', Date.now(), 0), wireOccupancySensor('s-d2', Date.now(), 0)]);
      const floor = client.view({ view: 'floor', floorId: 'f1', layers: ['desk_usage'] });
      await vi.waitFor(() => { expect(floor.mirror.getKeys()).toEqual(['d1', 'd2']); });
      const d2 = floor.mirror.getSnapshot('d2');
      const changed: string[] = [];
      floor.mirror.subscribeChanges((keys) => { changed.push(...keys); });
      // what crosses between the two sides from here on
      const posted = vi.spyOn(MessagePort.prototype, 'postMessage');

      engine.internals.sink.apply(measurement('s-d1', 'occupancy', { time: Date.now() + 1, valid_for: 3_600_000, value: 1 }));
      await vi.waitFor(() => { expect((floor.mirror.getSnapshot('d1') as DrawState).status).toBe('occupied'); });
      expect(changed).toEqual(['d1']);
      expect(floor.mirror.getSnapshot('d2')).toBe(d2);
      // the patch, and nothing else: no Comlink call carrying it (an id, a type) and no answer from the page
      await new Promise((resolve) => setTimeout(resolve, 20));
      const crossed = posted.mock.calls.map(([m]) => m as ViewMessage);
      expect(crossed).toEqual([expect.objectContaining({ type: 'patch', upserted: {}, changed: { d1: expect.objectContaining({ status: 'occupied' }) } })]);
      // of the desk, only what the reading changed crossed (its place, size, name and layers did not), and the
      // page, merging it into the desk it held, holds what the worker drew
      const fields = Object.keys((crossed[0] as ViewPatchMessage).changed!.d1!);
      expect(fields).toEqual(expect.arrayContaining(['statusKind', 'color', 'status']));
      expect(fields).not.toEqual(expect.arrayContaining(['x']));
      expect(fields.length).toBeLessThan(Object.keys(floor.mirror.getSnapshot('d1') as object).length / 2);
      const drawn = engine.internals.hub.sent((spec) => spec.view === 'floor')!.entries.get('d1');
      expect(drawn).toMatchObject({ status: 'occupied' });
      expect(floor.mirror.getSnapshot('d1')).toEqual(drawn);
      posted.mockRestore();
    });

    it('releases the listener proxy when a view is closed', async () => {
      const { engine, client } = await startOverChannel();
      const view = client.view({ view: 'connection' });
      await vi.waitFor(() => { expect(view.mirror.ready).toBe(true); });
      expect(engine.internals.hub.specs()).toHaveLength(1);
      view.close();
      await vi.waitFor(() => { expect(engine.internals.hub.specs()).toHaveLength(0); });
    });

    it('releases the Comlink proxy of the listener on unsubscribe, so the main thread\'s end of it is finalized', async () => {
      const { engine, remote } = await startOverChannel();
      const messages: unknown[] = [];
      let finalized = 0;
      const listener = Object.assign((message: unknown) => { messages.push(message); }, { [Comlink.finalizer]: () => { finalized += 1; } });
      const id = await remote.subscribe({ view: 'session' }, Comlink.proxy(listener) as unknown as ViewListener);
      await vi.waitFor(() => { expect(messages).toHaveLength(1); });
      expect(finalized).toBe(0);
      await remote.unsubscribe(id);
      expect(engine.internals.hub.specs()).toHaveLength(0);
      // the worker's release message closes the proxy's port and runs the listener's finalizer
      await vi.waitFor(() => { expect(finalized).toBe(1); });
      // unsubscribing twice is harmless and releases nothing more
      await remote.unsubscribe(id);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(finalized).toBe(1);
    });

    it('returns non-OK answers as data across the channel', async () => {
      const { remote } = await startOverChannel();
      await remote.init({ host: 'http://127.0.0.1:9' });
      expect(await remote.signIn('ann@example.com', 'bad')).toMatchObject({ ok: false, status: 401, body: { error: 'Unauthorized' } });
    });

    it('forwards online and offline events to the engine', async () => {
      const { client, events } = await startOverChannel();
      const connection = client.view({ view: 'connection' });
      await vi.waitFor(() => { expect(connection.mirror.ready).toBe(true); });
      events.dispatchEvent(new Event('offline'));
      await vi.waitFor(() => { expect((connection.mirror.getSnapshot(SELF_KEY) as ConnectionView).online).toBe(false); });
      events.dispatchEvent(new Event('online'));
      await vi.waitFor(() => { expect((connection.mirror.getSnapshot(SELF_KEY) as ConnectionView).online).toBe(true); });
    });
  });

  describe('boot (the worker loads the engine code with import())', () => {
    /** The worker's global as boot sees it: port1 of a channel, started as a worker's global always is. */
    function worker() {
      const { port1, port2 } = new MessageChannel();
      cleanups.push(() => { port1.close(); port2.close(); });
      return { scope: Object.assign(port1, { reportError: vi.fn() }), page: port2 };
    }
    const testCode = async (): Promise<EngineCode> => {
      const code = await loadEngineCode();
      const backend = createFakeBackend();
      return { ...code, createProductionEngine: () => code.createProductionEngine({ fetch: backend.fetch, transportFactory: backend.transportFactory, storage: createMemoryStorage(), logger: createTestLogger() }) };
    };

    it('holds the calls the page makes while the engine code loads, and answers them in order once it is there', async () => {
      const { scope, page } = worker();
      let release!: (code: EngineCode) => void;
      const booted = boot(scope, () => new Promise((resolve) => { release = resolve; }));
      scope.start();
      const remote = Comlink.wrap<EngineApi>(page);
      const answers: string[] = [];
      const offline = remote.setOnline(false).then(() => { answers.push('setOnline'); });
      const messages: Array<{ type: string; entries?: Record<string, unknown> }> = [];
      const subscribed = remote.subscribe({ view: 'connection' }, Comlink.proxy((m: unknown) => { messages.push(m as never); }) as unknown as ViewListener)
        .then((id) => { answers.push('subscribe'); return id; });
      await new Promise((r) => setTimeout(r, 50));
      expect(answers).toEqual([]);
      release(await testCode());
      const engine = (await booted)!;
      cleanups.push(async () => { remote[Comlink.releaseProxy](); await engine.dispose(); });
      await Promise.all([offline, subscribed]);
      expect(answers).toEqual(['setOnline', 'subscribe']);
      // the view opened after going offline: its snapshot already says so
      await vi.waitFor(() => { expect(messages[0]).toMatchObject({ type: 'snapshot' }); });
      expect((messages[0]!.entries![SELF_KEY] as ConnectionView).online).toBe(false);
    });

    it('reports an error on the worker, as a script that failed to load does, and tells the page, when the engine code cannot load', async () => {
      const { scope, page } = worker();
      const told: unknown[] = [];
      page.addEventListener('message', (event) => { told.push(event.data); });
      page.start();
      scope.start();
      const error = new TypeError('Failed to fetch dynamically imported module');
      const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      expect(await boot(scope, () => Promise.reject(error))).toBeNull();
      expect(scope.reportError).toHaveBeenCalledWith(error);
      // in so many words: the page says the app cannot start (docs/ui.md "If the app cannot start")
      await vi.waitFor(() => { expect(told).toEqual([{ [ENGINE_UNAVAILABLE]: true }]); });
      quiet.mockRestore();
    });
  });
});
