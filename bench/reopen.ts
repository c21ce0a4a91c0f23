// Reopen on the user's path (DESIGN §5, §7, §10): the built app in real
// Chromium with real IndexedDB on a persistent profile, against the reference
// server with 10,000 desks and 20,000 sensors (the docs/server.md flags
// `--desks 10000 --sensors 20000 --no-sim`), serving the app from its origin.
//   cold  = a fresh profile: sign-in submit → the default floor's assets drawn
//   warm  = Chromium relaunched on that profile: navigation start → the saved
//           floor drawn, and → the live data drawn in its place (the swap)
// with the main-thread long tasks of each phase. bench/reopenNode.ts keeps
// the Node + fake-indexeddb numbers as a breakdown.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStoreyServer } from '../server/app.js';
import { buildApp } from './lib/browser.js';
import { fmt, median, publish, type BenchRow } from './lib/report.js';
import { cold, LINK, LONG_TASK_LIMIT_MS, REOPEN_SEED, startMarks, warm, type ColdRun, type WarmRun } from './lib/reopenRuns.js';

const COLD_RUNS = 3;
const WARM_RUNS = 5;
const TARGET_WARM_MS = 300;
const TARGET_SPEEDUP = 5;

const worst = (lists: number[][]) => Math.max(0, ...lists.flat());
const over = (lists: number[][]) => median(lists.map((l) => l.filter((d) => d > LONG_TASK_LIMIT_MS).length));

async function main(): Promise<void> {
  const dist = mkdtempSync(join(tmpdir(), 'storey-bench-app-'));
  const profiles: string[] = [];
  await buildApp(dist);
  const server = await startStoreyServer({
    host: '127.0.0.1', port: 0, transport: 'pusher', simulate: false, staticDir: dist,
    seed: REOPEN_SEED,
  });
  try {
    const colds: ColdRun[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      const profile = mkdtempSync(join(tmpdir(), 'storey-bench-profile-'));
      profiles.push(profile);
      colds.push(await cold(server, profile, i === COLD_RUNS - 1));
    }
    const warms: WarmRun[] = [];
    for (let i = 0; i < WARM_RUNS; i++) warms.push(await warm(server, profiles[profiles.length - 1]!));

    const coldMs = median(colds.map((c) => c.ms));
    const savedMs = median(warms.map((w) => w.savedMs));
    const liveMs = median(warms.map((w) => w.liveMs));
    const assets = `${fmt(colds[colds.length - 1]!.assets)} assets drawn`;
    const coldWorst = worst(colds.map((c) => c.tasks));
    const swapWorst = worst(warms.map((w) => w.swapTasks));
    const savedWorst = worst(warms.map((w) => w.savedTasks));
    const rows: BenchRow[] = [
      {
        bench: 'reopen', case: 'cold: sign-in submit → floor drawn', size: assets, value: coldMs, unit: 'ms',
        baseline: null, baselineLabel: '', ratio: null, target: 'baseline', pass: null,
      },
      {
        bench: 'reopen', case: 'warm: navigation → saved floor drawn', size: assets, value: savedMs, unit: 'ms',
        baseline: null, baselineLabel: '', ratio: null, target: `≤ ${TARGET_WARM_MS} ms`, pass: savedMs <= TARGET_WARM_MS,
      },
      {
        bench: 'reopen', case: 'warm speed-up over cold', size: '10k desks, 20k sensors', value: coldMs / savedMs, unit: '×',
        baseline: coldMs, baselineLabel: 'ms cold', ratio: coldMs / savedMs, target: `≥ ${TARGET_SPEEDUP}×`, pass: coldMs / savedMs >= TARGET_SPEEDUP,
      },
      {
        bench: 'reopen', case: 'warm: navigation → live data drawn', size: assets, value: liveMs, unit: 'ms',
        baseline: savedMs, baselineLabel: 'ms saved', ratio: liveMs / savedMs, target: 'report', pass: null,
      },
      {
        bench: 'reopen', case: 'cold load: longest main-thread task', size: `${COLD_RUNS} runs`, value: coldWorst, unit: 'ms',
        baseline: null, baselineLabel: '', ratio: null, target: `none > ${LONG_TASK_LIMIT_MS} ms`, pass: coldWorst <= LONG_TASK_LIMIT_MS,
      },
      {
        bench: 'reopen', case: 'warm: longest task until saved floor drawn', size: `${WARM_RUNS} runs`, value: savedWorst, unit: 'ms',
        baseline: null, baselineLabel: '', ratio: null, target: 'report', pass: null,
      },
      {
        bench: 'reopen', case: 'saved → live swap: longest main-thread task', size: `${WARM_RUNS} runs`, value: swapWorst, unit: 'ms',
        baseline: null, baselineLabel: '', ratio: null, target: `none > ${LONG_TASK_LIMIT_MS} ms`, pass: swapWorst <= LONG_TASK_LIMIT_MS,
      },
    ];
    const list = (xs: number[]) => xs.map((x) => fmt(x)).join(', ');
    publish('Reopen in Chromium: the built app, real IndexedDB, the 10k-desk server', rows, [
      `cold runs ${list(colds.map((c) => c.ms))} ms (fresh profiles); warm runs: saved ${list(warms.map((w) => w.savedMs))} ms, live ${list(warms.map((w) => w.liveMs))} ms (medians above)`,
      `long tasks > ${LONG_TASK_LIMIT_MS} ms per run (median): cold ${fmt(over(colds.map((c) => c.tasks)))}, warm before the saved floor ${fmt(over(warms.map((w) => w.savedTasks)))}, swap ${fmt(over(warms.map((w) => w.swapTasks)))}`,
      `long tasks of the swap, every warm run: ${warms.map((w) => `[${list(w.swapTasks)}]`).join(' ')}`,
      ...warms.flatMap((w, i) => w.swapDetail.map((d) => `  swap of warm run ${i + 1}: ${d}`)),
      ...colds.flatMap((c, i) => c.taskDetail.map((d) => `  cold run ${i + 1}: ${d}`)),
      `warm start-up, median ms after navigation: first contentful paint ${fmt(median(warms.map((w) => w.fcp ?? NaN)))}, `
        + `the worker's first view message ${fmt(median(warms.map((w) => w.firstMessageAt ?? NaN)))}, `
        + `the saved floor's snapshot in the page ${fmt(median(warms.map((w) => w.savedSnapshotAt ?? NaN)))}; ${startMarks(warms)}; saved floor drawn ${fmt(savedMs)}`,
      `first contentful paint: cold ${list(colds.map((c) => c.fcp ?? NaN))} ms, warm ${list(warms.map((w) => w.fcp ?? NaN))} ms after navigation`,
      'drawn = the frame after the one whose DOM held every asset node of the settled floor (so painting is included); swap = everything after the saved floor was drawn until the floor settled',
      ...(LINK ? [`over an emulated link of ${LINK.mbit} Mbit/s and ${LINK.rttMs} ms round trip (STOREY_BENCH_LINK_MBIT): not the loopback the targets are set for`] : []),
    ]);
  } finally {
    await server.close();
    for (const p of profiles) rmSync(p, { recursive: true, force: true });
    rmSync(dist, { recursive: true, force: true });
  }
}

await main();
