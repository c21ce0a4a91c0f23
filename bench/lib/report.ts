// Result rows and printed tables shared by every benchmark. Each bench prints
// its own table and, when run from bench/run.ts, hands its rows back through
// a JSON file so the runner can print one summary of every target.

import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

export interface BenchRow {
  bench: string;
  case: string;
  size: string;
  /** measured value in `unit` */
  value: number;
  unit: string;
  /** the same-run baseline in `unit` (null when the row has none) */
  baseline: number | null;
  baselineLabel: string;
  /** value / baseline (or the ratio the target speaks of) */
  ratio: number | null;
  target: string;
  /** null: reported, no target */
  pass: boolean | null;
}

export const RESULTS_FILE_ENV = 'STOREY_BENCH_RESULTS';

export function fmt(n: number | null, digits = 2): string {
  if (n === null || !Number.isFinite(n)) return n === null ? '—' : String(n);
  const abs = Math.abs(n);
  if (abs >= 10_000) return Math.round(n).toLocaleString('en-US');
  if (abs >= 100) return n.toFixed(0);
  if (abs > 0 && abs < 0.01) return n.toPrecision(2);
  if (abs >= 10) return n.toFixed(1);
  return n.toFixed(digits);
}

export function verdict(pass: boolean | null): string {
  return pass === null ? 'info' : pass ? 'PASS' : 'FAIL';
}

/** A plain monospace table: header, rule, rows. */
export function renderTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function renderRows(rows: BenchRow[]): string {
  return renderTable(
    ['case', 'size', 'result', 'baseline', 'ratio', 'target', 'verdict'],
    rows.map((r) => [
      r.case,
      r.size,
      `${fmt(r.value)} ${r.unit}`,
      r.baseline === null ? '—' : `${fmt(r.baseline)} ${r.baselineLabel}`,
      r.ratio === null ? '—' : `${fmt(r.ratio)}×`,
      r.target,
      verdict(r.pass),
    ]),
  );
}

/** Prints the bench's table and passes the rows to the runner when it asked for them. */
export function publish(title: string, rows: BenchRow[], notes: string[] = []): void {
  console.log(`\n## ${title}\n`);
  console.log(renderRows(rows));
  for (const note of notes) console.log(`  · ${note}`);
  // the cores are shared with other work: every table says how busy they were when it was measured
  console.log(`  · load average ${loadavg().map((l) => l.toFixed(2)).join(', ')} (1, 5, 15 min) on ${availableParallelism()} cores`);
  const file = process.env[RESULTS_FILE_ENV];
  if (file) writeFileSync(file, JSON.stringify(rows));
}

/** Median of a list of numbers (the list is not modified). */
export function median(values: number[]): number {
  return percentile(values, 0.5);
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[i]!;
}

export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * This process's CPU time in ms (user + system, all its threads). On cores
 * shared with other work a rate measured in CPU time does not count the time
 * others held the core; on a quiet machine it is close to wall-clock time.
 */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
