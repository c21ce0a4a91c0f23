// Asset bodies (spec §3, §7 …/assets): every field an asset may be created or
// updated with, so a body naming anything else — including the read-only
// fields of spec §3 — is refused before a handler runs. Buildings and floors
// are assets and carry their own fields here too.

import { Type, type Static } from 'typebox';
import { ASSET_TYPES } from '../types.js';
import {
  CLOSED, Config, Id, IdList, Nullable, NullableText, Outline, Params, Rgb, SafeUrl, StringList, Text, Vec2, Vec3,
} from './common.js';

const Num = Type.Number();
const NullableUrl = Nullable(SafeUrl);

export const AssetType = Type.Enum(ASSET_TYPES);

/** Every writable asset field, optional. */
const assetFields = {
  name: Type.Optional(Text(500)),
  type: Type.Optional(AssetType),
  subtype: Type.Optional(NullableText),
  parent_id: Type.Optional(Nullable(Id)),
  x: Type.Optional(Num), y: Type.Optional(Num), z: Type.Optional(Num),
  coords: Type.Optional(Nullable(Vec3)),
  angles: Type.Optional(Vec3),
  outline: Type.Optional(Nullable(Outline)),
  wgs84_coords: Type.Optional(Nullable(Vec3)),
  wgs84_outline: Type.Optional(Nullable(Outline)),
  texture_path: Type.Optional(NullableUrl),
  model_path: Type.Optional(NullableUrl),
  value: Type.Optional(Type.Unknown()),
  prev_value: Type.Optional(Type.Unknown()),
  unit: Type.Optional(NullableText),
  width: Type.Optional(Num), height: Type.Optional(Num), depth: Type.Optional(Num),
  shade: Type.Optional(Nullable(Rgb)),
  overriding_color: Type.Optional(Nullable(Rgb)),
  data_providers: Type.Optional(IdList),
  data_provider_refs: Type.Optional(Type.Record(Type.String(), Id)),
  default_sensor_type: Type.Optional(NullableText),
  capabilities: Type.Optional(StringList),
  external_objects: Type.Optional(IdList),
  targets: Type.Optional(IdList),
  speech_bubble: Type.Optional(NullableText),
  unpublished: Type.Optional(Type.Boolean()),
  travelling_asset_floor_index: Type.Optional(Nullable(Type.Integer())),
  tag_zones: Type.Optional(IdList),
  config: Type.Optional(Config),
  timeout_action: Type.Optional(NullableText),
  popup_type: Type.Optional(NullableText),
  popup_content_type: Type.Optional(NullableText),
  popup_width: Type.Optional(Num), popup_height: Type.Optional(Num),
  alert_on_activity: Type.Optional(StringList),
  privacy_filtered: Type.Optional(Type.Boolean()),
  categories: Type.Optional(Config),
  floor_shade: Type.Optional(Nullable(Rgb)),
  history: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 10_000 })),
  // shape assets
  floor_texture: Type.Optional(NullableUrl),
  floor_texture_repeat: Type.Optional(Nullable(Num)),
  openings: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 10_000 })),
  wall_shade: Type.Optional(Nullable(Rgb)),
  edge_shade: Type.Optional(Nullable(Rgb)),
  // buildings
  floors: Type.Optional(IdList),
  default_floor: Type.Optional(Type.Integer()),
  ground_level: Type.Optional(Num),
  ground_floor_adjust: Type.Optional(Num),
  latitude: Type.Optional(Nullable(Num)),
  longitude: Type.Optional(Nullable(Num)),
  north_vector: Type.Optional(Num),
  location_offset: Type.Optional(Vec2),
  // floors
  hidden: Type.Optional(Type.Boolean()),
  building_relative_z: Type.Optional(Num),
  building_relative_index: Type.Optional(Type.Integer()),
  floor_plan_img_path: Type.Optional(NullableUrl),
  zones_img_path: Type.Optional(NullableUrl),
  floor_plan_img_offset_x: Type.Optional(Num),
  floor_plan_img_offset_y: Type.Optional(Num),
};

/** POST …/assets. Tickets and voices are assets of type 'ticket'/'voice' (see TicketValue in rest.ts). */
export const CreateAssetRequest = Type.Object({ ...assetFields, type: AssetType, name: Text(500) }, CLOSED);
export type CreateAssetRequest = Static<typeof CreateAssetRequest>;

/** PATCH …/assets/{id}: never version, timestamps, owner, id, uuid or location (spec §3). */
export const UpdateAssetRequest = Type.Object(assetFields, CLOSED);
export type UpdateAssetRequest = Static<typeof UpdateAssetRequest>;

/** GET …/assets query. `type` may be a comma-separated list. */
export const AssetsQuery = Type.Object({
  type: Type.Optional(Text(500)),
  /** drop tickets, voices and other assets whose value's valid_to is past */
  filter_expired: Type.Optional(Type.Boolean()),
}, CLOSED);
export type AssetsQuery = Static<typeof AssetsQuery>;

/** PUT …/assets/{id}/images/{name}: a name that is a plain file name (no leading dot) */
export const AssetImageParams = Type.Object({
  ...Params('orgId', 'locId', 'assetId').properties,
  name: Type.String({ pattern: '^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}$' }),
}, CLOSED);

/** Response of PUT …/assets/{id}/images/{name} and PUT users/{id}/image (raw image body). */
export const ImageResponse = Type.Object({
  name: Type.String(),
  /** relative to settings.cdn_base_url */
  path: Type.String(),
  content_type: Type.String(),
  size: Type.Integer(),
});
export type ImageResponse = Static<typeof ImageResponse>;

/** PUT …/assets/{id}/vote */
export const VoteRequest = Type.Object({ direction: Type.Union([Type.Literal(1), Type.Literal(-1)]) }, CLOSED);
export type VoteRequest = Static<typeof VoteRequest>;
/** Response of PUT and DELETE …/vote */
export const VoteResponse = Type.Object({
  up: Type.Integer(), down: Type.Integer(), mine: Type.Union([Type.Literal(1), Type.Literal(-1), Type.Literal(0)]),
});
export type VoteResponse = Static<typeof VoteResponse>;
