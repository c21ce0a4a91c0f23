// Live traffic for the ingest bench, modelled on the reference simulator's mix
// (server/simulator.ts): desk occupancy, environment readings, people moving,
// heartbeats, and whole-asset modifications, drawn from the seeded location.
// Every sensor's readings get strictly newer times, so no change is skipped
// as stale and every one costs what a real one costs.

import type { StoreyServer } from '../../server/app.js';
import { encodePacket } from '../../server/live/packetCodec.js';
import { createPrng } from '../../server/seed/prng.js';
import { ENVIRONMENT_TYPES, validityOf } from '../../server/seed/sensorValues.js';
import type { WireAsset, WireSensor } from '../../src/shared/rest.js';
import type { LiveChange } from '../../src/shared/protocol.js';
import type { Id } from '../../src/shared/types.js';

export type TrafficKind = 'occupancy' | 'environment' | 'move' | 'heartbeat' | 'asset';

// weights of the mix; their mean change is ≈ 280 bytes of JSON (DESIGN §7 measured at that size)
export const TRAFFIC_WEIGHTS: Array<[TrafficKind, number]> = [['occupancy', 43], ['environment', 25], ['move', 10], ['heartbeat', 10], ['asset', 12]];

export interface Traffic {
  /** one change of the mix, or of one kind only (the per-kind breakdown) */
  next(only?: TrafficKind): LiveChange;
  take(n: number, only?: TrafficKind): LiveChange[];
}

interface Pool<T> { items: T[]; used: number }

export function createTraffic(server: StoreyServer, locationId: Id, seed = 11): Traffic {
  const rng = createPrng(seed);
  const sensors = [...server.store.sensors.values()].filter((s) => s.location_id === locationId && s.active !== false);
  const assets = [...server.store.assets.values()].filter((a) => a.location_id === locationId && server.store.isAssetPublic(a));
  const desks = assets.filter((a) => a.subtype === 'desk');
  const deskSensors = new Set(desks.flatMap((d) => d.data_providers));
  const floors = assets.filter((a) => a.type === 'floor');
  const zonesByFloor = new Map<Id, WireAsset[]>();
  for (const a of assets) if (a.type === 'zone' && a.parent_id) zonesByFloor.set(a.parent_id, [...(zonesByFloor.get(a.parent_id) ?? []), a]);
  const pool = <T>(items: T[]): Pool<T> => ({ items: shuffle(items, rng.next), used: 0 });
  const pools = {
    occupancy: pool(sensors.filter((s) => s.type === 'occupancy' && deskSensors.has(s.id))),
    environment: pool(sensors.filter((s) => (ENVIRONMENT_TYPES as readonly string[]).includes(s.type))),
    move: pool(sensors.filter((s) => s.type === 'location' && s.asset_id)),
    heartbeat: pool(sensors.filter((s) => s.type === 'occupancy' || (ENVIRONMENT_TYPES as readonly string[]).includes(s.type))),
    asset: pool(desks),
  };
  for (const [kind, p] of Object.entries(pools)) if (p.items.length === 0) throw new Error(`traffic: no ${kind} targets in location ${locationId}`);
  const base = Math.max(...sensors.map((s) => Math.max(s.last_measurement?.time ?? 0, s.last_communication_time ?? 0))) + 1;
  const total = TRAFFIC_WEIGHTS.reduce((s, [, w]) => s + w, 0);

  // each pass over a pool moves its clock by 1 ms, so one sensor's readings always get newer
  const draw = <T>(p: Pool<T>): { item: T; time: number } => {
    const i = p.used++;
    return { item: p.items[i % p.items.length]!, time: base + Math.floor(i / p.items.length) + 1 };
  };
  const measurement = (s: WireSensor, value: Record<string, unknown>): LiveChange => ({
    collection: 'measurements', kind: 'created', id: s.id, data: { sensor_id: s.id, type: s.type, value },
  });
  const battery = (s: WireSensor) => s.last_status?.battery_level ?? 90;

  const make: Record<TrafficKind, () => LiveChange> = {
    occupancy() {
      const { item: s, time } = draw(pools.occupancy);
      return measurement(s, { time, valid_for: validityOf('occupancy'), value: rng.chance(0.5) ? 1 : 0, battery_level: battery(s) });
    },
    environment() {
      const { item: s, time } = draw(pools.environment);
      return measurement(s, { time, valid_for: validityOf(s.type), value: Math.round(rng.range(10, 1200) * 100) / 100, battery_level: battery(s) });
    },
    move() {
      const { item: s, time } = draw(pools.move);
      const floor = rng.pick(floors);
      const zones = zonesByFloor.get(floor.id) ?? [];
      return measurement(s, {
        time, valid_for: validityOf('location'), x: Math.round(rng.range(2, 40) * 10) / 10, y: Math.round(rng.range(2, 30) * 10) / 10,
        floor_id: floor.id, floor: floor.building_relative_index ?? 0, zones: zones.length ? [rng.pick(zones).id] : [], battery_level: battery(s),
      });
    },
    heartbeat() {
      const { item: s, time } = draw(pools.heartbeat);
      return { collection: 'heartbeats', kind: 'created', id: s.id, data: { sensor_id: s.id, time, battery_level: battery(s) } };
    },
    asset() {
      const { item: desk, time } = draw(pools.asset);
      const flip = rng.chance(0.5);
      const data: WireAsset = {
        ...desk, version: desk.version + Math.floor(pools.asset.used / pools.asset.items.length) + 1, update_timestamp: time,
        overriding_color: flip ? [255, 152, 0] : null, speech_bubble: flip ? 'Reserved for the team day' : null,
      };
      return { collection: 'assets', kind: 'modified', id: desk.id, data };
    },
  };

  const next = (only?: TrafficKind): LiveChange => {
    if (only) return make[only]();
    let r = rng.next() * total;
    for (const [kind, w] of TRAFFIC_WEIGHTS) {
      r -= w;
      if (r < 0) return make[kind]();
    }
    return make.occupancy();
  };
  return { next, take: (n, only) => Array.from({ length: n }, () => next(only)) };
}

/** Encodes changes as the server does: `perPacket` changes per message, sequences from `firstSequence`. */
export function encodePackets(streamId: string, firstSequence: number, changes: LiveChange[], perPacket: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < changes.length; i += perPacket) {
    out.push(encodePacket({ stream_id: streamId, stream_sequence: firstSequence + out.length, changes: changes.slice(i, i + perPacket) }));
  }
  return out;
}

export function meanChangeBytes(changes: LiveChange[]): number {
  let bytes = 0;
  for (const c of changes) bytes += JSON.stringify(c).length;
  return bytes / Math.max(1, changes.length);
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * The ingest benches' plan, one for both (bench/ingestBrowser.ts, the targets, in Chromium; bench/ingest.ts, the
 * breakdown, in Node): packet sizes, changes per timed window (about a second of engine work each), windows per
 * case (the best counts), each kind's changes, and the targets of issue 14.
 */
export const INGEST_PACKET_SIZES = [1, 10, 100] as const;
export const INGEST_CHANGES_PER_RUN: Record<number, number> = { 1: 6_000, 10: 15_000, 100: 20_000 };
export const INGEST_RUNS = 2;
export const INGEST_KIND_CHANGES: Record<TrafficKind, number> = { occupancy: 5_000, environment: 5_000, move: 500, heartbeat: 5_000, asset: 3_000 };
export const INGEST_KIND_LABELS: Record<TrafficKind, string> = {
  occupancy: 'desk occupancy', environment: 'environment values', move: 'people moving', heartbeat: 'heartbeats', asset: 'desk modified',
};
/**
 * Warm-up before the timed windows (JIT, facts cache, the views' first patches): windows of the mix in 10-change
 * packets. V8 needs ~45,000 changes in Chromium (77k, 61k, 77k, then 94k–103k ch/s a window) and ~100,000 in Node
 * to settle its optimizations (docs/bench.md "Ingest in Chromium", "Ingest by parts")
 */
export const INGEST_WARM_UP_WINDOWS = 5;
export const INGEST_WARM_UP_CHANGES = 15_000;
/** ≥ this × the decode ceiling, at every packet size */
export const INGEST_TARGET_RATIO = 0.5;
/** ≥ this many changes a second in 10-change packets */
export const INGEST_TARGET_10_PER_S = 50_000;
/** desk occupancy alone, the commonest live change, at 10-change packets: ≥ this × its ceiling */
export const INGEST_TARGET_OCCUPANCY_RATIO = 0.3;
