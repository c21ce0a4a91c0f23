// The live wire contract shared by the reference server and the engine
// (DESIGN §3, docs/protocol.md). Pure types and pure naming functions only:
// encoding (pako, base64) lives in adapters on each side; the packet's
// schema is src/shared/schemas/live.ts.

import type { Id } from './types.js';

/** Collections a live change may touch. */
export const COLLECTIONS = [
  'organizations', 'locations', 'users', 'external_objects',
  'assets', 'sensors', 'measurements', 'heartbeats', 'notifications',
] as const;
export type Collection = (typeof COLLECTIONS)[number];

export const CHANGE_KINDS = ['created', 'modified', 'deleted'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
/** 'initial' is the kind of a REST base load, never sent live */
export type AnyChangeKind = ChangeKind | 'initial';

/**
 * Who an organization or location stream is for. Without it: everyone who
 * reaches the organization (unpublished assets, hidden floors, what stands on
 * them and positions on them are left out). 'edit': the edit role only; a
 * complete, unfiltered mirror of the scope's changes with its own stream id
 * and sequence (spec §5/§6).
 */
export type StreamAudience = 'edit';
/** The audience of a location stream (the same two as an organization's). */
export type LocationAudience = StreamAudience;

/** Scopes of streams: one stream per channel. */
export type StreamScope =
  | { kind: 'organization'; organizationId: Id; audience?: StreamAudience }
  | { kind: 'location'; organizationId: Id; locationId: Id; audience?: StreamAudience }
  | { kind: 'user'; userId: Id };

/** The location scope of `audience` ('edit' or the public stream when undefined/null). */
export function locationStreamScope(organizationId: Id, locationId: Id, audience?: StreamAudience | null): StreamScope {
  return audience ? { kind: 'location', organizationId, locationId, audience } : { kind: 'location', organizationId, locationId };
}

/** The organization scope of `audience` ('edit' or the shared stream when undefined/null). */
export function organizationStreamScope(organizationId: Id, audience?: StreamAudience | null): StreamScope {
  return audience ? { kind: 'organization', organizationId, audience } : { kind: 'organization', organizationId };
}

/** Whether `scope` is the edit-audience stream of a location or an organization. */
export function isEditScope(scope: StreamScope): boolean {
  return scope.kind !== 'user' && scope.audience === 'edit';
}

/** Which collections each scope carries. */
export const SCOPE_COLLECTIONS: Record<StreamScope['kind'], readonly Collection[]> = {
  organization: ['organizations', 'locations', 'users', 'external_objects'],
  location: ['assets', 'sensors', 'measurements', 'heartbeats'],
  user: ['notifications'],
};

export interface MeasurementChangeData {
  sensor_id: Id;
  /** sensor type, e.g. 'occupancy', 'co2', 'location', 'reservation' */
  type: string;
  /** wire measurement value (normalized on the client) */
  value: Record<string, unknown>;
}

export interface HeartbeatChangeData {
  sensor_id: Id;
  time: number;
  battery_level?: number | null;
}

// The packet, its changes and frames, and stream positions are declared once as
// schemas (src/shared/schemas/live.ts); these are their static types.
export type { LiveChange, LiveFrame, LivePacket, StreamPosition } from './schemas/live.js';

export const STREAM_ID_HEADER = 'x-stream-id';
export const STREAM_SEQUENCE_HEADER = 'x-stream-sequence';

/** Pusher event name of live packets. */
export const PUSHER_EVENT = 'changes';

/** MQTT topic filter the client subscribes to (spec §7). */
export function mqttTopicFilter(scope: StreamScope): string {
  return `${mqttTopicBase(scope)}/#`;
}

/** MQTT topic the server publishes to. */
export function mqttPublishTopic(scope: StreamScope): string {
  return `${mqttTopicBase(scope)}/changes`;
}

function mqttTopicBase(scope: StreamScope): string {
  switch (scope.kind) {
    case 'location':
      // '_edit' below the location: a '#' subscriber of the location is kept
      // from receiving it by the broker's ACL, not by the topic (docs/protocol.md §5)
      return scope.audience === 'edit'
        ? `eb/changes/${scope.organizationId}/${scope.locationId}/_edit`
        : `eb/changes/${scope.organizationId}/${scope.locationId}`;
    case 'organization':
      // '_org' cannot clash with a location id (ids are digits or uuids); its
      // '_edit' sits where a location's does, under the same broker deny
      return scope.audience === 'edit'
        ? `eb/changes/${scope.organizationId}/_org/_edit`
        : `eb/changes/${scope.organizationId}/_org`;
    case 'user':
      return `eb/users/${scope.userId}`;
  }
}

/** Pusher private channel name of a scope. */
export function pusherChannel(scope: StreamScope): string {
  switch (scope.kind) {
    case 'location':
      return scope.audience === 'edit'
        ? `private-eb-edit-${scope.organizationId}-${scope.locationId}`
        : `private-eb-changes-${scope.organizationId}-${scope.locationId}`;
    case 'organization':
      return scope.audience === 'edit'
        ? `private-eb-edit-${scope.organizationId}`
        : `private-eb-changes-${scope.organizationId}`;
    case 'user':
      return `private-eb-user-${scope.userId}`;
  }
}

/** Parses a Pusher channel name back into its scope, or null. */
export function scopeFromPusherChannel(channel: string): StreamScope | null {
  let m = /^private-eb-changes-([A-Za-z0-9_]+)-([A-Za-z0-9_]+)$/.exec(channel);
  if (m) return { kind: 'location', organizationId: m[1]!, locationId: m[2]! };
  m = /^private-eb-edit-([A-Za-z0-9_]+)-([A-Za-z0-9_]+)$/.exec(channel);
  if (m) return { kind: 'location', organizationId: m[1]!, locationId: m[2]!, audience: 'edit' };
  m = /^private-eb-changes-([A-Za-z0-9_]+)$/.exec(channel);
  if (m) return { kind: 'organization', organizationId: m[1]! };
  m = /^private-eb-edit-([A-Za-z0-9_]+)$/.exec(channel);
  if (m) return { kind: 'organization', organizationId: m[1]!, audience: 'edit' };
  m = /^private-eb-user-([A-Za-z0-9_]+)$/.exec(channel);
  if (m) return { kind: 'user', userId: m[1]! };
  return null;
}

/** Stable key of a scope, for maps. */
export function scopeKey(scope: StreamScope): string {
  switch (scope.kind) {
    case 'location':
      return scope.audience === 'edit'
        ? `location:${scope.organizationId}:${scope.locationId}:edit`
        : `location:${scope.organizationId}:${scope.locationId}`;
    case 'organization':
      return scope.audience === 'edit' ? `organization:${scope.organizationId}:edit` : `organization:${scope.organizationId}`;
    case 'user':
      return `user:${scope.userId}`;
  }
}
