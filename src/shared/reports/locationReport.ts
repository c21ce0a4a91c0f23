// Location report (docs/reports.md): people present over the day (located
// employees, time-weighted per ten-minute slot, by the floor of each
// reading) and occupancy (occupied desks and rooms) per floor and building,
// with the peak day and hour.

import type { CalendarDay } from './calendar.js';
import { dayLine, percent, periodOf, round, type Aggregator, type ReportContext } from './aggregator.js';
import { createDayStream } from './readings.js';
import { SLOT_MS, addToSlots, createCellStats, createDaySlots, emptySummary, type CellStats, type DaySlots } from './slots.js';
import type { LocationRow } from './types.js';

export interface ScopeFloor {
  id: string;
  name: string;
  buildingId: string | null;
  buildingName: string;
  /** occupancy sensors of the floor's desks and rooms */
  occupancySensorIds: readonly string[];
}

interface FloorAcc {
  people: CellStats;
  occupied: CellStats;
  peakPeople: number;
  peakOccupied: number;
  meanPeopleSum: number;
  meanPeopleN: number;
  occupancySum: number;
  occupancyN: number;
}

export function createLocationAggregator(ctx: ReportContext, floors: readonly ScopeFloor[], personSensorIds: readonly string[]): Aggregator {
  const period = periodOf(ctx);
  const floorIndex = new Map(floors.map((f, i) => [f.id, i]));
  const occupancyFloor = new Map<string, number>();
  floors.forEach((f, i) => { for (const id of f.occupancySensorIds) occupancyFloor.set(id, i); });
  const known = { location: new Set(personSensorIds), occupancy: new Set(occupancyFloor.keys()) };
  const accs: FloorAcc[] = floors.map(() => ({
    people: createCellStats(), occupied: createCellStats(), peakPeople: 0, peakOccupied: 0,
    meanPeopleSum: 0, meanPeopleN: 0, occupancySum: 0, occupancyN: 0,
  }));
  const all = createCellStats();
  const seriesHours = floors.map(() => ({ sum: new Float64Array(24), n: new Float64Array(24) }));

  const summarise = (day: CalendarDay, slots: DaySlots[], kind: 'people' | 'occupied') => {
    const total = createDaySlots(day);
    slots.forEach((s, i) => {
      const acc = accs[i]!;
      const sensors = floors[i]!.occupancySensorIds.length;
      const stats = kind === 'people' ? acc.people : acc.occupied;
      stats.addDay(s, SLOT_MS, ctx.hourStart, ctx.hourEnd);
      const window = period.windows.get(day.key) ?? [];
      for (let k = 0; k < s.values.length; k += 1) {
        const v = s.values[k]! / SLOT_MS;
        total.values[k]! += s.values[k]!;
        const t = day.start + k * SLOT_MS;
        const working = window.some(([a, b]) => t >= a && t < b);
        if (kind === 'people') {
          if (v > acc.peakPeople) acc.peakPeople = v;
          if (working) { acc.meanPeopleSum += v; acc.meanPeopleN += 1; }
          if (day.weekday <= 5) { seriesHours[i]!.sum[s.hour[k]!]! += v; seriesHours[i]!.n[s.hour[k]!]! += 1; }
        } else {
          if (v > acc.peakOccupied) acc.peakOccupied = v;
          if (working && sensors > 0) { acc.occupancySum += v / sensors; acc.occupancyN += 1; }
        }
      }
    });
    if (kind === 'people') all.addDay(total, SLOT_MS, ctx.hourStart, ctx.hourEnd);
  };

  return {
    types: ['location', 'occupancy'],
    known: (type) => (type === 'location' ? known.location : known.occupancy),
    numeric: (type) => type === 'occupancy',
    openDay(type, day: CalendarDay) {
      const slots = floors.map(() => createDaySlots(day));
      const stream = createDayStream(day.start, day.end, (sensorId, a, b, r) => {
        if (type === 'location') {
          const floorId = r.extra?.floor_id;
          const i = typeof floorId === 'string' || typeof floorId === 'number' ? floorIndex.get(String(floorId)) : undefined;
          if (i !== undefined) addToSlots(slots[i]!, a, b);
        } else if (r.value > 0) {
          const i = occupancyFloor.get(sensorId);
          if (i !== undefined) addToSlots(slots[i]!, a, b);
        }
      });
      return {
        push: (page) => stream.push(page),
        finish() {
          stream.finish();
          summarise(day, slots, type === 'location' ? 'people' : 'occupied');
        },
      };
    },
    result() {
      const rows: LocationRow[] = floors.map((f, i) => {
        const a = accs[i]!;
        return {
          kind: 'location', id: f.id, name: f.name, buildingId: f.buildingId, buildingName: f.buildingName,
          peakPeople: round(a.peakPeople, 1),
          meanPeople: round(a.meanPeopleN ? a.meanPeopleSum / a.meanPeopleN : 0, 1),
          peakOccupied: round(a.peakOccupied, 1),
          meanOccupancy: a.occupancyN ? round(a.occupancySum / a.occupancyN, 4) : null,
          peakDay: a.people.peakDay() ?? a.occupied.peakDay(),
          peakHour: a.people.peakHour() ?? a.occupied.peakHour(),
        };
      });
      const summary = { ...emptySummary(), ...all.summary() };
      summary.series = floors.map((f, i) => ({
        id: f.id, label: `${f.name}, ${f.buildingName}`,
        byHour: Array.from({ length: 24 }, (_, h) => (seriesHours[i]!.n[h]! ? round(seriesHours[i]!.sum[h]! / seriesHours[i]!.n[h]!, 2) : null)),
      }));
      const peakHour = all.peakHour();
      const peak = summary.byDay.reduce((m, d) => Math.max(m, d.value?.peak ?? 0), 0);
      const occ = rows.filter((r) => r.meanOccupancy !== null);
      summary.totals = [
        { label: 'Floors', value: String(floors.length) },
        { label: 'Peak people present', value: String(round(peak, 1)) },
        { label: 'Mean occupancy', value: percent(occ.length ? occ.reduce((s, r) => s + r.meanOccupancy!, 0) / occ.length : null) },
      ];
      summary.highlights = [
        dayLine('Peak day', all.peakDay()),
        { label: 'Peak hour', value: peakHour === null ? '—' : `${String(peakHour).padStart(2, '0')}:00` },
      ];
      return {
        rows,
        summary,
        measure: {
          title: 'Mean occupancy', unit: '%',
          stops: [
            { value: 0, color: '#e3f2fd', label: '0 %' },
            { value: 0.25, color: '#64b5f6', label: '25 %' },
            { value: 0.5, color: '#1565c0', label: '50 % or more' },
          ],
        },
      };
    },
  };
}
