// Ingest in Chromium, another commit vs this tree, in one run (a diagnostic for
// changes to the engine's ingest work, not a target): the ingest page of each
// (bench/ingest/, built from `git archive <ref>` and from the working tree) in
// a browser profile of its own, both signed in to one 10,000-desk reference
// server with every view open, warmed up as bench/ingestBrowser.ts warms up.
// Then rounds of the same 10-change packets to both, in turns (which side goes
// first alternates), each a traced window of its own: its decode ceiling, then
// its engine. A change of a few per cent is lost in the spread between whole
// runs on a shared machine (docs/bench.md "Ingest in Chromium"); paired rounds
// a second apart see the same load, so their ratios show it.
// `node --import tsx bench/ingestCompare.ts [ref=main] [rounds=10]`

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { buildPage, launchProfile, ROOT } from './lib/browser.js';
import { benchLocation, startBenchServer } from './lib/fixture.js';
import { openIngestSide, rate, type IngestSide, type Window } from './lib/ingestPage.js';
import { fmt, median, publish, type BenchRow } from './lib/report.js';
import { createTraffic, encodePackets, INGEST_CHANGES_PER_RUN, INGEST_WARM_UP_CHANGES, INGEST_WARM_UP_WINDOWS } from './lib/traffic.js';

const ref = process.argv[2] ?? 'main';
const ROUNDS = Number(process.argv[3] ?? 10);
const PER_PACKET = 10;
const CHANGES = INGEST_CHANGES_PER_RUN[PER_PACKET]!;

interface Side { label: string; dir: string; context: BrowserContext | null; ingest: IngestSide | null; warm: Window[]; runs: Window[] }

async function main(): Promise<void> {
  const commit = execFileSync('git', ['rev-parse', '--short', ref], { cwd: ROOT, encoding: 'utf8' }).trim();
  const dirs: string[] = [];
  const tmp = (prefix: string) => { const d = mkdtempSync(join(tmpdir(), prefix)); dirs.push(d); return d; };
  const other = tmp('storey-ingestcompare-src-');
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C '${other}'`], { cwd: ROOT });
  symlinkSync(join(ROOT, 'node_modules'), join(other, 'node_modules'));
  // both pages under one origin's sub-folders; each profile keeps its own IndexedDB
  const pages = tmp('storey-ingestcompare-pages-');
  const sides: Side[] = [
    { label: `at ${commit}`, dir: 'base', context: null, ingest: null, warm: [], runs: [] },
    { label: 'this tree', dir: 'tree', context: null, ingest: null, warm: [], runs: [] },
  ];
  await buildPage(join(other, 'bench/ingest'), join(pages, 'base'), { base: './' });
  await buildPage(join(ROOT, 'bench/ingest'), join(pages, 'tree'), { base: './' });
  const server = await startBenchServer(undefined, undefined, { staticDir: pages });
  try {
    const loc = benchLocation(server);
    for (const side of sides) {
      side.context = await launchProfile(tmp('storey-ingestcompare-profile-'));
      side.ingest = await openIngestSide(side.context, `${server.url}/${side.dir}/index.html`, server.url, loc);
    }
    const traffic = createTraffic(server, loc.locationId);
    const position = server.publisher.position(loc.scope);
    let sequence = position.stream_sequence;
    /** the same payloads to both sides, in turns */
    const round = async (changes: number, i: number, into: (side: Side) => Window[]) => {
      const payloads = encodePackets(position.stream_id, sequence + 1, traffic.take(changes), PER_PACKET);
      sequence += payloads.length;
      for (const side of i % 2 === 0 ? sides : [...sides].reverse()) into(side).push((await side.ingest!.window(payloads, changes, sequence)).window);
    };
    for (let i = 0; i < INGEST_WARM_UP_WINDOWS; i++) await round(INGEST_WARM_UP_CHANGES, i, (s) => s.warm);
    for (const side of sides) await side.ingest!.call((b) => b.persisted());
    for (let i = 0; i < ROUNDS; i++) await round(CHANGES, i, (s) => s.runs);

    const [base, tree] = sides as [Side, Side];
    const ratioOf = (w: Window) => w.ceiling.worker / w.engine.worker;
    /** the engine's own work (worker thread): its time beyond the ceiling's on the same packets */
    const ownOf = (w: Window) => w.engine.worker - w.ceiling.worker;
    const sum = (runs: Window[], f: (w: Window) => number) => runs.reduce((s, w) => s + f(w), 0);
    const rows: BenchRow[] = [];
    for (const side of sides) {
      const ratios = side.runs.map(ratioOf);
      rows.push({
        bench: 'ingestCompare', case: `${side.label}: engine, 10-change packets (worker thread)`, size: `${ROUNDS} × ${fmt(CHANGES)} ch`,
        value: rate(CHANGES * ROUNDS, sum(side.runs, (w) => w.engine.worker)), unit: 'ch/s',
        baseline: rate(CHANGES * ROUNDS, sum(side.runs, (w) => w.ceiling.worker)), baselineLabel: 'ch/s',
        ratio: sum(side.runs, (w) => w.ceiling.worker) / sum(side.runs, (w) => w.engine.worker),
        target: `median ${fmt(median(ratios))}×, best ${fmt(Math.max(...ratios))}×`, pass: null,
      });
    }
    const paired = (f: (w: Window) => number) => base.runs.map((w, i) => f(tree.runs[i]!) / f(w));
    const spread = (xs: number[]) => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;
    const engine = paired((w) => w.engine.worker);
    const ceiling = paired((w) => w.ceiling.worker);
    const own = paired(ownOf);
    /** each side's ratio to its own ceiling of the same round: the ceiling a moment before takes the load's colour */
    const ratios = base.runs.map((w, i) => ratioOf(tree.runs[i]!) / ratioOf(w));
    const treeBetter = (xs: number[]) => xs.filter((x) => x < 1).length;
    for (const [label, xs] of [['engine CPU (worker thread)', engine], ['decode ceiling CPU (worker thread)', ceiling], ["the engine's own work (engine − ceiling)", own]] as const) {
      rows.push({
        bench: 'ingestCompare', case: `this tree ÷ ${commit}: ${label}`, size: `${ROUNDS} pairs`, value: median(xs), unit: '× (median)',
        baseline: null, baselineLabel: '', ratio: null, target: `${spread(xs)}; tree lower in ${treeBetter(xs)} of ${xs.length}`, pass: null,
      });
    }
    rows.push({
      bench: 'ingestCompare', case: `this tree ÷ ${commit}: ratio to the ceiling`, size: `${ROUNDS} pairs`, value: median(ratios), unit: '× (median)',
      baseline: null, baselineLabel: '', ratio: null, target: `${spread(ratios)}; tree higher in ${ratios.filter((x) => x > 1).length} of ${ratios.length}`, pass: null,
    });
    publish(`Ingest in Chromium: ${commit} vs this tree, the same packets in turns`, rows, [
      `each round: ${fmt(CHANGES)} changes of the ingest mix in ${PER_PACKET}-change packets to both sides, one after the other (the order alternates); each side its decode ceiling, then its engine, CPU of the worker thread from a Chrome trace`,
      `warm-up first: ${INGEST_WARM_UP_WINDOWS} rounds of ${fmt(INGEST_WARM_UP_CHANGES)} changes, then each side's persister awaited; the last warm-up ratios: ${sides.map((s) => `${s.label} ${s.warm.slice(-2).map((w) => fmt(ratioOf(w))).join(', ')}×`).join('; ')}`,
      `the sides' ratios per round (ceiling ÷ engine): ${sides.map((s) => `${s.label} ${s.runs.map((w) => fmt(ratioOf(w))).join(' ')}`).join(' | ')}`,
    ]);
  } finally {
    for (const side of sides) await side.context?.close();
    await server.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

await main();
