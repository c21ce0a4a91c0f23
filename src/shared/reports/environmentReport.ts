// Environment report (docs/reports.md): per sensor type and per room, zone
// or free-standing sensor, the time-weighted mean, the min and max, and the
// time outside the comfort band within working hours; the worst rooms first.
// The bands are the green ranges of the environment layers' colour scales.

import { sensorTypeTitle } from '../kinds.js';
import type { CalendarDay } from './calendar.js';
import { HOUR_MS, percent, periodOf, round, type Aggregator, type ReportContext } from './aggregator.js';
import { createDayStream } from './readings.js';
import { emptySummary } from './slots.js';
import type { EnvironmentRow } from './types.js';

/** Comfort bands [low, high] per type, matching the layers' scales (docs/reports.md). */
export const COMFORT_BANDS: Readonly<Record<string, readonly [number, number]>> = {
  co2: [0, 800],
  temperature: [20, 23],
  humidity: [30, 60],
  tvoc: [0, 220],
  illuminance: [300, 1500],
  pressure: [1000, 1025],
  loudness: [0, 45],
};
export const ENVIRONMENT_REPORT_TYPES = Object.keys(COMFORT_BANDS);

export const ENVIRONMENT_UNITS: Readonly<Record<string, string>> = {
  co2: 'ppm', temperature: '°C', humidity: '%', tvoc: 'ppb', illuminance: 'lx', pressure: 'hPa', loudness: 'dB',
};

export interface ScopeEnvironmentSensor {
  sensorId: string;
  type: string;
  groupId: string;
  groupName: string;
  groupKind: EnvironmentRow['groupKind'];
  floorId: string | null;
}

interface Acc { weighted: number; covered: number; outside: number; min: number; max: number; sensors: Set<string> }

export function createEnvironmentAggregator(ctx: ReportContext, sensors: readonly ScopeEnvironmentSensor[]): Aggregator {
  const period = periodOf(ctx);
  const bySensor = new Map<string, ScopeEnvironmentSensor>();
  const knownByType = new Map<string, Set<string>>();
  for (const s of sensors) {
    if (!COMFORT_BANDS[s.type]) continue;
    bySensor.set(s.sensorId, s);
    if (!knownByType.has(s.type)) knownByType.set(s.type, new Set());
    knownByType.get(s.type)!.add(s.sensorId);
  }
  const groups = new Map<string, { meta: ScopeEnvironmentSensor; acc: Acc }>();
  const hourly = new Map<string, { sum: Float64Array; ms: Float64Array }>();
  const types = [...knownByType.keys()].sort((a, b) => ENVIRONMENT_REPORT_TYPES.indexOf(a) - ENVIRONMENT_REPORT_TYPES.indexOf(b));

  return {
    types,
    known: (type) => knownByType.get(type) ?? new Set(),
    numeric: () => true,
    openDay(type, day: CalendarDay) {
      const window = period.windows.get(day.key) ?? [];
      const [low, high] = COMFORT_BANDS[type]!;
      if (!hourly.has(type)) hourly.set(type, { sum: new Float64Array(24), ms: new Float64Array(24) });
      const hours = hourly.get(type)!;
      const stream = createDayStream(day.start, day.end, (sensorId, a, b, r) => {
        const meta = bySensor.get(sensorId);
        if (!meta) return;
        for (const s of day.hours) {
          const ms = Math.min(b, s.end) - Math.max(a, s.start);
          if (ms > 0) { hours.sum[s.hour]! += r.value * ms; hours.ms[s.hour]! += ms; }
        }
        let ms = 0;
        for (const [ws, we] of window) ms += Math.max(0, Math.min(b, we) - Math.max(a, ws));
        if (ms <= 0) return;
        const key = `${type}:${meta.groupId}`;
        let g = groups.get(key);
        if (!g) {
          g = { meta, acc: { weighted: 0, covered: 0, outside: 0, min: Infinity, max: -Infinity, sensors: new Set() } };
          groups.set(key, g);
        }
        const acc = g.acc;
        acc.sensors.add(sensorId);
        acc.weighted += r.value * ms;
        acc.covered += ms;
        if (r.value < low || r.value > high) acc.outside += ms;
        if (r.value < acc.min) acc.min = r.value;
        if (r.value > acc.max) acc.max = r.value;
      });
      return { push: (page) => stream.push(page), finish: () => stream.finish() };
    },
    result() {
      const rows: EnvironmentRow[] = [];
      for (const [id, { meta, acc }] of groups) {
        const type = id.slice(0, id.indexOf(':'));
        rows.push({
          kind: 'environment', id, type, unit: ENVIRONMENT_UNITS[type] ?? null,
          groupId: meta.groupId, groupName: meta.groupName, groupKind: meta.groupKind, floorId: meta.floorId,
          sensors: acc.sensors.size,
          mean: acc.covered ? round(acc.weighted / acc.covered, 1) : null,
          min: Number.isFinite(acc.min) ? acc.min : null,
          max: Number.isFinite(acc.max) ? acc.max : null,
          coveredHours: round(acc.covered / HOUR_MS, 1),
          outsideHours: round(acc.outside / HOUR_MS, 1),
          outsideShare: acc.covered ? round(acc.outside / acc.covered, 4) : null,
          band: [...COMFORT_BANDS[type]!] as [number, number],
        });
      }
      rows.sort((a, b) => types.indexOf(a.type) - types.indexOf(b.type) || (b.outsideShare ?? -1) - (a.outsideShare ?? -1));
      const summary = emptySummary();
      summary.series = types.map((type) => {
        const h = hourly.get(type);
        return { id: type, label: `${sensorTypeTitle(type)} (${ENVIRONMENT_UNITS[type]})`, band: [...COMFORT_BANDS[type]!] as [number, number], byHour: Array.from({ length: 24 }, (_, i) => (h && h.ms[i]! > 0 ? round(h.sum[i]! / h.ms[i]!, 1) : null)) };
      });
      summary.totals = types.map((type) => {
        const list = rows.filter((r) => r.type === type);
        const covered = list.reduce((s, r) => s + r.coveredHours, 0);
        const outside = list.reduce((s, r) => s + r.outsideHours, 0);
        return { label: `${sensorTypeTitle(type)} outside ${COMFORT_BANDS[type]![0]}–${COMFORT_BANDS[type]![1]} ${ENVIRONMENT_UNITS[type]}`, value: percent(covered ? outside / covered : null) };
      });
      // a room's name is told by its floor where another floor of the report has a room of that name (each
      // building's F0-R1), whether or not that one is among the worst: "Worst CO₂: F0-R1" alone names neither
      const floorsOf = new Map<string, Set<string | null>>();
      for (const r of rows) if (r.groupKind === 'room') floorsOf.set(r.groupName, (floorsOf.get(r.groupName) ?? new Set()).add(r.floorId));
      summary.highlights = types.flatMap((type) => rows.filter((r) => r.type === type && r.groupKind === 'room' && (r.outsideShare ?? 0) > 0).slice(0, 3)
        .map((r) => ({ label: `Worst ${sensorTypeTitle(type)}: ${r.groupName}`, value: percent(r.outsideShare), floorId: floorsOf.get(r.groupName)!.size > 1 ? r.floorId : null })));
      return {
        rows,
        summary,
        measure: {
          title: 'Time outside the comfort band', unit: '%',
          stops: [
            { value: 0, color: '#2e7d32', label: 'Always comfortable' },
            { value: 0.1, color: '#fdd835', label: '10 %' },
            { value: 0.3, color: '#c62828', label: '30 % or more' },
          ],
        },
      };
    },
  };
}
