// One replay of a floor and day (docs/reports.md "## Playback"): what it has
// read, its shadow store, the instant it shows, and the step to an instant,
// which tells the floor views which assets may look different so that a step
// costs what changed, as a live flush does.

import type { MapLayer } from '../../shared/constants.js';
import { LOCATION_SENSOR_TYPE } from '../../shared/kinds.js';
import type { CalendarDay } from '../../shared/reports/calendar.js';
import { emptySkipped, type ReportProgress } from '../../shared/reports/types.js';
import type { Asset, Id } from '../../shared/types.js';
import type { createConfigResolver } from '../derive/configResolver.js';
import { computeFacts, refreshFacts, type AssetFacts, type DeriveContext } from '../derive/assetFacts.js';
import { assetKind, layersOf } from '../derive/classify.js';
import { PERSON_TYPES } from '../store/assetMap.js';
import { sensorsOf } from '../store/store.js';
import { steadyDesk } from '../views/sources.js';
import type { Basis } from './playbackBasis.js';
import type { Replay } from './playbackReadings.js';
import { isAt, ownValueAfter, placeAt, readingsAdded, setSensorAt, setSensorsAt, warmAsset, type SetAnew, type Shadow } from './playbackShadow.js';

export interface Session {
  key: string;
  floorId: Id;
  day: CalendarDay;
  time: number;
  progress: ReportProgress;
  shadow: Shadow;
  config: ReturnType<typeof createConfigResolver>;
  replay: Replay;
  /** the sensors paged, per type */
  known: Map<string, Set<string>>;
  basis: Basis;
  /** the readings are complete up to this time: the day's end once it had ended when read */
  readUntil: number;
  readingOn: boolean;
  /** every sensor paged: the live readings of these go into the replay too */
  paged: Set<Id>;
  /** live readings went into the replay at or before its instant: shown when it is next read (settle) */
  late: boolean;
  /** the live stream had a gap (a reconnect reloaded the location): late readings may have come unseen, read the day again */
  gap: boolean;
  signal: { cancelled: boolean };
  /** the instant the shadow was last set to (null: not yet) */
  appliedAt: number | null;
  /** the facts of the floor's assets as last derived, kept while nothing they read or their own times changed */
  facts: Map<Id, AssetFacts | null>;
  /** of those, the ones that may not hold at the instant: derived again when next asked for */
  stale: Set<Id>;
  /** the floor's assets whose showing follows the instant besides their facts: people (placed then) and tickets and voices (posted by then) */
  timed: Id[];
  /** per sensor (ShadowSensor.k), the layers of the assets it feeds (standing, fixed for the replay; made when first asked) */
  sensorLayers: Array<readonly MapLayer[]> | null;
  /** the layers the floor views drew when the cold sensors were last decided */
  coldFor: string | null;
  /** the floor views of this replay and their layers, told which of the floor's assets may have changed at each instant */
  floorViews: Map<FloorViewNote, ReadonlySet<MapLayer>>;
  /** the instant the floor views show: the step to `time` is still being derived while they differ (null: none yet) */
  drawnAt: number | null;
  /** the assets marked by steps the floor views were not told of yet (their facts are being derived) */
  held: Set<Id> | 'all' | null;
  /** the derivation of a step under way, in slices between which the worker does its live work */
  preparing: { cancelled: boolean } | null;
  /** a step's sensors being set, in slices: from this place in the shadow's sensors on (null: all are at the instant) */
  settingFrom: number | null;
  /** the sensors the step under way set anew, not marked yet */
  setAnew: SetAnew;
}

/** What a step needs of the worker: its clock, a later task, and the hub. */
export interface StepEnv {
  now(): number;
  /** runs `fn` in a task of its own, after the live work waiting */
  defer(fn: () => void): void;
  /** the longest a slice of a step's derivation runs before the worker's other work goes first */
  sliceMs: number;
  markDirty(key: string): void;
  ctx(s: Session): DeriveContext;
}

export type FloorViewNote = (changed: ReadonlySet<Id> | 'all') => void;

/** The floor's assets whose showing follows the instant besides their facts: people, and tickets and voices with a posting time. */
export function timedOn(shadow: Shadow, floorId: Id): Id[] {
  const out: Id[] = [];
  for (const id of shadow.store.assetsByFloor.get(floorId) ?? []) {
    const asset = shadow.store.assets.get(id);
    if (asset && (PERSON_TYPES.has(asset.type) || ownValueAfter(asset, -Infinity))) out.push(id);
  }
  return out;
}

/** The instant within the day. */
export const clampTo = (day: CalendarDay, time: number) => Math.max(day.start, Math.min(day.end - 1, time));

export const loading = (): ReportProgress => ({ state: 'loading', pagesLoaded: 0, pagesEstimated: 0, pagesFromCache: 0, rows: 0, elapsedMs: 0, skipped: emptySkipped(), message: null });

/**
 * Begins a step to the session's instant: places people at once (a panel read meanwhile finds them where
 * they were) and holds for the floor views the assets that may look different whatever the sensors say —
 * the people and the posted ones, and those whose facts said they change by then (`nextChangeAt`, or
 * `continuous`: a fade, a clean-desk phase); every asset when the instant went back. The other sensors are
 * set in slices by `prepareStep`, which marks what they feed (`markSetAnew`). The others keep their facts:
 * a step costs what changed, as a live flush does.
 */
export function applyInstant(s: Session): void {
  const { touched } = s.replay;
  if (touched.size > 0) { readingsAdded(s.shadow, touched); touched.clear(); }
  s.late = false;
  const back = s.appliedAt === null || s.time < s.appliedAt;
  s.appliedAt = s.time;
  let keys: Set<Id> | 'all' = 'all';
  if (back) for (const id of s.facts.keys()) s.stale.add(id);
  else {
    keys = new Set(s.timed);
    for (const a of s.shadow.placed) keys.add(a.id);
    for (const [id, f] of s.facts) if (f && (f.continuous || (f.nextChangeAt !== null && f.nextChangeAt <= s.time))) keys.add(id);
    for (const id of keys) if (s.facts.has(id)) s.stale.add(id);
  }
  hold(s, keys);
  placeAt(s.shadow, s.replay.readings, s.time, s.setAnew);
  s.settingFrom = 0;
  markSetAnew(s);
}

function hold(s: Session, keys: Set<Id> | 'all'): void {
  if (keys === 'all' || s.held === 'all') s.held = 'all';
  else if (s.held) for (const id of keys) s.held.add(id);
  else s.held = keys;
}

/**
 * Marks what the sensors set anew feed: the assets of a sensor whose reading changed, and of one that heard
 * its reading repeated unless it is a desk drawn fresh from that one occupancy (the live rule,
 * views/sources.ts `steadyDesk`: what time changes, its facts' `nextChangeAt` still brings).
 */
function markSetAnew(s: Session): void {
  const { changed, repeated } = s.setAnew;
  if (changed.length === 0 && repeated.length === 0) return;
  const keys = new Set<Id>();
  const { assetsBySensor } = s.shadow.store;
  for (const sid of changed) for (const id of assetsBySensor.get(sid) ?? []) keys.add(id);
  for (const sid of repeated) {
    for (const id of assetsBySensor.get(sid) ?? []) {
      const f = s.facts.get(id);
      if (!f || s.stale.has(id) || !steadyDesk(f)) keys.add(id);
    }
  }
  changed.length = 0;
  repeated.length = 0;
  // stale even when every asset is held: one derived already in this step may read such a sensor
  for (const id of keys) if (s.facts.has(id)) s.stale.add(id);
  hold(s, keys);
}

/** On the replay's floor at its instant, and posted by then. */
export function shownAsset(s: Session, id: Id): Asset | undefined {
  if (s.progress.state !== 'done' || s.shadow.store.floorOf.get(id) !== s.floorId) return undefined;
  const asset = s.shadow.store.assets.get(id);
  return asset && !ownValueAfter(asset, s.time) ? asset : undefined;
}

export function onLayers(of: readonly MapLayer[], layers: ReadonlySet<MapLayer>): boolean {
  for (const l of of) if (layers.has(l)) return true;
  return false;
}

/**
 * Sets the step's sensors, then derives the facts of the assets the steps marked (those the floor views
 * draw), then tells the views: in slices of `sliceMs`, each a task of its own, so a step that sets and
 * derives much (back in time, a long jump, a large floor) never holds up the worker's live work. The views
 * show the instant they were told of until then (their meta says which, `drawnAt`), never part of one step
 * and part of another; a popup or panel read meanwhile sets the sensors it reads (`warmAt`). A new step
 * while one is under way goes on from the sensors set and the assets derived already.
 */
export function prepareStep(s: Session, env: StepEnv): void {
  if (s.preparing) s.preparing.cancelled = true;
  const token = { cancelled: false };
  s.preparing = token;
  let held: Session['held'] = null;
  let keys: Id[] | null = null;
  const layers = new Set<MapLayer>();
  let at = 0;
  const slice = () => {
    if (token.cancelled) return;
    let until = env.now() + env.sliceMs;
    const over = () => env.now() >= until;
    if (s.settingFrom !== null) {
      const next = setSensorsAt(s.shadow, s.replay.readings, s.time, s.settingFrom, over, s.setAnew);
      markSetAnew(s);
      if (next >= 0) { s.settingFrom = next; env.defer(slice); return; }
      s.settingFrom = null;
      // the derivation has a slice of its own, also in the task that set the last sensors: a short step
      // forward (a few hundred sensors due) is derived in the task of the step, as before the sensors were
      // sliced, and no task runs more than two slices
      until = env.now() + env.sliceMs;
    }
    if (keys === null) {
      held = s.held;
      keys = held === 'all' ? [...(s.shadow.store.assetsByFloor.get(s.floorId) ?? [])] : [...(held ?? [])];
      for (const l of s.floorViews.values()) for (const layer of l) layers.add(layer);
      // no floor view draws it (a popup or a panel alone): nothing to derive ahead, what they read they derive
      if (s.floorViews.size === 0) keys.length = 0;
    }
    const ctx = env.ctx(s);
    while (at < keys.length) {
      const id = keys[at++]!;
      const asset = shownAsset(s, id);
      const last = asset ? s.facts.get(id) : undefined;
      if (asset && !(last && !onLayers(last.layers, layers))) factsOf(s, asset, ctx);
      if (at < keys.length && over()) { env.defer(slice); return; }
    }
    s.preparing = null;
    s.held = null;
    s.drawnAt = s.time;
    if (held) for (const view of s.floorViews.keys()) view(held);
    env.markDirty(s.key);
  };
  slice();
}

/**
 * The asset's facts at the session's instant: kept ones while they hold (applyInstant marks those that may
 * not). A replay's assets, sensors and users are fixed for its life, so what the facts stand on holds too:
 * only what follows from readings and time is derived again (`refreshFacts`), except for people and assets
 * of a user, whose standing (which of their assets places them, a decoration of the day) follows the instant.
 */
export function factsOf(s: Session, asset: Asset, ctx: DeriveContext): AssetFacts | null {
  let f = s.facts.get(asset.id);
  if (f === undefined || s.stale.has(asset.id)) {
    // derived before, it was drawn, so its sensors are set at each step (viewsChanged sets those drawn from
    // again), unless the step's sensors are still being set
    if (f === undefined || s.settingFrom !== null) warmAt(s, asset);
    s.stale.delete(asset.id);
    f = f && f.user === null && !PERSON_TYPES.has(asset.type) ? refreshFacts(f, ctx) : computeFacts(asset, ctx);
    s.facts.set(asset.id, f);
  }
  return f;
}

/**
 * Sets the asset's sensors to the session's instant where a step left them (cold ones) or has not reached
 * them yet (a step in slices: those are marked for it as its own would be); true when one was set anew.
 */
export function warmAt(s: Session, asset: Asset): boolean {
  if (s.appliedAt === null) return false;
  const setting = s.settingFrom !== null;
  const changed = warmAsset(s.shadow, s.replay.readings, asset, s.time, setting ? s.setAnew : undefined);
  if (setting) markSetAnew(s);
  return changed;
}

/**
 * A floor view opened or closed: decides again which sensors no floor view draws from (a sensor that feeds
 * only assets on none of the views' layers, say the air sensors of a floor shown with the default layers),
 * so a step leaves them alone; whatever reads them (a popup, a panel, a view opened later) sets them first.
 * Location sensors place people, so they are set at every step.
 */
export function viewsChanged(s: Session): void {
  // the last view closed (Back to live): the sensors stay as they are for the next one, likely of the same layers
  if (s.floorViews.size === 0) return;
  const shown = new Set<MapLayer>();
  for (const layers of s.floorViews.values()) for (const l of layers) shown.add(l);
  // the same layers drawn as before (a view closed and opened again, Back to live and back): nothing to decide
  const shownKey = [...shown].sort().join();
  if (shownKey === s.coldFor) return;
  s.coldFor = shownKey;
  const { store } = s.shadow;
  // per sensor, once: the layers of the assets it feeds (standing, fixed for the replay)
  if (s.sensorLayers === null) {
    const ofAsset = new Map<Id, readonly MapLayer[]>();
    const layersOfAsset = (id: Id) => {
      let layers = ofAsset.get(id);
      if (!layers) {
        const asset = store.assets.get(id);
        const kind = asset ? assetKind(asset) : null;
        layers = asset && kind ? layersOf(kind, asset, sensorsOf(store, asset)) : [];
        ofAsset.set(id, layers);
      }
      return layers;
    };
    s.sensorLayers = s.shadow.sensors.map((sensor) => {
      const union = new Set<MapLayer>();
      for (const id of store.assetsBySensor.get(sensor.clone.id) ?? []) for (const l of layersOfAsset(id)) union.add(l);
      return [...union];
    });
  }
  for (const sensor of s.shadow.sensors) {
    const cold = sensor.clone.type !== LOCATION_SENSOR_TYPE && !onLayers(s.sensorLayers[sensor.k]!, shown);
    // drawn from again: at the instant now, and what it feeds derived again (its facts were kept while it was left alone)
    if (sensor.cold && !cold && s.appliedAt !== null && !isAt(sensor, s.time) && setSensorAt(sensor, s.replay.readings, s.time) !== 'same') {
      for (const id of store.assetsBySensor.get(sensor.clone.id) ?? []) if (s.facts.has(id)) s.stale.add(id);
    }
    sensor.cold = cold;
  }
}
