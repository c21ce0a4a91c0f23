import { describe, expect, it } from 'vitest';
import { decodePacket } from '../../../src/worker/decode.js';
import type { ChangeBatch, Logger } from '../../../src/worker/ports.js';
import { applyBatch } from '../../../src/worker/store/applyBatch.js';
import { createStore, type Store } from '../../../src/worker/store/store.js';
import { createSubscriptions } from '../../../src/worker/sync/subscriptions.js';
import { createRng, hostilePayload, PACKET_FAMILIES, type PacketFamily } from '../../helpers/fuzz.js';
import { LOCATION_ID, locationBatches, locationScope, ORG_ID, wireDesk, wireOccupancySensor } from '../engine/harness.js';
import { table, writeCounts } from './counts.js';

// Issue 11 §5: ≥ 10,000 seeded hostile live payloads through the real decode
// path (base64 → pako → JSON → normalizeLivePacket), stream validation and
// applyBatch: 0 escapes, 0 corruption of valid data (an entity the payload
// does not name never changes), the store's invariants after every packet,
// bounded memory. A packet that breaks the stream reloads, as a reconnect does.
// Cheap checks run after every packet (invariants, and no entity the packet
// does not name replaced); the full JSON comparison, which also catches a
// change made in place, runs at each reload against the state after the last.

const SEED = 11;
const PACKETS = 10_400;
const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const STREAM = 'fuzz-stream';

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
function mentioned(value: unknown, out: Set<string>, depth = 0): Set<string> {
  if (depth > 64) return out;
  if (typeof value === 'string') out.add(value);
  else if (typeof value === 'number') out.add(String(value));
  else if (Array.isArray(value)) for (const v of value) mentioned(v, out, depth + 1);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) { out.add(k); mentioned(v, out, depth + 1); }
  return out;
}

const COLLECTIONS = [['a', 'assets'], ['b', 'buildings'], ['f', 'floors'], ['s', 'sensors']] as const;

/** Every entity of the four collections by `collection:id`, as the object itself. */
function entities(store: Store): Map<string, object> {
  const out = new Map<string, object>();
  for (const [prefix, name] of COLLECTIONS) for (const [id, v] of store[name] as Map<string, object>) out.set(`${prefix}:${id}`, v);
  return out;
}

/** The names that make a payload touch an entity: its id, and for an asset its sensors and parent. */
function namesOf(key: string, entity: object): string[] {
  const id = key.slice(2);
  if (!key.startsWith('a:')) return [id];
  const asset = entity as { data_providers: string[]; parent_id: string | null };
  return [id, ...asset.data_providers, asset.parent_id ?? ''];
}

interface Checkpoint { json: Map<string, string>; names: Map<string, string[]> }
function checkpoint(store: Store): Checkpoint {
  const json = new Map<string, string>();
  const names = new Map<string, string[]>();
  for (const [key, v] of entities(store)) { json.set(key, JSON.stringify(v)); names.set(key, namesOf(key, v)); }
  return { json, names };
}

describe('live packets fuzz', () => {
  it(`takes ${PACKETS} seeded hostile payloads through the real decode path with 0 escapes and 0 corruption`, async () => {
    const rng = createRng(SEED);
    const store = createStore();
    store.organizationId = ORG_ID;
    store.locationId = LOCATION_ID;
    // an error logged is an exception the engine's safety nets caught: it counts as an escape
    const errors: string[] = [];
    const logger: Logger = { debug() {}, info() {}, warn() {}, error: (...args: unknown[]) => { errors.push(args.map(String).join(' ')); } };
    const options = { logger, now: () => T0, manualLocationTimeoutMs: 432e5 };
    let invalid = 0;
    const subs = createSubscriptions({
      sink: { apply: (batch: ChangeBatch) => { applyBatch(store, batch, options); } },
      logger,
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
    let fullComparisons = 0;
    const examples: string[] = [];
    const noteCorrupted = (what: string) => { corrupted += 1; if (examples.length < 5) examples.push(what); };
    let last = checkpoint(store);
    const namedSinceCheckpoint = new Set<string>();
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
      const before = entities(store);
      const invalidBefore = invalid;
      const errorsBefore = errors.length;
      const named = new Set<string>();
      try {
        const packet = decodePacket(payload, logger);
        if (packet) {
          perFamily[family].decoded += 1;
          mentioned(packet, named);
          subs.receive(locationScope, packet);
          if (invalid === invalidBefore && packet.changes.length > 0) perFamily[family].reachedStore += 1;
        }
      } catch (error) {
        escapes += 1;
        if (examples.length < 5) examples.push(`${family}: ${String(error)}`);
      }
      if (errors.length > errorsBefore) {
        escapes += errors.length - errorsBefore;
        if (examples.length < 5) examples.push(`${family}: logged ${errors[errorsBefore]}`);
      }
      for (const n of named) namedSinceCheckpoint.add(n);
      // an entity the payload does not name is never replaced
      for (const [key, entity] of before) {
        const now = store[COLLECTIONS.find(([p]) => p === key[0])![1]].get(key.slice(2));
        if (now !== entity && !namesOf(key, entity).some((n) => named.has(n))) noteCorrupted(`${family}: ${key} replaced`);
      }
      const broken = invariantBreaks(store);
      if (broken.length) { invariant += 1; if (examples.length < 5) examples.push(`${family}: ${broken[0]}`); }

      const streamBroke = invalid !== invalidBefore;
      // a reload each round of families too, so one round's oddities do not pile up
      if (streamBroke || i % PACKET_FAMILIES.length === PACKET_FAMILIES.length - 1) {
        // nor changed in place: everything no payload named since the last reload is as it was
        fullComparisons += 1;
        const now = checkpoint(store);
        for (const [key, json] of last.json) {
          if (last.names.get(key)!.some((n) => namedSinceCheckpoint.has(n))) continue;
          if (now.json.get(key) !== json) noteCorrupted(`${family}: ${key} changed in place`);
        }
        // the engine reconnects and reloads; the next stream starts after the load's position
        if (streamBroke) perFamily[family].reloads += 1;
        base += 1_000;
        await reload();
        last = checkpoint(store);
        namedSinceCheckpoint.clear();
      }
      if (i % 500 === 0) heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    }
    const held = store.assets.size + store.sensors.size + store.buildings.size + store.floors.size;
    expect(examples).toEqual([]);
    expect({ escapes, corrupted, invariant }).toEqual({ escapes: 0, corrupted: 0, invariant: 0 });
    expect(fullComparisons).toBeGreaterThanOrEqual(PACKETS / PACKET_FAMILIES.length);
    // bounded: the store holds the location plus the few ids hostile packets created, never the payloads
    expect(held).toBeLessThan(desks.length + people.length + sensors.length + 3 + 2_000);
    expect(heapPeak - heapBefore).toBeLessThan(256 * 1024 * 1024);
    const summary = `Seed ${SEED}: **${PACKETS.toLocaleString('en-US')} hostile payloads, ${escapes} escapes, ${corrupted} corrupted entities, ${invariant} broken store invariants**, ${fullComparisons.toLocaleString('en-US')} full comparisons.`;
    writeCounts('livePackets', { seed: SEED, packets: PACKETS, escapes, corrupted, invariantBreaks: invariant, fullComparisons, perFamily }, `${summary}\n\n${table(
      ['family', 'sent', 'decoded', 'reached the store', 'forced a reload'],
      PACKET_FAMILIES.map((f) => [f, perFamily[f].sent, perFamily[f].decoded, perFamily[f].reachedStore, perFamily[f].reloads]),
    )}`);
  }, 240_000);
});
