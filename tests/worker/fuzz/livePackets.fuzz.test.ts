import { describe, expect, it } from 'vitest';
import { decodePacket } from '../../../src/worker/decode.js';
import type { ChangeBatch, Logger } from '../../../src/worker/ports.js';
import { applyBatch } from '../../../src/worker/store/applyBatch.js';
import { createStore, type Store } from '../../../src/worker/store/store.js';
import { createSubscriptions } from '../../../src/worker/sync/subscriptions.js';
import { createRng, hostilePayload, PACKET_FAMILIES, type PacketFamily } from '../../helpers/fuzz.js';
import { LOCATION_ID, locationBatches, locationScope, ORG_ID, wireDesk, wireOccupancySensor } from '../engine/harness.js';
import { writeCounts } from './counts.js';

// Issue 11 §5: ≥ 10,000 seeded hostile live payloads through the real decode
// path (base64 → pako → JSON → normalizeLivePacket), stream validation and
// applyBatch: 0 escapes, 0 corruption of valid data (an entity the payload
// does not name never changes), the store's invariants after every packet,
// bounded memory. A packet that breaks the stream reloads, as a reconnect does.

const SEED = 11;
const PACKETS = 10_400;
const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const STREAM = 'fuzz-stream';
const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

const desks = Array.from({ length: 8 }, (_, i) => wireDesk(`d${i}`, i % 2 ? 'f1' : 'f2'));
const people = Array.from({ length: 4 }, (_, i) => ({ id: `e${i}`, type: 'employee', name: `E${i}`, parent_id: 'f1', data_providers: [`tag${i}`] }));
const sensors = [
  ...desks.map((d) => wireOccupancySensor(`s-${d.id}`, T0, 1)),
  ...people.map((p, i) => ({ id: `tag${i}`, type: 'location', last_measurement: { time: T0, valid_for: 600_000, value: 1, x: i, y: i } })),
];

function invariantBreaks(store: Store): string[] {
  const out: string[] = [];
  for (const id of store.assets.keys()) if (store.buildings.has(id) || store.floors.has(id)) out.push(`${id} in two collections`);
  for (const id of store.buildings.keys()) if (store.floors.has(id)) out.push(`${id} building and floor`);
  for (const [floorId, ids] of store.assetsByFloor) for (const id of ids) if (store.floorOf.get(id) !== floorId || !store.assets.has(id)) out.push(`${id} indexed on ${floorId}`);
  for (const a of store.assets.values()) if (![a.x, a.y, a.z].every(Number.isFinite)) out.push(`${a.id} at a non-finite position`);
  if (({} as Record<string, unknown>).polluted !== undefined || ({} as Record<string, unknown>).admin !== undefined) out.push('Object.prototype polluted');
  return out;
}

/** Every string and number a decoded packet carries (ids it names, directly or as a sensor or parent). */
function mentioned(value: unknown, out = new Set<string>(), depth = 0): Set<string> {
  if (depth > 64) return out;
  if (typeof value === 'string') out.add(value);
  else if (typeof value === 'number') out.add(String(value));
  else if (Array.isArray(value)) for (const v of value) mentioned(v, out, depth + 1);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) { out.add(k); mentioned(v, out, depth + 1); }
  return out;
}

type Snapshot = Map<string, string>;
function snapshot(store: Store): Snapshot {
  const out: Snapshot = new Map();
  for (const [name, map] of [['a', store.assets], ['b', store.buildings], ['f', store.floors], ['s', store.sensors]] as const) {
    for (const [id, v] of map as Map<string, unknown>) out.set(`${name}:${id}`, JSON.stringify(v));
  }
  return out;
}

describe('live packets fuzz', () => {
  it(`takes ${PACKETS} seeded hostile payloads through the real decode path with 0 escapes and 0 corruption`, async () => {
    const rng = createRng(SEED);
    const store = createStore();
    store.organizationId = ORG_ID;
    store.locationId = LOCATION_ID;
    const options = { logger: quiet, now: () => T0, manualLocationTimeoutMs: 432e5 };
    let invalid = 0;
    const subs = createSubscriptions({
      sink: { apply: (batch: ChangeBatch) => { applyBatch(store, batch, options); } },
      logger: quiet,
      onInvalid: () => { invalid += 1; },
    });
    const [orgBatch, locBatch] = locationBatches([...desks, ...people], sensors);
    applyBatch(store, orgBatch!, options);
    let base = 100;
    const loaders = () => locBatch!.changes.map((c) => ({
      collection: c.collection as 'assets' | 'sensors',
      load: async () => ({ items: structuredClone(c.items!), position: { stream_id: STREAM, stream_sequence: base } }),
    }));
    const reload = async () => { subs.start(locationScope, loaders()); await subs.load(locationScope); };
    await reload();

    const perFamily = Object.fromEntries(PACKET_FAMILIES.map((f) => [f, { sent: 0, decoded: 0, reachedStore: 0, reloads: 0 }])) as Record<PacketFamily, { sent: number; decoded: number; reachedStore: number; reloads: number }>;
    let escapes = 0;
    let corrupted = 0;
    let invariant = 0;
    const examples: string[] = [];
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    for (let i = 0; i < PACKETS; i++) {
      const family = PACKET_FAMILIES[i % PACKET_FAMILIES.length]!;
      const position = subs.position(locationScope)!;
      const payload = hostilePayload(rng, family, {
        streamId: STREAM, sequence: position.stream_sequence + 1,
        assetIds: [...store.assets.keys()].filter((id) => !store.assets.get(id)!.local), sensorIds: [...store.sensors.keys()].filter((id) => !store.sensors.get(id)!.local),
        floorIds: [...store.floors.keys()], buildingIds: [...store.buildings.keys()],
      });
      perFamily[family].sent += 1;
      const before = snapshot(store);
      const invalidBefore = invalid;
      let named = new Set<string>();
      try {
        const packet = decodePacket(payload, quiet);
        if (packet) {
          perFamily[family].decoded += 1;
          named = mentioned(packet);
          subs.receive(locationScope, packet);
          if (invalid === invalidBefore && packet.changes.length > 0) perFamily[family].reachedStore += 1;
        }
      } catch (error) {
        escapes += 1;
        if (examples.length < 5) examples.push(`${family}: ${String(error)}`);
      }
      if (invalid !== invalidBefore || i % PACKET_FAMILIES.length === PACKET_FAMILIES.length - 1) {
        // a reload each round of families too, so one round's oddities do not pile up
        // the engine reconnects and reloads; the next stream starts after the load's position
        if (invalid !== invalidBefore) perFamily[family].reloads += 1;
        base += 1_000;
        await reload();
      } else {
        // an entity the payload does not name never changes
        const after = snapshot(store);
        for (const [key, value] of before) {
          const id = key.slice(2);
          const asset = key.startsWith('a:') ? store.assets.get(id) : undefined;
          const isNamed = named.has(id) || (asset && [...asset.data_providers, asset.parent_id ?? ''].some((s) => named.has(s)));
          if (!isNamed && after.get(key) !== value) {
            corrupted += 1;
            if (examples.length < 5) examples.push(`${family}: ${key} changed`);
          }
        }
      }
      const broken = invariantBreaks(store);
      if (broken.length) { invariant += 1; if (examples.length < 5) examples.push(`${family}: ${broken[0]}`); }
      if (i % 500 === 0) heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    }
    const entities = store.assets.size + store.sensors.size + store.buildings.size + store.floors.size;
    expect(examples).toEqual([]);
    expect({ escapes, corrupted, invariant }).toEqual({ escapes: 0, corrupted: 0, invariant: 0 });
    // bounded: the store holds the location plus the few ids hostile packets created, never the payloads
    expect(entities).toBeLessThan(desks.length + people.length + sensors.length + 3 + 2_000);
    expect(heapPeak - heapBefore).toBeLessThan(256 * 1024 * 1024);
    writeCounts('livePackets', { seed: SEED, packets: PACKETS, escapes, corrupted, invariantBreaks: invariant, perFamily });
  }, 60_000);
});
