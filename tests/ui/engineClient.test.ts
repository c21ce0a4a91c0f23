import * as Comlink from 'comlink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineApi, ViewListener } from '../../src/shared/api.js';
import { createEngineClient, type EngineLike } from '../../src/ui/engine/engineClient.js';
import { BLOCK_TILES, createDrawOrderStore, TILE_SIZE } from '../../src/ui/lib/drawOrder.js';
import { createCullStore } from '../../src/ui/lib/cullStore.js';
import { createViewMirror } from '../../src/ui/engine/viewMirror.js';
import type { DrawState } from '../../src/shared/api.js';
import { createFakeEngine, draw, room, signedInWorld } from './fakeEngine.js';

const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

describe('engineClient', () => {
  describe('view', () => {
    it('mirrors a view across a Comlink MessageChannel with proxied listeners', async () => {
      const fake = createFakeEngine(signedInWorld());
      const { port1, port2 } = new MessageChannel();
      ports.push(port1, port2);
      // the worker side releases a listener's proxy when it unsubscribes, as the entry does
      const listeners = new Map<number, ViewListener>();
      const exposed: Partial<EngineApi> = {
        async subscribe(spec, listener) {
          const id = await fake.subscribe(spec, (m) => void listener(m));
          listeners.set(id, listener);
          return id;
        },
        async unsubscribe(id) {
          await fake.unsubscribe(id);
          (listeners.get(id) as unknown as Comlink.Remote<ViewListener>)?.[Comlink.releaseProxy]();
          listeners.delete(id);
        },
      };
      Comlink.expose(exposed, port1);
      const remote = Comlink.wrap<EngineApi>(port2);
      const client = createEngineClient(remote as unknown as EngineLike, { markCallback: (l) => Comlink.proxy(l) });
      const handle = client.view({ view: 'floor', floorId: 'f1', layers: ['desk_usage'] });
      await until(() => handle.mirror.ready);
      expect(handle.mirror.getSnapshot('d1')?.name).toBe('Desk d1');
      fake.emit('floor:f1', { upserted: { d1: draw('d1', { status: 'occupied' }) } });
      await until(() => handle.mirror.getSnapshot('d1')?.status === 'occupied');
      handle.close();
      await until(() => listeners.size === 0);
      remote[Comlink.releaseProxy]();
    });

    it('switches spec into the same mirror and drops messages of the old subscription', async () => {
      const fake = createFakeEngine(signedInWorld());
      const client = createEngineClient(fake);
      const handle = client.view({ view: 'floor', floorId: 'f1', layers: ['desk_usage'] });
      await fake.flush();
      const mirror = handle.mirror;
      handle.setSpec({ view: 'floor', floorId: 'f2', layers: ['desk_usage'] });
      await fake.flush();
      expect(handle.mirror).toBe(mirror);
      expect(mirror.getKeys()).toEqual(['d9']);
      expect(fake.open('floor')).toEqual([{ view: 'floor', floorId: 'f2', layers: ['desk_usage'] }]);
      fake.emit('floor:f1', { upserted: { d5: draw('d5') } });
      await fake.flush();
      expect(mirror.getSnapshot('d5')).toBeUndefined();
    });

    it('hands a preopened view, data and subscription, to the first view() of the same spec', async () => {
      const fake = createFakeEngine(signedInWorld());
      const client = createEngineClient(fake);
      const spec = { view: 'floor', floorId: 'f1', layers: ['desk_usage'] } as const;
      const early = client.preopen(spec);
      await fake.flush();
      expect(early.ready).toBe(true);
      expect(client.peek({ view: 'floor', floorId: 'f1', layers: ['desk_usage'] })).toBe(early);
      expect(client.peek({ view: 'floor', floorId: 'f1', layers: ['desks'] })).toBeNull();

      const handle = client.view({ view: 'floor', floorId: 'f1', layers: ['desk_usage'] });
      expect(handle.mirror).toBe(early);
      expect(handle.mirror.getSnapshot('d1')?.name).toBe('Desk d1');
      // taken over: nothing waits any more, and the one subscription stays the only one
      expect(client.peek(spec)).toBeNull();
      await fake.flush();
      expect(fake.subscribe).toHaveBeenCalledTimes(1);
      expect(fake.open('floor')).toHaveLength(1);
      // a second view() of that spec is a view of its own
      client.view(spec);
      await fake.flush();
      expect(fake.open('floor')).toHaveLength(2);
    });

    it('opens nothing ahead that a component has open already', async () => {
      const fake = createFakeEngine(signedInWorld());
      const client = createEngineClient(fake);
      const spec = { view: 'floor', floorId: 'f1', layers: ['desk_usage'] } as const;
      const shown = client.view(spec);
      expect(client.preopen({ view: 'floor', floorId: 'f1', layers: ['desk_usage'] })).toBe(shown.mirror);
      await fake.flush();
      expect(fake.open('floor')).toHaveLength(1);
      expect(client.peek(spec)).toBeNull();
    });

    it('closes a preopened view nobody took', async () => {
      vi.useFakeTimers();
      try {
        const fake = createFakeEngine(signedInWorld());
        const client = createEngineClient(fake);
        client.preopen({ view: 'floor', floorId: 'f2', layers: ['desk_usage'] }, 1_000);
        await vi.advanceTimersByTimeAsync(10);
        expect(fake.open('floor')).toHaveLength(1);
        await vi.advanceTimersByTimeAsync(1_000);
        expect(fake.open('floor')).toEqual([]);
        expect(client.peek({ view: 'floor', floorId: 'f2', layers: ['desk_usage'] })).toBeNull();
      } finally {
        vi.useRealTimers();
      }
    });

    it('unsubscribes every view on dispose', async () => {
      const fake = createFakeEngine(signedInWorld());
      const client = createEngineClient(fake);
      client.view({ view: 'people' });
      client.view({ view: 'rooms' });
      await fake.flush();
      client.dispose();
      await fake.flush();
      expect(fake.open('people')).toEqual([]);
      expect(fake.open('rooms')).toEqual([]);
    });
  });
});

describe('drawOrder', () => {
  it('paints shapes under desks and people, and re-sorts only when a key comes, goes or changes group', () => {
    const mirror = createViewMirror<DrawState, null>();
    mirror.apply({
      type: 'snapshot', version: 1, meta: null,
      entries: { e1: draw('e1', { kind: 'employee', heat: 0.5 }), d1: draw('d1'), r1: room('r1') },
    });
    const store = createDrawOrderStore(mirror);
    expect(store.getSnapshot().main).toEqual(['r1', 'd1', 'e1']);
    expect(store.getSnapshot().heat).toEqual(['e1']);
    const before = store.getSnapshot();
    mirror.apply({ type: 'patch', version: 2, upserted: { d1: draw('d1', { status: 'occupied' }) }, removed: [] });
    expect(store.getSnapshot()).toBe(before);
    mirror.apply({ type: 'patch', version: 3, upserted: { t1: draw('t1', { kind: 'ticket' }) }, removed: ['r1'] });
    expect(store.getSnapshot().main).toEqual(['d1', 'e1', 't1']);
    store.dispose();
  });

  it('keeps every tile and block a live change leaves alone the same object, so React skips them', () => {
    const mirror = createViewMirror<DrawState, null>();
    const desks = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`d${i}`, draw(`d${i}`)]));
    mirror.apply({ type: 'snapshot', version: 1, meta: null, entries: { ...desks, r1: room('r1') } });
    const store = createDrawOrderStore(mirror);
    // as the viewer does: subscribed, the store follows the mirror's change sets
    const off = store.subscribe(() => undefined);
    const before = store.getSnapshot();
    const flat = (o: typeof before) => o.blocks.flatMap((b) => b.tiles.flatMap((t) => [...t.ids]));
    expect(flat(before)).toEqual(before.main);
    expect(before.main[0]).toBe('r1');
    expect(before.blocks.length).toBeGreaterThan(1);
    for (const block of before.blocks) {
      expect(block.tiles.length).toBeLessThanOrEqual(BLOCK_TILES);
      for (const tile of block.tiles) expect(tile.ids.length).toBeLessThanOrEqual(TILE_SIZE);
    }

    // a new desk joins the last tile of the desks; a removed one leaves its own tile
    mirror.apply({ type: 'patch', version: 2, upserted: { d1000: draw('d1000') }, removed: ['d5'] });
    const after = store.getSnapshot();
    expect(after.main).toEqual(before.main.filter((id) => id !== 'd5').concat('d1000'));
    expect(flat(after)).toEqual(after.main);
    const changed = after.blocks.filter((b) => !before.blocks.includes(b));
    expect(changed.map((b) => b.key)).toEqual([after.blocks[1]!.key, after.blocks[after.blocks.length - 1]!.key]);
    const tilesBefore = new Set(before.blocks.flatMap((b) => b.tiles));
    expect(after.blocks.flatMap((b) => b.tiles).filter((t) => !tilesBefore.has(t))).toHaveLength(2);

    // a kind change moves the key to its new paint rank
    mirror.apply({ type: 'patch', version: 3, upserted: { d7: draw('d7', { kind: 'employee' }) }, removed: [] });
    expect(store.getSnapshot().main.at(-1)).toBe('d7');
    off();
    store.dispose();
  });
});

describe('cullStore', () => {
  it('draws everything without a box and only what intersects with one', () => {
    const cull = createCullStore();
    const inside = { minX: 0, minY: 0, maxX: 1, maxY: 1 };
    const outside = { minX: 50, minY: 50, maxX: 51, maxY: 51 };
    expect(cull.contains(outside)).toBe(true);
    cull.setBox({ minX: -10, minY: -10, maxX: 10, maxY: 10 });
    expect(cull.contains(inside)).toBe(true);
    expect(cull.contains(outside)).toBe(false);
  });
});
