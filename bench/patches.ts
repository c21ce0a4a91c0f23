// Patch size and cost (DESIGN §4, §7): 1, 10 and 100 changed desks on floors
// of 1,000, 10,000 and 50,000 desks. Each case applies the measurements
// through the engine's sink and flushes the view hub; the patch's JSON bytes,
// the apply + flush time and the structured-clone time (what postMessage
// costs) are compared with a full snapshot of the same floor. The claim: a
// patch grows with the changed desks, not with the floor.

import { DEFAULT_LAYERS } from '../src/shared/constants.js';
import type { ViewMessage } from '../src/shared/api.js';
import type { Engine } from '../src/worker/engine.js';
import type { ChangeBatch } from '../src/worker/ports.js';
import {
  createTestEngine, feedLocation, locationScope, wireDesk, wireOccupancySensor,
} from '../tests/worker/engine/harness.js';
import { fmt, median, publish, renderTable, type BenchRow } from './lib/report.js';

const FLOOR_SIZES = [1_000, 10_000, 50_000] as const;
const CHANGED = [1, 10, 100] as const;
const REPS = 25;
const SNAPSHOT_REPS = 3;
const FLOOR_ID = 'f1';
/** a patch at 50k desks may cost this much more than at 1k before we call it floor-bound (timer noise) */
const MS_TOLERANCE = 2;
const MS_SLACK = 0.2;
const BYTES_TOLERANCE = 1.1;

interface Measured { bytes: number; ms: number; cloneMs: number; entries: number }

function cloneMs(message: unknown): number {
  const t0 = performance.now();
  structuredClone(message);
  return performance.now() - t0;
}

function buildFloor(size: number): { engine: Engine; sensors: string[] } {
  const { engine } = createTestEngine();
  const now = Date.now();
  const desks: unknown[] = [];
  const sensors: unknown[] = [];
  const cols = Math.ceil(Math.sqrt(size));
  for (let i = 0; i < size; i++) {
    const id = `d${i}`;
    desks.push(wireDesk(id, FLOOR_ID, { x: (i % cols) * 2, y: Math.floor(i / cols) * 2, width: 1.6, depth: 0.8 }));
    sensors.push(wireOccupancySensor(`s-${id}`, now - 60_000, i % 2));
  }
  feedLocation(engine, desks, sensors);
  return { engine, sensors: sensors.map((s) => (s as { id: string }).id) };
}

async function measureFloor(size: number): Promise<{ snapshot: Measured; patches: Map<number, Measured> }> {
  const { engine, sensors } = buildFloor(size);
  let last: ViewMessage | null = null;
  // a snapshot arrives in parts (at most MESSAGE_ENTRIES entries a message): all of them count
  let snapshotParts: ViewMessage[] = [];
  const listener = (m: ViewMessage) => {
    last = m;
    if (m.type === 'snapshot') snapshotParts = [m];
    else if (m.type === 'snapshotPart') snapshotParts.push(m);
  };

  // the baseline: a full snapshot of the same floor, as a new subscription (or a re-subscribe) gets it
  const snaps: Measured[] = [];
  for (let r = 0; r < SNAPSHOT_REPS; r++) {
    const t0 = performance.now();
    const id = await engine.subscribe({ view: 'floor', floorId: FLOOR_ID, layers: DEFAULT_LAYERS }, listener);
    const ms = performance.now() - t0;
    if (snapshotParts[0]?.type !== 'snapshot') throw new Error('expected a snapshot');
    const parts = snapshotParts;
    snaps.push({
      bytes: parts.reduce((n, m) => n + JSON.stringify(m).length, 0),
      ms,
      cloneMs: parts.reduce((n, m) => n + cloneMs(m), 0),
      entries: parts.reduce((n, m) => n + (m.type === 'patch' ? 0 : Object.keys(m.entries).length), 0),
    });
    if (r < SNAPSHOT_REPS - 1) await engine.unsubscribe(id);
  }
  const snapshot: Measured = {
    bytes: snaps[0]!.bytes, ms: median(snaps.map((s) => s.ms)), cloneMs: median(snaps.map((s) => s.cloneMs)), entries: snaps[0]!.entries,
  };
  if (snapshot.entries < size) throw new Error(`snapshot has ${snapshot.entries} entries for ${size} desks`);

  const patches = new Map<number, Measured>();
  let time = Date.now();
  let cursor = 0;
  for (const k of CHANGED) {
    const runs: Measured[] = [];
    for (let r = 0; r < REPS + 2; r++) {
      time += 1;
      const batch: ChangeBatch = { scope: locationScope, changes: [] };
      for (let j = 0; j < k; j++) {
        // spread over the floor; each desk flips, so every change is a visible one
        const sensorId = sensors[(cursor++ * 7919) % sensors.length]!;
        // the sensor's current reading (a listed sensor's `value` stays empty until a live measurement sets it)
        const value = (engine.internals.store.sensors.get(sensorId)?.last_measurement as { value?: number } | null)?.value === 1 ? 0 : 1;
        batch.changes.push({ collection: 'measurements', kind: 'created', id: sensorId, data: { sensor_id: sensorId, type: 'occupancy', value: { time, valid_for: 3_600_000, value } } });
      }
      last = null;
      const t0 = performance.now();
      engine.internals.sink.apply(batch);
      engine.internals.hub.flush();
      const ms = performance.now() - t0;
      const message = last as ViewMessage | null;
      if (!message || message.type !== 'patch') throw new Error(`no patch after changing ${k} desks`);
      const entries = Object.keys(message.upserted).length + message.removed.length;
      if (r >= 2) runs.push({ bytes: JSON.stringify(message).length, ms, cloneMs: cloneMs(message), entries }); // two warm-ups
    }
    patches.set(k, {
      bytes: median(runs.map((m) => m.bytes)), ms: median(runs.map((m) => m.ms)),
      cloneMs: median(runs.map((m) => m.cloneMs)), entries: median(runs.map((m) => m.entries)),
    });
  }
  await engine.dispose();
  return { snapshot, patches };
}

async function main(): Promise<void> {
  const results = new Map<number, Awaited<ReturnType<typeof measureFloor>>>();
  for (const size of FLOOR_SIZES) results.set(size, await measureFloor(size));

  const detail: string[][] = [];
  const rows: BenchRow[] = [];
  for (const size of FLOOR_SIZES) {
    const { snapshot, patches } = results.get(size)!;
    detail.push([`full snapshot`, fmt(size), String(snapshot.entries), fmt(snapshot.bytes), fmt(snapshot.ms), fmt(snapshot.cloneMs), '1.00×']);
    for (const k of CHANGED) {
      const p = patches.get(k)!;
      detail.push([`${k} changed desk${k > 1 ? 's' : ''}`, fmt(size), String(Math.round(p.entries)), fmt(p.bytes), fmt(p.ms), fmt(p.cloneMs), `${(p.bytes / snapshot.bytes).toFixed(4)}×`]);
      rows.push({
        bench: 'patches', case: `${k} changed desk${k > 1 ? 's' : ''}: patch bytes`, size: `${fmt(size)} desks`, value: p.bytes, unit: 'B',
        baseline: snapshot.bytes, baselineLabel: 'B snapshot', ratio: p.bytes / snapshot.bytes, target: 'report', pass: null,
      });
    }
  }
  const small = results.get(FLOOR_SIZES[0])!;
  const big = results.get(FLOOR_SIZES[FLOOR_SIZES.length - 1])!;
  for (const k of CHANGED) {
    const a = small.patches.get(k)!;
    const b = big.patches.get(k)!;
    rows.push({
      bench: 'patches', case: `${k} desk${k > 1 ? 's' : ''}: bytes 50k floor vs 1k floor`, size: `${fmt(b.bytes)} B`, value: b.bytes / a.bytes, unit: '×',
      baseline: a.bytes, baselineLabel: 'B at 1k', ratio: b.bytes / a.bytes, target: `≤ ${BYTES_TOLERANCE}×`, pass: b.bytes / a.bytes <= BYTES_TOLERANCE,
    });
    rows.push({
      bench: 'patches', case: `${k} desk${k > 1 ? 's' : ''}: apply+flush 50k floor vs 1k floor`, size: `${fmt(b.ms)} ms`, value: b.ms / a.ms, unit: '×',
      baseline: a.ms, baselineLabel: 'ms at 1k', ratio: b.ms / a.ms, target: `≤ ${MS_TOLERANCE}× (+${MS_SLACK} ms)`, pass: b.ms <= a.ms * MS_TOLERANCE + MS_SLACK,
    });
    rows.push({
      bench: 'patches', case: `${k} desk${k > 1 ? 's' : ''}: patch vs snapshot, 50k floor`, size: `${fmt(b.bytes)} B`, value: b.bytes / big.snapshot.bytes, unit: '×',
      baseline: big.snapshot.bytes, baselineLabel: 'B snapshot', ratio: b.bytes / big.snapshot.bytes, target: 'report', pass: null,
    });
  }
  console.log('\n## Patches: per-flush detail (medians)\n');
  console.log(renderTable(['case', 'floor desks', 'entries', 'JSON bytes', 'apply+flush ms', 'clone ms', 'bytes vs snapshot'], detail));
  publish('Patches: size and cost grow with the changed desks, not the floor', rows.filter((r) => r.pass !== null || r.case.includes('patch vs snapshot')), [
    `floor view with the default layers (${DEFAULT_LAYERS.join(', ')}); each changed desk flips occupancy, so every change is visible`,
    `apply+flush = sink.apply of one batch + hub.flush (facts, draw state, diff); clone = structuredClone of the message (postMessage's cost); medians of ${REPS}`,
  ]);
}

await main();
