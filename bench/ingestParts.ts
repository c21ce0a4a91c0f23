// What each part of the app costs ingest (diagnostic, no targets): the ingest
// bench's engine and traffic (10-change packets of the mix, or one kind) with
// parts of it taken away, each variant in a process of its own: every view of
// the app open (as bench/ingest.ts), none, the floor view alone, every view
// but the floor, persistence's writes left out, and the reference server
// dropped from the process once the location is loaded (its heap then no
// longer shares the engine's, as in the app, where the engine has a worker's
// heap of its own). Per variant: the engine's CPU per change (all threads, as
// bench/ingest.ts), its main thread's alone (/proc, 10 ms ticks), the decode
// ceiling of the same packets and the ratio, medians of the rounds after a
// warm-up.
//   node --expose-gc --import tsx bench/ingestParts.ts [mix|occupancy|environment|move|heartbeat|asset] [rounds=5]

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { payloadText } from '../src/worker/decode.js';
import type { ViewSpec } from '../src/shared/api.js';
import { createCloneStorage } from './lib/cloneStorage.js';
import { openIngestRig, pushPackets } from './lib/ingestRig.js';
import { cpuMs, fmt, median, renderTable } from './lib/report.js';
import type { TrafficKind } from './lib/traffic.js';

const CHANGES_PER_ROUND = 40_000;
const WARM_UP_ROUNDS = 3;
const WARM_UP_CHANGES = 10_000;

interface Variant {
  name: string;
  views(spec: ViewSpec): boolean;
  persist: boolean;
  dropServer: boolean;
}

const VARIANTS: Variant[] = [
  { name: 'every view of the app (as bench/ingest.ts)', views: () => true, persist: true, dropServer: false },
  { name: 'no view open', views: () => false, persist: true, dropServer: false },
  { name: 'the floor view alone', views: (s) => s.view === 'floor', persist: true, dropServer: false },
  { name: 'every view but the floor', views: (s) => s.view !== 'floor', persist: true, dropServer: false },
  { name: 'every view, no persistence writes', views: () => true, persist: false, dropServer: false },
  { name: 'every view, the server dropped after the load', views: () => true, persist: true, dropServer: true },
];

interface Result { engineUs: number; mainUs: number; decodeUs: number; ratio: number; heapMb: number }

/** This thread's CPU ms (user + system, in the kernel's 10 ms ticks). */
function mainThreadMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function runVariant(v: Variant, kind: TrafficKind | 'mix', rounds: number): Promise<Result> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const storage = createCloneStorage();
  if (!v.persist) {
    storage.write = async () => undefined;
    storage.prepare = (part) => ({ part, body: '' });
  }
  const { server, loc, transport, engine, traffic, packets, sequence } = await openIngestRig({ views: v.views, storage });
  // every round's packets made before any is timed (and before the server may go)
  const all: string[][] = [];
  for (let r = 0; r < WARM_UP_ROUNDS + rounds; r++) {
    const n = r < WARM_UP_ROUNDS ? WARM_UP_CHANGES : CHANGES_PER_ROUND;
    all.push(packets(kind === 'mix' ? traffic.take(n) : traffic.take(n, kind), 10));
  }
  if (v.dropServer) {
    await server.close();
    // what the process still holds of the server's data goes with its maps
    for (const value of Object.values(server.store as unknown as Record<string, unknown>)) if (value instanceof Map) value.clear();
  }
  gc?.(); gc?.();
  const heapMb = process.memoryUsage().heapUsed / 1e6;
  const rig = { transport, loc, engine };
  for (let r = 0; r < WARM_UP_ROUNDS; r++) await pushPackets(rig, all[r]!, { persist: true });
  const engineUs: number[] = [];
  const mainUs: number[] = [];
  const decodeUs: number[] = [];
  const ratios: number[] = [];
  for (let r = WARM_UP_ROUNDS; r < all.length; r++) {
    const payloads = all[r]!;
    const d0 = cpuMs();
    for (const p of payloads) JSON.parse(payloadText(p));
    const decode = cpuMs() - d0;
    const m0 = mainThreadMs();
    const cpu = await pushPackets(rig, payloads);
    const main = mainThreadMs() - m0;
    const reached = engine.internals.session()?.position(loc.scope)?.stream_sequence;
    if (reached !== sequence() - all.slice(r + 1).reduce((n, p) => n + p.length, 0)) {
      throw new Error(`stream position ${reached} after round ${r}: packets were dropped`);
    }
    engineUs.push((cpu * 1000) / CHANGES_PER_ROUND);
    mainUs.push((main * 1000) / CHANGES_PER_ROUND);
    decodeUs.push((decode * 1000) / CHANGES_PER_ROUND);
    ratios.push(decode / cpu);
    // the round's write lands before the next round's decode is timed
    await engine.internals.persister.flush();
  }
  return { engineUs: median(engineUs), mainUs: median(mainUs), decodeUs: median(decodeUs), ratio: median(ratios), heapMb };
}

const kind = (process.argv[2] ?? 'mix') as TrafficKind | 'mix';
const rounds = Number(process.argv[3] ?? 5);
const only = process.env.INGEST_PART;

if (only !== undefined) {
  const result = await runVariant(VARIANTS[Number(only)]!, kind, rounds);
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  process.exit(0);
}

const rows: string[][] = [];
const load0 = (await import('node:os')).loadavg()[0]!;
for (let i = 0; i < VARIANTS.length; i++) {
  const child = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    env: { ...process.env, INGEST_PART: String(i) }, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024,
  });
  const line = child.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`variant "${VARIANTS[i]!.name}" failed:\n${child.stderr}`);
  const r = JSON.parse(line.slice('RESULT '.length)) as Result;
  rows.push([VARIANTS[i]!.name, fmt(r.engineUs), fmt(r.mainUs), fmt(r.decodeUs), `${fmt(r.ratio)}×`, fmt(r.heapMb, 0)]);
  console.error(`${VARIANTS[i]!.name}: done`);
}
const load1 = (await import('node:os')).loadavg()[0]!;
console.log(`\n## Ingest by parts: ${kind}, 10-change packets, medians of ${rounds} rounds of ${fmt(CHANGES_PER_ROUND)} after ${WARM_UP_ROUNDS} of ${fmt(WARM_UP_CHANGES)}\n`);
console.log(renderTable(['variant', 'engine µs/change (all threads)', 'main thread µs/change', 'decode µs/change', 'ceiling ratio', 'heap MB'], rows));
console.log(`  · load average ${fmt(load0)} → ${fmt(load1)} (1 min) on 2 cores`);
