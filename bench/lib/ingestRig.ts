// The ingest benches' common set-up (ingest, ingestWork, profileIngest): the
// 10k-desk server, an engine on the capture transport with cloneStorage, every
// view of the app open on the busiest floor, the traffic mix, and packets
// numbered on from the stream position the engine loaded.

import type { ViewSpec } from '../../src/shared/api.js';
import type { LiveChange, StreamPosition } from '../../src/shared/protocol.js';
import type { Id } from '../../src/shared/types.js';
import type { Engine } from '../../src/worker/engine.js';
import type { StoragePort } from '../../src/worker/storage/index.js';
import type { StoreyServer } from '../../server/app.js';
import { indexBuilt } from './benchEngine.js';
import { createCloneStorage } from './cloneStorage.js';
import {
  aDesk, appViews, benchLocation, createCaptureTransport, createViewCounter, floorsByAssets, openEngine, startBenchServer,
  type BenchLocation, type CaptureTransport, type ViewCounter,
} from './fixture.js';
import { cpuMs, yieldToLoop } from './report.js';
import { createTraffic, encodePackets, type Traffic } from './traffic.js';

export { indexBuilt } from './benchEngine.js';

export interface IngestRig {
  server: StoreyServer;
  loc: BenchLocation;
  transport: CaptureTransport;
  engine: Engine;
  floorId: Id;
  counter: ViewCounter;
  views: ViewSpec[];
  traffic: Traffic;
  /** the stream the packets go on (its id and the position the engine loaded) */
  position: StreamPosition;
  /** encodes changes as the next packets of the stream */
  packets(changes: LiveChange[], perPacket: number): string[];
  /** the sequence number of the last packet made */
  sequence(): number;
}

/** The event loop gets a turn this often while packets are pushed, as the live transport gives it. */
const YIELD_EVERY_MS = 2;

/**
 * Pushes encoded packets into a rig's engine as its transport would (yielding every 2 ms), flushes the views
 * and, with `persist`, the persister; answers the CPU ms it took. Takes any checkout's rig (ingestAlternate).
 */
export async function pushPackets(rig: Pick<IngestRig, 'transport' | 'loc' | 'engine'>, payloads: string[], options: { persist?: boolean } = {}): Promise<number> {
  let slice = performance.now();
  const c0 = cpuMs();
  for (const p of payloads) {
    rig.transport.push(rig.loc.scope, p);
    if (performance.now() - slice > YIELD_EVERY_MS) { await yieldToLoop(); slice = performance.now(); }
  }
  rig.engine.internals.hub.flush();
  if (options.persist) await rig.engine.internals.persister.flush();
  return cpuMs() - c0;
}

/** What a rig may leave out (bench/ingestParts.ts): some of the app's views, or persistence's real cost. */
export interface IngestRigOptions {
  /** the app's views to open (default: every one) */
  views?: (spec: ViewSpec) => boolean;
  /** the engine's storage (default: cloneStorage) */
  storage?: StoragePort;
}

export async function openIngestRig(options: IngestRigOptions = {}): Promise<IngestRig> {
  const server = await startBenchServer();
  const loc = benchLocation(server);
  const transport = createCaptureTransport();
  const engine = await openEngine(server, { transportFactory: transport.factory, storage: options.storage ?? createCloneStorage() });
  const floorId = floorsByAssets(engine)[0]!;
  const counter = createViewCounter();
  const views = appViews(floorId, aDesk(engine, floorId)).filter(options.views ?? (() => true));
  for (const spec of views) await engine.subscribe(spec, counter.listener);
  await indexBuilt(engine);
  const traffic = createTraffic(server, loc.locationId);
  const position = server.publisher.position(loc.scope);
  let sequence = position.stream_sequence;
  return {
    server, loc, transport, engine, floorId, counter, views, traffic, position,
    packets(changes, perPacket) {
      const payloads = encodePackets(position.stream_id, sequence + 1, changes, perPacket);
      sequence += payloads.length;
      return payloads;
    },
    sequence: () => sequence,
  };
}
