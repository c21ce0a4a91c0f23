// Measurement pages as reports read them: a page is checked row by row and
// kept columnar (typed arrays, cheap to clone into IndexedDB and to scan);
// bad rows are skipped and counted (spec-style warnings, docs/reports.md).
// A day stream turns one sensor type's readings of one local day into
// validity intervals clipped to the day, so days aggregate independently.

import type { SkipReason, SkippedRows } from './types.js';

/** Rows of one page of one type that passed the checks, in time order. */
export interface ColumnarPage {
  n: number;
  time: Float64Array;
  /** end of validity: valid_to, else time + valid_for, else time (spec §3) */
  validTo: Float64Array;
  /** NaN where the value is null */
  value: Float64Array;
  /** index into `sensors` */
  sensor: Int32Array;
  sensors: string[];
  /** the type's extra columns by name (location: x, y, floor_id, zones; reservation: events), or null */
  extras: Array<Record<string, unknown>> | null;
  /** last time of the page as sent, valid or not (for paging) */
  lastTime: number | null;
}

export interface PageCheck {
  /** sensors of this type the report reads */
  known: ReadonlySet<string>;
  /** every sensor of this type in the location: rows of these outside the report are left out quietly, not counted as bad */
  inLocation?: ReadonlySet<string>;
  /** values must be finite numbers (occupancy and environment types) */
  numeric: boolean;
  /** time of the last accepted row of the stream so far; rows before it are out of order */
  lastTime: number;
  skipped: SkippedRows;
}

const BASE = new Set(['time', 'sensor_id', 'valid_for', 'value', 'battery_level', 'valid_to']);

/** Checks a page's rows and keeps the good ones columnar; `check.lastTime` and `check.skipped` advance. */
export function readPage(columns: readonly string[], rows: readonly unknown[][], check: PageCheck): ColumnarPage {
  const iTime = columns.indexOf('time');
  const iSensor = columns.indexOf('sensor_id');
  const iFor = columns.indexOf('valid_for');
  const iTo = columns.indexOf('valid_to');
  const iValue = columns.indexOf('value');
  const extraColumns = columns.map((c, i) => [c, i] as const).filter(([c]) => !BASE.has(c));
  const n = rows.length;
  const time = new Float64Array(n);
  const validTo = new Float64Array(n);
  const value = new Float64Array(n);
  const sensor = new Int32Array(n);
  const sensors: string[] = [];
  const sensorIndex = new Map<string, number>();
  const extras: Array<Record<string, unknown>> | null = extraColumns.length ? [] : null;
  const skip = (reason: SkipReason) => { check.skipped[reason] += 1; };
  let k = 0;
  let lastTime: number | null = null;
  for (const row of rows) {
    if (!Array.isArray(row) || row.length !== columns.length || iTime < 0 || iSensor < 0) { skip('columnCount'); continue; }
    const t = row[iTime];
    if (typeof t === 'number' && Number.isFinite(t)) lastTime = t;
    const id = typeof row[iSensor] === 'number' ? String(row[iSensor]) : row[iSensor];
    if (typeof t !== 'number' || !Number.isFinite(t)) { skip('nonNumeric'); continue; }
    if (typeof id !== 'string' || !check.known.has(id)) {
      if (typeof id !== 'string' || !check.inLocation?.has(id)) skip('unknownSensor');
      continue;
    }
    const raw = iValue < 0 ? null : row[iValue];
    if (check.numeric && (typeof raw !== 'number' || !Number.isFinite(raw))) { skip('nonNumeric'); continue; }
    if (t < check.lastTime) { skip('outOfOrder'); continue; }
    check.lastTime = t;
    const to = iTo >= 0 ? row[iTo] : undefined;
    const span = iFor >= 0 ? row[iFor] : undefined;
    time[k] = t;
    validTo[k] = typeof to === 'number' && Number.isFinite(to) ? to : typeof span === 'number' && Number.isFinite(span) && span >= 0 ? t + span : t;
    value[k] = typeof raw === 'number' && Number.isFinite(raw) ? raw : NaN;
    let s = sensorIndex.get(id);
    if (s === undefined) { s = sensors.length; sensors.push(id); sensorIndex.set(id, s); }
    sensor[k] = s;
    if (extras) {
      const e: Record<string, unknown> = {};
      for (const [c, i] of extraColumns) e[c] = row[i];
      extras.push(e);
    }
    k += 1;
  }
  return {
    n: k, time: time.slice(0, k), validTo: validTo.slice(0, k), value: value.slice(0, k), sensor: sensor.slice(0, k),
    sensors, extras, lastTime,
  };
}

/** One reading of a sensor as the aggregators see it. */
export interface Reading {
  time: number;
  validTo: number;
  /** NaN for null */
  value: number;
  extra: Record<string, unknown> | null;
}

/** A reading's interval inside the day: from its time (or the day's start) to the next reading or its validity end. */
export type IntervalSink = (sensorId: string, start: number, end: number, reading: Reading) => void;

export interface DayStream {
  push(page: ColumnarPage): void;
  /** closes every open reading at the end of the day */
  finish(): void;
}

/**
 * Per sensor the open reading; the next reading of the same sensor cuts it.
 * A reading from before the day (the previous validity row) starts the day.
 */
export function createDayStream(dayStart: number, dayEnd: number, sink: IntervalSink): DayStream {
  const open = new Map<string, Reading>();
  const close = (id: string, r: Reading, cut: number) => {
    const a = r.time > dayStart ? r.time : dayStart;
    const b = Math.min(r.validTo, cut, dayEnd);
    if (b > a) sink(id, a, b, r);
  };
  return {
    push(page) {
      for (let k = 0; k < page.n; k += 1) {
        const id = page.sensors[page.sensor[k]!]!;
        const reading: Reading = { time: page.time[k]!, validTo: page.validTo[k]!, value: page.value[k]!, extra: page.extras?.[k] ?? null };
        const prev = open.get(id);
        if (prev) close(id, prev, reading.time);
        open.set(id, reading);
      }
    },
    finish() {
      for (const [id, r] of open) close(id, r, dayEnd);
      open.clear();
    },
  };
}
