// The viewer of another commit vs this tree's, under bench/ui's live load, in
// one run (a diagnostic for bisecting a frame-budget change, not a target):
// builds bench/ui from `git archive <ref>` and from the working tree, serves
// both, and in each round opens the bare page and both viewers one after the
// other in the same Chromium, so a change in the machine's load colours all
// three alike. Prints medians over the rounds.
// `node --import tsx bench/uiCompare.ts [ref=main] [rounds=3]`

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { buildPage, launchBrowser, ROOT, serveDir } from './lib/browser.js';
import { fmt, median, publish, type BenchRow } from './lib/report.js';

const ref = process.argv[2] ?? 'main';
const ROUNDS = Number(process.argv[3] ?? 3);
const SCENARIOS = [{ n: 5_000, rate: 500 }, { n: 10_000, rate: 50 }, { n: 10_000, rate: 500 }] as const;
const LIVE_MS = 5_000;
const SETTLE_MS = 1_500;

interface FrameStats { frames: number; ms: number; p95: number; mean: number; max: number; longTasks: number[] }
interface Side { label: string; url: string; mode: 'bare' | 'viewer' }

async function measure(browser: Browser, side: Side, n: number, rate: number): Promise<FrameStats> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (error) => console.error(`[${side.label}] page error: ${error.message}`));
  try {
    await page.goto(`${side.url}/?mode=${side.mode}`);
    await page.waitForFunction(() => '__bench' in window);
    await page.evaluate(([count, perS]) => (window as unknown as { __bench: { start(n: number, r: number): void } }).__bench.start(count, perS), [n, rate] as const);
    await page.waitForFunction((count) => (window as unknown as { __bench: { assets(): number } }).__bench.assets() >= count, n, { timeout: 120_000, polling: 250 });
    await page.waitForTimeout(SETTLE_MS);
    return await page.evaluate((ms) => (window as unknown as { __bench: { frames(ms: number): Promise<FrameStats> } }).__bench.frames(ms), LIVE_MS);
  } finally {
    await page.close();
  }
}

async function main(): Promise<void> {
  const commit = execFileSync('git', ['rev-parse', '--short', ref], { cwd: ROOT, encoding: 'utf8' }).trim();
  const other = mkdtempSync(join(tmpdir(), 'storey-uicompare-src-'));
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C '${other}'`], { cwd: ROOT });
  symlinkSync(join(ROOT, 'node_modules'), join(other, 'node_modules'));
  const [distOld, distNew] = [mkdtempSync(join(tmpdir(), 'storey-uicompare-a-')), mkdtempSync(join(tmpdir(), 'storey-uicompare-b-'))];
  await buildPage(join(other, 'bench/ui'), distOld);
  await buildPage(join(ROOT, 'bench/ui'), distNew);
  const [serverOld, serverNew] = [await serveDir(distOld), await serveDir(distNew)];
  const sides: Side[] = [
    { label: 'bare DOM, same markup', url: serverNew.url, mode: 'bare' },
    { label: `viewer at ${commit}`, url: serverOld.url, mode: 'viewer' },
    { label: 'viewer, this tree', url: serverNew.url, mode: 'viewer' },
  ];
  const browser = await launchBrowser();
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  try {
    for (const { n, rate } of SCENARIOS) {
      const runs = new Map<Side, FrameStats[]>(sides.map((s) => [s, []]));
      for (let round = 0; round < ROUNDS; round++) {
        // alternate which viewer goes first, so neither always follows the bare page
        const order = round % 2 === 0 ? sides : [sides[0]!, sides[2]!, sides[1]!];
        for (const side of order) runs.get(side)!.push(await measure(browser, side, n, rate));
      }
      const size = `${fmt(n)} desks @ ${rate}/s`;
      const p95 = (s: Side) => median(runs.get(s)!.map((r) => r.p95));
      const bare = p95(sides[0]!);
      for (const side of sides) {
        const all = runs.get(side)!;
        const fps = median(all.map((r) => r.frames / (r.ms / 1000)));
        const longest = median(all.map((r) => Math.max(0, ...r.longTasks)));
        rows.push({
          bench: 'uiCompare', case: `${side.label}: frame p95`, size, value: p95(side), unit: 'ms',
          baseline: side.mode === 'bare' ? null : bare, baselineLabel: 'ms bare', ratio: side.mode === 'bare' ? null : p95(side) / bare,
          target: side.mode === 'bare' ? 'baseline' : 'comparison', pass: null,
        });
        notes.push(`${size}, ${side.label}: ${fmt(fps)} fps, p95 per round ${all.map((r) => fmt(r.p95)).join(' / ')} ms, longest task ${fmt(longest)} ms (median)`);
      }
    }
  } finally {
    await browser.close();
    await serverOld.close();
    await serverNew.close();
    for (const dir of [other, distOld, distNew]) rmSync(dir, { recursive: true, force: true });
  }
  publish(`UI: the viewer at ${commit} vs this tree, interleaved in one Chromium (bench/ui's pages)`, rows, [
    ...notes,
    `${ROUNDS} rounds per size, each the bare page then both viewers (alternating which goes first); medians of the rounds; live phase ${LIVE_MS / 1000} s after the snapshot was drawn and ${SETTLE_MS / 1000} s of settling`,
  ]);
}

await main();
