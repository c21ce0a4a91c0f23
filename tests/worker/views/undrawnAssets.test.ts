// An asset the floor view cannot draw whatever its readings say — on none of the view's layers (an
// environment sensor on a floor shown without its layer), or out of the viewer's reach (unpublished) —
// is not derived again for each of its readings (issue 14, ingest slice 8). What makes it drawable is a
// change of the asset itself, and from then on it is drawn with its latest readings.
import { describe, expect, it, vi } from 'vitest';
import type { DrawState } from '../../../src/shared/api.js';
import type { Engine } from '../../../src/worker/engine.js';
import { collect, enginesOnFakeClock, locationScope, measurement, wireDesk, wireOccupancySensor } from '../engine/harness.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const HOUR = 3_600_000;
const LAYERS = ['desks', 'desk_usage'] as const;
const engineWith = enginesOnFakeClock(T0);

const climate = { id: 'air', type: 'sensor', subtype: 'environment', name: 'Climate', parent_id: 'f1', x: 3, y: 3, data_providers: ['s-air'], default_sensor_type: 'temperature' };
const temperatureSensor = { id: 's-air', type: 'temperature', last_measurement: { time: T0, valid_for: HOUR, value: 21 } };
const temperature = (time: number, value: number) => measurement('s-air', 'temperature', { time, valid_for: HOUR, value });

function loaded(): Engine {
  return engineWith([wireDesk('d1', 'f1'), climate, wireDesk('hidden', 'f1', { unpublished: true })], [
    wireOccupancySensor('s-d1', T0, 0), temperatureSensor, wireOccupancySensor('s-hidden', T0, 0),
  ]);
}

/** the ids the engine's facts were asked for while `run` ran */
function derivedWhile(engine: Engine, run: () => void): string[] {
  const get = vi.spyOn(engine.internals.facts, 'get');
  const heldOrGet = vi.spyOn(engine.internals.facts, 'heldOrGet');
  try {
    run();
    return [...get.mock.calls, ...heldOrGet.mock.calls].map(([id]) => id);
  } finally {
    get.mockRestore();
    heldOrGet.mockRestore();
  }
}

describe('an asset the floor view cannot draw', () => {
  it('is not derived for readings of a layer the view does not show, while a view with that layer draws them', async () => {
    const engine = loaded();
    const desks = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: [...LAYERS] });
    const climateLayer = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['temperature'] });
    expect(desks.entries.has('air')).toBe(false);
    expect(climateLayer.entries.get('air')).toMatchObject({ text: '21 °C' });
    await engine.unsubscribe(climateLayer.id);
    const { hub, sink } = engine.internals;
    const messages = desks.messages.length;
    const asked = derivedWhile(engine, () => {
      sink.apply(temperature(T0 + 1_000, 22.5));
      sink.apply(temperature(T0 + 2_000, 23));
      hub.flush();
    });
    expect(asked).not.toContain('air');
    expect(desks.messages.length).toBe(messages);
    // a view that shows the layer now draws the latest reading
    const again = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: ['temperature'] });
    expect(again.entries.get('air')).toMatchObject({ text: '23 °C' });
  });

  it('is drawn with its latest reading once an edit puts it on a layer of the view', async () => {
    const engine = loaded();
    const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: [...LAYERS] });
    const { hub, sink } = engine.internals;
    sink.apply(temperature(T0 + 1_000, 24));
    hub.flush();
    expect(floor.entries.has('air')).toBe(false);
    // the climate sensor's asset made a desk (it keeps its sensor): drawn on the desks layer, with its reading's freshness
    sink.apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'modified', id: 'air', data: wireDesk('air', 'f1', { data_providers: ['s-air'], timeout_action: 'grey_out' }) }] });
    hub.flush();
    expect(floor.entries.get('air')).toMatchObject({ kind: 'desk', greyedOut: false });
    await vi.advanceTimersByTimeAsync(HOUR + 2_000);
    hub.flush();
    expect(floor.entries.get('air')).toMatchObject({ kind: 'desk', greyedOut: true });
  });

  it('is not derived for readings while the viewer may not see it, and is drawn with them once published', async () => {
    const engine = loaded();
    const floor = await collect<DrawState>(engine, { view: 'floor', floorId: 'f1', layers: [...LAYERS] });
    expect(floor.entries.has('hidden')).toBe(false);
    expect(floor.entries.get('d1')).toMatchObject({ status: 'free' });
    const { hub, sink } = engine.internals;
    const asked = derivedWhile(engine, () => {
      sink.apply(measurement('s-hidden', 'occupancy', { time: T0 + 1_000, valid_for: HOUR, value: 1 }));
      hub.flush();
    });
    expect(asked).not.toContain('hidden');
    expect(floor.entries.has('hidden')).toBe(false);
    sink.apply({ scope: locationScope, changes: [{ collection: 'assets', kind: 'modified', id: 'hidden', data: wireDesk('hidden', 'f1') }] });
    hub.flush();
    expect(floor.entries.get('hidden')).toMatchObject({ status: 'occupied', statusKind: 'busy' });
    // and its readings reach it from then on
    sink.apply(measurement('s-hidden', 'occupancy', { time: T0 + 2_000, valid_for: HOUR, value: 0 }));
    hub.flush();
    expect(floor.entries.get('hidden')).toMatchObject({ statusKind: 'busy', status: 'short break' });
  });
});
