// Record shapes the server keeps and the defaults that make a partial body a
// whole wire object. Server records are the wire types of src/shared/rest.ts
// plus a few private fields kept in side maps (credentials, votes, files).

import { createHash, randomUUID } from 'node:crypto';
import {
  ASSET_DEFAULT_SIZE, FLOOR_DEFAULT_HEIGHT, POPUP_DEFAULT_HEIGHT, POPUP_DEFAULT_WIDTH,
} from '../../src/shared/constants.js';
import type {
  WireAsset, WireExternalObject, WireLocation, WireNotification, WireOrganization, WireSensor, WireUser,
} from '../../src/shared/rest.js';
import type { Id } from '../../src/shared/types.js';

export interface Credentials {
  /** scrypt hash `salt:hash` (hex); null until a password is set */
  passwordHash: string | null;
  /**
   * The user set their address themself and no code mailed to it has come
   * back since: OpenID sign-in for that address does not open this account
   * (docs/security.md "OpenID and addresses nobody proved").
   */
  addressUnproven?: boolean;
}

export interface TokenRecord {
  userId: Id;
  expiresAt: number;
  /** a room display's token (docs/security.md): read and book only, kept alive by use */
  display?: boolean;
}

/** A session's public name: a hash of its token, so live credentials and logs never carry the token. */
export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('base64url').slice(0, 22);
}

/** Why sessions end: sign-out, a password change, a permission taken away, a deleted user. */
/** `displaced`: ended by a newer sign-in of the user past MAX_SESSIONS_PER_USER (server/auth.ts) */
export type RevocationReason = 'signOut' | 'password' | 'permissions' | 'deleted' | 'displaced';

/** Sessions ended at once; `wholeUser` when none of the user's live access may stay (deleted, permissions). */
export interface Revocation {
  userId: Id;
  sessionIds: string[];
  reason: RevocationReason;
  wholeUser: boolean;
}

export type MailCodePurpose = 'signup' | 'recover' | 'invite';

/** An account made only when its mailed code comes back (a signup, or an invitation: docs/security.md "Addresses that have an account"). */
export interface PendingAccount {
  email: string;
  organizationId: Id;
  invite?: { permissions: string[]; first_name?: string; last_name?: string };
}

export interface MailCode {
  /** the user the code is for; null for a signup, whose user exists only once the code is confirmed */
  userId: Id | null;
  purpose: MailCodePurpose;
  expiresAt: number;
  /** a signup's address and the organization it joins; an invitation's also what the inviter gave the account */
  signup?: PendingAccount;
}

export interface StoredFile {
  contentType: string;
  data: Buffer;
}

export interface BookingRecord {
  bookingRef: string;
  sensorId: Id;
  roomId: Id;
  userId: Id;
}

export function makeAsset(id: Id, locationId: Id, body: Partial<WireAsset>, now: number, ownerId: Id | null): WireAsset {
  const asset: WireAsset = {
    name: '',
    type: 'shape',
    subtype: null,
    parent_id: null,
    x: 0,
    y: 0,
    z: 0,
    angles: [0, 0, 0],
    outline: null,
    texture_path: null,
    model_path: null,
    value: null,
    prev_value: null,
    unit: null,
    width: ASSET_DEFAULT_SIZE,
    height: ASSET_DEFAULT_SIZE,
    depth: ASSET_DEFAULT_SIZE,
    shade: null,
    overriding_color: null,
    data_providers: [],
    data_provider_refs: {},
    default_sensor_type: null,
    capabilities: [],
    external_objects: [],
    targets: [],
    speech_bubble: null,
    unpublished: false,
    travelling_asset_floor_index: null,
    tag_zones: [],
    config: {},
    timeout_action: null,
    popup_type: null,
    popup_content_type: null,
    popup_width: POPUP_DEFAULT_WIDTH,
    popup_height: POPUP_DEFAULT_HEIGHT,
    alert_on_activity: [],
    privacy_filtered: false,
    categories: {},
    floor_shade: null,
    history: [],
    ...body,
    id,
    uuid: randomUUID(),
    location_id: locationId,
    version: 1,
    creation_timestamp: now,
    update_timestamp: now,
    owner_id: ownerId,
  };
  if (asset.type === 'floor') {
    asset.height = body.height ?? FLOOR_DEFAULT_HEIGHT;
    asset.hidden ??= false;
    asset.building_relative_z ??= 0;
    asset.building_relative_index ??= 0;
    asset.floor_plan_img_path ??= null;
    asset.zones_img_path ??= null;
    asset.floor_plan_img_offset_x ??= 0;
    asset.floor_plan_img_offset_y ??= 0;
  }
  if (asset.type === 'building') {
    asset.floors ??= [];
    asset.default_floor ??= 0;
    asset.ground_level ??= 0;
    asset.ground_floor_adjust ??= 0;
    asset.latitude ??= null;
    asset.longitude ??= null;
    asset.north_vector ??= 0;
  }
  return asset;
}

export function makeSensor(id: Id, locationId: Id, body: Partial<WireSensor> & { type: string }): WireSensor {
  return {
    legacy_id: null,
    subtype: null,
    asset_id: null,
    unit: null,
    value: null,
    prev_value: null,
    daily_delta_value: null,
    day_start_value: null,
    last_measurement: null,
    previous_measurement: null,
    last_communication_time: null,
    last_status: { battery_level: null },
    virtual_sensor_id: null,
    vendor_id: null,
    active: true,
    ...body,
    id,
    uuid: randomUUID(),
    location_id: locationId,
  };
}

export function makeOrganization(id: Id, body: Partial<WireOrganization> & { name: string }): WireOrganization {
  return {
    locations: [],
    locations_map: {},
    config: {},
    email_domains: [],
    sso_uri: null,
    ...body,
    id,
    uuid: randomUUID(),
  };
}

export function makeLocation(id: Id, organizationId: Id, body: Partial<WireLocation> & { name: string }): WireLocation {
  return {
    timezone: 'UTC',
    latitude: 0,
    longitude: 0,
    buildings: [],
    config: {},
    ...body,
    id,
    organization_id: organizationId,
  };
}

export function makeUser(id: Id, organizationId: Id, body: Partial<WireUser> & { email: string }): WireUser {
  return {
    first_name: '',
    last_name: '',
    visible: true,
    location_tag_id: null,
    location: null,
    avatar_timestamp: null,
    avatar_url: null,
    speech_bubble: null,
    decoration: null,
    external_objects: [],
    permissions: [],
    ...body,
    email: body.email.toLowerCase(),
    id,
    uuid: randomUUID(),
    organization_id: organizationId,
  };
}

export function makeExternalObject(id: Id, body: Omit<WireExternalObject, 'id'>): WireExternalObject {
  return { ...body, id };
}

export type NotificationInput = Pick<WireNotification, 'user_id' | 'title' | 'body' | 'created' | 'read' | 'level' | 'link'>;

export function makeNotification(id: Id, body: NotificationInput): WireNotification {
  return { ...body, id };
}
