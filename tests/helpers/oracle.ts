// The oracle of issue 11: after a fault ends and the engine settles, every
// entity the engine holds for the chosen location — assets (with buildings
// and floors), sensors' latest values, users, notifications and with them
// the reservations the reservation sensors carry — equals the server's truth
// read over REST as the same user. The truth goes through the same write
// path (applyBatch on a fresh store), so placement by location values and
// the normalizers count on both sides alike.

import { expect, vi } from 'vitest';
import type { Engine } from '../../src/worker/engine.js';
import type { ChangeBatch, Logger } from '../../src/worker/ports.js';
import { applyBatch } from '../../src/worker/store/applyBatch.js';
import { createStore, type Store } from '../../src/worker/store/store.js';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

async function getJson(baseUrl: string, path: string, token: string): Promise<unknown> {
  const res = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  if (!res.ok) throw new Error(`truth: ${path} answered ${res.status}`);
  return res.json();
}

/** What a fresh engine of this user would hold for the organization and location, read now. */
export async function serverTruth(baseUrl: string, token: string, where: { userId: string; organizationId: string; locationId: string }, now = Date.now()): Promise<Store> {
  const { organizationId: org, locationId: loc } = where;
  const [organization, locations, users, externalObjects, notifications, assets, sensors] = await Promise.all([
    getJson(baseUrl, `/organizations/${org}`, token),
    getJson(baseUrl, `/organizations/${org}/locations`, token),
    getJson(baseUrl, `/organizations/${org}/users`, token),
    getJson(baseUrl, `/external_objects?organization_id=${org}`, token),
    getJson(baseUrl, '/notifications', token),
    getJson(baseUrl, `/organizations/${org}/locations/${loc}/assets`, token),
    getJson(baseUrl, `/organizations/${org}/locations/${loc}/sensors`, token),
  ]);
  const store = createStore();
  store.organizationId = org;
  store.locationId = loc;
  const batches: ChangeBatch[] = [
    {
      scope: { kind: 'organization', organizationId: org },
      changes: [
        { collection: 'organizations', kind: 'initial', items: [organization] },
        { collection: 'locations', kind: 'initial', items: locations as unknown[] },
        { collection: 'users', kind: 'initial', items: users as unknown[] },
        { collection: 'external_objects', kind: 'initial', items: externalObjects as unknown[] },
      ],
    },
    { scope: { kind: 'user', userId: where.userId }, changes: [{ collection: 'notifications', kind: 'initial', items: notifications as unknown[] }] },
    {
      scope: { kind: 'location', organizationId: org, locationId: loc },
      changes: [
        { collection: 'assets', kind: 'initial', items: assets as unknown[] },
        { collection: 'sensors', kind: 'initial', items: sensors as unknown[] },
      ],
    },
  ];
  for (const batch of batches) applyBatch(store, batch, { logger: quiet, now: () => now, manualLocationTimeoutMs: 432e5 });
  return store;
}

const sorted = <T>(map: Map<string, T>, keep: (v: T) => boolean = () => true) =>
  [...map.entries()].filter(([, v]) => keep(v)).sort(([a], [b]) => a.localeCompare(b));

/** The parts of a sensor the oracle compares: its latest value (reservations ride on it). */
const sensorValue = (s: { id: string; type: string; value: unknown; last_measurement: unknown }) => ({ id: s.id, type: s.type, value: s.value, last_measurement: s.last_measurement });
/** The viewer's own vote is engine-local; everything else of an asset is the server's. */
const assetRecord = ({ votes: _votes, ...rest }: Record<string, unknown>) => rest;

/** Differences between the engine's store and the truth, as readable lines (empty: equal). */
export function differences(engine: Store, truth: Store): string[] {
  const out: string[] = [];
  const compare = <T>(name: string, a: Array<[string, T]>, b: Array<[string, T]>, project: (v: T) => unknown = (v) => v) => {
    const ids = (list: Array<[string, T]>) => list.map(([id]) => id).join(',');
    if (ids(a) !== ids(b)) {
      const ai = new Set(a.map(([id]) => id));
      const bi = new Set(b.map(([id]) => id));
      out.push(`${name}: engine has [${[...ai].filter((id) => !bi.has(id)).join(',')}] extra, misses [${[...bi].filter((id) => !ai.has(id)).join(',')}]`);
      return;
    }
    for (let i = 0; i < a.length; i++) {
      const x = JSON.stringify(project(a[i]![1]));
      const y = JSON.stringify(project(b[i]![1]));
      if (x !== y) out.push(`${name} ${a[i]![0]} differs:\n  engine ${x.slice(0, 400)}\n  server ${y.slice(0, 400)}`);
    }
  };
  if (engine.organizationId !== truth.organizationId || engine.locationId !== truth.locationId) {
    out.push(`engine is at ${engine.organizationId}/${engine.locationId}, truth at ${truth.organizationId}/${truth.locationId}`);
    return out;
  }
  const notLocal = (v: { local?: boolean }) => !v.local;
  compare('buildings', sorted(engine.buildings), sorted(truth.buildings));
  compare('floors', sorted(engine.floors), sorted(truth.floors));
  compare('assets', sorted(engine.assets, notLocal), sorted(truth.assets, notLocal), (v) => assetRecord(v as never));
  compare('sensors', sorted(engine.sensors, notLocal), sorted(truth.sensors, notLocal), (v) => sensorValue(v as never));
  compare('users', sorted(engine.users), sorted(truth.users));
  compare('notifications', sorted(engine.notifications), sorted(truth.notifications));
  return out;
}

export interface OracleTarget {
  engine: Engine;
  baseUrl: string;
}

/** Waits until the engine is live and its store equals the server's truth, then checks what must also hold. */
export async function expectSettledOnTruth(target: OracleTarget, options: { timeout?: number } = {}): Promise<void> {
  const { engine, baseUrl } = target;
  let last: string[] = [];
  await vi.waitFor(async () => {
    const session = engine.internals.session();
    const state = session?.state();
    expect(state?.phase.name, 'the engine settles live').toBe('live');
    const token = session!.token()!;
    const { organizationId, locationId, userId } = state!.ctx;
    expect(organizationId && locationId && userId, 'a location is chosen').toBeTruthy();
    const truth = await serverTruth(baseUrl, token, { userId: userId!, organizationId: organizationId!, locationId: locationId! });
    last = differences(engine.internals.store, truth);
    expect(last, 'the engine holds the server\'s truth').toEqual([]);
  }, { timeout: options.timeout ?? 15_000, interval: 50 });
}

/**
 * Wraps an engine's async calls so a test can tell that every call settled.
 * Subscriptions of views are left out: they resolve at once.
 */
export function trackCalls<E extends object>(engine: E): { engine: E; unsettled(): string[] } {
  const pending = new Map<number, string>();
  let next = 0;
  const proxy = new Proxy(engine, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function' || key === 'internals') return value;
      return (...args: unknown[]) => {
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (result && typeof (result as Promise<unknown>).then === 'function') {
          const id = next++;
          pending.set(id, `${String(key)}(${args.map((a) => JSON.stringify(a) ?? typeof a).join(', ').slice(0, 60)})`);
          (result as Promise<unknown>).then(() => pending.delete(id), () => pending.delete(id));
        }
        return result;
      };
    },
  });
  return { engine: proxy, unsettled: () => [...pending.values()] };
}

/** Collects unhandled rejections and uncaught exceptions while a scenario runs. */
export function watchEscapes(): { escaped: unknown[]; stop(): void } {
  const escaped: unknown[] = [];
  const onRejection = (reason: unknown) => { escaped.push(reason); };
  const onException = (error: unknown) => { escaped.push(error); };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return {
    escaped,
    stop() { process.off('unhandledRejection', onRejection); process.off('uncaughtException', onException); },
  };
}
