// A desk's repeated occupancy reading (issue 14, ingest slice 7): the floor view keeps what it drew without
// deriving the desk again while the desk is fresh and its one sensor says the same, valid at least as long.
// Everything a person sees must still follow the readings and the clock: a fading desk comes back, a
// shorter validity or another sensor's reading times it out when they say.
import { describe, expect, it, vi } from 'vitest';
import type { DrawState } from '../../../src/shared/api.js';
import { collect, enginesOnFakeClock, measurement, wireDesk, wireOccupancySensor } from '../engine/harness.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const HOUR = 3_600_000;
const LAYERS = ['desks', 'desk_usage'] as const;
const engineWith = enginesOnFakeClock(T0);

const occupied = (sensorId: string, time: number, validFor: number) => measurement(sensorId, 'occupancy', { time, valid_for: validFor, value: 1 });

describe('a repeated desk occupancy reading', () => {
  it('derives nothing for a fresh desk and sends no patch', async () => {
    const engine = engineWith([wireDesk('d1', 'f1')], [wireOccupancySensor('s-d1', T0, 1)]);
    const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: [...LAYERS] });
    const { facts, hub, sink } = engine.internals;
    expect(floor.entries.get('d1')).toMatchObject({ status: 'occupied' });
    const messages = floor.messages.length;
    const drawnFrom = facts.get('d1')!;
    sink.apply(occupied('s-d1', T0 + 1_000, HOUR));
    hub.flush();
    // the flush derived nothing: the cache still holds the facts the desk was drawn from
    expect(facts.heldOrGet('d1', drawnFrom)).toBe(drawnFrom);
    expect(floor.messages.length).toBe(messages);
    // the facts themselves follow the reading when asked for
    const now = facts.get('d1')!;
    expect(now).not.toBe(drawnFrom);
    expect(now.freshness.recheckAt).toBe(T0 + 1_000 + HOUR + 1);
    expect(facts.heldOrGet('d1', drawnFrom)).toBe(now);
    // and a reading that says something else is drawn at once
    sink.apply(measurement('s-d1', 'occupancy', { time: T0 + 2_000, valid_for: HOUR, value: 0 }));
    hub.flush();
    expect(floor.entries.get('d1')).toMatchObject({ status: 'short break' });
  });

  it('brings a fading desk back to full colour', async () => {
    const engine = engineWith([wireDesk('d1', 'f1', { timeout_action: 'fade_out' })], [wireOccupancySensor('s-d1', T0, 1, 60_000)]);
    const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: [...LAYERS] });
    expect(floor.entries.get('d1')).toMatchObject({ alpha: 1 });
    await vi.advanceTimersByTimeAsync(40_000);
    engine.internals.hub.flush();
    const faded = floor.entries.get('d1')!.alpha;
    expect(faded).toBeLessThan(1);
    engine.internals.sink.apply(occupied('s-d1', T0 + 40_000, 60_000));
    engine.internals.hub.flush();
    expect(floor.entries.get('d1')).toMatchObject({ alpha: 1, status: 'occupied' });
  });

  it('times a desk out when a repeat is valid for less time than the reading before', async () => {
    const engine = engineWith([wireDesk('d1', 'f1')], [wireOccupancySensor('s-d1', T0, 1)]);
    const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: [...LAYERS] });
    engine.internals.sink.apply(occupied('s-d1', T0 + 1_000, 60_000));
    engine.internals.hub.flush();
    expect(floor.entries.get('d1')).toMatchObject({ status: 'occupied' });
    await vi.advanceTimersByTimeAsync(62_000);
    engine.internals.hub.flush();
    expect(floor.entries.get('d1')).toMatchObject({ status: 'no data', statusKind: 'unknown' });
  });

  it("times a desk of two sensors out by the newer reading's validity", async () => {
    // the desk's status comes from its first sensor, its freshness from the newest reading of either
    const engine = engineWith([wireDesk('d1', 'f1', { timeout_action: 'grey_out', data_providers: ['s-a', 's-b'] })], [
      wireOccupancySensor('s-a', T0, 1, HOUR), wireOccupancySensor('s-b', T0 - 10_000, 1, 60_000),
    ]);
    const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: [...LAYERS] });
    expect(floor.entries.get('d1')).toMatchObject({ greyedOut: false });
    // s-b repeats itself, valid longer than its last reading, and is now the desk's newest reading
    engine.internals.sink.apply(occupied('s-b', T0 + 1_000, 60_000));
    engine.internals.hub.flush();
    await vi.advanceTimersByTimeAsync(62_000);
    engine.internals.hub.flush();
    expect(floor.entries.get('d1')).toMatchObject({ greyedOut: true });
  });
});
