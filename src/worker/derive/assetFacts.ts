// Everything the engine derives about one asset at one instant, independent
// of which layers a view shows: reachability by role, freshness, room status
// and reservations, desk usage and clean-desk phase, environment values, and
// when any of it changes next without new data (for the one scheduler).

import { FADE_OUT_PORTION, MAX_RECHECK_DELAY_MS, MEETING_RECENT_READING_MS, type MapLayer } from '../../shared/constants.js';
import { assetVisibleToRoles, floorVisibleToRoles } from '../../shared/roles.js';
import {
  CLEAN_DESK_PHASE_LABELS, cleanDeskColor, cleanDeskPhase, cleanDeskRatio, type CleanDeskPhase,
} from '../../shared/rules/cleanDesk.js';
import { computeFreshness, type Freshness, type ValidityWindow } from '../../shared/rules/freshness.js';
import { reservationStatus, type ReservationStatus } from '../../shared/rules/reservations.js';
import {
  isOccupiedValue, roomStatusColor, roomStatusIndex, roomStatusKind, roomStatusWord, type RoomStatus,
} from '../../shared/rules/roomStatus.js';
import { endOfLocalDayAt, isOnLocalDayOf } from '../../shared/time.js';
import { avatarDecoration } from '../../shared/rules/users.js';
import type { ResolvedConfig } from '../../shared/config.js';
import type { Asset, Id, MeasurementValue, Role, Sensor, User } from '../../shared/types.js';
import { sensorsOf, type Store } from '../store/store.js';
import { choosePosition, linkedUserId, personAssetIds } from '../store/people.js';
import {
  isOccupancySensorType, isSensorLayer, RESERVATION_SENSOR_TYPE, type AssetKind, type SensorLayer, type StatusKind,
} from '../../shared/kinds.js';
import { assetKind, layersOf } from './classify.js';
import type { ConfigResolver } from './configResolver.js';
import { numericValue, scaleSpecFor, sensorColor } from './sensorScales.js';

export interface DeriveContext {
  store: Store;
  /** corrected-clock now */
  now: number;
  viewerUserId: Id | null;
  roles: readonly Role[];
  config: ConfigResolver;
  timeZone: string;
}

export interface RoomFacts {
  status: RoomStatus;
  color: string;
  word: string;
  statusKind: StatusKind;
  reservation: ReservationStatus | null;
  reservationSensorId: Id | null;
}

export interface DeskFacts {
  occupied: boolean | null;
  phase: CleanDeskPhase | null;
  ratio: number | null;
  color: string;
  word: string;
  statusKind: StatusKind;
}

/** In use or on a short break is busy; a left desk that should be (or should have been) cleared needs attention. */
export const DESK_PHASE_KINDS: Readonly<Record<CleanDeskPhase, StatusKind>> = {
  in_use: 'busy', short_break: 'busy', awaiting_clearing: 'attention', policy_exceeded: 'attention',
};

export interface SensorFacts {
  value: number;
  unit: string | null;
  color: string;
  timedOut: boolean;
}

export interface AssetFacts {
  asset: Asset;
  kind: AssetKind;
  floorId: Id | null;
  /** reaches this user at all (unpublished assets, what stands in them and hidden floors need the edit role) */
  reachable: boolean;
  /**
   * the nearest asset it stands in (a room, a zone…) that is unpublished, below its floor: hidden with it from
   * everyone without the edit role, though its own flag says published (docs/ui.md "Unpublished assets")
   */
  hiddenBy: Asset | null;
  /** an asset standing for the viewer (their derived or tagged employee asset) */
  own: boolean;
  /** stands for a person whom another of their assets places now (one position per person) */
  superseded: boolean;
  /** shared, never to be changed: the same array for every asset drawn on the same layers */
  layers: readonly MapLayer[];
  freshness: Freshness;
  room: RoomFacts | null;
  desk: DeskFacts | null;
  sensors: Partial<Record<SensorLayer, SensorFacts>>;
  /** co-workers heatmap weight 0..1 */
  heat: number | null;
  user: User | null;
  /** the user's chosen or the season's avatar decoration */
  decoration: string | null;
  config: ResolvedConfig;
  /** devices and monitoring: what heartbeats report */
  device: DeviceFacts | null;
  /** the next instant the facts change without new data, or null */
  nextChangeAt: number | null;
  /** changes continuously (fading, clean-desk colour): re-derived on the real-time timeline */
  continuous: boolean;
  /**
   * The standing facts these were derived on: the same object while only readings and time moved
   * (refreshFacts), a new one whenever the asset was derived afresh. A view may keep what it made of
   * the standing part and redo only what follows from readings (drawState.ts `redrawState`).
   */
  standing: StandingFacts;
}

export interface DeviceFacts {
  /** lowest battery level (%) among the asset's sensors, or null when none reports one */
  battery: number | null;
  /** newest communication time among them, or null */
  lastCommunication: number | null;
}

/** Battery and last communication, as heartbeats and measurements update them. */
export function deviceFacts(sensors: readonly Sensor[]): DeviceFacts | null {
  if (sensors.length === 0) return null;
  let battery: number | null = null;
  let lastCommunication: number | null = null;
  for (const s of sensors) {
    const level = s.last_status.battery_level;
    if (level !== null && (battery === null || level < battery)) battery = level;
    const seen = s.last_communication_time;
    if (seen !== null && (lastCommunication === null || seen > lastCommunication)) lastCommunication = seen;
  }
  return { battery, lastCommunication };
}

const isOccupancy = (s: Sensor) => isOccupancySensorType(s.type);

/** The value freshness is judged on: a ticket's or voice's own value, else the default sensor's, else the newest. */
export function latestValue(asset: Asset, sensors: readonly Sensor[]): ValidityWindow | null {
  const own = asset.value as { time?: unknown; valid_to?: unknown; valid_for?: unknown } | null;
  if (own && typeof own === 'object' && typeof own.time === 'number') {
    const validTo = typeof own.valid_to === 'number' ? own.valid_to
      : typeof own.valid_for === 'number' ? own.time + own.valid_for : own.time;
    return { time: own.time, valid_to: validTo };
  }
  // runs for every refreshed asset: loops, no closure per call
  const preferredType = asset.default_sensor_type;
  let best: MeasurementValue | null = null;
  let preferred: MeasurementValue | null | undefined;
  for (const s of sensors) {
    const v = s.last_measurement;
    if (preferredType && preferred === undefined && s.type === preferredType) preferred = v;
    if (v && (!best || v.time > best.time)) best = v;
  }
  return preferred ?? best;
}

/**
 * The soonest instant after `now` among those a derivation names: kept as they come rather than listed and
 * searched after, and one accumulator for every derivation (they never nest), so a refresh per reading makes
 * no list (issue 14: allocations per change are what the garbage collector pays for).
 */
class Soonest {
  private now = 0;
  /** some instant after now was named */
  future = false;
  at = Infinity;
  from(now: number): this {
    this.now = now;
    this.future = false;
    this.at = Infinity;
    return this;
  }
  push(t: number): void {
    if (t > this.now) { this.future = true; if (t < this.at) this.at = t; }
  }
}
const soonest = new Soonest();

function roomFacts(asset: Asset, sensors: readonly Sensor[], ctx: DeriveContext, config: ResolvedConfig, next: Soonest): RoomFacts {
  const occupancy = sensors.find(isOccupancy) ?? null;
  const reservation = sensors.find((s) => s.type === RESERVATION_SENSOR_TYPE) ?? null;
  const events = reservation?.last_measurement?.events ?? [];
  const reading = occupancy?.last_measurement ?? null;
  const status = roomStatusIndex({
    subtype: asset.subtype,
    occupancy: occupancy ? { reading } : null,
    reservation: reservation ? { events } : null,
  }, ctx.now, config.statusColors.room.length);
  const res = reservation ? reservationStatus(events, ctx.now, ctx.timeZone) : null;
  if (res) next.push(res.refreshAt);
  if (reading) {
    if (reading.valid_to >= ctx.now) next.push(reading.valid_to + 1);
    const meetingEnd = reading.time + MEETING_RECENT_READING_MS;
    if (asset.subtype === 'meeting' && meetingEnd > ctx.now) next.push(meetingEnd);
  }
  return {
    status,
    color: roomStatusColor(status, config.statusColors),
    word: roomStatusWord(status),
    statusKind: roomStatusKind(status),
    reservation: res,
    reservationSensorId: reservation?.id ?? null,
  };
}

/**
 * Desk usage: occupied, free, or — after the desk was left today — the
 * clean-desk phase on its d3 colour scale. The phase resets at local
 * midnight; an expired reading shows the missing colour.
 */
function deskFacts(sensors: readonly Sensor[], ctx: DeriveContext, config: ResolvedConfig, next: Soonest): DeskFacts | null {
  const sensor = sensors.find(isOccupancy);
  const colors = config.statusColors;
  if (!sensor) return null;
  const reading = sensor.last_measurement;
  if (!reading || ctx.now > reading.valid_to) {
    return { occupied: null, phase: null, ratio: null, color: colors.missing, word: 'no data', statusKind: 'unknown' };
  }
  next.push(reading.valid_to + 1);
  if (isOccupiedValue(reading.value)) {
    return { occupied: true, phase: 'in_use', ratio: 0, color: colors.room[2] ?? colors.missing, word: 'occupied', statusKind: 'busy' };
  }
  // the phase counts from when the desk was last left (it survives later 'free' readings), today only
  const leftAt = typeof sensor.left_at === 'number' ? sensor.left_at : null;
  const hours = { timeZone: ctx.timeZone, hourStart: config.hourStart, hourEnd: config.hourEnd };
  const ratio = leftAt !== null && isOnLocalDayOf(leftAt, ctx.now, ctx.timeZone)
    ? cleanDeskRatio(leftAt, false, ctx.now, config.cleanDeskPolicy, hours) : null;
  if (ratio === null) return { occupied: false, phase: null, ratio: null, color: colors.room[0] ?? colors.missing, word: 'free', statusKind: 'free' };
  if (ratio < 1) next.push(ctx.now + (1 - ratio) * config.cleanDeskPolicy * 60_000);
  next.push(endOfLocalDayAt(ctx.now, ctx.timeZone));
  const phase = cleanDeskPhase(ratio, false, config);
  return {
    occupied: false, phase, ratio, color: cleanDeskColor(ratio, config), word: CLEAN_DESK_PHASE_LABELS[phase].toLowerCase(),
    statusKind: DESK_PHASE_KINDS[phase],
  };
}

/** The sensor facts of the many assets that read no environment layer: one object for all of them. */
const NO_SENSOR_FACTS: Readonly<AssetFacts['sensors']> = {};

function sensorLayerFacts(sensors: readonly Sensor[], ctx: DeriveContext, config: ResolvedConfig, next: Soonest): AssetFacts['sensors'] {
  let out: AssetFacts['sensors'] | null = null;
  for (const s of sensors) {
    if (!isSensorLayer(s.type)) continue;
    const layer = s.type;
    const m = s.last_measurement;
    const value = numericValue(m ? m.value : s.value);
    if (value === null) continue;
    const timedOut = !!m && ctx.now > m.valid_to;
    if (m && !timedOut) next.push(m.valid_to + 1);
    const spec = scaleSpecFor(layer, config);
    out ??= {};
    out[layer] = {
      value,
      unit: (s as { unit?: string | null }).unit ?? spec.unit,
      color: timedOut ? config.statusColors.missing : sensorColor(layer, value, spec),
      timedOut,
    };
  }
  return out ?? NO_SENSOR_FACTS;
}

/** A chain of parents longer than this is not walked further (a loop in bad data ends here). */
const MAX_ANCESTORS = 16;

/**
 * The nearest unpublished asset `asset` stands in, up to its floor (a desk in an unpublished room): what
 * stands in an unpublished asset is hidden with it (docs/security.md "What only the edit role sees").
 * Most assets stand on the floor itself: one look-up.
 */
export function unpublishedAncestor(store: Store, asset: Asset): Asset | null {
  let parent = asset.parent_id;
  for (let hops = 0; parent && hops < MAX_ANCESTORS && !store.floors.has(parent); hops++) {
    const up = store.assets.get(parent);
    if (!up) return null;
    if (up.unpublished) return up;
    parent = up.parent_id;
  }
  return null;
}

export function computeFacts(asset: Asset, ctx: DeriveContext): AssetFacts | null {
  const kind = assetKind(asset);
  if (!kind) return null;
  const { store, now } = ctx;
  const sensors = sensorsOf(store, asset);
  const floorId = store.floorOf.get(asset.id) ?? null;
  const floor = floorId ? store.floors.get(floorId) : undefined;
  const userId = linkedUserId(store, asset);
  const own = userId !== null && userId === ctx.viewerUserId;
  const user = userId ? store.users.get(userId) ?? null : null;
  let superseded = false;
  if (userId && personAssetIds(store, userId).length > 1) {
    const chosen = choosePosition(store, userId, now);
    superseded = chosen !== null && chosen.assetId !== asset.id;
  }
  const hiddenBy = unpublishedAncestor(store, asset);
  // invisible users keep their objects but are not shown to others
  const reachable = assetVisibleToRoles(asset, ctx.roles) && (!hiddenBy || assetVisibleToRoles(hiddenBy, ctx.roles))
    && (!floor || floorVisibleToRoles(floor, ctx.roles)) && (!user || user.visible || own);
  const config = ctx.config.forAsset(asset);
  return readings({
    asset, kind, floorId, reachable, hiddenBy, own, superseded,
    layers: layersOf(kind, asset, sensors),
    user,
    decoration: user ? avatarDecoration(user, now, ctx.timeZone) : null,
    config,
    sources: sensors,
  }, sensors, ctx);
}

/**
 * The facts again after only sensor readings of the asset changed (spec §4:
 * a new occupancy value re-derives the desk's status and colour): what
 * depends on the asset, its floor, its user, the roles and its configuration
 * is taken from `prev`, what depends on readings and time is derived anew.
 * Not for people, whose position choice depends on their other assets.
 */
export function refreshFacts(prev: AssetFacts, ctx: DeriveContext): AssetFacts {
  return readings(prev.standing, prev.standing.sources, ctx);
}

/**
 * What depends on the asset, its floor, its user, the roles and its configuration, not on readings or time;
 * and the asset's sensors themselves (`sources`). Readings change a sensor in place (store/measurements.ts),
 * while a sensor created, replaced or deleted marks its assets changed (applyBatch `touched`), which derives
 * them afresh: so the same sensor objects hold for as long as these standing facts do, and a refresh reads
 * them without looking each one up in the location's sensors again (issue 14).
 */
export type StandingFacts = Readonly<Pick<AssetFacts, 'asset' | 'kind' | 'floorId' | 'reachable' | 'hiddenBy' | 'own' | 'superseded' | 'layers' | 'user' | 'decoration' | 'config'>>
  & { readonly sources: readonly Sensor[] };

/** Everything that follows from the readings and the time, on top of the standing facts. */
function readings(base: StandingFacts, sensors: readonly Sensor[], ctx: DeriveContext): AssetFacts {
  const { asset, kind, own, config } = base;
  const { now } = ctx;
  const latest = latestValue(asset, sensors);
  // spec §4: 'not drawn when privacy-filtered and not local' — local is the asset's own flag (§3),
  // the client-derived employee asset of a user, not "stands for the viewer" (docs/domain.md)
  const freshness = computeFreshness(asset, latest, now);
  const next = soonest.from(now);
  if (freshness.recheckAt !== null && freshness.action !== 'none') next.push(freshness.recheckAt);
  // a fade starts later: from then on the timeline re-derives it
  if (freshness.action === 'fade_out' && latest) next.push(latest.valid_to - (latest.valid_to - latest.time) * FADE_OUT_PORTION);
  const room = kind === 'room' ? roomFacts(asset, sensors, ctx, config, next) : null;
  const desk = kind === 'desk' ? deskFacts(sensors, ctx, config, next) : null;
  const sensorFacts = sensorLayerFacts(sensors, ctx, config, next);
  let heat: number | null = null;
  if ((kind === 'employee' || kind === 'auto_tag') && latest) {
    const span = latest.valid_to - latest.time;
    heat = span > 0 ? Math.max(0, Math.min(1, (latest.valid_to - now) / span)) : (now > latest.valid_to ? 0 : 1);
  }
  const nextChangeAt = next.future ? Math.min(next.at, now + MAX_RECHECK_DELAY_MS) : null;
  return {
    asset, kind, floorId: base.floorId, reachable: base.reachable, hiddenBy: base.hiddenBy, own, superseded: base.superseded,
    layers: base.layers,
    freshness, room, desk, sensors: sensorFacts, heat,
    user: base.user,
    decoration: base.decoration,
    config,
    device: kind === 'sensor' ? deviceFacts(sensors) : null,
    nextChangeAt,
    continuous: freshness.fading || (desk?.ratio !== null && desk?.ratio !== undefined && desk.ratio < 1 && desk.occupied === false)
      || (heat !== null && heat > 0 && heat < 1),
    standing: base,
  };
}
