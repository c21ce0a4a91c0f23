// Asset normalizer (spec §3, §5): every field with its default, coordinates
// from local or wgs84 input, shape assets' fields and derived geometry.
// Never throws; bad fields are repaired with a warning to the injected logger.

import { ASSET_DEFAULT_SIZE, POPUP_DEFAULT_HEIGHT, POPUP_DEFAULT_WIDTH } from '../constants.js';
import { shapeGeometry } from '../geo.js';
import type { Asset, AssetCategories, HistoryEntry, Id, TimeoutAction } from '../types.js';
import { normalizeAngles, normalizeColor, normalizeCoords, normalizeOutline } from './geometry.js';
import { identifiedRecord, normalizeList } from './list.js';
import {
  isRecord, toBool, toConfig, toId, toIdList, toIntOrNull, toNumOrNull, toPositive, toStr,
  toStrList, toStrOrNull, toTime, type NormalizeContext, type Raw,
} from './primitives.js';

export const TIMEOUT_ACTIONS: readonly TimeoutAction[] = ['skip', 'fade_out', 'missing', 'grey_out', 'none'];

function toTimeoutAction(value: unknown): TimeoutAction | null {
  return typeof value === 'string' && (TIMEOUT_ACTIONS as readonly string[]).includes(value)
    ? (value as TimeoutAction)
    : null;
}

function toHistory(value: unknown): HistoryEntry[] {
  if (!Array.isArray(value)) return [];
  const out: HistoryEntry[] = [];
  for (const item of value) {
    if (!isRecord(item)) continue;
    const timestamp = toTime(item.timestamp ?? item.time);
    if (timestamp === null) continue;
    out.push({ ...item, timestamp, value: item.value });
  }
  return out.sort((a, b) => a.timestamp - b.timestamp);
}

function toRefs(value: unknown): Record<string, Id> {
  const out: Record<string, Id> = {};
  if (!isRecord(value)) return out;
  for (const [key, ref] of Object.entries(value)) {
    const id = toId(ref);
    if (id !== null) out[key] = id;
  }
  return out;
}

function toVotes(value: unknown): Asset['votes'] {
  if (!isRecord(value)) return undefined;
  const mine = toNumOrNull(value.mine);
  return {
    up: toNumOrNull(value.up) ?? 0,
    down: toNumOrNull(value.down) ?? 0,
    ...(mine === 1 || mine === -1 || mine === 0 ? { mine } : {}),
  };
}

export function normalizeAsset(raw: unknown, ctx: NormalizeContext): Asset | null {
  const got = identifiedRecord(raw, 'asset', ctx);
  if (!got) return null;
  return buildAsset(got.r, got.id, ctx);
}

function buildAsset(r: Raw, id: Id, ctx: NormalizeContext): Asset {
  const kind = 'asset';
  const position = normalizeCoords(r, kind, id, ctx);
  const { outline, wgs84_outline } = normalizeOutline(r, kind, id, ctx);
  const shape = outline ? shapeGeometry(outline) : null;
  // a shape given only by its outline sits at the outline's centre
  const coords = !position.given && shape ? ([shape.center[0], shape.center[1], 0] as const) : position.coords;
  const votes = toVotes(r.votes);
  const asset: Asset = {
    id,
    uuid: toStr(r.uuid),
    name: toStr(r.name),
    type: toStr(r.type, 'generic'),
    subtype: toStrOrNull(r.subtype),
    parent_id: toId(r.parent_id),
    x: coords[0],
    y: coords[1],
    z: coords[2],
    coords: [coords[0], coords[1], coords[2]],
    angles: normalizeAngles(r, kind, id, ctx),
    outline,
    wgs84_coords: position.wgs84_coords,
    wgs84_outline,
    texture_path: toStrOrNull(r.texture_path),
    model_path: toStrOrNull(r.model_path),
    value: r.value ?? null,
    prev_value: r.prev_value ?? null,
    unit: toStrOrNull(r.unit),
    width: toPositive(r.width, ASSET_DEFAULT_SIZE),
    height: toPositive(r.height, ASSET_DEFAULT_SIZE),
    depth: toPositive(r.depth, ASSET_DEFAULT_SIZE),
    shade: normalizeColor(r, 'shade', kind, id, ctx),
    overriding_color: normalizeColor(r, 'overriding_color', kind, id, ctx),
    data_providers: toIdList(r.data_providers),
    data_provider_refs: toRefs(r.data_provider_refs),
    default_sensor_type: toStrOrNull(r.default_sensor_type),
    capabilities: toStrList(r.capabilities),
    external_objects: toIdList(r.external_objects),
    targets: toIdList(r.targets),
    speech_bubble: toStrOrNull(r.speech_bubble),
    unpublished: toBool(r.unpublished),
    local: toBool(r.local),
    travelling_asset_floor_index: toIntOrNull(r.travelling_asset_floor_index),
    tag_zones: toIdList(r.tag_zones),
    config: toConfig(r.config),
    timeout_action: toTimeoutAction(r.timeout_action),
    popup_type: toStrOrNull(r.popup_type),
    popup_content_type: toStrOrNull(r.popup_content_type),
    popup_width: toPositive(r.popup_width, POPUP_DEFAULT_WIDTH),
    popup_height: toPositive(r.popup_height, POPUP_DEFAULT_HEIGHT),
    alert_on_activity: toStrList(r.alert_on_activity),
    privacy_filtered: toBool(r.privacy_filtered),
    categories: (isRecord(r.categories) ? { ...r.categories } : {}) as AssetCategories,
    floor_shade: normalizeColor(r, 'floor_shade', kind, id, ctx),
    history: toHistory(r.history),
    floor_texture: toStrOrNull(r.floor_texture),
    floor_texture_repeat: toNumOrNull(r.floor_texture_repeat),
    openings: Array.isArray(r.openings) ? [...r.openings] : [],
    wall_shade: normalizeColor(r, 'wall_shade', kind, id, ctx),
    edge_shade: normalizeColor(r, 'edge_shade', kind, id, ctx),
    shape,
  };
  if (votes) asset.votes = votes;
  return asset;
}

/** Normalizes a listing; duplicate ids warn and the later copy wins. */
export function normalizeAssets(raw: unknown, ctx: NormalizeContext): Asset[] {
  return normalizeList(raw, 'asset', ctx, normalizeAsset);
}
