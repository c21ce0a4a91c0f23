// The views of the engine's API (api.ts): what a subscription asks for (ViewSpec), the messages it gets
// (one snapshot, in parts when large, then patches of the changed entries) and how the listener crosses to
// the worker.

import type { MapLayer } from '../constants.js';
import type { ReportRequest } from '../reports/types.js';
import type { Id } from '../types.js';

export type ViewSpec =
  | { view: 'floor'; floorId: Id; layers: readonly MapLayer[] }
  | { view: 'structure' }
  | { view: 'connection' }
  | { view: 'notifications' }
  /** everyone of the organization; with `playback`, where a replay's readings placed them at its instant */
  | { view: 'people'; playback?: PlaybackAt }
  /** the location's rooms; with `playback`, the replayed floor's rooms at its instant (none bookable) */
  | { view: 'rooms'; playback?: PlaybackAt }
  | { view: 'session' }
  | { view: 'feed' }
  /** a report of the loaded location (src/shared/reports/types.ts, docs/reports.md) */
  | { view: 'report'; report: ReportRequest }
  /** one asset's popup details (entry SELF_KEY; none while the asset is not visible); with `playback`, as the replay shows it at its instant */
  | { view: 'asset'; assetId: Id; playback?: PlaybackAt }
  /** the asset finder: results of one query, keyed by SearchResult.key (docs/ui.md) */
  | { view: 'search'; query: string }
  /** a room-status display's one room (entry SELF_KEY; none while the room is unknown or not visible) */
  | { view: 'roomDisplay'; roomId: Id }
  /** directions between floors (entry SELF_KEY, docs/wayfinding.md) */
  | { view: 'route'; from: RouteEndpoint; to: RouteEndpoint }
  /** a floor replayed at a moment of a local day (worker/reports/playback.ts); setPlaybackTime moves it */
  | { view: 'playback'; floorId: Id; layers: readonly MapLayer[]; day: string; at?: number };

/**
 * A floor's replay of a local day (the playback view's floor and day): a popup opened in it, and the
 * People and Rooms panels, show the replayed instant. The playback view's `at` is the instant it shows
 * (a floor switched to during a replay carries the instant over).
 */
export interface PlaybackAt {
  floorId: Id;
  day: string;
}

/** One end of a route: the viewer, an asset, or a co-worker. */
export type RouteEndpoint = { kind: 'me' } | { kind: 'asset'; id: Id } | { kind: 'person'; id: Id };

export type ViewName = ViewSpec['view'];

/** Key used by singleton views (connection, session). */
export const SELF_KEY = 'self';

export interface ViewSnapshotMessage<T = unknown, M = unknown> {
  type: 'snapshot';
  /** increases by one per snapshot or patch of this subscription */
  version: number;
  entries: Record<string, T>;
  meta: M;
  /** a large snapshot comes in this many messages: this one, then snapshotPart messages of its version */
  parts?: number;
}

/** The rest of a snapshot sent in parts; the snapshot is whole once every part arrived. */
export interface ViewSnapshotPartMessage<T = unknown> {
  type: 'snapshotPart';
  /** the snapshot's version */
  version: number;
  /** 1 … parts − 1 */
  part: number;
  entries: Record<string, T>;
}

export interface ViewPatchMessage<T = unknown, M = unknown> {
  type: 'patch';
  version: number;
  /** entries added or changed, whole */
  upserted: Record<string, T>;
  /**
   * entries the receiver holds since an earlier message, changed in a few fields: only those fields, to be merged
   * into the held entry. Only a view's port to the page makes them (worker/views/viewPort.ts, issue 14); the
   * page's mirror merges them (ui/engine/viewMirror.ts).
   */
  changed?: Record<string, Partial<T>>;
  removed: string[];
  /** present only when the meta changed; replaces it whole */
  meta?: M;
}

export type ViewMessage<T = unknown, M = unknown> = ViewSnapshotMessage<T, M> | ViewSnapshotPartMessage<T> | ViewPatchMessage<T, M>;
export type ViewListener = (message: ViewMessage) => void;

/**
 * The Comlink transfer handler a view listener crosses to the worker by: a one-way MessagePort the worker posts
 * each view message on, and a `null` when it lets the listener go (ui/engine/viewPort.ts makes the port,
 * worker/views/viewPort.ts posts on it). Nothing comes back per message, unlike a Comlink.proxy's call.
 */
export const VIEW_PORT_HANDLER = 'storey.viewPort';
