import { describe, expect, it } from 'vitest';
import { STREAM_ID_HEADER, STREAM_SEQUENCE_HEADER, type StreamScope } from '../../../src/shared/protocol.js';
import type { ChangeBatch, Logger } from '../../../src/worker/ports.js';
import { createRestClient } from '../../../src/worker/rest/restClient.js';
import { applyBatch } from '../../../src/worker/store/applyBatch.js';
import { createStore, type Store } from '../../../src/worker/store/store.js';
import { scopeLoaders, UnexpectedAnswerError } from '../../../src/worker/sync/scopeLoaders.js';
import { createSubscriptions } from '../../../src/worker/sync/subscriptions.js';
import { BODY_FAMILIES, createRng, hostileBody, hostileObjectBody, type BodyFamily } from '../../helpers/fuzz.js';
import {
  LOCATION_ID, locationScope, ORG_ID, organizationScope, wireBuilding, wireDesk, wireFloor, wireLocation, wireOccupancySensor,
  wireOrganization, wireUser,
} from '../engine/harness.js';
import { table, writeCounts } from './counts.js';

// Issue 11 §5: ≥ 2,000 seeded malformed bodies for every initial load, each
// through the real path — the REST client's fetch and body reading, the scope
// loaders, the subscription and applyBatch: 0 escapes, 0 corruption of valid
// data, bounded memory. A body that is not the load's shape is a failed load
// that touches nothing; a list is applied, and then what it repeats verbatim
// stays as it was, what it does not name never changes, and nothing stored
// is lost unless the answer — a list whose every record has an id — leaves
// it out (an initial load deletes what it does not contain, spec §4).

const SEED = 11;
const BODIES_PER_LOAD = 2_004;
const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const HOST = 'http://api.test';
const USER_ID = 'u1';

const desks = Array.from({ length: 6 }, (_, i) => wireDesk(`d${i}`, i % 2 ? 'f1' : 'f2'));
const people = Array.from({ length: 3 }, (_, i) => ({ id: `e${i}`, type: 'employee', name: `E${i}`, parent_id: 'f1', data_providers: [`tag${i}`] }));
const zone = { id: 'z1', type: 'zone', subtype: 'privacy', name: 'Booth', parent_id: 'f1', outline: [[10, 10], [12, 10], [12, 12], [10, 12]] };
const GOOD = {
  organization: wireOrganization() as Record<string, unknown>,
  locations: [wireLocation()],
  users: [wireUser(USER_ID), wireUser('u2'), wireUser('u3', { location: { location_id: LOCATION_ID, floor_id: 'f1', time: T0 } })],
  external_objects: [{ id: 'x1', name: 'Badge', type: 'user', data: { user_id: 'u2' } }, { id: 'x2', name: 'Cart', type: 'tag', data: {} }],
  notifications: [{ id: 'n1', user_id: USER_ID, title: 'Hello', body: 'Welcome', created: T0, read: false }, { id: 'n2', user_id: USER_ID, title: 'Desk', body: 'Booked', created: T0, read: true }],
  assets: [wireBuilding(), wireFloor('f1'), wireFloor('f2'), ...desks, ...people, zone],
  sensors: [
    ...desks.map((d) => wireOccupancySensor(`s-${d.id}`, T0, 1)),
    ...people.map((p, i) => ({ id: `tag${i}`, type: 'location', last_measurement: { time: T0, valid_for: 600_000, value: 1, x: i * 5, y: i * 5, floor_id: 'f1' } })),
  ],
} as const;

type LoadName = keyof typeof GOOD;
const LOADS: Array<{ name: LoadName; path: string; scope: StreamScope }> = [
  { name: 'organization', path: `/organizations/${ORG_ID}`, scope: organizationScope },
  { name: 'locations', path: `/organizations/${ORG_ID}/locations`, scope: organizationScope },
  { name: 'users', path: `/organizations/${ORG_ID}/users`, scope: organizationScope },
  { name: 'external_objects', path: '/external_objects', scope: organizationScope },
  { name: 'notifications', path: '/notifications', scope: { kind: 'user', userId: USER_ID } },
  { name: 'assets', path: `/organizations/${ORG_ID}/locations/${LOCATION_ID}/assets`, scope: locationScope },
  { name: 'sensors', path: `/organizations/${ORG_ID}/locations/${LOCATION_ID}/sensors`, scope: locationScope },
];

/** The store's maps each load fills (assets fill three: drawable assets, buildings, floors). */
const MAPS: Record<LoadName, Array<keyof Store & ('organizations' | 'locations' | 'users' | 'externalObjects' | 'notifications' | 'assets' | 'buildings' | 'floors' | 'sensors')>> = {
  organization: ['organizations'], locations: ['locations'], users: ['users'], external_objects: ['externalObjects'],
  notifications: ['notifications'], assets: ['assets', 'buildings', 'floors'], sensors: ['sensors'],
};
const collectionOf = (name: LoadName) => (name === 'organization' ? 'organizations' : name);
const ALL_MAPS = [...new Set(Object.values(MAPS).flat())];

/** Every entity the server gave (derived local ones are the users' shadow and follow them), by `map:id`. */
function entities(store: Store): Map<string, object> {
  const out = new Map<string, object>();
  for (const name of ALL_MAPS) {
    for (const [id, v] of store[name] as Map<string, object>) if (!(v as { local?: boolean }).local) out.set(`${name}:${id}`, v);
  }
  return out;
}

const storeSize = (store: Store) => ALL_MAPS.reduce((n, name) => n + (store[name] as Map<string, unknown>).size, 0);

function invariantBreaks(store: Store): string[] {
  const out: string[] = [];
  for (const id of store.assets.keys()) if (store.buildings.has(id) || store.floors.has(id)) out.push(`${id} in two collections`);
  for (const [floorId, ids] of store.assetsByFloor) for (const id of ids) if (store.floorOf.get(id) !== floorId || !store.assets.has(id)) out.push(`${id} indexed on ${floorId}`);
  for (const a of store.assets.values()) if (![a.x, a.y, a.z].every(Number.isFinite)) out.push(`${a.id} at a non-finite position`);
  if (store.organizationId !== ORG_ID || store.locationId !== LOCATION_ID) out.push('the chosen organization or location changed');
  if (({} as Record<string, unknown>).polluted !== undefined) out.push('Object.prototype polluted');
  return out;
}

/** Every string and number a parsed body carries. */
function mentioned(value: unknown, out: Set<string>, depth = 0): Set<string> {
  if (depth > 64) return out;
  if (typeof value === 'string') out.add(value);
  else if (typeof value === 'number') out.add(String(value));
  else if (Array.isArray(value)) for (const v of value) mentioned(v, out, depth + 1);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) { out.add(k); mentioned(v, out, depth + 1); }
  return out;
}

/**
 * What the engine's HTTP layer reads of a response (status, headers, text()).
 * undici's Response costs more than the engine's whole load here, and the fuzz
 * makes fourteen thousand of them.
 */
function answer(status: number, text: string, headers: Record<string, string>): Response {
  return { status, ok: status >= 200 && status < 300, statusText: '', headers: new Headers(headers), text: async () => text } as Response;
}

const parse = (text: string): unknown => { try { return JSON.parse(text); } catch { return undefined; } };
const idOf = (item: unknown): string | null => {
  const id = item && typeof item === 'object' ? (item as { id?: unknown }).id : undefined;
  return typeof id === 'string' && id !== '' ? id : typeof id === 'number' && Number.isFinite(id) ? String(id) : null;
};

describe('initial load bodies fuzz', () => {
  it(`takes ${BODIES_PER_LOAD} seeded malformed bodies for each of the ${LOADS.length} initial loads with 0 escapes and 0 corruption`, async () => {
    const rng = createRng(SEED);
    const errors: string[] = [];
    const logger: Logger = { debug() {}, info() {}, warn() {}, error: (...args: unknown[]) => { errors.push(args.map(String).join(' ')); } };
    let hostile: { path: string; text: string; type: string } | null = null;
    const fetchFn = async (input: RequestInfo | URL): Promise<Response> => {
      const url = new URL(String(input));
      const path = url.pathname.replace(/^\/v\d+/, '');
      const load = LOADS.find((l) => l.path === path);
      if (!load) return answer(404, '{"error":"no such path"}', { 'content-type': 'application/json' });
      const position = { [STREAM_ID_HEADER]: `stream-${load.scope.kind}`, [STREAM_SEQUENCE_HEADER]: '100' };
      if (hostile && hostile.path === path) return answer(200, hostile.text, { 'content-type': hostile.type, ...position });
      return answer(200, JSON.stringify(GOOD[load.name]), { 'content-type': 'application/json', ...position });
    };
    const rest = createRestClient({ host: HOST, fetch: fetchFn as typeof fetch, token: () => 'token' });
    const store = createStore();
    store.organizationId = ORG_ID;
    store.locationId = LOCATION_ID;
    const options = { logger, now: () => T0, manualLocationTimeoutMs: 432e5 };
    const subs = createSubscriptions({
      sink: { apply: (batch: ChangeBatch) => { applyBatch(store, batch, options); } },
      logger,
      onInvalid: () => { throw new Error('an initial load never invalidates a stream here'); },
    });
    // a scope's loads, or only the one the fuzz aims at (its siblings would only answer the same good bodies again)
    const reload = async (scope: StreamScope, only?: LoadName) => {
      const loaders = scopeLoaders(rest, scope, () => undefined).filter((l) => !only || l.collection === collectionOf(only));
      subs.start(scope, loaders);
      return subs.load(scope);
    };
    for (const scope of [organizationScope, { kind: 'user', userId: USER_ID } as const, locationScope]) expect(await reload(scope)).toBe(true);
    const goodJson = new Map([...entities(store)].map(([k, v]) => [k, JSON.stringify(v)]));
    expect(goodJson.size).toBeGreaterThan(30);
    const goodKeys = [...goodJson].map(([key, json]) => ({ key, json, map: key.slice(0, key.indexOf(':')) as (typeof ALL_MAPS)[number], id: key.slice(key.indexOf(':') + 1) }));
    const lookup = (k: (typeof goodKeys)[number]) => (store[k.map] as Map<string, object>).get(k.id);

    type Outcome = { sent: number; refused: number; applied: number };
    const counts = Object.fromEntries(LOADS.map((l) => [l.name, Object.fromEntries(BODY_FAMILIES.map((f) => [f, { sent: 0, refused: 0, applied: 0 }]))])) as Record<LoadName, Record<BodyFamily, Outcome>>;
    let escapes = 0;
    let corrupted = 0;
    let invariant = 0;
    // the first of each kind of failure, so one failing family does not hide the others
    const examples = new Map<string, string>();
    const note = (what: string) => { const kind = what.replace(/ #\d+:/, ':'); if (!examples.has(kind) && examples.size < 20) examples.set(kind, what); };
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    let n = 0;

    for (const load of LOADS) {
      const own = new Set<string>(MAPS[load.name]);
      const goodById = new Map((load.name === 'organization' ? [GOOD.organization] : GOOD[load.name] as readonly object[]).map((g) => [idOf(g)!, JSON.stringify(g)]));
      for (let i = 0; i < BODIES_PER_LOAD; i++) {
        const family = BODY_FAMILIES[i % BODY_FAMILIES.length]!;
        const [text, type] = load.name === 'organization'
          ? hostileObjectBody(rng, family, structuredClone(GOOD.organization))
          : hostileBody(rng, family, structuredClone(GOOD[load.name]) as unknown as Array<Record<string, unknown>>);
        const outcome = counts[load.name][family];
        outcome.sent += 1;
        const what = `${load.name} / ${family} #${i}`;
        const before = goodKeys.map((k) => lookup(k));
        const sizeBefore = storeSize(store);
        const errorsBefore = errors.length;
        hostile = { path: load.path, text, type };
        let refused = false;
        try {
          await reload(load.scope, load.name);
        } catch (error) {
          if (error instanceof UnexpectedAnswerError) refused = true;
          else { escapes += 1; note(`${what}: ${String(error)}`); }
        }
        hostile = null;
        if (errors.length > errorsBefore) { escapes += errors.length - errorsBefore; note(`${what}: logged ${errors[errorsBefore]}`); }
        if (refused) {
          outcome.refused += 1;
          // a failed load touches nothing
          goodKeys.forEach((k, j) => { if (lookup(k) !== before[j]) { corrupted += 1; note(`${what}: refused, yet ${k.key} changed`); } });
          if (storeSize(store) !== sizeBefore) { corrupted += 1; note(`${what}: refused, yet the store changed size`); }
        } else {
          outcome.applied += 1;
          const body = parse(text);
          const records = load.name === 'organization' ? [body] : Array.isArray(body) ? body : [];
          let named: Set<string> | null = null;
          const everyRecordHasAnId = records.every((r) => idOf(r) !== null);
          const lastRecord = new Map(records.map((r) => [idOf(r), r]));
          goodKeys.forEach((k, j) => {
            const now = lookup(k);
            // the store held the server's state before the body: an entity still the same object is unchanged
            if (now && now === before[j]) return;
            if (own.has(k.map)) {
              const stillThere = MAPS[load.name].some((m) => (store[m] as Map<string, unknown>).has(k.id));
              if (!stillThere && !(everyRecordHasAnId && !lastRecord.has(k.id))) { corrupted += 1; note(`${what}: ${k.key} lost`); }
              const verbatim = lastRecord.has(k.id) && JSON.stringify(lastRecord.get(k.id)) === goodById.get(k.id);
              if (verbatim && now && JSON.stringify(now) !== k.json) { corrupted += 1; note(`${what}: ${k.key} repeated verbatim, yet changed`); }
            } else {
              // outside the loaded collection: changes only through what the body names (a sensor moving its asset)
              named ??= mentioned(body, new Set());
              const asset = now as { data_providers?: string[]; parent_id?: string } | undefined;
              const touched = named.has(k.id) || (asset?.data_providers ?? []).some((x) => named!.has(x)) || (asset?.parent_id ? named.has(asset.parent_id) : false);
              if (!touched && (!now || JSON.stringify(now) !== k.json)) { corrupted += 1; note(`${what}: ${k.key} changed outside the load`); }
            }
          });
        }
        const broken = invariantBreaks(store);
        if (broken.length) { invariant += 1; note(`${what}: ${broken[0]}`); }

        if (!refused) {
          // the next answer is good again: the collection returns to the server's state
          expect(await reload(load.scope, load.name)).toBe(true);
          for (const k of goodKeys) if (own.has(k.map) && JSON.stringify(lookup(k)) !== k.json) { corrupted += 1; note(`${what}: a good load did not restore ${k.key}`); }
        }
        if (++n % 250 === 0) {
          heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
          const back = entities(store);
          const diff = [...goodJson].filter(([key, v]) => JSON.stringify(back.get(key)) !== v).map(([key]) => key);
          if (diff.length || back.size !== goodJson.size) { corrupted += 1; note(`${what}: the store is not back to the server's state: ${diff[0] ?? 'size'}`); }
        }
      }
    }
    expect([...examples.values()]).toEqual([]);
    expect({ escapes, corrupted, invariant }).toEqual({ escapes: 0, corrupted: 0, invariant: 0 });
    expect(heapPeak - heapBefore).toBeLessThan(256 * 1024 * 1024);
    const total = (f: BodyFamily, key: keyof Outcome) => LOADS.reduce((sum, l) => sum + counts[l.name][f][key], 0);
    const summary = `Seed ${SEED}: **${(BODIES_PER_LOAD * LOADS.length).toLocaleString('en-US')} malformed bodies (${BODIES_PER_LOAD.toLocaleString('en-US')} for each of the ${LOADS.length} initial loads), ${escapes} escapes, ${corrupted} corrupted entities, ${invariant} broken store invariants**.`;
    writeCounts('restBodies', { seed: SEED, bodiesPerLoad: BODIES_PER_LOAD, loads: LOADS.length, escapes, corrupted, invariantBreaks: invariant, perLoad: counts }, `${summary}\n\n${table(
      ['family', 'sent', 'refused (a failed load)', 'applied'],
      BODY_FAMILIES.map((f) => [f, total(f, 'sent'), total(f, 'refused'), total(f, 'applied')]),
    )}`);
  }, 240_000);
});
