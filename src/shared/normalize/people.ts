// Users, external objects, settings and notifications (spec §3). Each user
// gets the ids of their derived local employee asset and manual-location
// sensor here, so every layer names them the same way.

import { DEFAULT_AVATAR_URL } from '../constants.js';
import type { ExternalObject, Id, Notification, Settings, User, UserLocation } from '../types.js';
import { identifiedRecord, normalizeList } from './list.js';
import {
  isRecord, toBool, toId, toIdList, toNumOrNull, toStr, toStrOrNull, toTime,
  type NormalizeContext, type Raw,
} from './primitives.js';
import { WARN } from './warnings.js';

/** Id of the local-only employee asset derived for a user. */
export function userAssetId(userId: Id): Id {
  return `user-asset:${userId}`;
}

/** Id of the manual-location sensor derived for a user. */
export function manualLocationSensorId(userId: Id): Id {
  return `manual-location:${userId}`;
}

export function normalizeExternalObject(raw: unknown, ctx: NormalizeContext): ExternalObject | null {
  const got = identifiedRecord(raw, 'external object', ctx);
  if (!got) return null;
  const { r, id } = got;
  return { id, name: toStr(r.name), type: toStr(r.type), data: isRecord(r.data) ? { ...r.data } : {} };
}

export function normalizeExternalObjects(raw: unknown, ctx: NormalizeContext): ExternalObject[] {
  return normalizeList(raw, 'external object', ctx, normalizeExternalObject);
}

function toUserLocation(value: unknown): UserLocation | null {
  if (!isRecord(value)) return null;
  const locationId = toId(value.location_id);
  const floorId = toId(value.floor_id);
  const time = toTime(value.time);
  if (locationId === null || floorId === null || time === null) return null;
  const location: UserLocation = { location_id: locationId, floor_id: floorId, time };
  const x = toNumOrNull(value.x);
  const y = toNumOrNull(value.y);
  if (x !== null && y !== null) {
    location.x = x;
    location.y = y;
  }
  return location;
}

function toDecoration(value: unknown): User['decoration'] {
  if (typeof value === 'string' && value !== '') return { name: value };
  if (isRecord(value) && typeof value.name === 'string' && value.name !== '') return { name: value.name };
  return null;
}

export function normalizeUser(raw: unknown, ctx: NormalizeContext): User | null {
  const got = identifiedRecord(raw, 'user', ctx);
  if (!got) return null;
  const { r, id } = got;
  const avatar = toStrOrNull(r.avatar_url);
  return {
    id,
    uuid: toStr(r.uuid),
    organization_id: toStr(toId(r.organization_id) ?? ''),
    first_name: toStr(r.first_name),
    last_name: toStr(r.last_name),
    email: toStr(r.email),
    visible: toBool(r.visible, true),
    location_tag_id: toId(r.location_tag_id),
    location: toUserLocation(r.location),
    avatar_timestamp: toTime(r.avatar_timestamp),
    avatar_url: avatar && avatar !== '' ? avatar : DEFAULT_AVATAR_URL,
    speech_bubble: toStrOrNull(r.speech_bubble),
    decoration: toDecoration(r.decoration),
    external_objects: toIdList(r.external_objects),
    local_user_asset: userAssetId(id),
    manual_location_sensor: manualLocationSensorId(id),
  };
}

export function normalizeUsers(raw: unknown, ctx: NormalizeContext): User[] {
  return normalizeList(raw, 'user', ctx, normalizeUser);
}

/** Sign-in needs user data with a non-empty string id (spec §5). */
export function hasSignInUser(raw: unknown): boolean {
  return isRecord(raw) && isRecord(raw.user) && typeof raw.user.id === 'string' && raw.user.id !== '';
}

/**
 * Settings of a sign-in or `/v2/settings` response. Null (with a warning) when
 * the user is missing or has no non-empty string id. A missing permission
 * list becomes [] with a warning; role checks on the raw response still tell
 * 'No permissions' apart (see roles.ts).
 */
export function normalizeSettings(raw: unknown, ctx: NormalizeContext): Settings | null {
  if (!hasSignInUser(raw)) {
    ctx.logger.warn(WARN.settingsWithoutUser, raw);
    return null;
  }
  const r = raw as Raw;
  const user = normalizeUser(r.user, ctx);
  if (!user) return null;
  if (!Array.isArray(r.permissions)) ctx.logger.warn(WARN.settingsWithoutPermissions);
  const settings: Settings = {
    user,
    permissions: Array.isArray(r.permissions) ? r.permissions.filter((p): p is string => typeof p === 'string') : [],
    cdn_base_url: toStrOrNull(r.cdn_base_url),
  };
  if (isRecord(r.pusher_config)) {
    const p = r.pusher_config;
    settings.pusher_config = { app_key: toStr(p.app_key), cluster: toStr(p.cluster) };
    const wsHost = toStrOrNull(p.ws_host);
    const wsPort = toNumOrNull(p.ws_port);
    if (wsHost !== null) settings.pusher_config.ws_host = wsHost;
    if (wsPort !== null) settings.pusher_config.ws_port = wsPort;
    if (typeof p.force_tls === 'boolean') settings.pusher_config.force_tls = p.force_tls;
  }
  if (isRecord(r.mqtt_config)) {
    const m = r.mqtt_config;
    settings.mqtt_config = {};
    for (const key of ['hostname', 'username', 'password', 'url', 'mqtt_url'] as const) {
      const value = toStrOrNull(m[key]);
      if (value !== null) settings.mqtt_config[key] = value;
    }
  }
  return settings;
}

/** Notification fields are not shown in the spec; these are the ones we rely on. */
export function normalizeNotification(raw: unknown, ctx: NormalizeContext): Notification | null {
  const got = identifiedRecord(raw, 'notification', ctx);
  if (!got) return null;
  const { r, id } = got;
  return {
    ...r,
    id,
    user_id: toStr(toId(r.user_id) ?? ''),
    title: toStr(r.title),
    body: toStr(r.body ?? r.message),
    created: toTime(r.created ?? r.created_at ?? r.timestamp) ?? 0,
    read: toBool(r.read),
  };
}

export function normalizeNotifications(raw: unknown, ctx: NormalizeContext): Notification[] {
  return normalizeList(raw, 'notification', ctx, normalizeNotification);
}
