// The views a replay is seen through (docs/reports.md "## Playback"): the
// replayed floor, a popup opened in it and the People and Rooms panels beside
// it, each read from the replay's shadow at its instant by the live rules.
// A popup of a replay is read-only, and says which instant it shows.

import { SELF_KEY, type AssetActions, type AssetDetail, type DrawState, type PlaybackMeta, type ViewSpec } from '../../shared/api.js';
import type { MapLayer } from '../../shared/constants.js';
import { floorVisibleToRoles } from '../../shared/roles.js';
import type { Id, Role } from '../../shared/types.js';
import { computeFacts, type DeriveContext } from '../derive/assetFacts.js';
import { legendsFor } from '../derive/drawState.js';
import { sensorIdsOf, sensorsOf } from '../store/store.js';
import { assetDetail } from '../views/assetDetail.js';
import { drawKept } from '../views/sources.js';
import type { ViewSource } from '../views/viewHub.js';
import { replayPeopleSource, replayRoomsSource, type PanelReplay } from './playbackPanels.js';
import { assetAt, fillRecent } from './playbackShadow.js';
import { factsOf, onLayers, shownAsset, viewsChanged, warmAt, type Session } from './playbackSession.js';

export type PlaybackSpec = Extract<ViewSpec, { view: 'playback' }>;
/** a popup opened in a replay, or the People and Rooms panels beside it */
export type PlaybackAssetSpec = Extract<ViewSpec, { view: 'asset' | 'people' | 'rooms' }>;

/** A replay is read-only: nothing is booked, voted, renamed or closed in the past. */
const NO_ACTIONS: AssetActions = { book: false, cancellable: [], vote: false, rename: false, closeTicket: false, publish: false };

export interface ReplayViewEnv {
  roles(): readonly Role[];
  viewerUserId(): Id | null;
  timeZone(): string;
}

/** What the replay's rules derive with: its shadow store, "now" at its instant. */
export function deriveContext(s: Session, env: ReplayViewEnv): DeriveContext {
  return { store: s.shadow.store, now: s.time, viewerUserId: env.viewerUserId(), roles: env.roles(), config: s.config, timeZone: env.timeZone() };
}

/** The view of `spec` over the replay `cur()` returns (a reopen may have read it again: the views follow). */
export function replaySource(spec: PlaybackSpec | PlaybackAssetSpec, key: string, cur: () => Session, env: ReplayViewEnv): ViewSource {
  const reachable = (s: Session) => {
    const floor = s.shadow.store.floors.get(s.floorId);
    return !!floor && floorVisibleToRoles(floor, env.roles());
  };
  const ctx = (s: Session) => deriveContext(s, env);
  const shown = shownAsset;
  const dirty = (d: Parameters<ViewSource['metaAffected']>[0]) => d.get('playback') === 'all' || !!(d.get('playback') as Set<string> | undefined)?.has(key);
  if (spec.view === 'people' || spec.view === 'rooms') {
    const panel = (): PanelReplay => {
      const s = cur();
      const store = s.shadow.store;
      return {
        store, floorId: s.floorId, time: s.time, ready: s.progress.state === 'done',
        facts(id) {
          const asset = store.assets.get(id);
          if (!asset || !store.floorOf.has(id)) return null;
          warmAt(s, asset);
          return computeFacts(asset, ctx(s));
        },
      };
    };
    return spec.view === 'people' ? replayPeopleSource(panel, env.viewerUserId, dirty) : replayRoomsSource(panel, dirty);
  }
  if (spec.view === 'asset') {
    const id = String(spec.assetId);
    return {
      keys: () => [SELF_KEY],
      entry(k): AssetDetail | undefined {
        const s = cur();
        const store = s.shadow.store;
        const asset = k === SELF_KEY && reachable(s) ? shown(s, id) : undefined;
        if (!asset) return undefined;
        // its sensors at the instant (a step leaves those no floor view draws from), and its history: their
        // recent values then (a step does not fill them)
        warmAt(s, asset);
        for (const sid of sensorIdsOf(asset)) {
          const sensor = s.shadow.byId.get(sid);
          if (sensor) fillRecent(sensor);
        }
        const detail = assetDetail(computeFacts(assetAt(asset, s.time), ctx(s)), { store, roles: env.roles(), viewerUserId: env.viewerUserId(), now: s.time });
        if (!detail) return undefined;
        // none of its sensors had sent anything by then: the popup's own "No recent data" says so
        const sensors = sensorsOf(store, asset);
        const nothingKnown = sensors.length > 0 && sensors.every((x) => x.last_measurement === null);
        return { ...detail, noRecentData: detail.noRecentData || nothingKnown, votes: null, actions: NO_ACTIONS, replayAt: s.time };
      },
      meta: () => null,
      affected: (d) => (dirty(d) ? [SELF_KEY] : null),
      metaAffected: () => false,
    };
  }
  const layers = new Set<MapLayer>(Array.isArray(spec.layers) ? spec.layers : []);
  // the assets that may have changed since the hub last asked, for this view
  let pending: Set<Id> | 'all' = 'all';
  const note = (keys: ReadonlySet<Id> | 'all') => {
    if (pending === 'all') return;
    if (keys === 'all') pending = 'all';
    else for (const k of keys) pending.add(k);
  };
  const attach = (s: Session) => { s.floorViews.set(note, layers); viewsChanged(s); };
  const detach = (s: Session) => { s.floorViews.delete(note); viewsChanged(s); };
  let bound = cur();
  attach(bound);
  /** a reopen that read the floor again made a new replay: follow it, everything anew */
  const follow = () => {
    const s = cur();
    if (s === bound) return;
    detach(bound);
    attach(s);
    bound = s;
    pending = 'all';
  };
  return {
    close: () => { detach(bound); },
    keys: () => {
      const s = cur();
      return reachable(s) && s.progress.state === 'done' ? s.shadow.store.assetsByFloor.get(s.floorId) ?? [] : [];
    },
    entry(k, kept): DrawState | undefined {
      const s = cur();
      const asset = shown(s, k);
      // an asset on none of the view's layers is not drawn whatever its readings say, and its layers are
      // standing facts, fixed for the replay: an environment sensor of a floor shown without its layer derives nothing
      const last = asset ? s.facts.get(k) : undefined;
      const facts = asset && !(last && !onLayers(last.layers, layers)) ? factsOf(s, asset, ctx(s)) : null;
      if (!facts) {
        if (kept) { kept.from = undefined; kept.made = undefined; }
        return undefined;
      }
      // what this view drew from the same facts, or from facts of the same standing (only readings and time
      // moved: the live redraw, which gives the very state it drew when nothing it shows changed)
      return drawKept(kept, facts, layers);
    },
    meta(): PlaybackMeta {
      const s = cur();
      const store = s.shadow.store;
      const floor = reachable(s) ? store.floors.get(s.floorId) ?? null : null;
      return {
        floor, building: floor ? store.buildings.get(floor.parent_id) ?? null : null,
        legends: legendsFor(layers, s.config.location()), fromCache: false, loading: s.progress.state === 'loading',
        // the instant the floor shows (a step to the next one may still be being derived)
        day: s.day.key, time: s.drawnAt ?? s.time, start: s.day.start, end: s.day.end, progress: s.progress,
      };
    },
    affected(d) {
      if (!dirty(d)) return null;
      follow();
      // a step still being derived: what it marked comes when it is done, all of it at once
      if (cur().preparing) return null;
      const out = pending;
      pending = new Set();
      return out === 'all' ? 'all' : out.size ? out : null;
    },
    metaAffected: dirty,
  };
}
