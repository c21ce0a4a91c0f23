// The warm reopen of another commit vs this tree's, in one run (a diagnostic
// for start-up changes, not a target): builds the app from `git archive <ref>`
// and from the working tree, serves each from its own reference server — each
// tree's own server code, so a server change is compared too (two origins:
// two service workers, two databases, one seed), signs in once on
// each, then reopens them in turns, so a change in the machine's load colours
// both alike. Prints medians over the rounds of each step of the start-up,
// and the main-thread long tasks of the saved → live swap and of cold
// sign-ins (fresh profiles, also in turns).
// `node --import tsx bench/reopenCompare.ts [ref=main] [rounds=5] [colds=2]`

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { StoreyServer } from '../server/app.js';
import { buildApp, ROOT } from './lib/browser.js';
import { fmt, median, publish, type BenchRow } from './lib/report.js';
import { cold, LINK, LONG_TASK_LIMIT_MS, REOPEN_SEED, warm, type ColdRun, type WarmRun } from './lib/reopenRuns.js';

const ref = process.argv[2] ?? 'main';
const ROUNDS = Number(process.argv[3] ?? 5);
const COLDS = Number(process.argv[4] ?? 2);

interface Side { label: string; server: StoreyServer; profile: string; runs: WarmRun[]; colds: ColdRun[] }

const steps: Array<[string, (w: WarmRun) => number | null | undefined]> = [
  ['first contentful paint', (w) => w.fcp],
  ["the worker's first view message", (w) => w.firstMessageAt],
  ["the saved floor's snapshot in the page", (w) => w.savedSnapshotAt],
  ['saved floor drawn', (w) => w.savedMs],
  ['live data drawn', (w) => w.liveMs],
];

async function main(): Promise<void> {
  const commit = execFileSync('git', ['rev-parse', '--short', ref], { cwd: ROOT, encoding: 'utf8' }).trim();
  const other = mkdtempSync(join(tmpdir(), 'storey-reopencompare-src-'));
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C '${other}'`], { cwd: ROOT });
  symlinkSync(join(ROOT, 'node_modules'), join(other, 'node_modules'));
  const dirs: string[] = [other];
  const tmp = (prefix: string) => { const d = mkdtempSync(join(tmpdir(), prefix)); dirs.push(d); return d; };
  const sides: Side[] = [];
  try {
    for (const [label, root] of [[`app at ${commit}`, other], ['app, this tree', ROOT]] as const) {
      const dist = tmp('storey-reopencompare-dist-');
      await buildApp(dist, { root });
      const { startStoreyServer } = await import(pathToFileURL(join(root, 'server/app.ts')).href) as typeof import('../server/app.js');
      const server = await startStoreyServer({ host: '127.0.0.1', port: 0, transport: 'pusher', simulate: false, staticDir: dist, seed: REOPEN_SEED });
      sides.push({ label, server, profile: tmp('storey-reopencompare-profile-'), runs: [], colds: [] });
    }
    for (const side of sides) await cold(side.server, side.profile, true);
    for (let round = 0; round < COLDS; round++) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) side.colds.push(await cold(side.server, tmp('storey-reopencompare-cold-'), false));
    }
    for (let round = 0; round < ROUNDS; round++) {
      // alternate which side goes first
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) side.runs.push(await warm(side.server, side.profile));
    }
    const rows: BenchRow[] = [];
    const before = sides[0]!;
    for (const [name, of] of steps) {
      const m = (s: Side) => median(s.runs.map(of).filter((v): v is number => typeof v === 'number'));
      const base = m(before);
      for (const side of sides) {
        rows.push({
          bench: 'reopenCompare', case: `${side.label}: ${name}`, size: `${ROUNDS} rounds`, value: m(side), unit: 'ms',
          baseline: side === before ? null : base, baselineLabel: `ms at ${commit}`, ratio: side === before ? null : m(side) / base,
          target: 'comparison', pass: null,
        });
      }
    }
    // the cold sign-ins: submit → the floor drawn from live data
    const coldMs = (s: Side) => median(s.colds.map((c) => c.ms));
    for (const side of sides) {
      rows.push({
        bench: 'reopenCompare', case: `${side.label}: cold sign-in → floor drawn`, size: `${side.colds.length} runs`, value: coldMs(side), unit: 'ms',
        baseline: side === before ? null : coldMs(before), baselineLabel: `ms at ${commit}`, ratio: side === before ? null : coldMs(side) / coldMs(before),
        target: 'comparison', pass: null,
      });
    }
    // main-thread long tasks: the swap (after the saved floor was drawn) of each warm run, each cold sign-in
    const longest = (lists: number[][]) => Math.max(0, ...lists.flat());
    const count = (lists: number[][]) => median(lists.map((l) => l.filter((d) => d > LONG_TASK_LIMIT_MS).length));
    const taskRows: Array<[string, (s: Side) => number[][]]> = [
      ['saved → live swap: longest task', (s) => s.runs.map((w) => w.swapTasks)],
      ['cold load: longest task', (s) => s.colds.map((c) => c.tasks)],
    ];
    for (const [name, of] of taskRows) {
      const base = longest(of(before));
      for (const side of sides) {
        const v = longest(of(side));
        rows.push({
          bench: 'reopenCompare', case: `${side.label}: ${name}`, size: `${of(side).length} runs`, value: v, unit: 'ms',
          baseline: side === before ? null : base, baselineLabel: `ms at ${commit}`, ratio: side === before || base === 0 ? null : v / base,
          target: 'comparison', pass: null,
        });
      }
    }
    const list = (xs: number[]) => xs.map((x) => fmt(x)).join(', ');
    publish(`Warm reopen, ${commit} vs this tree, interleaved`, rows, [
      ...sides.map((s) => `${s.label}: long tasks > ${LONG_TASK_LIMIT_MS} ms a run (median): swap ${fmt(count(s.runs.map((w) => w.swapTasks)))}, cold ${fmt(count(s.colds.map((c) => c.tasks)))}`),
      ...sides.map((s) => `${s.label}: swap long tasks per run ${s.runs.map((w) => `[${list(w.swapTasks)}]`).join(' ')}; cold ${s.colds.map((c) => `[${list(c.tasks)}]`).join(' ')}`),
      ...sides.flatMap((s) => [
        ...s.runs.flatMap((w, i) => w.swapDetail.map((d) => `  ${s.label}, swap of round ${i + 1}: ${d}`)),
        ...s.colds.flatMap((c, i) => c.taskDetail.map((d) => `  ${s.label}, cold ${i + 1}: ${d}`)),
      ]),
      ...sides.map((s) => `${s.label}: saved floor drawn per round ${s.runs.map((w) => fmt(w.savedMs)).join(' / ')} ms; saved snapshot in the page ${s.runs.map((w) => fmt(w.savedSnapshotAt ?? NaN)).join(' / ')} ms`),
      `medians of ${ROUNDS} warm reopens of each, taken in turns; ratio = this tree / ${commit}`,
      ...(LINK ? [`over an emulated link of ${LINK.mbit} Mbit/s and ${LINK.rttMs} ms round trip (STOREY_BENCH_LINK_MBIT)`] : []),
    ]);
  } finally {
    for (const side of sides) await side.server.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

await main();
