// Room report (docs/reports.md): per room, booked hours against hours in use,
// the reservation history class of every booking (spec §4, rules/
// reservationHistory.ts), no-shows (booked, ended, never used) as their own
// line, use without a booking, and the busiest hours. Rooms are few, so their
// merged occupied intervals and reservation values are kept whole.

import { overlapMs, type CalendarDay } from './calendar.js';
import { HOUR_MS, percent, periodOf, round, type Aggregator, type ReportContext } from './aggregator.js';
import { createDayStream } from './readings.js';
import { RESERVATION_HISTORY_CLASSES, reservationHistory, type ReservationHistoryClass, type ReservationSnapshot } from '../rules/reservationHistory.js';
import { createCellStats, createDaySlots, addToSlots, emptySummary } from './slots.js';
import type { BookingItem, RoomRow } from './types.js';
import type { ReservationEvent } from '../types.js';

/** A booking counts as used when the room was occupied at least this long during it. */
export const NO_SHOW_MIN_USE_MS = 5 * 60_000;

export interface ScopeRoom {
  id: string;
  name: string;
  floorId: string | null;
  occupancySensorId: string | null;
  reservationSensorId: string | null;
}

type Interval = [number, number];

function addInterval(list: Interval[], a: number, b: number): void {
  const last = list[list.length - 1];
  if (last && a <= last[1]) { if (b > last[1]) last[1] = b; } else list.push([a, b]);
}

const emptyClasses = () => Object.fromEntries(RESERVATION_HISTORY_CLASSES.map((c) => [c, 0])) as Record<ReservationHistoryClass, number>;

function isEvent(e: unknown): e is ReservationEvent {
  const v = e as Partial<ReservationEvent> | null;
  return !!v && typeof v.start === 'number' && typeof v.end === 'number' && typeof v.booking_ref === 'string' && v.booking_ref !== '';
}

export function createRoomAggregator(ctx: ReportContext, rooms: readonly ScopeRoom[]): Aggregator {
  const period = periodOf(ctx);
  const byOccupancy = new Map<string, number>();
  const byReservation = new Map<string, number>();
  rooms.forEach((r, i) => {
    if (r.occupancySensorId) byOccupancy.set(r.occupancySensorId, i);
    if (r.reservationSensorId) byReservation.set(r.reservationSensorId, i);
  });
  const occupied: Interval[][] = rooms.map(() => []);
  const snapshots: ReservationSnapshot[][] = rooms.map(() => []);
  const hourUse: Float64Array[] = rooms.map(() => new Float64Array(24));
  const stats = createCellStats();
  const sets = { occupancy: new Set(byOccupancy.keys()), reservation: new Set(byReservation.keys()) };

  return {
    types: ['occupancy', 'reservation'],
    known: (type) => (type === 'reservation' ? sets.reservation : sets.occupancy),
    numeric: (type) => type === 'occupancy',
    openDay(type, day: CalendarDay) {
      if (type === 'reservation') {
        const seen = rooms.map(() => new Set<number>());
        // the value valid at the start of the day is the previous day's last: keep each value once
        const stream = createDayStream(day.start, day.end, () => undefined);
        return {
          push(page) {
            for (let k = 0; k < page.n; k += 1) {
              const i = byReservation.get(page.sensors[page.sensor[k]!]!);
              const t = page.time[k]!;
              if (i === undefined || seen[i]!.has(t)) continue;
              seen[i]!.add(t);
              const events = page.extras?.[k]?.events;
              snapshots[i]!.push({ time: t, events: Array.isArray(events) ? events.filter(isEvent) : null });
            }
            stream.push(page);
          },
          finish: () => stream.finish(),
        };
      }
      const slots = createDaySlots(day);
      const stream = createDayStream(day.start, day.end, (sensorId, a, b, r) => {
        const i = byOccupancy.get(sensorId);
        if (i === undefined || !(r.value > 0)) return;
        addInterval(occupied[i]!, a, b);
        addToSlots(slots, a, b);
        for (const s of day.hours) hourUse[i]![s.hour]! += overlapMs(a, b, [[s.start, s.end]]);
      });
      return {
        push: (page) => stream.push(page),
        finish() {
          stream.finish();
          stats.addDay(slots, Math.max(1, byOccupancy.size) * 600_000, ctx.hourStart, ctx.hourEnd);
        },
      };
    },
    result() {
      const totals = emptyClasses();
      let noShowsAll = 0;
      let tookPlaceAll = 0;
      const hourAll = new Float64Array(24);
      const rows: RoomRow[] = rooms.map((room, i) => {
        const sensed = room.occupancySensorId !== null;
        const intervals = occupied[i]!.sort((x, y) => x[0] - y[0]);
        const history = reservationHistory(snapshots[i]!, ctx.now)
          .filter((b) => b.planned.start < period.end && b.planned.end > period.start);
        const classes = emptyClasses();
        const items: BookingItem[] = [];
        let bookedMs = 0;
        let noShows = 0;
        let tookPlace = 0;
        const bookedRanges: Interval[] = [];
        for (const b of history) {
          classes[b.class] += 1;
          totals[b.class] += 1;
          const ended = b.class === 'completed_as_planned' || b.class === 'ended_early' || b.class === 'extended';
          let used: boolean | null = null;
          if (ended && sensed) used = overlapMs(b.actual.start, b.actual.end, intervals) >= NO_SHOW_MIN_USE_MS;
          if (ended) tookPlace += 1;
          if (used === false) noShows += 1;
          if (b.class !== 'removed') {
            bookedMs += Math.max(0, Math.min(b.actual.end, period.end) - Math.max(b.actual.start, period.start));
            bookedRanges.push([b.actual.start, b.actual.end]);
          }
          items.push({
            ref: b.booking_ref, subject: b.actual.subject ?? b.planned.subject ?? null,
            plannedStart: b.planned.start, plannedEnd: b.planned.end, actualStart: b.actual.start, actualEnd: b.actual.end,
            class: b.class, used,
          });
        }
        items.sort((x, y) => y.plannedStart - x.plannedStart);
        const usedMs = intervals.reduce((s, [a, b]) => s + b - a, 0);
        const merged: Interval[] = [];
        for (const r of bookedRanges.sort((x, y) => x[0] - y[0])) addInterval(merged, r[0], r[1]);
        const usedWhileBooked = intervals.reduce((s, [a, b]) => s + overlapMs(a, b, merged), 0);
        noShowsAll += noShows;
        tookPlaceAll += tookPlace;
        let busiest: number | null = null;
        hourUse[i]!.forEach((v, h) => { hourAll[h]! += v; if (v > 0 && (busiest === null || v > hourUse[i]![busiest]!)) busiest = h; });
        return {
          kind: 'room', id: room.id, name: room.name, floorId: room.floorId, hasOccupancySensor: sensed,
          bookings: history.length, bookedHours: round(bookedMs / HOUR_MS, 1),
          usedHours: sensed ? round(usedMs / HOUR_MS, 1) : null,
          usedWhileBookedHours: sensed ? round(usedWhileBooked / HOUR_MS, 1) : null,
          unbookedUseHours: sensed ? round((usedMs - usedWhileBooked) / HOUR_MS, 1) : null,
          noShows: sensed ? noShows : null,
          noShowRate: sensed && tookPlace > 0 ? round(noShows / tookPlace, 4) : null,
          classes, busiestHour: busiest, items,
        };
      });
      const summary = { ...emptySummary(), ...stats.summary() };
      summary.counts = { ...totals, no_show: noShowsAll };
      const topHours = [...hourAll.keys()].filter((h) => hourAll[h]! > 0).sort((a, b) => hourAll[b]! - hourAll[a]!).slice(0, 3);
      summary.totals = [
        { label: 'Rooms', value: String(rooms.length) },
        { label: 'Bookings', value: String(rows.reduce((s, r) => s + r.bookings, 0)) },
        { label: 'Booked hours', value: String(round(rows.reduce((s, r) => s + r.bookedHours, 0), 1)) },
        { label: 'Hours in use', value: String(round(rows.reduce((s, r) => s + (r.usedHours ?? 0), 0), 1)) },
        { label: 'No-shows', value: `${noShowsAll} (${percent(tookPlaceAll ? noShowsAll / tookPlaceAll : null)})` },
      ];
      summary.highlights = [
        ...topHours.map((h, n) => ({ label: `Busiest hour ${n + 1}`, value: `${String(h).padStart(2, '0')}:00` })),
        { label: 'Use without booking (h)', value: String(round(rows.reduce((s, r) => s + (r.unbookedUseHours ?? 0), 0), 1)) },
      ];
      return {
        rows,
        summary,
        measure: {
          title: 'No-show rate', unit: '%',
          stops: [
            { value: 0, color: '#2e7d32', label: 'No no-shows' },
            { value: 0.15, color: '#fdd835', label: '15 %' },
            { value: 0.3, color: '#c62828', label: '30 % or more' },
          ],
        },
      };
    },
  };
}
