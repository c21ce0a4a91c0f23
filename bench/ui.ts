// UI (DESIGN §7): frame p95 and long tasks in real Chromium (software
// rendering) under a live load — 5,000 desks at 500 updates/s, 10,000 at
// 50/s and at 500/s — for the real FloorViewer / AssetNode fed through the real view
// mirror, vs a bare page drawing the same markup and doing the same updates
// by direct DOM writes (and, for reference, plain rects), in the same run;
// plus pan/zoom fps on a 5,000-desk floor by transforming the world group,
// zoomed out (status marks hidden) and zoomed in (marks drawn), with and
// without will-change. The page (bench/ui) is bundled with vite into a temp
// dir and served from 127.0.0.1 on a random port.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildPage, launchBrowser, ROOT, serveDir } from './lib/browser.js';
import { fmt, publish, type BenchRow } from './lib/report.js';

const SCENARIOS = [{ n: 5_000, rate: 500 }, { n: 10_000, rate: 50 }, { n: 10_000, rate: 500 }] as const;
const LIVE_MS = 5_000;
const SETTLE_MS = 1_500;
const PAN_MS = 3_000;
const PAN_DESKS = 5_000;
const LONG_TASK_LIMIT_MS = 50;
const P95_RATIO = 1.15;
const PAN_FPS = 50;

interface FrameStats { frames: number; ms: number; p95: number; mean: number; max: number; longTasks: number[] }
type Mode = 'viewer' | 'bare' | 'plain';
interface PanCase { mode: Mode; zoom: number; willChange: boolean; label: string; target: string }
/** zoom 2.5× the fitted 5,000-desk floor (~6 px/m) passes STATUS_MARK_MIN_ZOOM (10 px/m): marks are drawn */
const DETAIL_ZOOM = 2.5;
const PAN_CASES: readonly PanCase[] = [
  { mode: 'plain', zoom: 1, willChange: false, label: 'plain rects: pan/zoom (group transform)', target: 'reference' },
  { mode: 'bare', zoom: 1, willChange: false, label: 'bare DOM, same markup: pan/zoom, no will-change', target: 'reference' },
  { mode: 'bare', zoom: 1, willChange: true, label: 'bare DOM, same markup: pan/zoom', target: 'baseline' },
  { mode: 'viewer', zoom: 1, willChange: true, label: 'viewer: pan/zoom (fitted, marks hidden)', target: `≥ ${PAN_FPS} fps` },
  { mode: 'bare', zoom: DETAIL_ZOOM, willChange: true, label: `bare DOM, same markup: pan/zoom at ${DETAIL_ZOOM}× (marks drawn)`, target: 'baseline' },
  { mode: 'viewer', zoom: DETAIL_ZOOM, willChange: true, label: `viewer: pan/zoom at ${DETAIL_ZOOM}× (marks drawn)`, target: `≥ ${PAN_FPS} fps` },
];

async function openPage(browser: Browser, url: string, mode: Mode, n: number, rate: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (error) => console.error(`[${mode}] page error: ${error.message}`));
  await page.goto(`${url}/?mode=${mode}`);
  await page.waitForFunction(() => 'bench' in window || '__bench' in window);
  await page.evaluate(([count, perS]) => (window as unknown as { __bench: { start(n: number, r: number): void } }).__bench.start(count, perS), [n, rate] as const);
  await page.waitForFunction((count) => (window as unknown as { __bench: { assets(): number } }).__bench.assets() >= count, n, { timeout: 120_000, polling: 250 });
  await page.waitForTimeout(SETTLE_MS);
  return page;
}

const live = (page: Page) => page.evaluate((ms) => (window as unknown as { __bench: { frames(ms: number): Promise<FrameStats> } }).__bench.frames(ms), LIVE_MS);
const stopFeed = async (page: Page) => {
  await page.evaluate(() => (window as unknown as { __bench: { stop(): void } }).__bench.stop());
  await page.waitForTimeout(300);
};
const panZoom = (page: Page, c: PanCase) => page.evaluate(
  ([ms, zoom, willChange]) => (window as unknown as { __bench: { panZoom(ms: number, o: { zoom: number; willChange: boolean }): Promise<FrameStats> } })
    .__bench.panZoom(ms, { zoom, willChange }),
  [PAN_MS, c.zoom, c.willChange] as const,
);
const fps = (s: FrameStats) => s.frames / (s.ms / 1000);

async function main(): Promise<void> {
  const dist = mkdtempSync(join(tmpdir(), 'storey-bench-ui-'));
  await buildPage(join(ROOT, 'bench/ui'), dist);
  const server = await serveDir(dist);
  const browser = await launchBrowser();
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  try {
    for (const { n, rate } of SCENARIOS) {
      const stats = {} as Record<Mode, FrameStats>;
      const pans = new Map<PanCase, FrameStats>();
      for (const mode of ['plain', 'bare', 'viewer'] as const) {
        const page = await openPage(browser, server.url, mode, n, rate);
        stats[mode] = await live(page);
        if (n === PAN_DESKS && rate === SCENARIOS[0].rate) {
          await stopFeed(page);
          for (const c of PAN_CASES.filter((p) => p.mode === mode)) pans.set(c, await panZoom(page, c));
        }
        await page.close();
      }
      const size = `${fmt(n)} desks @ ${rate}/s`;
      const { bare, viewer, plain } = stats;
      rows.push({
        bench: 'ui', case: 'plain rects (no patterns): frame p95', size, value: plain.p95, unit: 'ms', baseline: null, baselineLabel: '', ratio: null,
        target: 'reference', pass: null,
      });
      const worst = Math.max(0, ...viewer.longTasks);
      rows.push({
        bench: 'ui', case: 'bare DOM, same markup: frame p95', size, value: bare.p95, unit: 'ms', baseline: null, baselineLabel: '', ratio: null,
        target: 'baseline', pass: null,
      });
      rows.push({
        bench: 'ui', case: 'viewer: frame p95', size, value: viewer.p95, unit: 'ms', baseline: bare.p95, baselineLabel: 'ms bare',
        ratio: viewer.p95 / bare.p95, target: `≤ ${P95_RATIO}× bare`, pass: viewer.p95 <= bare.p95 * P95_RATIO,
      });
      rows.push({
        bench: 'ui', case: 'viewer: longest main-thread task', size, value: worst, unit: 'ms', baseline: Math.max(0, ...bare.longTasks), baselineLabel: 'ms bare',
        ratio: null, target: `none > ${LONG_TASK_LIMIT_MS} ms`, pass: worst <= LONG_TASK_LIMIT_MS,
      });
      notes.push(`${size}: plain ${fmt(plain.frames / (plain.ms / 1000))} fps (${plain.longTasks.length} long tasks); bare ${fmt(bare.frames / (bare.ms / 1000))} fps (mean ${fmt(bare.mean)} ms, max ${fmt(bare.max)} ms, ${bare.longTasks.length} long tasks); `
        + `viewer ${fmt(viewer.frames / (viewer.ms / 1000))} fps (mean ${fmt(viewer.mean)} ms, max ${fmt(viewer.max)} ms, ${viewer.longTasks.length} long tasks)`);
      for (const c of PAN_CASES) {
        const p = pans.get(c);
        if (!p) continue;
        const base = c.mode === 'viewer' ? PAN_CASES.find((b) => b.mode === 'bare' && b.zoom === c.zoom && b.willChange) : undefined;
        const b = base ? pans.get(base) : undefined;
        rows.push({
          bench: 'ui', case: c.label, size: `${fmt(n)} desks`, value: fps(p), unit: 'fps',
          baseline: b ? fps(b) : null, baselineLabel: 'fps bare', ratio: b ? fps(p) / fps(b) : null,
          target: c.target, pass: c.mode === 'viewer' ? fps(p) >= PAN_FPS : null,
        });
        notes.push(`${c.label}: frame p95 ${fmt(p.p95)} ms, max ${fmt(p.max)} ms, ${p.longTasks.length} long tasks`);
      }
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(dist, { recursive: true, force: true });
  }
  publish('UI: real viewer vs bare SVG in Chromium (software rendering), same run', rows, [
    ...notes,
    `live phase ${LIVE_MS / 1000} s after the snapshot was drawn and ${SETTLE_MS / 1000} s of settling; patches arrive from a worker every 50 ms (bench/ui/feeder.ts)`,
    `pan/zoom: for ${PAN_MS / 1000} s, with the live feed stopped, the viewer gets a pointer drag and a wheel event every frame (its own handlers move the map: a gesture moves the svg's layer on the compositor and lands the world group's transform when it settles, src/ui/lib/camera.ts); the bare pages write the world group's transform every frame (with will-change: transform while moving, as the viewer did before, unless noted)`,
  ]);
}

await main();
