// Runs every benchmark in sequence, each in its own Node process (so one
// bench's heap and JIT state cannot colour the next, and memory.ts gets
// --expose-gc), then prints one summary of every target. Pick benches by
// name: `npm run bench -- ingest patches`.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { RESULTS_FILE_ENV, fmt, renderTable, verdict, type BenchRow } from './lib/report.js';

const BENCHES = ['ingestBrowser', 'ingest', 'patches', 'reopen', 'reopenNode', 'rewrite', 'engineThread', 'memory', 'reports', 'reportsNode', 'finder', 'playback', 'playbackPage', 'timeline', 'ui'] as const;
const ROOT = resolve(import.meta.dirname, '..');

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((w) => !(BENCHES as readonly string[]).includes(w));
if (unknown.length) {
  console.error(`unknown bench ${unknown.join(', ')}; choose from ${BENCHES.join(', ')}`);
  process.exit(2);
}
const selected = wanted.length ? BENCHES.filter((b) => wanted.includes(b)) : [...BENCHES];

const dir = mkdtempSync(join(tmpdir(), 'storey-bench-'));
const rows: BenchRow[] = [];
const failed: string[] = [];
const started = performance.now();
/** The machine's cores are shared: every bench says how busy they were (1-minute load average, as `uptime`). */
const load = () => loadavg()[0]!.toFixed(2);
console.log(`Storey benchmarks on ${process.platform} ${process.arch}, Node ${process.version}: ${selected.join(', ')}`);
const loads = new Map<string, string>();
for (const name of selected) {
  const file = join(dir, `${name}.json`);
  const t0 = performance.now();
  const before = load();
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(ROOT, 'bench', `${name}.ts`)], {
    cwd: ROOT, stdio: 'inherit', env: { ...process.env, [RESULTS_FILE_ENV]: file },
  });
  loads.set(name, `${before}→${load()}`);
  console.log(`  (${name}: ${fmt((performance.now() - t0) / 1000)} s, load average ${loads.get(name)} on ${availableParallelism()} cores)`);
  if (run.status !== 0) {
    failed.push(name);
    continue;
  }
  try {
    rows.push(...(JSON.parse(readFileSync(file, 'utf8')) as BenchRow[]));
  } catch {
    failed.push(name);
  }
}
rmSync(dir, { recursive: true, force: true });

const targets = rows.filter((r) => r.pass !== null);
console.log('\n## Summary: targets (DESIGN §7)\n');
console.log(renderTable(
  ['bench', 'case', 'size', 'result', 'target', 'verdict', 'load'],
  targets.map((r) => [r.bench, r.case, r.size, `${fmt(r.value)} ${r.unit}`, r.target, verdict(r.pass), loads.get(r.bench) ?? '']),
));
const passed = targets.filter((r) => r.pass).length;
console.log(`\n${passed} of ${targets.length} targets pass; ${fmt((performance.now() - started) / 1000)} s in all.`);
if (failed.length) {
  console.log(`benches that did not finish: ${failed.join(', ')}`);
  process.exitCode = 1;
}
