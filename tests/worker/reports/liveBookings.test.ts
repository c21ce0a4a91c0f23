import { describe, expect, it } from 'vitest';
import type { ReservationEvent } from '../../../src/shared/types.js';
import { bookingsBefore, pastChanged, roomsWithPastChanged } from '../../../src/worker/reports/liveBookings.js';
import { loadedStore, measurement, wireDesk, wireOccupancySensor } from '../engine/harness.js';

// Bookings changed by others, seen live (docs/reports.md "Kept runs and today"): only a change of what had
// begun by now names its room; what is still to come is the live sensor's own business ("Coming up").

const H = 3_600_000;
const MIN = 60_000;
const NOW = Date.UTC(2025, 1, 20, 12);
const ev = (ref: string, start: number, end: number, subject = 'Sync'): ReservationEvent => ({ start, end, subject, user_id: 'u2', booking_ref: ref });
const running = ev('run', NOW - 10 * MIN, NOW + 20 * MIN);
const later = ev('later', NOW + H, NOW + 2 * H);
const morning = ev('morning', NOW - 3 * H, NOW - 2 * H);

describe('pastChanged', () => {
  it('says nothing of bookings still to come: made, moved or removed', () => {
    expect(pastChanged([running], [running, later], NOW)).toBe(false);
    expect(pastChanged([running, later], [running], NOW)).toBe(false);
    expect(pastChanged([running, later], [running, { ...later, end: later.end + H }], NOW)).toBe(false);
    expect(pastChanged([morning, running], [morning, running], NOW)).toBe(false);
  });

  it('tells a booking that had begun ended early, extended, renamed or removed', () => {
    expect(pastChanged([running], [{ ...running, end: NOW }], NOW)).toBe(true);
    expect(pastChanged([running], [{ ...running, end: running.end + H }], NOW)).toBe(true);
    expect(pastChanged([morning], [{ ...morning, subject: 'Renamed' }], NOW)).toBe(true);
    expect(pastChanged([morning, running, later], [morning, later], NOW)).toBe(true);
  });

  it('tells a booking added after it began, and one moved to begin before now', () => {
    expect(pastChanged([later], [morning, later], NOW)).toBe(true);
    expect(pastChanged([later], [{ ...later, start: NOW - MIN }], NOW)).toBe(true);
  });
});

describe('roomsWithPastChanged', () => {
  const room = {
    id: 'r1', type: 'room', subtype: 'meeting', name: 'Room 1', parent_id: 'f1', data_providers: ['res-r1'], data_provider_refs: { reservation: 'res-r1' },
    outline: [[0, 0], [4, 0], [4, 4], [0, 4]],
  };
  const sensors = [
    { id: 'res-r1', type: 'reservation', asset_id: 'r1', last_measurement: { time: NOW - H, valid_for: 24 * H, events: [running, later] } },
    wireOccupancySensor('s-d1', NOW - H, 0),
  ];

  it("names the room of a live reading that ended its running booking, with the reading's time, and nothing for other readings", () => {
    const { store, apply } = loadedStore([room, wireDesk('d1', 'f1')], sensors, () => NOW);
    // a desk's reading and a new booking for later: nothing of the past changed
    const quiet = [
      measurement('s-d1', 'occupancy', { time: NOW - MIN, valid_for: H, value: 1 }),
      measurement('res-r1', 'reservation', { time: NOW - 2 * MIN, valid_for: 24 * H, events: [running, later, ev('new', NOW + 3 * H, NOW + 4 * H)] }),
    ];
    for (const batch of quiet) {
      const before = bookingsBefore(store, batch.changes);
      apply(batch);
      expect(before ? roomsWithPastChanged(store, before, NOW) : []).toEqual([]);
    }
    expect(bookingsBefore(store, quiet[0]!.changes)).toBeNull();

    // another person ends the running booking now
    const ended = measurement('res-r1', 'reservation', { time: NOW - MIN, valid_for: 24 * H, events: [{ ...running, end: NOW - MIN }, later] });
    const before = bookingsBefore(store, ended.changes)!;
    apply(ended);
    expect(roomsWithPastChanged(store, before, NOW)).toEqual([{ roomId: 'r1', at: NOW - MIN }]);
  });
});
