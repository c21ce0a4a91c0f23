// Where the reopen's time goes (a diagnostic, not a target): signs in once on a
// fresh profile (cold), relaunches Chromium on it (warm) and traces the warm
// reopen, or with `cold` the sign-in itself, then prints per thread (the page's
// main thread, the engine worker) the functions with the most self and total
// time and the long tasks, and what V8's code cache did for each script.
// `node --import tsx bench/profileApp.ts [cold|warm]`; REOPENS=n reopens n times
// before the traced warm reopen; TASK_CPU_MS=n lists the tasks with n ms of CPU. Prints each thread's CPU
// in the swap and the reference server's answers and CPU (it runs in this process).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { startStoreyServer } from '../server/app.js';
import { buildApp, launchProfile } from './lib/browser.js';
import { FLOOR_PROBE_SCRIPT, tapViewMessages, type ProbeData } from './lib/floorProbe.js';
import { fmt } from './lib/report.js';
import { threadCpu } from './lib/threadCpu.js';
import { codeCacheUse, moduleEvaluations, linkParents, longTaskBreakdown, pageNavigation, startTrace, startupSteps, summarise } from './lib/trace.js';

const phase = process.argv[2] === 'cold' ? 'cold' : 'warm';
const TOP = Number(process.env.TOP ?? 30);
/** functions named per long task */
const TASK_TOP = Number(process.env.TASK_TOP ?? 12);
/** tasks listed also when shorter than 50 ms but with this much of the main thread's CPU time (TASK_CPU_MS=20) */
const TASK_CPU_MS = Number(process.env.TASK_CPU_MS ?? 50);
/** warm: reopens before the traced one (V8 reuses a code cache from the third load of a script on) */
const REOPENS = Number(process.env.REOPENS ?? 0);

async function settle(page: Page): Promise<void> {
  for (;;) {
    await page.waitForTimeout(250);
    const ok = await page.evaluate(() => {
      const p = (window as unknown as { __probe: ProbeData }).__probe;
      const last = p.frames[p.frames.length - 1];
      return !!last && last.fromCache === false && last.count > 0 && performance.now() - last.at > 1500;
    });
    if (ok) return;
  }
}

/** Logs every view message the page receives from the worker: when, which view kind, how many entries, how long applying it took. */
const MESSAGE_LOG = `(() => {
  const log = [];
  window.__messages = log;
  ${tapViewMessages(`(m, t0, ms) => {
    if (m.type !== 'snapshot' && m.type !== 'patch') return;
    const n = m.type === 'snapshot' ? Object.keys(m.entries).length : Object.keys(m.upserted).length + Object.keys(m.changed || {}).length + m.removed.length;
    const first = m.type === 'snapshot' ? Object.values(m.entries)[0] : Object.values(m.upserted)[0] || Object.values(m.changed || {})[0];
    const kind = first ? Object.keys(first).slice(0, 3).join(',') : (m.meta ? 'meta' : '-');
    log.push([Math.round(t0), m.type, n, kind, Math.round(ms)]);
  }`)}
})();`;

async function open(profile: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await launchProfile(profile);
  await context.addInitScript({ content: FLOOR_PROBE_SCRIPT });
  await context.addInitScript({ content: MESSAGE_LOG });
  const page = context.pages()[0] ?? await context.newPage();
  return { context, page };
}

const dist = mkdtempSync(join(tmpdir(), 'storey-profile-app-'));
const profile = mkdtempSync(join(tmpdir(), 'storey-profile-'));
// APP_ROOT=<a checkout> profiles that checkout's app (e.g. `git archive main` unpacked, node_modules linked)
// MINIFY=1 profiles the build users get (function names are then the minifier's)
await buildApp(dist, { minify: !!process.env.MINIFY, root: process.env.APP_ROOT || undefined });
const server = await startStoreyServer({
  host: '127.0.0.1', port: 0, transport: 'pusher', simulate: false, staticDir: dist,
  seed: { seed: 1, desks: 10_000, sensors: 20_000, historyDays: 1 },
});
// The reference server runs in this process: what it answered during the traced reopen (ms after the
// navigation was asked for, wall ms, bytes), and this process's CPU sampled every 20 ms, to set beside the
// browser's threads in the swap (the page's clock starts a few ms after the goto; the bench client's own
// share, a probe read every 250 ms, is small)
const serverLog: Array<{ at: number; url: string; ms: number; bytes: number }> = [];
const serverCpu: Array<[number, number]> = [];
let serverFrom = 0;
server.app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
  const t0 = performance.now();
  let bytes = 0;
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  const count = (chunk: unknown) => { if (chunk && typeof chunk !== 'function') bytes += Buffer.byteLength(chunk as string | Buffer); };
  res.write = ((chunk: unknown, ...rest: never[]) => { count(chunk); return write(chunk as never, ...rest); }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: never[]) => { count(chunk); return end(chunk as never, ...rest); }) as typeof res.end;
  res.on('finish', () => serverLog.push({ at: t0 - serverFrom, url: (req.url ?? '').replace(/\?.*/, ''), ms: performance.now() - t0, bytes }));
});
/** this process's CPU ms between two page times (ms after navigation), from the samples */
function serverCpuBetween(from: number, to: number): number {
  const at = (t: number) => {
    const i = serverCpu.findIndex(([ms]) => ms >= t);
    return i < 0 ? serverCpu[serverCpu.length - 1]![1] : serverCpu[i]![1];
  };
  return at(to) - at(from);
}
try {
  let { context, page } = await open(profile);
  await page.goto(server.url);
  const { email, password } = server.seed.accounts.regular;
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  let tracer = phase === 'cold' ? await startTrace(page) : null;
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await settle(page);
  if (phase === 'warm') {
    await page.waitForTimeout(6_000);
    for (let i = 0; i < REOPENS; i++) {
      await context.close();
      ({ context, page } = await open(profile));
      await page.goto(server.url);
      await settle(page);
    }
    await context.close();
    ({ context, page } = await open(profile));
    await page.goto('about:blank');
    tracer = await startTrace(page);
    serverLog.length = 0;
    serverFrom = performance.now();
    const cpu0 = process.cpuUsage();
    const sampler = setInterval(() => { const c = process.cpuUsage(cpu0); serverCpu.push([performance.now() - serverFrom, (c.user + c.system) / 1000]); }, 20);
    await page.goto(server.url);
    await settle(page);
    clearInterval(sampler);
  }
  const events = await tracer!.stop();
  const probe = await page.evaluate(() => (window as unknown as { __probe: ProbeData }).__probe);
  const messages = await page.evaluate(() => (window as unknown as { __messages: unknown[] }).__messages);
  const marks = await page.evaluate(() => performance.getEntriesByType('mark').map((m) => `${m.name} ${Math.round(m.startTime)}`));
  await context.close();
  console.log(`view messages [at, type, entries, first entry's keys, ms to apply]:\n${messages.map((m) => JSON.stringify(m)).join('\n')}`);
  if (process.env.TRACE_OUT) writeFileSync(process.env.TRACE_OUT, JSON.stringify({ traceEvents: events }));
  linkParents(events);
  if (serverLog.length) {
    console.log('reference server answers [ms after the goto, wall ms, bytes]:');
    for (const r of serverLog.filter((x) => x.ms >= 2 || x.bytes > 50_000)) console.log(`  ${fmt(r.at).padStart(7)} ${fmt(r.ms).padStart(6)} ${String(r.bytes).padStart(9)} ${r.url}`);
  }
  console.log(`marks: ${marks.join(', ')}`);
  console.log(`frames: ${probe.frames.map((f) => `${fmt(f.at)}:${f.count}${f.fromCache ? 'c' : ''}`).join(' ')}`);
  console.log(`long tasks (main): ${probe.longTasks.map((t) => `${fmt(t.start)}+${fmt(t.duration)}`).join(' ')}`);
  // the start-up alone: navigation until the saved floor's snapshot reached the page (trace clock)
  const nav = pageNavigation(events);
  if (phase === 'warm' && nav) {
    const drawn = probe.frames.find((f) => f.fromCache === true && f.count > 0);
    const steps: Array<[string, number | null]> = [
      ...startupSteps(events, nav),
      ["the worker's first view message in the page", probe.firstMessageAt],
      ...marks.map((m) => { const [name, at] = m.split(' '); return [`mark ${name}`, Number(at)] as [string, number]; }),
      ["the saved floor's snapshot in the page", probe.savedSnapshotAt],
      ['saved floor drawn (the frame after it)', drawn?.at ?? null],
    ];
    const live = probe.frames.find((f) => drawn && f.at > drawn.at && f.fromCache === false && f.count > 0);
    if (drawn && live) {
      // the swap as bench/reopen.ts counts its long tasks: from the saved floor drawn; here until live data is drawn
      console.log(`\nCPU in the swap (saved floor drawn ${fmt(drawn.at)} → live data drawn ${fmt(live.at)} ms), ms of CPU (ms the thread was busy):`);
      for (const r of threadCpu(events, nav.ts + drawn.at * 1000, nav.ts + live.at * 1000)) {
        if (r.cpuMs >= 2) console.log(`  ${fmt(r.cpuMs).padStart(7)} (${fmt(r.busyMs)})  ${r.thread}${r.threads > 1 ? ` (${r.threads} threads)` : ''}`);
      }
      if (serverCpu.length) console.log(`  ${fmt(serverCpuBetween(drawn.at, live.at)).padStart(7)}  the reference server's process (this one), all its threads`);
    }
    console.log('\nwarm start-up, ms after navigation:');
    for (const [name, at] of steps.filter((s): s is [string, number] => s[1] !== null).sort((a, b) => a[1] - b[1])) console.log(`  ${fmt(at).padStart(7)}  ${name}`);
  }
  if (nav) {
    console.log(`\nscripts compiled (load ${REOPENS + (phase === 'warm' ? 2 : 1)} of this profile): compile ms (thread CPU ms), code cache bytes reused, bytes made anew (CPU ms); made anew = none reused`);
    for (const c of codeCacheUse(events, nav)) {
      console.log(`  ${c.thread.padEnd(24)} ${c.script.padEnd(44)} ${fmt(c.compileMs).padStart(7)} (${fmt(c.compileCpuMs)})  ${String(c.consumed ?? '–').padStart(8)}  ${String(c.produced ?? '–').padStart(8)} (${fmt(c.cacheCpuMs)})`);
    }
    console.log('module graphs evaluated: ms after navigation, wall ms (thread CPU ms)');
    for (const m of moduleEvaluations(events, nav).filter((x) => x.ms >= 1)) console.log(`  ${m.thread.padEnd(24)} ${fmt(m.at).padStart(7)}  ${fmt(m.ms)} (${fmt(m.cpuMs)})`);
  }
  if (phase === 'warm' && nav && probe.savedSnapshotAt !== null) {
    const until = nav.ts + probe.savedSnapshotAt * 1000;
    for (const s of summarise(events, nav.ts, until)) {
      if (s.sampledMs < 5) continue;
      console.log(`\n### start-up (navigation → saved snapshot in the page, ${fmt(probe.savedSnapshotAt)} ms), ${s.thread}: ${fmt(s.sampledMs)} ms sampled`);
      for (const f of s.self.slice(0, TOP)) console.log(`  ${fmt(f.ms).padStart(8)}  ${f.fn}`);
    }
  }
  const navAt = nav?.ts;
  console.log(`main-thread tasks > 50 ms (or > ${fmt(TASK_CPU_MS)} ms of CPU), wall ms (CPU ms), ms per timeline event inside (nested ones counted in each):`);
  for (const t of longTaskBreakdown(events, 50, TASK_CPU_MS)) {
    const at = navAt !== undefined ? `+${fmt(t.at - navAt / 1000)} ms` : `${fmt(t.at)} ms`;
    console.log(`  ${at} ${fmt(t.ms)} ms (${fmt(t.cpuMs)}): ${t.phases.slice(0, 8).map((p) => `${p.name} ${fmt(p.ms)}`).join(', ')}`);
    console.log(`      sampled: ${t.functions.slice(0, TASK_TOP).map((f) => `${f.fn} ${fmt(f.ms)}`).join('; ')}`);
  }
  for (const s of summarise(events)) {
    if (s.sampledMs < 20) continue;
    console.log(`\n### ${s.thread}: ${fmt(s.sampledMs)} ms sampled; long tasks ${s.longTasks.map((t) => fmt(t.ms)).join(', ')}`);
    console.log('self:');
    for (const f of s.self.slice(0, TOP)) console.log(`  ${fmt(f.ms).padStart(8)}  ${f.fn}`);
    console.log('total:');
    for (const f of s.total.slice(0, TOP)) console.log(`  ${fmt(f.ms).padStart(8)}  ${f.fn}`);
  }
} finally {
  await server.close();
  rmSync(profile, { recursive: true, force: true });
  // KEEP_DIST=1 keeps the unminified build, to read the lines the profile names
  if (process.env.KEEP_DIST) console.log(`build kept in ${dist}`);
  else rmSync(dist, { recursive: true, force: true });
}
