// The floor view keeps what it drew (the facts and the draw state) in the hub's own record of each key,
// beside what the hub sent (issue 14, ingest slice 7). A record must outlive what was sent while the view
// still holds facts for the key, and go once neither is left: else a reading of an asset the view does not
// draw now would be missed, or the saved floor view would keep an entry that was removed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DrawState } from '../../../src/shared/api.js';
import type { Engine } from '../../../src/worker/engine.js';
import { collect, createTestEngine, feedLocation, locationScope, measurement, wireDesk, wireOccupancySensor } from '../engine/harness.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const LAYERS = ['desks', 'desk_usage'] as const;
const engines: Engine[] = [];

beforeEach(() => { vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'Date'] }); });
afterEach(async () => { for (const e of engines.splice(0)) await e.dispose(); vi.useRealTimers(); });

function loaded(): Engine {
  const { engine } = createTestEngine();
  engines.push(engine);
  // d1 is left out of the map once its reading times out (timeout action 'skip'); d2 is drawn throughout
  feedLocation(engine, [wireDesk('d1', 'f1', { timeout_action: 'skip' }), wireDesk('d2', 'f1')], [
    wireOccupancySensor('s-d1', T0, 1, 60_000), wireOccupancySensor('s-d2', T0, 0),
  ]);
  return engine;
}

describe("the floor view's records", () => {
  it('draws an asset again when a reading makes it drawable after it was removed', async () => {
    const engine = loaded();
    const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: [...LAYERS] });
    expect(floor.entries.get('d1')).toMatchObject({ statusKind: 'busy' });
    // the reading times out: d1 leaves the map, while the view still derives its facts
    await vi.advanceTimersByTimeAsync(61_000);
    engine.internals.hub.flush();
    expect(floor.entries.has('d1')).toBe(false);
    expect(engine.internals.hub.sent((s) => s.view === 'floor')!.entries.has('d1')).toBe(false);
    // only a reading changed: the view must still know it derived d1, or it would skip it as not drawn
    engine.internals.sink.apply(measurement('s-d1', 'occupancy', { time: T0 + 62_000, valid_for: 60_000, value: 1 }));
    engine.internals.hub.flush();
    expect(floor.entries.get('d1')).toMatchObject({ statusKind: 'busy', status: 'occupied' });
    expect(engine.internals.hub.sent((s) => s.view === 'floor')!.entries.get('d1')).toMatchObject({ statusKind: 'busy' });
    expect(floor.entries.get('d2')).toMatchObject({ statusKind: 'free' });
  });

  it('removes an asset moved to another floor, and draws it again when it comes back, readings and all', async () => {
    const engine = loaded();
    const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: [...LAYERS] });
    const { sink, hub } = engine.internals;
    sink.apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'modified', id: 'd2', data: wireDesk('d2', 'f2') }] });
    hub.flush();
    expect(floor.entries.has('d2')).toBe(false);
    // a reading of an asset the view neither draws nor holds facts of sends nothing
    const messages = floor.messages.length;
    sink.apply(measurement('s-d2', 'occupancy', { time: T0 + 1_000, valid_for: 3_600_000, value: 1 }));
    hub.flush();
    expect(floor.messages.length).toBe(messages);
    sink.apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'modified', id: 'd2', data: wireDesk('d2', 'f1') }] });
    hub.flush();
    expect(floor.entries.get('d2')).toMatchObject({ statusKind: 'busy', status: 'occupied' });
    // left: the clean-desk phase begins
    sink.apply(measurement('s-d2', 'occupancy', { time: T0 + 2_000, valid_for: 3_600_000, value: 0 }));
    hub.flush();
    expect(floor.entries.get('d2')).toMatchObject({ statusKind: 'busy', status: 'short break' });
  });
});
