// The shadow store of a floor playback (docs/reports.md "## Playback"): the
// live store's structure and assets, with a clone of EVERY sensor (and of
// every asset a location sensor places) set to what was known at the instant
// shown. A replay must never present a value dated after that instant as if
// it were then, so no sensor state is shared with the live store.

import { isOccupiedValue } from '../../shared/rules/roomStatus.js';
import { isOccupancySensorType, LOCATION_SENSOR_TYPE } from '../../shared/kinds.js';
import type { Asset, Id, MeasurementValue, Sensor } from '../../shared/types.js';
import { placeAsset } from '../store/located.js';
import { RECENT_VALUES_KEPT, createStore, reindexAll, sensorIdsOf, type Store } from '../store/store.js';

/** One sensor of the shadow: its clone, the live record it was made from, and the live readings it knew. */
export interface ShadowSensor {
  clone: Sensor;
  live: Sensor;
  /** the live store's own readings of the sensor (recent values, previous, last), ascending, taken at open */
  known: MeasurementValue[];
  /** the clone's recent values in the shadow store (what a popup's history lists): filled when a popup asks (fillRecent) */
  recent: MeasurementValue[];
  /** what it was last set from (the list, its length, the reading's index, heard by then): the same again changes nothing */
  list: readonly MeasurementValue[];
  n: number;
  i: number;
  heard: boolean;
  /** no floor view of the replay draws an asset it feeds: not set at each step, only when something asks (warmAsset) */
  cold: boolean;
  /** the day's readings of it, once there are any (the list is kept and grows in place) */
  day: readonly MeasurementValue[] | undefined;
  /** its place in the shadow's sensors, the instants from which each of them may read otherwise (Shadow.due), and the instants each was last set to (Shadow.ats) */
  k: number;
  due: Float64Array;
  ats: Float64Array;
}

/**
 * What setting a sensor to an instant did: it reads what it read (same); a reading of another value,
 * validity, battery or leaving time (changed); a newer reading that repeats the one it read (value,
 * battery, leaving time, heard or not), valid at least as long (repeated).
 */
export type SetResult = 'same' | 'changed' | 'repeated';

/**
 * Per list of readings, per reading: the index of the newest reading at or before it that carried a
 * battery level, and the first reading of the run of free readings it ends (occupancy), or -1. Made once
 * per list (and extended when a day still running is read on), so a step costs one lookup per sensor,
 * not a walk back through the day's readings.
 */
interface ListIndex {
  battery: Int32Array;
  freeFrom: Int32Array;
}

const indexes = new WeakMap<readonly MeasurementValue[], ListIndex>();

/** A reading was put into the list at `from` or a reading there replaced (a late reading): its index is made again from there. */
export function readingsEdited(list: readonly MeasurementValue[], from: number): void {
  const kept = indexes.get(list);
  if (kept && kept.battery.length > from) indexes.set(list, { battery: kept.battery.subarray(0, from), freeFrom: kept.freeFrom.subarray(0, from) });
}

function listIndex(list: readonly MeasurementValue[]): ListIndex {
  const kept = indexes.get(list);
  if (kept && kept.battery.length === list.length) return kept;
  const n = list.length;
  const battery = new Int32Array(n);
  const freeFrom = new Int32Array(n);
  const from = kept ? kept.battery.length : 0;
  if (kept) { battery.set(kept.battery); freeFrom.set(kept.freeFrom); }
  for (let k = from; k < n; k += 1) {
    const level = list[k]!.battery_level;
    battery[k] = typeof level === 'number' && Number.isFinite(level) ? k : k > 0 ? battery[k - 1]! : -1;
    freeFrom[k] = isOccupiedValue(list[k]!.value) ? -1 : k > 0 && freeFrom[k - 1]! >= 0 ? freeFrom[k - 1]! : k;
  }
  const made = { battery, freeFrom };
  indexes.set(list, made);
  return made;
}

export interface Shadow {
  store: Store;
  /** the sensors a derivation of the floor reads (its assets', and every located asset's); the rest stay unknown */
  sensors: ShadowSensor[];
  /** the same, by id */
  byId: Map<Id, ShadowSensor>;
  /**
   * per sensor (ShadowSensor.k), the earliest instant after the one it was set to at which it may read
   * otherwise: its next reading, or the time it was heard live. A step forward sets only the sensors due by
   * then; readings added to a list (a day read on, a late reading) make its sensor due at once (`readingsAdded`).
   */
  due: Float64Array;
  /**
   * per sensor, the instant it was last set to (NaN: never, or readings were added since). A step sets the
   * sensors in slices (`setSensorsAt`), so between them some are at the instant and others not yet: each
   * sensor says where it is, and a reader sets the ones it reads (`warmAsset`).
   */
  ats: Float64Array;
  /** the location sensors (their places in `sensors`): set first, at once, since they place people */
  locating: number[];
  /** clones of the assets a location sensor places (people, tags) */
  placed: Asset[];
}

const NONE: readonly MeasurementValue[] = [];

/** Index of the newest reading at or before t, or -1. */
export function indexAt(list: readonly MeasurementValue[], t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.time <= t) lo = mid + 1; else hi = mid;
  }
  return lo - 1;
}

/** The readings of a live sensor the live store holds, oldest first, one per time. */
function knownReadings(live: Store, s: Sensor): MeasurementValue[] {
  const byTime = new Map<number, MeasurementValue>();
  for (const v of live.sensors.entry(s.id)?.recent ?? []) if (v) byTime.set(v.time, v);
  for (const v of [s.previous_measurement, s.last_measurement]) if (v && !byTime.has(v.time)) byTime.set(v.time, v);
  return [...byTime.values()].sort((a, b) => a.time - b.time);
}

/**
 * The live store's structure and assets by reference, every sensor cloned, the placed assets cloned; indexed
 * once. Only the sensors the floor's derivation reads are set at each instant (a floor of a many-floor
 * location reads a fraction of them); the others keep no reading at all.
 */
export function createShadow(live: Store, floorId: Id): Shadow {
  const store = createStore();
  for (const name of ['organizations', 'locations', 'buildings', 'floors', 'users', 'externalObjects', 'notifications'] as const) {
    for (const [k, v] of live[name] as Map<Id, unknown>) (store[name] as Map<Id, unknown>).set(k, v);
  }
  store.locationId = live.locationId;
  store.organizationId = live.organizationId;
  for (const [k, v] of live.userByTag) store.userByTag.set(k, v);
  for (const [k, v] of live.tagOfUser) store.tagOfUser.set(k, v);
  const read = new Set<Id>();
  for (const id of live.assetsByFloor.get(floorId) ?? []) {
    const asset = live.assets.get(id);
    if (asset) for (const sid of sensorIdsOf(asset)) read.add(sid);
  }
  const placed: Asset[] = [];
  for (const [id, a] of live.assets) {
    const ids = sensorIdsOf(a);
    const located = ids.some((sid) => live.sensors.get(sid)?.type === LOCATION_SENSOR_TYPE);
    const asset = located ? { ...a } : a;
    store.assets.set(id, asset);
    if (located) {
      placed.push(asset);
      for (const sid of ids) read.add(sid);
    }
  }
  const sensors: ShadowSensor[] = [];
  const byId = new Map<Id, ShadowSensor>();
  const due = new Float64Array(read.size).fill(-Infinity);
  const ats = new Float64Array(read.size).fill(Number.NaN);
  const locating: number[] = [];
  for (const s of live.sensors.values()) {
    // nothing is known until the instant is set: a clone starts empty
    const clone: Sensor = {
      ...s, value: null, prev_value: null, last_measurement: null, previous_measurement: null,
      last_communication_time: null, last_status: { battery_level: null }, left_at: null,
    };
    store.sensors.set(s.id, clone);
    if (!read.has(s.id)) continue;
    const shadowSensor: ShadowSensor = { clone, live: s, known: knownReadings(live, s), recent: store.sensors.link(s.id).recent, list: NONE, n: -1, i: -1, heard: false, cold: false, day: undefined, k: sensors.length, due, ats };
    if (s.type === LOCATION_SENSOR_TYPE) locating.push(sensors.length);
    sensors.push(shadowSensor);
    byId.set(s.id, shadowSensor);
  }
  reindexAll(store);
  return { store, sensors, byId, placed, due, ats, locating };
}

/** Index of the newest reading at or before t, looked for from `from` (where it was at the last step) forward, else by halving. */
function indexFrom(list: readonly MeasurementValue[], from: number, t: number): number {
  if (from < -1 || from >= list.length || (from >= 0 && list[from]!.time > t)) return indexAt(list, t);
  // a step forward passes a reading or two of a sensor: a few looks ahead, not a search of its day
  for (let i = from, k = 0; k < 4; i += 1, k += 1) if (i + 1 >= list.length || list[i + 1]!.time > t) return i;
  return indexAt(list, t);
}

/**
 * Sets a shadow sensor to the instant: its newest reading at or before t from the day's paged readings
 * (`day`), else from the live store's own readings (the newest live reading dated at or before t was
 * the newest then too), else nothing — unknown. The battery level and last communication likewise
 * come from readings at or before t; the live record's own (heartbeats) only when the sensor was last
 * heard at or before t, for then nothing after t went into them. Its recent values (a popup's history)
 * are filled when a popup asks (fillRecent), not at every step.
 */
export function setSensorAt(s: ShadowSensor, readings: ReadonlyMap<Id, readonly MeasurementValue[]>, t: number): SetResult {
  const { clone, live } = s;
  s.ats[s.k] = t;
  let list = (s.day ??= readings.get(clone.id)) ?? NONE;
  let i = indexFrom(list, list === s.list ? s.i : -2, t);
  if (i < 0) { list = s.known; i = indexFrom(list, list === s.list ? s.i : -2, t); }
  const heard = live.last_communication_time;
  const liveLast = live.last_measurement ? live.last_measurement.time : -Infinity;
  const heardBy = heard !== null && heard <= t && liveLast <= t;
  // when it may read otherwise: its next reading (the day's first, while it reads the live store's), or once heard live
  let next = i + 1 < list.length ? list[i + 1]!.time : Infinity;
  if (list !== s.day && s.day && s.day.length > 0) next = Math.min(next, s.day[0]!.time);
  if (!heardBy && heard !== null) next = Math.min(next, Math.max(heard, liveLast));
  s.due[s.k] = next;
  // most sensors keep their reading from one step to the next: set again, they would be set the same
  if (s.list === list && s.n === list.length && s.i === i && s.heard === heardBy) return 'same';
  const wasHeard = s.heard;
  s.list = list; s.n = list.length; s.i = i; s.heard = heardBy;
  const was = clone.last_measurement;
  const wasBattery = clone.last_status.battery_level;
  const wasLeft = clone.left_at;
  const at = i >= 0 ? list[i]! : null;
  const before = i > 0 ? list[i - 1]! : null;
  clone.last_measurement = at;
  clone.previous_measurement = before;
  clone.value = at ? at.value : null;
  clone.prev_value = before ? before.value : null;
  clone.last_communication_time = heardBy ? heard : at ? at.time : null;
  const index = i >= 0 ? listIndex(list) : null;
  const withBattery = index ? index.battery[i]! : -1;
  const battery = (heardBy ? live.last_status.battery_level : null) ?? (withBattery >= 0 ? list[withBattery]!.battery_level : null);
  if (clone.last_status.battery_level !== battery) clone.last_status = { battery_level: battery };
  if (isOccupancySensorType(clone.type)) {
    // when the desk was last left (the live rule of store/measurements.ts): the start of the run of free readings, if one came before
    const freeFrom = index ? index.freeFrom[i]! : -1;
    clone.left_at = freeFrom > 0 ? list[freeFrom]!.time : null;
  }
  const repeated = !!was && !!at && at.time > was.time && at.value === was.value && at.valid_to >= was.valid_to
    && battery === wasBattery && clone.left_at === wasLeft && heardBy === wasHeard;
  return repeated ? 'repeated' : 'changed';
}

/** Fills the sensor's recent values (newest first, as the live store keeps them) from what it was last set to. */
export function fillRecent(s: ShadowSensor): void {
  const { recent, list, i } = s;
  recent.length = 0;
  for (let k = i; k >= 0 && recent.length < RECENT_VALUES_KEPT; k -= 1) recent.push(list[k]!);
}

/** The sensor reads what it would read if set to t: set to t, or to an earlier instant and not due since. */
export function isAt(s: ShadowSensor, t: number): boolean {
  const at = s.ats[s.k]!;
  return at === t || (t > at && s.due[s.k]! > t);
}

/** Readings were added to these sensors' lists (a day read on, a late reading): the next step sets them again. */
export function readingsAdded(shadow: Shadow, ids: Iterable<Id> | 'all'): void {
  if (ids === 'all') { shadow.due.fill(-Infinity); shadow.ats.fill(Number.NaN); return; }
  for (const id of ids) {
    const s = shadow.byId.get(id);
    // set again, even to the same place in its list and at the same instant: a reading there may have been replaced
    if (s) { shadow.due[s.k] = -Infinity; shadow.ats[s.k] = Number.NaN; s.n = -1; }
  }
}

/**
 * Sets the asset's sensors to the instant where they are not (cold ones, or ones a step in slices has not
 * reached yet); true when one was set anew. `out` gathers those set anew, for a step under way to mark.
 */
export function warmAsset(shadow: Shadow, readings: ReadonlyMap<Id, readonly MeasurementValue[]>, asset: Asset, t: number, out?: SetAnew): boolean {
  let changed = false;
  for (const sid of sensorIdsOf(asset)) {
    const s = shadow.byId.get(sid);
    if (!s || isAt(s, t)) continue;
    const result = setSensorAt(s, readings, t);
    if (result === 'same') continue;
    changed = true;
    if (out) note(out, s, result);
  }
  return changed;
}

/** The sensors a step set anew: those whose reading changed, and those that heard their reading repeated. */
export interface SetAnew {
  changed: Id[];
  repeated: Id[];
}

function note(out: SetAnew, s: ShadowSensor, result: SetResult): void {
  if (result === 'changed') out.changed.push(s.clone.id);
  else if (result === 'repeated') out.repeated.push(s.clone.id);
}

/**
 * Sets the location sensors to the instant and places each located asset by its newest location reading
 * still valid then; an asset nobody placed at that instant is on no floor. Done at once at each step (a
 * location's tags are few beside its sensors), so a panel or popup read between the slices of a step
 * finds everyone where they were at the instant.
 */
export function placeAt(shadow: Shadow, readings: ReadonlyMap<Id, readonly MeasurementValue[]>, t: number, out: SetAnew): void {
  const { store, sensors } = shadow;
  for (const k of shadow.locating) {
    const s = sensors[k]!;
    if (!isAt(s, t)) note(out, s, setSensorAt(s, readings, t));
  }
  for (const asset of shadow.placed) {
    let best: MeasurementValue | null = null;
    for (const sid of sensorIdsOf(asset)) {
      const sensor = store.sensors.get(sid);
      const v = sensor?.type === LOCATION_SENSOR_TYPE ? sensor.last_measurement : null;
      if (v && typeof v.x === 'number' && (!best || v.time > best.time)) best = v;
    }
    if (best && best.valid_to > t) placeAsset(store, asset, best);
    else {
      const floorId = store.floorOf.get(asset.id);
      if (floorId) {
        store.assetsByFloor.get(floorId)?.delete(asset.id);
        store.floorOf.delete(asset.id);
      }
    }
  }
}

/** Sensors set between two looks at the clock: the look costs more than setting one that is already there. */
const SENSORS_PER_LOOK = 64;

/**
 * Sets the sensors a floor view draws from (the cold ones wait to be asked) to the instant, from the one
 * at `from` on, until `over()` says the slice is spent; returns where to go on from, or -1 when every one
 * is set. A sensor already there is passed at the cost of two numbers: forward, most of a floor's sensors
 * send nothing in a step of minutes (not due); a sensor set on demand since (a popup) is there already.
 */
export function setSensorsAt(shadow: Shadow, readings: ReadonlyMap<Id, readonly MeasurementValue[]>, t: number, from: number, over: () => boolean, out: SetAnew): number {
  const { sensors, due, ats } = shadow;
  let set = 0;
  for (let k = from; k < sensors.length; k += 1) {
    const at = ats[k]!;
    if (at === t || (t > at && due[k]! > t)) continue;
    const s = sensors[k]!;
    if (s.cold) continue;
    note(out, s, setSensorAt(s, readings, t));
    set += 1;
    if (set % SENSORS_PER_LOOK === 0 && k + 1 < sensors.length && over()) return k + 1;
  }
  return -1;
}

/** Every sensor a floor view draws from and every placed person at the instant, in one go (what a step does in slices). */
export function shadowAt(shadow: Shadow, readings: ReadonlyMap<Id, readonly MeasurementValue[]>, t: number): SetAnew {
  const out: SetAnew = { changed: [], repeated: [] };
  placeAt(shadow, readings, t, out);
  setSensorsAt(shadow, readings, t, 0, () => false, out);
  return out;
}

/** The asset's own value is dated after t: a ticket or voice not posted yet at that instant. */
export function ownValueAfter(asset: Asset, t: number): boolean {
  const own = asset.value as { time?: unknown } | null;
  return !!own && typeof own === 'object' && typeof own.time === 'number' && own.time > t;
}

/**
 * The asset as the popup may show it at t: its history list up to t, and its own value only when dated
 * at or before t (an undated value of the live record may be from after the instant).
 */
export function assetAt(asset: Asset, t: number): Asset {
  const own = asset.value as { time?: unknown } | null;
  const dated = !!own && typeof own === 'object' && typeof own.time === 'number' && own.time <= t;
  return {
    ...asset,
    value: dated ? asset.value : null,
    prev_value: null,
    history: asset.history.filter((h) => h.timestamp <= t),
  };
}
