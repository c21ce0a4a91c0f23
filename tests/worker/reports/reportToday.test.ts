import { describe, expect, it, vi } from 'vitest';
import type { ReportMeta, ReportRequest, RoomRow } from '../../../src/shared/reports/types.js';
import type { MeasurementsQuery, MeasurementsResponse } from '../../../src/shared/rest.js';
import { createConfigResolver } from '../../../src/worker/derive/configResolver.js';
import { BOOKING_END_KEY, createReportService, TODAY_REREAD_AFTER_MS } from '../../../src/worker/reports/reportService.js';
import type { ViewSource } from '../../../src/worker/views/viewHub.js';
import { loadedStore, wireDesk, wireOccupancySensor } from '../engine/harness.js';

// Kept report runs and today (docs/reports.md "Kept runs and today"): a room popup's "Earlier" comes from a
// room report of the last 7 days kept in the worker. What it read of today goes stale as bookings end and
// change, so a run that reads today is read again when opened a while later, and at once after the user's
// own booking of one of its rooms; closed periods, and runs a view is open on, are kept as they are.

const H = 3_600_000;
const MIN = 60_000;
const NOW = Date.UTC(2025, 1, 20, 12);
const TODAY = '2025-02-20';
const week: ReportRequest['period'] = { from: '2025-02-14', to: TODAY };
const room = (id: string, floor: string) => ({
  id, type: 'room', subtype: 'meeting', name: `Room ${id}`, parent_id: floor, data_providers: [`res-${id}`], data_provider_refs: { reservation: `res-${id}` },
  outline: [[0, 0], [4, 0], [4, 4], [0, 4]],
});
const reservation = (id: string) => ({ id: `res-${id}`, type: 'reservation', asset_id: id, last_measurement: { time: NOW - H, valid_for: 24 * H, events: [] } });
const roomsOf = (floorId: string, period = week): ReportRequest => ({ kind: 'room', scope: { kind: 'floor', id: floorId }, period });

function setup() {
  let now = NOW;
  const { store } = loadedStore(
    [room('r1', 'f1'), room('r2', 'f2'), wireDesk('d1', 'f1')],
    [reservation('r1'), reservation('r2'), wireOccupancySensor('s-d1', NOW - H, 0)],
    () => now,
  );
  const config = createConfigResolver(store);
  /** the reservation days read, one entry per first page of a day */
  const read: string[] = [];
  /** the booking the reservation system lists today, once made */
  let booked: { start: number; end: number; subject: string; user_id: string; booking_ref: string } | null = null;
  /** what the service asked the engine's scheduler to wake it for, by key (the latest under each) */
  const wakes = new Map<string, { at: number; task: () => void }>();
  const fetchPage = async (type: string, q: MeasurementsQuery): Promise<MeasurementsResponse> => {
    const dayKey = new Date(q.start!).toISOString().slice(0, 10);
    if (type === 'reservation' && !q.ignore_previous_validity) read.push(dayKey);
    const rows = type === 'reservation' && booked && dayKey === TODAY ? [[booked.start - MIN, 'res-r1', 24 * H, null, [booked]]] : [];
    return { columns: ['time', 'sensor_id', 'valid_for', 'value', 'events'], rows, has_more_results: false } as MeasurementsResponse;
  };
  const service = createReportService({
    store, config: () => config.location(), roles: () => ['regular'], permissions: () => ['USER_UPDATE_SELF'], now: () => now,
    fetchPage, cache: null, markDirty: () => undefined, ready: () => true, rolesKnown: () => true, offline: () => false, warn: () => undefined,
    wakeAt: (key, at, task) => { wakes.set(key, { at, task }); },
  });
  return {
    service, read, wakes,
    /** the scheduler's clock reaches what is due: each wake due by now runs once */
    tick: () => {
      for (const [key, wake] of [...wakes]) if (wake.at <= now) { wakes.delete(key); wake.task(); }
    },
    open: (request: ReportRequest) => service.source({ view: 'report', report: request }),
    later: (ms: number) => { now += ms; },
    book: (start: number, minutes = 30) => { booked = { start, end: start + minutes * MIN, subject: 'Huddle', user_id: 'u1', booking_ref: 'b1' }; },
  };
}

const state = (view: ViewSource) => (view.meta() as ReportMeta).progress.state;
async function done(view: ViewSource) {
  await vi.waitFor(() => { expect(state(view)).toBe('done'); });
  return view;
}
const readsOfToday = (read: string[]) => read.filter((d) => d === TODAY).length;

describe('kept report runs and today', () => {
  it('reads a room report of today again when it is opened a minute after it was read, and answers from the kept run before', async () => {
    const { open, read, later } = setup();
    (await done(open(roomsOf('f1')))).close!();
    expect(readsOfToday(read)).toBe(1);
    later(TODAY_REREAD_AFTER_MS - 1);
    const soon = open(roomsOf('f1'));
    expect(state(soon)).toBe('done');
    soon.close!();
    expect(readsOfToday(read)).toBe(1);
    later(1);
    const again = open(roomsOf('f1'));
    // never the old answer while today is read again: a popup says it is loading, not that there were none
    expect(state(again)).toBe('loading');
    await done(again);
    expect(readsOfToday(read)).toBe(2);
    again.close!();
  });

  it('keeps a run of a period over before today, and one a view is open on, however long ago they were read', async () => {
    const { open, read, later } = setup();
    const lastWeek = roomsOf('f1', { from: '2025-02-10', to: '2025-02-16' });
    (await done(open(lastWeek))).close!();
    const held = await done(open(roomsOf('f1')));
    const before = read.length;
    later(H);
    const past = open(lastWeek);
    expect(state(past)).toBe('done');
    // a second view joins the one still open: no second reading of today
    const joined = open(roomsOf('f1'));
    expect(state(joined)).toBe('done');
    expect(read.length).toBe(before);
    for (const v of [past, joined, held]) v.close!();
  });

  it("reads the room's reports of today again after the user's booking of it: at once for an open view, at the next opening for a kept one", async () => {
    const { service, open, read, book } = setup();
    const popup = await done(open(roomsOf('f1')));
    const kept = roomsOf('f1', { from: '2025-02-19', to: TODAY });
    (await done(open(kept))).close!();
    const otherFloor = roomsOf('f2');
    (await done(open(otherFloor))).close!();
    const desks: ReportRequest = { kind: 'desk', scope: { kind: 'floor', id: 'f1' }, period: week };
    (await done(open(desks))).close!();
    expect((popup.entry('r1') as RoomRow).items).toEqual([]);
    const before = readsOfToday(read);

    // booked now: the server said yes, and its reservation system lists it
    book(NOW - 5 * MIN);
    service.bookingsChanged('r1');
    expect(state(popup)).toBe('loading');
    await done(popup);
    expect((popup.entry('r1') as RoomRow).items.map((b) => b.ref)).toEqual(['b1']);
    expect(readsOfToday(read)).toBe(before + 1);
    // the kept run of the room's floor is read at its next opening; another floor's rooms, and the desks, are kept
    const reopened = open(kept);
    expect(state(reopened)).toBe('loading');
    await done(reopened);
    expect((reopened.entry('r1') as RoomRow).items.map((b) => b.ref)).toEqual(['b1']);
    const others = [open(otherFloor), open(desks)];
    expect(others.map(state)).toEqual(['done', 'done']);
    expect(readsOfToday(read)).toBe(before + 2);
    for (const v of [popup, reopened, ...others]) v.close!();
  });

  it('follows bookings others change while a view is open: read again at once, unless it began reading after the change', async () => {
    const { service, open, read, book, later } = setup();
    expect(service.followsBookings()).toBe(false);
    const popup = await done(open(roomsOf('f1')));
    // a popup (or the Reports panel) shows a room report of today: live readings are looked at
    expect(service.followsBookings()).toBe(true);
    const before = readsOfToday(read);

    // another person ended a booking a minute ago: the reading is newer than what the run read
    later(MIN);
    book(NOW - 5 * MIN);
    service.bookingsChangedLive([{ roomId: 'r1', at: NOW + 30_000 }]);
    expect(state(popup)).toBe('loading');
    await done(popup);
    expect((popup.entry('r1') as RoomRow).items.map((b) => b.ref)).toEqual(['b1']);
    expect(readsOfToday(read)).toBe(before + 1);

    // the same change heard again (the run began reading after it), and another floor's room: nothing is read
    service.bookingsChangedLive([{ roomId: 'r1', at: NOW + 30_000 }, { roomId: 'r2', at: NOW + MIN }]);
    expect(state(popup)).toBe('done');
    expect(readsOfToday(read)).toBe(before + 1);
    popup.close!();
    // nothing open on the screen: the ingest path has nothing to look at
    expect(service.followsBookings()).toBe(false);
    // a period over before today is never followed
    const lastWeek = await done(open(roomsOf('f1', { from: '2025-02-10', to: '2025-02-16' })));
    expect(service.followsBookings()).toBe(false);
    lastWeek.close!();
  });

  it('reads again for a change dated just before the run began: the two clocks may differ by that much', async () => {
    const { service, open, read, book, later } = setup();
    const popup = await done(open(roomsOf('f1')));
    const before = readsOfToday(read);
    // the run began reading at NOW by our clock; the server dated another person's change 2 s before that
    later(MIN);
    book(NOW - 5 * MIN);
    service.bookingsChangedLive([{ roomId: 'r1', at: NOW - 2_000 }]);
    expect(state(popup)).toBe('loading');
    await done(popup);
    expect((popup.entry('r1') as RoomRow).items.map((b) => b.ref)).toEqual(['b1']);
    expect(readsOfToday(read)).toBe(before + 1);
    popup.close!();
  });

  describe('a booking ending while a view is open', () => {
    const items = (view: ViewSource) => (view.entry('r1') as RoomRow).items.map((b) => `${b.ref} ${b.class}`);

    it('reads today again at the end of a booking it read as running, so the popup lists how it went', async () => {
      const { open, read, book, later, wakes, tick } = setup();
      // running when read: its outcome is open
      book(NOW - 5 * MIN);
      const popup = await done(open(roomsOf('f1')));
      expect(items(popup)).toEqual(['b1 unknown']);
      const before = readsOfToday(read);
      expect([...wakes.values()].map((w) => w.at)).toEqual([NOW + 25 * MIN]);
      expect([...wakes.keys()][0]!.startsWith(BOOKING_END_KEY)).toBe(true);

      // a millisecond before its end nothing is due; at its end today is read again, and it ended as planned
      later(25 * MIN - 1);
      tick();
      expect(state(popup)).toBe('done');
      later(1);
      tick();
      expect(state(popup)).toBe('loading');
      await done(popup);
      expect(items(popup)).toEqual(['b1 completed_as_planned']);
      expect(readsOfToday(read)).toBe(before + 1);
      // nothing is left to end: no further wake
      expect(wakes.size).toBe(0);
      popup.close!();
    });

    it('reads today again at the end of a booking it read as still to come', async () => {
      const { open, read, book, later, wakes, tick } = setup();
      book(NOW + 10 * MIN);
      const popup = await done(open(roomsOf('f1')));
      expect(items(popup)).toEqual(['b1 upcoming']);
      expect([...wakes.values()].map((w) => w.at)).toEqual([NOW + 40 * MIN]);
      const before = readsOfToday(read);
      later(40 * MIN);
      tick();
      await done(popup);
      expect(items(popup)).toEqual(['b1 completed_as_planned']);
      expect(readsOfToday(read)).toBe(before + 1);
      popup.close!();
    });

    it('reads nothing at an end once no view is open, and a kept run whose booking ended since is read again at its opening', async () => {
      const { open, read, book, later, tick } = setup();
      // a ten-minute booking ending 30 s after the read: sooner than the minute's bound
      book(NOW - 9.5 * MIN, 10);
      (await done(open(roomsOf('f1')))).close!();
      const before = readsOfToday(read);
      later(30_000);
      tick();
      expect(readsOfToday(read)).toBe(before);
      const again = open(roomsOf('f1'));
      expect(state(again)).toBe('loading');
      await done(again);
      expect(items(again)).toEqual(['b1 completed_as_planned']);
      expect(readsOfToday(read)).toBe(before + 1);
      again.close!();
    });

    it('sets no wake for a report of a period over before today', async () => {
      const { open, book, wakes } = setup();
      book(NOW - 5 * MIN);
      const lastWeek = await done(open(roomsOf('f1', { from: '2025-02-10', to: '2025-02-16' })));
      expect(wakes.size).toBe(0);
      lastWeek.close!();
    });
  });
});
