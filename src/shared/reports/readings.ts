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
  /** pages of the server this one holds (mergePages); 1 when absent */
  pagesAsSent?: number;
  /** battery level (%) of each row, NaN where none was sent; only when the check asked for it (playback) */
  battery?: Float64Array;
  /**
   * the value of each row as sent where it is not a finite number (a word, a flag, a number sent as text,
   * an object), null elsewhere; only when the check asked for it (playback) and some row has one
   */
  raw?: unknown[];
}

/**
 * A day's pages as one page with one sensor table, counting the pages it was
 * sent as: what the page cache keeps. Each page names its own sensors, so a
 * day of a 10,000-desk location read as 20 pages carries 200,000 sensor
 * strings; merged it carries 10,000, and IndexedDB reads it back that much
 * faster (bench/reports.ts, docs/bench.md).
 */
export function mergePages(pages: readonly ColumnarPage[]): ColumnarPage {
  let n = 0;
  let sent = 0;
  for (const p of pages) { n += p.n; sent += p.pagesAsSent ?? 1; }
  const time = new Float64Array(n);
  const validTo = new Float64Array(n);
  const value = new Float64Array(n);
  const sensor = new Int32Array(n);
  const sensors: string[] = [];
  const index = new Map<string, number>();
  const extras: Array<Record<string, unknown>> | null = pages.some((p) => p.extras) ? [] : null;
  const battery = pages.some((p) => p.battery) ? new Float64Array(n).fill(NaN) : null;
  const raw = pages.some((p) => p.raw) ? new Array<unknown>(n).fill(null) : null;
  let at = 0;
  for (const p of pages) {
    time.set(p.time.subarray(0, p.n), at);
    if (battery && p.battery) battery.set(p.battery.subarray(0, p.n), at);
    if (raw && p.raw) for (let k = 0; k < p.n; k += 1) raw[at + k] = p.raw[k] ?? null;
    validTo.set(p.validTo.subarray(0, p.n), at);
    value.set(p.value.subarray(0, p.n), at);
    const map = p.sensors.map((id) => {
      let i = index.get(id);
      if (i === undefined) { i = sensors.length; sensors.push(id); index.set(id, i); }
      return i;
    });
    for (let k = 0; k < p.n; k += 1) sensor[at + k] = map[p.sensor[k]!]!;
    if (extras) for (let k = 0; k < p.n; k += 1) extras.push(p.extras?.[k] ?? {});
    at += p.n;
  }
  const merged: ColumnarPage = { n, time, validTo, value, sensor, sensors, extras, lastTime: pages.at(-1)?.lastTime ?? null, pagesAsSent: Math.max(1, sent) };
  if (battery) merged.battery = battery;
  if (raw) merged.raw = raw;
  return merged;
}

export interface PageCheck {
  /** sensors of this type the report reads */
  known: ReadonlySet<string>;
  /** every sensor of this type in the location: rows of these outside the report are left out quietly, not counted as bad */
  inLocation?: ReadonlySet<string>;
  /** values must be finite numbers (occupancy and environment types) */
  numeric: boolean;
  /** keep each row's battery level (ColumnarPage.battery): a replay shows the battery as it was */
  battery?: boolean;
  /** keep values that are not finite numbers as sent (ColumnarPage.raw): a replay shows them as live does */
  raw?: boolean;
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
  const iBattery = check.battery ? columns.indexOf('battery_level') : -1;
  const extraColumns = columns.map((c, i) => [c, i] as const).filter(([c]) => !BASE.has(c));
  const n = rows.length;
  const time = new Float64Array(n);
  const validTo = new Float64Array(n);
  const value = new Float64Array(n);
  const sensor = new Int32Array(n);
  const battery = check.battery ? new Float64Array(n) : null;
  // made at the first row that needs it: most pages are numbers only
  let raws: unknown[] | null = null;
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
    if (check.raw && Number.isNaN(value[k]) && raw !== null && raw !== undefined) (raws ??= new Array<unknown>(n).fill(null))[k] = raw;
    if (battery) {
      const level = iBattery < 0 ? null : row[iBattery];
      battery[k] = typeof level === 'number' && Number.isFinite(level) ? level : NaN;
    }
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
  const page: ColumnarPage = {
    n: k, time: time.slice(0, k), validTo: validTo.slice(0, k), value: value.slice(0, k), sensor: sensor.slice(0, k),
    sensors, extras, lastTime,
  };
  if (battery) page.battery = battery.slice(0, k);
  if (raws) page.raw = raws.slice(0, k);
  return page;
}

/** One reading of a sensor as the aggregators see it. */
export interface Reading {
  time: number;
  validTo: number;
  /** NaN for null */
  value: number;
  extra: Record<string, unknown> | null;
}

/**
 * A reading's interval inside the day: from its time (or the day's start) to the next reading or its validity end.
 * `reading` is one object the stream reuses: read it during the call, never keep it.
 */
export type IntervalSink = (sensorId: string, start: number, end: number, reading: Reading) => void;

export interface DayStream {
  push(page: ColumnarPage): void;
  /** closes every open reading at the end of the day */
  finish(): void;
}

/**
 * Per sensor the open reading; the next reading of the same sensor cuts it.
 * A reading from before the day (the previous validity row) starts the day.
 * The open readings live in typed arrays indexed per sensor and the sink gets
 * one reused Reading: no allocation per row (a week of 10,000 desks is
 * millions of rows, and the second opening of a report is this loop alone).
 */
export function createDayStream(dayStart: number, dayEnd: number, sink: IntervalSink): DayStream {
  const index = new Map<string, number>();
  const ids: string[] = [];
  let time = new Float64Array(64);
  let validTo = new Float64Array(64);
  let value = new Float64Array(64);
  let open = new Uint8Array(64);
  const extras: Array<Record<string, unknown> | null> = [];
  const reading: Reading = { time: 0, validTo: 0, value: 0, extra: null };
  const grow = () => {
    const size = time.length * 2;
    const more = <T extends Float64Array | Uint8Array>(a: T, b: T): T => { b.set(a); return b; };
    time = more(time, new Float64Array(size));
    validTo = more(validTo, new Float64Array(size));
    value = more(value, new Float64Array(size));
    open = more(open, new Uint8Array(size));
  };
  const close = (s: number, cut: number) => {
    const t = time[s]!;
    const a = t > dayStart ? t : dayStart;
    const b = Math.min(validTo[s]!, cut, dayEnd);
    if (b <= a) return;
    reading.time = t;
    reading.validTo = validTo[s]!;
    reading.value = value[s]!;
    reading.extra = extras[s] ?? null;
    sink(ids[s]!, a, b, reading);
  };
  return {
    push(page) {
      // the page's own sensor numbering → this stream's, once per page rather than per row
      const map = new Int32Array(page.sensors.length);
      for (let i = 0; i < page.sensors.length; i += 1) {
        const id = page.sensors[i]!;
        let s = index.get(id);
        if (s === undefined) {
          s = ids.length;
          ids.push(id);
          index.set(id, s);
          if (s >= time.length) grow();
        }
        map[i] = s;
      }
      for (let k = 0; k < page.n; k += 1) {
        const s = map[page.sensor[k]!]!;
        const t = page.time[k]!;
        if (open[s]) close(s, t);
        time[s] = t;
        validTo[s] = page.validTo[k]!;
        value[s] = page.value[k]!;
        if (page.extras) extras[s] = page.extras[k] ?? null;
        else if (extras[s]) extras[s] = null;
        open[s] = 1;
      }
    },
    finish() {
      for (let s = 0; s < ids.length; s += 1) if (open[s]) close(s, dayEnd);
      open.fill(0);
    },
  };
}
