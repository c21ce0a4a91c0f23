// What a bench does with a loaded engine, in Node or in a browser worker
// (bench/ingest/worker.ts): nothing here imports Node or the reference
// server. A capturing transport to push live payloads through, the app's
// load of the bench location after sign-in, every view the app has open, a
// count of the view messages, the finder's index waited for, and the decode
// ceiling the ingest benches compare the engine with.

import type { ViewMessage, ViewSpec } from '../../src/shared/api.js';
import { DEFAULT_LAYERS } from '../../src/shared/constants.js';
import type { LivePacket, StreamScope } from '../../src/shared/protocol.js';
import type { Id } from '../../src/shared/types.js';
import { payloadText } from '../../src/worker/decode.js';
import type { Engine } from '../../src/worker/engine.js';
import type { Logger, Transport, TransportFactory } from '../../src/worker/ports.js';

export const quietLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

export interface BenchLocation {
  organizationId: Id;
  locationId: Id;
  scope: StreamScope;
  account: { email: string; password: string; userId: Id };
}

export interface CaptureTransport {
  factory: TransportFactory;
  /** delivers one payload as the broker would; false until the engine listens */
  push(scope: StreamScope, payload: string): boolean;
}

/** A transport that connects at once and lets the bench deliver payloads. */
export function createCaptureTransport(): CaptureTransport {
  let listener: ((scope: StreamScope, payload: string) => void) | null = null;
  const factory: TransportFactory = () => {
    const transport: Transport = {
      name: 'pusher',
      connect: async () => undefined,
      disconnect: async () => undefined,
      subscribe: async () => undefined,
      unsubscribe: async () => undefined,
      onMessage(l) { listener = l; return () => { if (listener === l) listener = null; }; },
      onStateChange: () => () => undefined,
    };
    return transport;
  };
  return {
    factory,
    push(scope, payload) {
      if (!listener) return false;
      listener(scope, payload);
      return true;
    },
  };
}

/**
 * What the app does after sign-in: wait for the connection, load the
 * organization, then the location, until its stream is loaded. (A load
 * started while the first connect attempt runs is superseded by that
 * attempt's own reload, so the app waits for `connected` first.)
 */
export async function loadBenchLocation(engine: Engine, loc: BenchLocation): Promise<void> {
  const sync = () => engine.internals.session();
  await waitUntil(() => sync()?.state().phase.name === 'live', 'connected');
  expectOk(await engine.selectOrganization(loc.organizationId), 'loadOrganization');
  await waitUntil(() => engine.internals.store.locations.has(loc.locationId), 'organization loaded');
  expectOk(await engine.selectLocation(loc.locationId), 'loadLocation');
  await waitUntil(() => sync()?.subscriptionState(loc.scope) === 'loaded', 'location loaded');
}

/** Polls every millisecond (so it adds at most ~1 ms to a timed wait). */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const t0 = performance.now();
  while (!condition()) {
    if (performance.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

export function expectOk(result: { ok: boolean; message?: string }, what: string): void {
  if (!result.ok) throw new Error(`${what} failed: ${result.message ?? 'unknown'}`);
}

/** Visible floors of the engine's location, the most crowded first. */
export function floorsByAssets(engine: Engine): Id[] {
  const { store } = engine.internals;
  return [...store.floors.values()]
    .filter((f) => !f.hidden)
    .map((f) => ({ id: f.id, n: store.assetsByFloor.get(f.id)?.size ?? 0 }))
    .sort((a, b) => b.n - a.n)
    .map((f) => f.id);
}

/**
 * Every view the viewer app has open at once: one floor plus the app-wide
 * views, a desk's popup (`asset`) and the finder with a query (`search`).
 */
export function appViews(floorId: Id, popupAssetId?: Id): ViewSpec[] {
  return [
    { view: 'floor', floorId, layers: DEFAULT_LAYERS },
    { view: 'structure' }, { view: 'connection' }, { view: 'session' }, { view: 'feed' },
    { view: 'notifications' }, { view: 'people' }, { view: 'rooms' },
    ...(popupAssetId ? [{ view: 'asset' as const, assetId: popupAssetId }] : []),
    { view: 'search', query: 'meeting room' },
  ];
}

/** A desk of the floor, for the popup the app keeps open. */
export function aDesk(engine: Engine, floorId: Id): Id {
  for (const id of engine.internals.store.assetsByFloor.get(floorId) ?? []) {
    if (engine.internals.store.assets.get(id)?.subtype === 'desk') return id;
  }
  throw new Error(`no desk on floor ${floorId}`);
}

export interface ViewCounter {
  messages: number;
  patchEntries: number;
  snapshotEntries: number;
  listener(message: ViewMessage): void;
}

export function createViewCounter(): ViewCounter {
  const counter: ViewCounter = {
    messages: 0,
    patchEntries: 0,
    snapshotEntries: 0,
    listener(message) {
      counter.messages += 1;
      if (message.type !== 'patch') counter.snapshotEntries += Object.keys(message.entries).length;
      // on the page, an entry it held comes as its changed fields (`changed`, worker/views/viewPort.ts)
      else counter.patchEntries += Object.keys(message.upserted).length + Object.keys(message.changed ?? {}).length + message.removed.length;
    },
  };
  return counter;
}

/** the engine's key for the finder's index build slices (src/worker/engine/viewState.ts) */
const SEARCH_BUILD_KEY = 'engine:search-build';

/**
 * Waits until the finder's index, built in slices after the search view opened, is done: a one-time
 * cost of opening the finder, not of ingest, which otherwise lands in the first timed window.
 */
export async function indexBuilt(engine: Engine): Promise<void> {
  // the finder's code comes on first use; the search its view then runs starts the build
  await engine.internals.modules.settled();
  engine.internals.hub.flush();
  while (engine.internals.scheduler.has(SEARCH_BUILD_KEY)) await new Promise<void>((resolve) => setTimeout(resolve, 5));
}

/**
 * The decode ceiling: base64 (atob, as in the worker) + pako inflate + JSON.parse, nothing else, with the
 * engine's own decoder (`payloadText`: one pako stream and its buffers kept for every payload), so the
 * engine's decoding costs it what it costs the ceiling and the ratio is the engine's own work. Answers the
 * changes decoded.
 */
export function decodeAll(payloads: string[]): number {
  let changes = 0;
  for (const p of payloads) changes += (JSON.parse(payloadText(p)) as LivePacket).changes.length;
  return changes;
}
