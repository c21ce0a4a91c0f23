// Seeded generators of hostile input for the reliability fuzz tests (issue
// 11 §5): live payloads (bad base64, bad zlib, bad JSON, wrong types at every
// field, odd sequences, prototype keys, deep nesting, huge arrays, unknown
// collections and kinds, ids as objects, type changes) and REST bodies.
// Deterministic for a seed, so counts in docs/reliability.md repeat.

import { deflateSync } from 'node:zlib';
import { createPrng } from '../../server/seed/prng.js';

/** The demo seed's generator (mulberry32), with the fuzz tests' `int(n)`: 0 ≤ int < n. */
export function createRng(seed: number) {
  const prng = createPrng(seed);
  return { next: prng.next, int: (n: number) => prng.int(0, n - 1), pick: prng.pick };
}
export type Rng = ReturnType<typeof createRng>;

/** base64 of zlib-deflated JSON, as the services send; Node's native zlib, since making ten thousand payloads is the test's cost, not the engine's */
export function encode(json: unknown): string {
  return deflateSync(typeof json === 'string' ? json : JSON.stringify(json), { level: 1 }).toString('base64');
}

/** Values of the wrong type for any field. */
export const WRONG_VALUES: readonly unknown[] = [
  null, true, false, 0, -1, 1.5, -0.000001, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, '', 'x', '<html>', '1e309',
  [], [1, 2], [[[]]], {}, { id: 'x' }, { $gt: 1 }, { __proto__: { polluted: true } }, 'constructor', '__proto__',
];

function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

const COLLECTIONS = ['assets', 'sensors', 'measurements', 'heartbeats', 'users', 'external_objects', 'organizations', 'locations', 'notifications'];

export interface PacketContext {
  streamId: string;
  /** the next sequence the validator expects */
  sequence: number;
  /** ids present in the store, of each collection the scope carries */
  assetIds: string[];
  sensorIds: string[];
  floorIds: string[];
  buildingIds: string[];
}

export const PACKET_FAMILIES = [
  'bad base64', 'bad zlib', 'bad JSON', 'not an object', 'wrong stream_id', 'odd sequence', 'changes not a list',
  'wrong type at a change field', 'wrong type at a data field', 'prototype keys', 'deep nesting', 'huge array',
  'unknown collection or kind', 'id as object', 'type change', 'measurement out of range',
] as const;
export type PacketFamily = (typeof PACKET_FAMILIES)[number];

const ASSET_FIELDS = ['id', 'type', 'parent_id', 'x', 'y', 'z', 'coords', 'outline', 'wgs84_coords', 'wgs84_outline', 'data_providers', 'data_provider_refs', 'shade', 'config', 'categories', 'history', 'unpublished', 'name', 'angles', 'floors', 'width'];
const VALUE_FIELDS = ['time', 'valid_for', 'valid_to', 'value', 'x', 'y', 'floor_id', 'floor', 'zones', 'events', 'battery_level'];

/** One hostile payload of a family; `valid` packets carry the expected stream position, so they reach the store. */
export function hostilePayload(rng: Rng, family: PacketFamily, ctx: PacketContext): unknown {
  const packet = (changes: unknown, extra: Record<string, unknown> = {}) => ({ stream_id: ctx.streamId, stream_sequence: ctx.sequence, changes, ...extra });
  const someAsset = () => ctx.assetIds.length ? rng.pick(ctx.assetIds) : 'a-none';
  const someSensor = () => ctx.sensorIds.length ? rng.pick(ctx.sensorIds) : 's-none';
  const assetData = (id: string) => ({ id, type: 'shape', name: 'Fuzzed', parent_id: ctx.floorIds[0] ?? null, x: 1, y: 2 });
  switch (family) {
    case 'bad base64': return rng.pick(['%%%not base64%%%', '', '====', 'eJw', 42, null, { payload: 'x' }]);
    case 'bad zlib': return Buffer.from(Array.from({ length: 4 + rng.int(40) }, () => rng.int(256))).toString('base64');
    case 'bad JSON': return encode(rng.pick(['{"stream_id":', '[1,2', 'undefined', 'NaN', '{\'a\':1}', '\u0000']));
    case 'not an object': return encode(rng.pick(WRONG_VALUES.filter((v) => !v || typeof v !== 'object' || Array.isArray(v))));
    case 'wrong stream_id': return encode(packet([], { stream_id: rng.pick(WRONG_VALUES) }));
    case 'odd sequence': return encode(packet([], { stream_sequence: rng.pick([-1, 0, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER * 4, '7', null, NaN]) }));
    case 'changes not a list': return encode(packet(rng.pick(WRONG_VALUES.filter((v) => !Array.isArray(v)))));
    case 'wrong type at a change field': {
      const change: Record<string, unknown> = { collection: 'assets', kind: 'modified', id: someAsset(), data: assetData(someAsset()) };
      change[rng.pick(['collection', 'kind', 'id', 'data'])] = rng.pick(WRONG_VALUES);
      return encode(packet([change]));
    }
    case 'wrong type at a data field': {
      if (rng.next() < 0.5) {
        const id = someAsset();
        const data: Record<string, unknown> = assetData(id);
        data[rng.pick(ASSET_FIELDS)] = rng.pick(WRONG_VALUES);
        return encode(packet([{ collection: 'assets', kind: rng.pick(['created', 'modified']), id, data }]));
      }
      const id = someSensor();
      const value: Record<string, unknown> = { time: Date.now(), valid_for: 60_000, value: 1, x: 1, y: 1 };
      value[rng.pick(VALUE_FIELDS)] = rng.pick(WRONG_VALUES);
      return encode(packet([{ collection: 'measurements', kind: 'created', id, data: { sensor_id: id, type: 'location', value } }]));
    }
    case 'prototype keys': {
      const text = `{"stream_id":${JSON.stringify(ctx.streamId)},"stream_sequence":${ctx.sequence},"__proto__":{"polluted":1},"changes":[{"collection":"assets","kind":"modified","id":"__proto__","data":{"id":"__proto__","type":"shape","constructor":{"prototype":{"polluted":1}},"__proto__":{"x":5},"config":{"__proto__":{"admin":true}}}},{"collection":"users","kind":"created","id":"constructor","data":{"id":"constructor","__proto__":{"visible":false}}}]}`;
      return encode(text);
    }
    case 'deep nesting': {
      const id = someAsset();
      return encode(packet([{ collection: 'assets', kind: 'modified', id, data: { ...assetData(id), config: nested(200 + rng.int(300)), outline: nested(50) } }]));
    }
    case 'huge array': {
      const id = someAsset();
      // one field a thousand times longer than real data ever is; which one varies
      const n = 1_000 + rng.int(1_000);
      const huge = rng.pick([
        ['data_providers', (i: number) => `p${i}`], ['outline', (i: number) => [i, i % 7]], ['history', (i: number) => ({ time: i, value: i })],
        ['external_objects', (i: number) => `x${i}`], ['categories', (i: number) => `c${i}`],
      ] as const);
      return encode(packet([{ collection: 'assets', kind: 'modified', id, data: { ...assetData(id), [huge[0]]: Array.from({ length: n }, (_, i) => huge[1](i)) } }]));
    }
    case 'unknown collection or kind':
      return encode(packet([{ collection: rng.pick(['widgets', 'Assets', '', 'toString', ...COLLECTIONS]), kind: rng.pick(['exploded', 'initial', 'MODIFIED', 'created']), id: someAsset(), data: {} }]));
    case 'id as object':
      return encode(packet([{ collection: rng.pick(COLLECTIONS), kind: rng.pick(['created', 'modified', 'deleted']), id: rng.pick<unknown>([{ $ne: null }, [1], { toString: 'x' }]), data: { id: { nested: true } } }]));
    case 'type change': {
      const floor = ctx.floorIds.length ? rng.pick(ctx.floorIds) : 'f-none';
      const building = ctx.buildingIds.length ? rng.pick(ctx.buildingIds) : 'b-none';
      const asset = someAsset();
      return encode(packet([rng.pick([
        { collection: 'assets', kind: 'modified', id: asset, data: { id: asset, type: 'floor', parent_id: building } },
        { collection: 'assets', kind: 'modified', id: asset, data: { id: asset, type: 'building', floors: [] } },
        { collection: 'assets', kind: 'modified', id: floor, data: assetData(floor) },
        { collection: 'assets', kind: 'modified', id: building, data: { id: building, type: 'floor', parent_id: building } },
      ])]));
    }
    case 'measurement out of range': {
      const id = someSensor();
      return encode(packet([{ collection: 'measurements', kind: 'created', id, data: { sensor_id: id, type: 'location', value: { time: rng.pick([1e308, -1e308, Date.now()]), valid_for: rng.pick([1e308, -5, 60_000]), x: rng.pick([1e308, -1e308, 3]), y: 4, floor: rng.pick([1e9, -1, 0.5]), zones: rng.pick([null, ['__proto__'], 'z']) } } }]));
    }
  }
}

/** REST body families for an initial load (a list of the collection's records expected). */
export const BODY_FAMILIES = [
  'not JSON', 'HTML page', 'JSON scalar', 'object instead of list', 'list of scalars', 'items with wrong field types',
  'items without ids', 'ids as objects', 'prototype keys', 'deep nesting', 'huge list', 'duplicated ids',
] as const;
export type BodyFamily = (typeof BODY_FAMILIES)[number];

/** A hostile body for a load whose good answer is `good` (a list of records). Returns [text, content type]. */
export function hostileBody(rng: Rng, family: BodyFamily, good: Array<Record<string, unknown>>): [string, string] {
  const json = (v: unknown): [string, string] => [JSON.stringify(v), 'application/json'];
  const some = () => good.length ? structuredClone(rng.pick(good)) : { id: 'x1' };
  switch (family) {
    case 'not JSON': return [rng.pick(['[{"id":"1"', '{', 'nul', '[1,]', '\u0000\u0001']), 'application/json'];
    case 'HTML page': return ['<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>', rng.pick(['text/html', 'application/json'])];
    case 'JSON scalar': return json(rng.pick([null, 0, 1, true, 'ok', '']));
    case 'object instead of list': return json(rng.pick([{}, { items: good }, { error: 'x' }, { 0: good[0] ?? null, length: 1 }]));
    case 'list of scalars': return json(Array.from({ length: 1 + rng.int(5) }, () => rng.pick(WRONG_VALUES.filter((v) => !v || typeof v !== 'object'))));
    case 'items with wrong field types': {
      const list = structuredClone(good);
      for (const item of list) {
        const keys = Object.keys(item);
        for (let i = 0; i < 3 && keys.length; i++) item[rng.pick(keys.filter((k) => k !== 'id').length ? keys.filter((k) => k !== 'id') : keys)] = rng.pick(WRONG_VALUES);
      }
      return json(list);
    }
    case 'items without ids': return json(good.map((g) => { const { id: _id, ...rest } = g; return rng.next() < 0.5 ? rest : g; }));
    case 'ids as objects': return json(good.map((g) => (rng.next() < 0.3 ? { ...g, id: { $gt: '' } } : g)));
    case 'prototype keys': return [`[{"id":"__proto__","__proto__":{"polluted":1}},{"id":"constructor","constructor":{"prototype":{"polluted":1}}},${JSON.stringify(good).slice(1)}`.replace(/,\]$/, ']'), 'application/json'];
    case 'deep nesting': { const item = some(); item.config = nested(300); return json([item, ...good]); }
    // far more records than the location has; one in twenty-four as many as the largest sites (thousands)
    case 'huge list': return json(Array.from({ length: rng.int(24) === 0 ? 2_000 + rng.int(3_000) : 50 + rng.int(100) }, (_, i) => ({ id: `fuzz-${i}`, type: 'shape' })));
    case 'duplicated ids': return json([...good, ...good.map((g) => ({ ...g, name: 'Duplicate' }))]);
  }
}

/** The same families for a load whose good answer is one object (the organization). Returns [text, content type]. */
export function hostileObjectBody(rng: Rng, family: BodyFamily, good: Record<string, unknown>): [string, string] {
  const json = (v: unknown): [string, string] => [JSON.stringify(v), 'application/json'];
  const item = (): Record<string, unknown> => {
    const [text] = hostileBody(rng, family, [good]);
    const list = JSON.parse(text) as unknown[];
    return (list[list.length - 1] ?? {}) as Record<string, unknown>;
  };
  switch (family) {
    case 'not JSON': case 'HTML page': case 'JSON scalar': case 'list of scalars': return hostileBody(rng, family, [good]);
    // the object's counterpart: a list where the object belongs
    case 'object instead of list': return json(rng.pick([[], [good], [[good]]]));
    case 'prototype keys': return ['{"id":"__proto__","__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"locations":["__proto__"]}', 'application/json'];
    case 'huge list': return json({ ...good, locations: Array.from({ length: rng.int(24) === 0 ? 2_000 + rng.int(3_000) : 50 + rng.int(100) }, (_, i) => `fuzz-${i}`) });
    case 'duplicated ids': return json({ ...good, locations: [...(good.locations as unknown[]), ...(good.locations as unknown[])] });
    default: return json(item());
  }
}
