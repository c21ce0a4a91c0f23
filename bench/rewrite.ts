// The persister's full rewrite of the 10k-desk location (issue 14): the longest
// task the worker runs while the whole location is written to IndexedDB
// (fake-indexeddb: the real idb adapter, a JS backend), this tree against
// another commit's code in the same process and alternating rounds. A live
// reading that arrives during a rewrite waits for the task in progress, so the
// longest one is what the rewrite costs live data.
//
// The longest task is the longest gap between two turns of a probe that
// re-queues itself with setImmediate: whatever ran in between (the rewrite's
// slices, fake-indexeddb's own request tasks) held the event loop that long.
// It is counted in the process's CPU time between the two turns (on the shared
// cores a gap's wall time also counts whatever time other processes held the
// core: at load 12 a 10 ms task reads 60 ms), and in wall time beside it.
// The rewrite starts as the engine's own timer starts it, a throttle after it
// was asked for (a flush writes what is queued now, without the pauses).
// Wall is that rewrite's, started to landed; its CPU comes from the same
// rewrite written at once (a flush), since the probe's turns would spin
// through the pauses and an idle process's own CPU over seconds is noise.
//   node --expose-gc --import tsx bench/rewrite.ts [baseline ref=22354dc] [rounds=4]
import 'fake-indexeddb/auto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Engine } from '../src/worker/engine.js';
import { PERSIST_THROTTLE_MS } from '../src/worker/storage/persister.js';
import type { StoragePort } from '../src/worker/storage/storagePort.js';
import { ROOT } from './lib/browser.js';
import { startBenchServer } from './lib/fixture.js';
import { cpuMs, fmt, median, publish, type BenchRow } from './lib/report.js';

/** main before the rewrite was sliced: the whole location serialized in one task */
const [ref = '22354dc', roundsArg = '4'] = process.argv.slice(2);
const ROUNDS = Number(roundsArg);
/** the brief's aim for one task of the worker while it rewrites (issue 14) */
const TASK_TARGET_MS = 20;

interface Round { longestMs: number; longestWallMs: number; cpuMs: number; wallMs: number; stalls: number }
interface Side { label: string; engine: Engine; rounds: Round[] }

/** Runs `work` under the probe: the longest gap between two turns of a self-requeuing setImmediate. */
async function probed(work: () => Promise<void>): Promise<Round> {
  let last = cpuMs();
  let lastWall = performance.now();
  let longest = 0;
  let longestWall = 0;
  let stalls = 0;
  let running = true;
  const tick = () => {
    const now = cpuMs();
    const wall = performance.now();
    const gap = now - last;
    if (gap > longest) longest = gap;
    if (gap > TASK_TARGET_MS) stalls += 1;
    longestWall = Math.max(longestWall, wall - lastWall);
    last = now;
    lastWall = wall;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  const c0 = cpuMs();
  const t0 = performance.now();
  await work();
  const wallMs = performance.now() - t0;
  const cpu = cpuMs() - c0;
  running = false;
  // the gap that ends with the work itself
  tick();
  return { longestMs: longest, longestWallMs: longestWall, cpuMs: cpu, wallMs, stalls };
}

async function openSide(label: string, root: string, server: Awaited<ReturnType<typeof startBenchServer>>): Promise<Side> {
  const fixture = await import(pathToFileURL(join(root, 'bench/lib/fixture.ts')).href) as typeof import('./lib/fixture.js');
  const idb = await import(pathToFileURL(join(root, 'src/worker/storage/idbStorage.ts')).href) as { createIdbStorage(o: { name: string }): StoragePort };
  const storage = idb.createIdbStorage({ name: `storey-rewrite-${label.replace(/\W+/g, '-')}-${Date.now()}` });
  const engine = await fixture.openEngine(server, { storage });
  // the location's first full write (the initial load) lands before the timed rounds
  await engine.internals.persister.flush();
  await engine.internals.persister.settled();
  return { label, engine, rounds: [] };
}

const other = mkdtempSync(join(tmpdir(), 'storey-rewrite-src-'));
try {
  const commit = execFileSync('git', ['rev-parse', '--short', ref], { cwd: ROOT, encoding: 'utf8' }).trim();
  execFileSync('sh', ['-c', `git archive ${commit} src bench server | tar -x -C '${other}'`], { cwd: ROOT });
  symlinkSync(join(ROOT, 'node_modules'), join(other, 'node_modules'));
  const server = await startBenchServer();
  const sides = [await openSide(`before (${commit})`, other, server), await openSide('this tree', ROOT, server)];
  const entities = sides[1]!.engine.internals.store.assets.size + sides[1]!.engine.internals.store.sensors.size;
  const loads: number[] = [loadavg()[0]!];
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 ? [...sides].reverse() : sides) {
      global.gc?.();
      // the collector's helper threads finish sweeping before the probe counts the process's CPU
      await new Promise((resolve) => setTimeout(resolve, 300));
      const { persister } = side.engine.internals;
      // as the engine's own timer starts it (a flush would write it without its pauses), less the throttle's wait
      const rewrite = async () => {
        persister.requestFull();
        await new Promise((resolve) => setTimeout(resolve, PERSIST_THROTTLE_MS + 20));
        await persister.settled();
      };
      const t0 = performance.now();
      const round = await probed(rewrite);
      const wallMs = performance.now() - t0 - PERSIST_THROTTLE_MS;
      // its work alone: the same rewrite written now, without the pauses (a flush), timed in CPU
      global.gc?.();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const c0 = cpuMs();
      persister.requestFull();
      await persister.flush();
      side.rounds.push({ ...round, cpuMs: cpuMs() - c0, wallMs });
    }
    loads.push(loadavg()[0]!);
  }
  const [before, after] = sides as [Side, Side];
  const med = (s: Side, f: (r: Round) => number) => median(s.rounds.map(f));
  const worst = (s: Side) => Math.max(...s.rounds.map((r) => r.longestMs));
  const size = `${fmt(entities)} entities`;
  const row = (c: string, value: number, baseline: number, unit: string, target = '—', pass: boolean | null = null): BenchRow => ({
    bench: 'rewrite', case: c, size, value, unit, baseline, baselineLabel: `${unit} before`, ratio: value / baseline, target, pass,
  });
  const rows: BenchRow[] = [
    row('longest task during a full rewrite, CPU (median of rounds)', med(after, (r) => r.longestMs), med(before, (r) => r.longestMs), 'ms',
      `≤ ${TASK_TARGET_MS} ms`, med(after, (r) => r.longestMs) <= TASK_TARGET_MS),
    row('longest task, CPU (worst round)', worst(after), worst(before), 'ms'),
    row('longest task, wall (median of rounds)', med(after, (r) => r.longestWallMs), med(before, (r) => r.longestWallMs), 'ms'),
    row(`tasks over ${TASK_TARGET_MS} ms of CPU a rewrite (median)`, med(after, (r) => r.stalls), med(before, (r) => r.stalls), 'tasks'),
    row('CPU of a full rewrite written at once (a flush, median)', med(after, (r) => r.cpuMs), med(before, (r) => r.cpuMs), 'ms'),
    row('wall time of a full rewrite as its timer starts it (median)', med(after, (r) => r.wallMs), med(before, (r) => r.wallMs), 'ms'),
  ];
  publish('Full rewrite of the saved location: the worker\'s longest task', rows, [
    `before = ${commit} (git archive), after = this tree; ${ROUNDS} rounds each, alternating, in one process; real idbStorage on fake-indexeddb`,
    `longest task (CPU) per round, before: ${before.rounds.map((r) => fmt(r.longestMs)).join(', ')}; after: ${after.rounds.map((r) => fmt(r.longestMs)).join(', ')} ms`,
    `load average ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)} during the rounds`,
  ]);
  for (const s of sides) await s.engine.dispose();
  await server.close();
} finally {
  rmSync(other, { recursive: true, force: true });
}
