// Ingest in Node, the breakdown of bench/ingestBrowser.ts (which measures the
// targets where the engine runs: its worker in Chromium): live packets of
// ~280-byte changes in 1-, 10- and 100-change packets, pushed through the
// engine's real path (transport listener → decode → stream validation → store
// → facts → view patches of the open views) into the seeded 10,000-desk /
// 20,000-sensor location, vs the decode ceiling of the same packets and vs
// immer with one produce per change (the rejected design), all measured in
// this run. The reference server shares this process and its V8 heap, so the
// rows are a breakdown, not the targets (docs/bench.md "Ingest in Chromium").

import { produce } from 'immer';
import { inflate } from 'pako';
import { base64ToBytes, payloadText } from '../src/worker/decode.js';
import type { LiveChange, LivePacket } from '../src/shared/protocol.js';
import type { WireAsset, WireSensor } from '../src/shared/rest.js';
import { decodeAll } from './lib/benchEngine.js';
import { openIngestRig } from './lib/ingestRig.js';
import { cpuMs, fmt, publish, type BenchRow, yieldToLoop } from './lib/report.js';
import {
  encodePackets, INGEST_CHANGES_PER_RUN as CHANGES_PER_RUN, INGEST_KIND_CHANGES as KIND_CHANGES, INGEST_KIND_LABELS as KIND_LABELS, INGEST_PACKET_SIZES as PACKET_SIZES, INGEST_RUNS as RUNS,
  INGEST_TARGET_10_PER_S as TARGET_10_PER_S, INGEST_TARGET_OCCUPANCY_RATIO as TARGET_OCCUPANCY_RATIO, INGEST_TARGET_RATIO as TARGET_RATIO,
  INGEST_WARM_UP_CHANGES as WARM_UP_CHANGES, INGEST_WARM_UP_WINDOWS as WARM_UP_WINDOWS, meanChangeBytes, TRAFFIC_WEIGHTS,
} from './lib/traffic.js';

const IMMER_CHANGES = 300;
/** the targets' rows say what bench/ingestBrowser.ts holds them to; here they are a breakdown */
const BREAKDOWN = (target: string) => `breakdown (${target} in Chromium)`;
/** the engine's work is split into event-loop turns like a worker's message tasks; the hub's 50 ms flush timer fires between them */
const YIELD_EVERY_MS = 2;

/** pako's one-shot inflate per payload (what the engine did before issue 14's slice 8), for the note */
function decodeAllOneShot(payloads: string[]): number {
  let changes = 0;
  for (const p of payloads) changes += (JSON.parse(inflate(base64ToBytes(p), { toText: true })) as LivePacket).changes.length;
  return changes;
}

interface ImmerState { assets: Record<string, WireAsset>; sensors: Record<string, WireSensor> }

/** The rejected design: an immutable store, one produce per change. */
function immerApply(state: ImmerState, change: LiveChange): ImmerState {
  return produce(state, (d) => { mutate(d, change); });
}

function mutate(d: ImmerState, change: LiveChange): void {
  const data = change.data as Record<string, unknown>;
  if (change.collection === 'measurements') {
    const s = d.sensors[change.id];
    if (!s) return;
    const value = data.value as WireSensor['last_measurement'];
    s.previous_measurement = s.last_measurement;
    s.last_measurement = value;
    s.prev_value = s.value;
    s.value = (value as { value?: number | null }).value ?? null;
  } else if (change.collection === 'heartbeats') {
    const s = d.sensors[change.id];
    if (s) s.last_communication_time = data.time as number;
  } else if (change.collection === 'assets') {
    d.assets[change.id] = data as unknown as WireAsset;
  }
}

async function main(): Promise<void> {
  const { server, loc, transport, engine, counter, views, traffic, position, packets, sequence } = await openIngestRig();

  /** wall-clock ms of the last pushAll, for the note beside the CPU-time rows */
  let lastWallMs = 0;
  let wallAt10 = 0;
  /** pako's one-shot decode of the same 10-change packets (the note) */
  let oneShotAt10 = 0;
  async function pushAll(payloads: string[]): Promise<number> {
    const t0 = performance.now();
    const c0 = cpuMs();
    let slice = t0;
    for (const p of payloads) {
      if (!transport.push(loc.scope, p)) throw new Error('the engine is not listening to the transport');
      if (performance.now() - slice > YIELD_EVERY_MS) { await yieldToLoop(); slice = performance.now(); }
    }
    engine.internals.hub.flush();
    const ms = cpuMs() - c0;
    lastWallMs = performance.now() - t0;
    const reached = engine.internals.session()?.position(loc.scope)?.stream_sequence;
    if (reached !== sequence()) throw new Error(`stream position ${reached} after the run, expected ${sequence()}: packets were dropped`);
    return ms;
  }

  // warm-up: JIT, facts cache, the views' first patches, as the Chromium bench (was 2,000 changes: the windows then
  // timed an engine V8 was still optimizing), then the persister's queued writes
  for (let i = 0; i < WARM_UP_WINDOWS; i++) await pushAll(packets(traffic.take(WARM_UP_CHANGES), 10));
  await engine.internals.persister.flush();

  const rows: BenchRow[] = [];
  const sample = traffic.take(2_000);
  const bytes = meanChangeBytes(sample);
  let engineAt10 = 0;
  const patchBefore = counter.patchEntries;
  for (const size of PACKET_SIZES) {
    const n = CHANGES_PER_RUN[size]!;
    let bestCeiling = 0;
    let bestEngine = 0;
    for (let run = 0; run < RUNS; run++) {
      const payloads = packets(traffic.take(n), size);
      const t0 = cpuMs();
      const decoded = decodeAll(payloads);
      const ceilingMs = cpuMs() - t0;
      if (decoded !== n) throw new Error(`decoded ${decoded} of ${n} changes`);
      bestCeiling = Math.max(bestCeiling, n / (ceilingMs / 1000));
      if (size === 10) {
        const t1 = cpuMs();
        decodeAllOneShot(payloads);
        oneShotAt10 = Math.max(oneShotAt10, n / ((cpuMs() - t1) / 1000));
      }
      const engineMs = await pushAll(payloads);
      bestEngine = Math.max(bestEngine, n / (engineMs / 1000));
      if (size === 10) wallAt10 = Math.max(wallAt10, n / (lastWallMs / 1000));
    }
    if (size === 10) engineAt10 = bestEngine;
    rows.push({
      bench: 'ingest', case: `decode ceiling, ${size}-change packets`, size: `${fmt(n)} ch`, value: bestCeiling, unit: 'ch/s',
      baseline: null, baselineLabel: '', ratio: null, target: 'baseline', pass: null,
    });
    rows.push({
      bench: 'ingest', case: `engine, ${size}-change packets`, size: `${fmt(n)} ch`, value: bestEngine, unit: 'ch/s',
      baseline: bestCeiling, baselineLabel: 'ch/s', ratio: bestEngine / bestCeiling,
      target: BREAKDOWN(`≥ ${TARGET_RATIO.toFixed(2)}×`), pass: null,
    });
  }
  rows.push({
    bench: 'ingest', case: 'engine, 10-change packets (absolute)', size: '10k+20k loc', value: engineAt10, unit: 'ch/s',
    baseline: null, baselineLabel: '', ratio: null, target: BREAKDOWN(`≥ ${fmt(TARGET_10_PER_S)} ch/s`), pass: null,
  });

  // the rejected design, on the same location and the same kind of packets
  const sensors: Record<string, WireSensor> = {};
  const assets: Record<string, WireAsset> = {};
  for (const s of server.store.sensors.values()) if (s.location_id === loc.locationId) sensors[s.id] = s;
  for (const a of server.store.assets.values()) if (a.location_id === loc.locationId) assets[a.id] = a;
  let state: ImmerState = produce({ assets, sensors }, () => undefined);
  const ceiling10 = rows.find((r) => r.case === 'decode ceiling, 10-change packets')!.value;
  const ceiling100 = rows.find((r) => r.case === 'decode ceiling, 100-change packets')!.value;
  {
    const payloads = encodePackets(position.stream_id, 1, traffic.take(IMMER_CHANGES), 10);
    const t0 = cpuMs();
    for (const p of payloads) {
      for (const c of (JSON.parse(payloadText(p)) as LivePacket).changes) state = immerApply(state, c);
    }
    const perS = IMMER_CHANGES / ((cpuMs() - t0) / 1000);
    rows.push({
      bench: 'ingest', case: 'immer, 1 produce per change (10-ch packets)', size: `${IMMER_CHANGES} ch`, value: perS, unit: 'ch/s',
      baseline: ceiling10, baselineLabel: 'ch/s', ratio: perS / ceiling10, target: 'rejected design', pass: null,
    });
  }
  {
    const n = 3_000;
    const payloads = encodePackets(position.stream_id, 1, traffic.take(n), 100);
    const t0 = cpuMs();
    for (const p of payloads) {
      const changes = (JSON.parse(payloadText(p)) as LivePacket).changes;
      state = produce(state, (d) => { for (const c of changes) mutate(d, c); });
    }
    const perS = n / ((cpuMs() - t0) / 1000);
    rows.push({
      bench: 'ingest', case: 'immer, 1 produce per 100-ch packet', size: `${fmt(n)} ch`, value: perS, unit: 'ch/s',
      baseline: ceiling100, baselineLabel: 'ch/s', ratio: perS / ceiling100, target: 'for comparison', pass: null,
    });
  }

  // where the engine's time goes: one kind of change at a time, 10-change packets, best of RUNS like the mix
  for (const [kind] of TRAFFIC_WEIGHTS) {
    const n = KIND_CHANGES[kind];
    let ceiling = 0;
    let perS = 0;
    for (let run = 0; run < RUNS; run++) {
      const payloads = packets(traffic.take(n, kind), 10);
      const t0 = cpuMs();
      decodeAll(payloads);
      ceiling = Math.max(ceiling, n / ((cpuMs() - t0) / 1000));
      perS = Math.max(perS, n / ((await pushAll(payloads)) / 1000));
    }
    const target = kind === 'occupancy';
    rows.push({
      bench: 'ingest', case: `engine, only ${KIND_LABELS[kind]} (10-ch)`, size: `${fmt(n)} ch`, value: perS, unit: 'ch/s',
      baseline: ceiling, baselineLabel: 'ch/s', ratio: perS / ceiling,
      target: target ? BREAKDOWN(`≥ ${TARGET_OCCUPANCY_RATIO.toFixed(2)}×`) : 'breakdown', pass: null,
    });
  }

  publish('Ingest in Node (breakdown): live packets into a 10,000-desk / 20,000-sensor location', rows, [
    `mean change ${fmt(bytes)} bytes of JSON (mix: desk occupancy, environment, moves, heartbeats, whole-desk modifications)`,
    `location: ${engine.internals.store.assets.size} drawable assets, ${engine.internals.store.sensors.size} sensors; views open: ${views.map((v) => v.view).join(', ')}`,
    `engine rows include the hub's view flushes (every 50 ms while pushing, then one final flush): ${fmt(counter.patchEntries - patchBefore)} patch entries sent`,
    `warm-up: ${WARM_UP_WINDOWS} windows of ${fmt(WARM_UP_CHANGES)} changes of the mix (10-change packets) before the first timed window`,
    `best of ${RUNS} runs; the ceiling decodes the very packets the engine then ingests, with the engine's decoder (one pako stream and its buffers for every payload); pako's one-shot inflate per payload decodes the 10-change packets at ${fmt(oneShotAt10)} ch/s`,
    `times are this process's CPU time (process.cpuUsage, all its threads), so other work on the shared cores does not count against either side; wall clock, engine at 10-change packets: ${fmt(wallAt10)} ch/s`,
    'persistence on: touched entities are structured-cloned once a second, as an IndexedDB put does on the worker thread (bench/lib/cloneStorage.ts)',
  ]);
  await engine.dispose();
  await server.close();
}

await main();
