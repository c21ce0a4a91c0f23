import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SELF_KEY, type RoomDisplayEntry } from '../../../src/shared/api.js';
import type { Engine } from '../../../src/worker/engine.js';
import type { ChangeBatch } from '../../../src/worker/ports.js';
import {
  collect, createTestEngine, feedLocation, locationScope, organizationScope, wireOrganization,
} from '../engine/harness.js';

// 10:00 UTC (the fixture location's zone)
const T0 = Date.UTC(2025, 0, 15, 10, 0, 0);
const MIN = 60_000;
let engine: Engine;

beforeEach(() => { vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'Date'] }); });
afterEach(async () => { await engine?.dispose(); vi.useRealTimers(); });

const event = (startMin: number, endMin: number, subject: string) =>
  ({ start: T0 + startMin * MIN, end: T0 + endMin * MIN, subject, user_id: 'u9', booking_ref: `bk-${subject}` });

function reservations(events: unknown[], time = T0): ChangeBatch {
  return { scope: locationScope, changes: [{ collection: 'measurements', kind: 'created', id: 's-res', data: { sensor_id: 's-res', type: 'reservation', value: { time, valid_for: 24 * 60 * MIN, events } } }] };
}

function setup(bookingFeature: boolean) {
  ({ engine } = createTestEngine());
  const room = { id: 'r1', type: 'room', subtype: 'meeting', name: 'Aurora', parent_id: 'f1', x: 1, y: 1, data_providers: ['s-res'] };
  feedLocation(engine, [room], [{ id: 's-res', type: 'reservation', last_measurement: { time: T0 - MIN, valid_for: 24 * 60 * MIN, events: [event(-120, -60, 'Standup'), event(90, 120, 'Review')] } }]);
  if (bookingFeature) {
    engine.internals.sink.apply({ scope: organizationScope, changes: [{ collection: 'organizations', kind: 'modified', data: { ...wireOrganization(), config: { assetBookingFeature: true } } }] });
  }
}

async function display() {
  const view = await collect<RoomDisplayEntry>(engine, { view: 'roomDisplay', roomId: 'r1' });
  return () => view.entries.get(SELF_KEY);
}

async function flush(ms = 0) {
  await vi.advanceTimersByTimeAsync(ms);
  engine.internals.hub.flush();
}

describe('roomDisplay view', () => {
  it("shows the room's status, the next meeting, the day's agenda and what may be booked before it", async () => {
    setup(true);
    const entry = await display();
    expect(entry()).toMatchObject({
      id: 'r1', name: 'Aurora', floorName: 'Floor f1', buildingName: 'Main', status: 'free', statusKind: 'free',
      current: null, next: { subject: 'Review' }, bookMinutes: [15, 30, 60], bookable: true,
      text: 'Next: 11:30–12:00 Review',
    });
    expect(entry()!.agenda.map((e) => e.subject)).toEqual(['Standup', 'Review']);
  });

  it('offers no booking when the booking feature is off', async () => {
    setup(false);
    expect((await display())()!.bookMinutes).toEqual([]);
  });

  it('turns reserved with the current meeting when a booking arrives live, and offers nothing then', async () => {
    setup(true);
    const entry = await display();
    engine.internals.sink.apply(reservations([event(-120, -60, 'Standup'), event(0, 30, 'Walk-in'), event(90, 120, 'Review')], T0 + 1000));
    await flush(2000);
    expect(entry()).toMatchObject({ status: 'reserved', statusKind: 'booked', current: { subject: 'Walk-in' }, bookMinutes: [] });
    expect(entry()!.agenda.map((e) => e.subject)).toEqual(['Standup', 'Walk-in', 'Review']);
  });

  it('drops a length from the offer once it no longer fits before the next meeting, by time alone', async () => {
    setup(true);
    const entry = await display();
    // Review starts at +90 min: 60 minutes stop fitting 31 minutes from now
    await flush(30 * MIN);
    expect(entry()!.bookMinutes).toEqual([15, 30, 60]);
    await flush(MIN);
    expect(entry()!.bookMinutes).toEqual([15, 30]);
  });

  it('turns free at the end of the meeting by time alone (the §4 refresh), and offers booking again', async () => {
    setup(true);
    const entry = await display();
    engine.internals.sink.apply(reservations([event(-5, 20, 'Walk-in'), event(90, 120, 'Review')], T0 + 1000));
    await flush(1000);
    expect(entry()).toMatchObject({ status: 'reserved', current: { subject: 'Walk-in' }, bookMinutes: [] });
    await flush(20 * MIN);
    expect(entry()).toMatchObject({ status: 'free', statusKind: 'free', current: null, next: { subject: 'Review' }, bookMinutes: [15, 30, 60] });
  });

  it("offers only lengths that end by midnight late in the day, then the new day's empty agenda and every length, by time alone", async () => {
    setup(true);
    const entry = await display();
    await flush((13 * 60 + 20) * MIN); // 23:20 in the location's zone
    expect(entry()).toMatchObject({ status: 'free', next: null, bookMinutes: [15, 30] });
    expect(entry()!.agenda.map((e) => e.subject)).toEqual(['Standup', 'Review']);
    await flush(11 * MIN); // 23:31
    expect(entry()!.bookMinutes).toEqual([15]);
    await flush(14 * MIN); // 23:45: a quarter of an hour still ends at midnight
    expect(entry()!.bookMinutes).toEqual([15]);
    await flush(MIN); // 23:46
    expect(entry()!.bookMinutes).toEqual([]);
    await flush(14 * MIN); // 00:00, the next day
    expect(entry()).toMatchObject({ status: 'free', bookMinutes: [15, 30, 60], agenda: [] });
  });

  it('is empty for an unknown room', async () => {
    setup(true);
    const view = await collect<RoomDisplayEntry>(engine, { view: 'roomDisplay', roomId: 'nope' });
    expect(view.entries.size).toBe(0);
  });
});
