// Per-user derived objects (spec §3): a local-only employee asset and a
// manual-location sensor whose value expires after manualLocationTimeout
// (12 h), plus the seasonal avatar decorations. Pure: `now` is an argument.

import { MANUAL_LOCATION_TIMEOUT_MS } from '../constants.js';
import { normalizeAsset } from '../normalize/asset.js';
import { manualLocationSensorId, userAssetId } from '../normalize/people.js';
import { localDayAt, localParts, safeTimeZone, type LocalDay } from '../time.js';
import type { Asset, MeasurementValue, Sensor, User } from '../types.js';

export interface DerivedUserObjects {
  asset: Asset;
  sensor: Sensor;
  /** invisible users keep their objects but are not shown to others */
  visible: boolean;
}

const silent = { warn: () => {} };

export function userDisplayName(user: Pick<User, 'first_name' | 'last_name' | 'email'>): string {
  const name = `${user.first_name} ${user.last_name}`.trim();
  return name !== '' ? name : user.email;
}

/** The manual location as a location value, valid for `timeoutMs` from when it was set; null without a position. */
export function manualLocationValue(user: Pick<User, 'location'>, timeoutMs = MANUAL_LOCATION_TIMEOUT_MS): MeasurementValue | null {
  const loc = user.location;
  if (!loc || typeof loc.x !== 'number' || typeof loc.y !== 'number') return null;
  return {
    time: loc.time,
    valid_for: timeoutMs,
    valid_to: loc.time + timeoutMs,
    battery_level: null,
    events: null,
    value: null,
    x: loc.x,
    y: loc.y,
    floor_id: loc.floor_id,
  };
}

/** A manual location expires when now is past its time + 12 h. Without one, it counts as expired. */
export function isManualLocationExpired(user: Pick<User, 'location'>, now: number, timeoutMs = MANUAL_LOCATION_TIMEOUT_MS): boolean {
  return !user.location || now > user.location.time + timeoutMs;
}

/**
 * The user's local employee asset and manual-location sensor. The asset
 * sits where the manual location puts it; freshness (employees skip on
 * timeout) hides it once the 12 h have passed.
 */
export function deriveUserAssets(user: User, timeoutMs = MANUAL_LOCATION_TIMEOUT_MS): DerivedUserObjects {
  const assetId = user.local_user_asset ?? userAssetId(user.id);
  const sensorId = user.manual_location_sensor ?? manualLocationSensorId(user.id);
  const value = manualLocationValue(user, timeoutMs);
  const asset = normalizeAsset(
    {
      id: assetId,
      uuid: user.uuid,
      name: userDisplayName(user),
      type: 'employee',
      parent_id: user.location?.floor_id ?? null,
      coords: value ? [value.x, value.y, 0] : undefined,
      data_providers: [sensorId],
      data_provider_refs: { location: sensorId },
      default_sensor_type: 'location',
      external_objects: user.external_objects,
      speech_bubble: user.speech_bubble,
      local: true,
      config: { user_id: user.id },
    },
    { logger: silent },
  )!;
  const sensor: Sensor = {
    id: sensorId,
    uuid: '',
    legacy_id: null,
    type: 'location',
    subtype: 'manual',
    asset_id: assetId,
    value: null,
    prev_value: null,
    daily_delta_value: null,
    day_start_value: null,
    last_measurement: value,
    previous_measurement: null,
    last_communication_time: value?.time ?? null,
    last_status: { battery_level: null },
    virtual_sensor_id: null,
    vendor_id: null,
    local: true,
  };
  return { asset, sensor, visible: user.visible };
}

export type DecorationKind = 'hat' | 'mask' | 'crown';

export interface SeasonalDecoration {
  name: string;
  kind: DecorationKind;
  /** inclusive local-date ranges as [month, day] pairs; a range may wrap over new year */
  from: [number, number];
  to: [number, number];
}

/** Later entries win where ranges overlap (31 Dec - 1 Jan: the party hat). */
export const SEASONAL_DECORATIONS: readonly SeasonalDecoration[] = [
  { name: 'crown', kind: 'crown', from: [1, 6], to: [1, 6] },
  { name: 'student_cap', kind: 'hat', from: [4, 30], to: [5, 1] },
  { name: 'halloween_mask', kind: 'mask', from: [10, 24], to: [10, 31] },
  { name: 'santa_hat', kind: 'hat', from: [12, 1], to: [12, 26] },
  { name: 'party_hat', kind: 'hat', from: [12, 31], to: [1, 1] },
];

function inRange(month: number, day: number, from: [number, number], to: [number, number]): boolean {
  const v = month * 100 + day;
  const a = from[0] * 100 + from[1];
  const b = to[0] * 100 + to[1];
  return a <= b ? v >= a && v <= b : v >= a || v <= b;
}

/** The seasonal decoration on the local date of `now` in the location's zone, or null. */
export function seasonalDecoration(now: number, timeZone: string): SeasonalDecoration | null {
  // every person derived asks for it: answered once per local day (Intl formatting costs microseconds, issue 14)
  const today = localDayAt(now, timeZone);
  const known = seasonOfDay.get(today);
  if (known !== undefined) return known;
  const { month, day } = localParts(now, safeTimeZone(timeZone));
  let found: SeasonalDecoration | null = null;
  for (const d of SEASONAL_DECORATIONS) if (inRange(month, day, d.from, d.to)) found = d;
  // the day's bounds hold `now` (else localDayAt made them for this call only, and nobody asks with them again)
  if (now >= today.start && now < today.end) seasonOfDay.set(today, found);
  return found;
}

/** The season's decoration per local day object of localDayAt (one per zone and day while it is asked about). */
const seasonOfDay = new WeakMap<LocalDay, SeasonalDecoration | null>();

/** A decoration the user chose wins over the season's. */
export function avatarDecoration(user: Pick<User, 'decoration'>, now: number, timeZone: string): string | null {
  return user.decoration?.name ?? seasonalDecoration(now, timeZone)?.name ?? null;
}
