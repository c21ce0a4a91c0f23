// The view sources of every ViewSpec (src/shared/api.ts): what each view's
// entries and meta are, computed from the store and the derived facts, and
// which dirty channels touch which keys. The hub diffs and sends.

import { SELF_KEY, type ConnectionView, type DrawState, type FeedEntry, type FloorViewMeta, type PersonEntry, type RoomEntry, type SessionView, type StructureEntry, type StructureMeta, type ViewSpec } from '../../shared/api.js';
import { MANUAL_LOCATION_TIMEOUT_MS, type MapLayer } from '../../shared/constants.js';
import { floorVisibleToRoles } from '../../shared/roles.js';
import type { Id, Role, User } from '../../shared/types.js';
import type { ConfigResolver } from '../derive/configResolver.js';
import { legendsFor, redrawState, sameDrawState, toDrawState } from '../derive/drawState.js';
import type { FactsCache } from '../derive/factsCache.js';
import type { AssetFacts } from '../derive/assetFacts.js';
import type { Store } from '../store/store.js';
import { choosePosition, linkedUserId, personAssetIds } from '../store/people.js';
import { userDisplayName } from '../store/userEntities.js';
import { defaultFloorOf, orderedBuildings, visibleFloors } from '../engine/navigation.js';
import { assetDetail } from './assetDetail.js';
import { roomDisplaySource, type RoomDisplayHooks } from './roomDisplay.js';
import { routeSource, type RoutingModule } from './routeView.js';
import type { LazyModule } from '../lazyModule.js';
import { dirtyAssets, type Dirty, type Kept, type ViewSource, type ViewSourceFactory } from './viewHub.js';

/**
 * The draw state of `facts` for a view that keeps, in the hub's record of the key, the facts it last drew
 * (`from`) and what it made of them (`made`): the same facts draw the very same state; facts of the same
 * standing (only readings and time moved) redo only the readings' part; other facts are drawn afresh.
 */
export function drawKept(kept: Kept | undefined, facts: AssetFacts, layers: ReadonlySet<MapLayer>): DrawState | undefined {
  const lastFacts = kept?.from as AssetFacts | undefined;
  if (lastFacts === facts) return kept!.made as DrawState | undefined;
  const last = kept?.made as DrawState | undefined;
  const made = last && lastFacts!.standing === facts.standing ? redrawState(last, facts, layers) : toDrawState(facts, layers);
  if (kept) { kept.from = facts; kept.made = made; }
  return made;
}

export interface ViewState {
  store: Store;
  facts: FactsCache;
  config: ConfigResolver;
  roles(): readonly Role[];
  viewerUserId(): Id | null;
  /** corrected-clock now */
  now(): number;
  fromCache(): boolean;
  loading(): boolean;
  connection(): ConnectionView;
  session(): SessionView;
  feed(): readonly FeedEntry[];
  /** a reopen's saved view of this floor with these layers, while it stands in for the floor's data; else null */
  savedFloorView(floorId: Id, layers: readonly MapLayer[]): ReadonlyMap<string, DrawState> | null;
  /** report views (reports/reportService.ts) */
  report(spec: Extract<ViewSpec, { view: 'report' }>): ViewSource;
  /** the asset finder (search/searchSource.ts) */
  search(spec: Extract<ViewSpec, { view: 'search' }>): ViewSource;
  /** room-status displays (views/roomDisplay.ts) */
  roomDisplay: RoomDisplayHooks;
  /** a person's entry read again at `at` (PersonState) */
  recheckPersonAt(userId: Id, at: number): void;
  /** a replayed floor, a popup opened in it, or the People and Rooms panels at its instant (reports/playback.ts) */
  playback(spec: Extract<ViewSpec, { view: 'playback' | 'asset' | 'people' | 'rooms' }>): ViewSource;
  /** the route finding, loaded on the first route asked for */
  routing: LazyModule<RoutingModule>;
}

const touches = (d: Dirty, ...channels: Parameters<Dirty['get']>[0][]) => channels.some((c) => d.has(c));

/**
 * A desk drawn from its one sensor's occupancy, still valid and not fading: a newer reading that repeats it
 * (valid at least as long, the desk left at the same time) changes neither its status nor its freshness now,
 * and what time changes the facts cache's re-checks and the timeline still bring (issue 14).
 */
export function steadyDesk(facts: AssetFacts): boolean {
  return facts.kind === 'desk' && facts.desk !== null && facts.desk.occupied !== null && facts.standing.sources.length === 1
    && !facts.freshness.timedOut && facts.freshness.alpha === 1;
}

/** Some of the asset's layers are the view's: whether it is drawn at all then depends on readings and time. */
function onLayers(facts: AssetFacts, layers: ReadonlySet<MapLayer>): boolean {
  for (const l of facts.layers) if (layers.has(l)) return true;
  return false;
}

function floorSource(state: ViewState, floorId: Id, layerList: readonly MapLayer[]): ViewSource {
  const layers = new Set(layerList);
  const { store } = state;
  // asked for every entry of every flush: decided again when the roles, the structure or the session changed
  let reachable: { roles: readonly Role[]; yes: boolean } | null = null;
  const floorReachable = () => {
    const roles = state.roles();
    if (reachable?.roles !== roles) {
      const floor = store.floors.get(floorId);
      reachable = { roles, yes: !!floor && floorVisibleToRoles(floor, roles) };
    }
    return reachable.yes;
  };
  // a reopen draws the floor from its saved view until the floor's own data is restored
  const saved = () => state.savedFloorView(floorId, layerList);
  // per key, in the hub's own record of the key (what it sent): the facts last drawn (`from`) and the draw state
  // made of them (`made`). Facts not derived again draw the same (no new draw state, nothing to compare); facts
  // refreshed from the same standing facts redo only the readings' part. One lookup of the key finds all three
  // (issue 14: a reading's cost is the objects and tables it touches)
  const drawn = new Map<string, Kept>();
  return {
    kept: drawn,
    same: sameDrawState as ViewSource['same'],
    keys: () => saved()?.keys() ?? (floorReachable() ? store.assetsByFloor.get(floorId) ?? [] : []),
    entry(key, kept) {
      const view = saved();
      if (view) return view.get(key);
      const lastFacts = kept?.from as AssetFacts | undefined;
      let facts: AssetFacts | null = null;
      if (floorReachable()) {
        if (lastFacts) {
          // drawn here from the same standing facts: the asset is still on this floor (a floor change derives
          // facts afresh), so a reading's redraw asks no index where it is (issue 14). A fresh desk that only
          // heard its occupancy repeated since looks the same: nothing derived (slice 7)
          facts = steadyDesk(lastFacts) ? state.facts.heldOrGet(key, lastFacts) : state.facts.get(key);
          if (facts && facts.standing !== lastFacts.standing && store.floorOf.get(key) !== floorId) facts = null;
        } else if (store.floorOf.get(key) === floorId) facts = state.facts.get(key);
      }
      // an asset on none of the view's layers, or one the viewer may not reach, is not drawn whatever its readings
      // say: those are standing facts, and what changes them (an edit, a sensor added, new roles) marks the asset
      // changed, which reaches it again. So the view keeps no record of it, and its readings (an environment
      // sensor on a floor shown without its layer) derive nothing (issue 14)
      if (!facts || !facts.reachable || !onLayers(facts, layers)) {
        if (kept) { kept.from = undefined; kept.made = undefined; }
        return undefined;
      }
      return drawKept(kept, facts, layers);
    },
    meta(): FloorViewMeta {
      const floor = floorReachable() ? store.floors.get(floorId) ?? null : null;
      return {
        floor,
        building: floor ? store.buildings.get(floor.parent_id) ?? null : null,
        legends: legendsFor(layers, state.config.location()),
        fromCache: state.fromCache(),
        loading: state.loading(),
      };
    },
    affected(d) {
      if (touches(d, 'structure', 'session')) { reachable = null; return 'all'; }
      const values = d.get('values');
      const assets = d.get('assets');
      if (!values || values === 'all' || assets === 'all' || saved()) return dirtyAssets(d);
      // readings never move an asset, nor make it drawable or reachable: of the read assets only those this
      // view drew can change. A live load reads assets of every floor; the others cost no lookup (issue 14)
      const keys = new Set(assets);
      // a key the hub keeps a record of was drawn (or sent) here
      for (const id of values) if (drawn.has(id)) keys.add(id);
      return keys.size ? keys : null;
    },
    metaAffected: (d) => touches(d, 'structure', 'session'),
  };
}

function structureSource(state: ViewState): ViewSource {
  const { store } = state;
  return {
    keys: () => orderedBuildings(store).map((b) => b.id),
    entry(key): StructureEntry | undefined {
      const building = store.buildings.get(key);
      if (!building) return undefined;
      const roles = state.roles();
      return { building, floors: visibleFloors(store, building, roles), defaultFloorId: defaultFloorOf(store, building, roles)?.id ?? null };
    },
    meta: (): StructureMeta => ({ locationId: store.locationId, fromCache: state.fromCache() }),
    affected: (d) => (touches(d, 'structure', 'session') ? 'all' : null),
    metaAffected: (d) => touches(d, 'structure', 'session'),
  };
}

/** What a person's entry reads: the live view state, or a replay's shadow at its instant (reports/playbackPanels.ts). */
export interface PersonState {
  store: Store;
  facts: { get(id: Id): AssetFacts | null | undefined };
  now(): number;
  viewerUserId(): Id | null;
  /**
   * Live only: asks for `userId`'s entry to be read again at `at` (corrected-clock time), when what it
   * says runs out with no change to the store (an "at <location>" note past its 12 h). A replay's
   * shadow has none: its instant does not move by itself.
   */
  recheckPersonAt?(userId: Id, at: number): void;
}

/** A user as the people view lists them: a position only where the viewer may see them. */
export function personEntry(state: PersonState, key: Id): PersonEntry | undefined {
  const { store } = state;
  const user = store.users.get(key);
  if (!user) return undefined;
  const source = choosePosition(store, key, state.now());
  const facts = source ? state.facts.get(source.assetId) : null;
  const own = key === state.viewerUserId();
  const placed = !!source && !!facts && facts.floorId === source.floorId && facts.reachable
    && facts.freshness.visible && (user.visible || own);
  return {
    id: user.id,
    name: userDisplayName(user),
    email: user.email,
    avatarUrl: user.avatar_url,
    decoration: user.decoration?.name ?? null,
    locationId: placed ? store.locationId : null,
    floorId: placed ? source!.floorId : null,
    x: placed ? facts!.asset.x : null,
    y: placed ? facts!.asset.y : null,
    assetId: placed ? source!.assetId : null,
    visible: placed,
    lastSeen: placed ? source!.time : null,
    manual: placed && source!.manual,
    elsewhere: placed ? null : elsewhereOf(state, user),
  };
}

/**
 * Where a person not placed in this location last was, at another location of the organization
 * (docs/ui.md "People at another location"): the user's `location` names the location (the engine
 * loads only one location's floors and tags), told for visible people only, while it is not older
 * than a manual location's validity (spec §9, 12 h), and never in a replay before it was set.
 */
function elsewhereOf(state: PersonState, user: User): PersonEntry['elsewhere'] {
  const { store } = state;
  const now = state.now();
  const at = user.location;
  if (!at || !user.visible || at.location_id === store.locationId) return null;
  if (now - at.time > MANUAL_LOCATION_TIMEOUT_MS) return null;
  const location = store.locations.get(at.location_id);
  if (!location) return null;
  // set ahead of this clock (a skewed clock): told from its time on, which nothing in the store marks either
  if (at.time > now) { state.recheckPersonAt?.(user.id, at.time); return null; }
  // told while the page stays open, so it must also end on time: nothing in the store changes then
  state.recheckPersonAt?.(user.id, at.time + MANUAL_LOCATION_TIMEOUT_MS + 1);
  return { locationId: location.id, locationName: location.name, since: at.time };
}

/**
 * People finder: every user of the organization; a position (location, floor,
 * x, y, last seen) only while one of the user's assets places them on a floor
 * of the loaded location (choosePosition: tag or manual location, newest fresh
 * value) and the viewer may see it there (not privacy-filtered, not invisible,
 * not unpublished or on a hidden floor). Hidden people are listed without one.
 */
function peopleSource(state: ViewState): ViewSource {
  const { store } = state;
  // asset id → the user it stood for when last derived, so a deleted asset still dirties its person
  const userOfAsset = new Map<Id, Id>();
  return {
    keys: () => store.users.keys(),
    entry(key): PersonEntry | undefined {
      for (const id of personAssetIds(store, key)) userOfAsset.set(id, key);
      return personEntry(state, key);
    },
    meta: () => null,
    affected(d) {
      if (touches(d, 'structure', 'session') || d.get('users') === 'all' || d.get('assets') === 'all') return 'all';
      const keys = new Set<string>(d.get('users') ?? []);
      for (const id of d.get('assets') ?? []) {
        const asset = store.assets.get(id);
        const user = (asset && linkedUserId(store, asset)) ?? userOfAsset.get(id);
        if (user) keys.add(user);
      }
      return keys.size ? keys : null;
    },
    metaAffected: () => false,
  };
}

/** A room as the rooms view lists it, from its facts (live, or a replay's at its instant); none when it is not a room the viewer may see. */
export function roomEntry(facts: AssetFacts | null | undefined, store: Store): RoomEntry | undefined {
  if (!facts || facts.kind !== 'room' || !facts.room || !facts.reachable) return undefined;
  const { asset, room } = facts;
  const floor = facts.floorId ? store.floors.get(facts.floorId) : undefined;
  const capacity = Number(asset.config.capacity ?? asset.categories.capacity);
  const status = room.status;
  return {
    id: asset.id,
    name: asset.name,
    floorId: facts.floorId,
    buildingId: floor?.parent_id ?? null,
    capacity: Number.isFinite(capacity) && capacity > 0 ? capacity : null,
    statusIndex: status.kind === 'index' ? status.index : null,
    color: room.color,
    status: room.word,
    statusKind: room.statusKind,
    free: status.kind === 'index' && !status.occupied && !status.reserved,
    text: room.reservation?.text ?? null,
    activeEvent: room.reservation?.active ?? null,
    nextEvent: room.reservation?.next ?? null,
    reservationSensorId: room.reservationSensorId,
    bookable: room.reservationSensorId !== null && facts.config.assetBookingFeature,
  };
}

function roomsSource(state: ViewState): ViewSource {
  const { store } = state;
  /** ids of the rooms, kept while only readings change (an asset change updates it, a whole change drops it) */
  let roomIds: Set<Id> | null = null;
  const roomsNow = (): Set<Id> => {
    if (!roomIds) { roomIds = new Set(); for (const a of store.assets.values()) if (a.type === 'room') roomIds.add(a.id); }
    return roomIds;
  };
  return {
    *keys() { for (const a of store.assets.values()) if (a.type === 'room') yield a.id; },
    entry: (key): RoomEntry | undefined => roomEntry(state.facts.get(key), store),
    meta: () => null,
    affected(d) {
      const assets = d.get('assets');
      const values = d.get('values');
      if (touches(d, 'structure', 'session') || assets === 'all' || values === 'all') { roomIds = null; return 'all'; }
      // only rooms (or what is gone, in case it was one) concern this view
      const keys = new Set<string>();
      for (const id of assets ?? []) {
        const asset = store.assets.get(id);
        if (!asset || asset.type === 'room') keys.add(id);
        if (asset?.type === 'room') roomIds?.add(id); else roomIds?.delete(id);
      }
      // readings never make or unmake a room: look them up in the few rooms, not the location's assets
      if (values) {
        const rooms = roomsNow();
        if (rooms.size < values.size) { for (const id of rooms) if (values.has(id)) keys.add(id); } else for (const id of values) if (rooms.has(id)) keys.add(id);
      }
      return keys.size ? keys : null;
    },
    metaAffected: () => false,
  };
}

/** One asset's popup details; re-derived when the asset (or a person's other asset) changes. */
function assetSource(state: ViewState, assetId: Id): ViewSource {
  const { store } = state;
  const read = () => assetDetail(state.facts.get(assetId), {
    store, roles: state.roles(), viewerUserId: state.viewerUserId(), now: state.now(),
  });
  return {
    keys: () => [SELF_KEY],
    entry: (key) => (key === SELF_KEY ? read() : undefined),
    meta: () => null,
    affected(d) {
      if (touches(d, 'structure', 'session') || d.get('assets') === 'all' || d.get('users') === 'all') return [SELF_KEY];
      const assets = d.get('assets');
      const values = d.get('values');
      if (assets && assets !== 'all' && assets.has(assetId)) return [SELF_KEY];
      if (values && values !== 'all' && values.has(assetId)) return [SELF_KEY];
      const asset = store.assets.get(assetId);
      const user = asset ? linkedUserId(store, asset) : null;
      const users = d.get('users');
      return user && users && users !== 'all' && users.has(user) ? [SELF_KEY] : null;
    },
    metaAffected: () => false,
  };
}

function singleton(channel: 'connection' | 'session', read: () => unknown): ViewSource {
  return {
    keys: () => [SELF_KEY],
    entry: (key) => (key === SELF_KEY ? read() : undefined),
    meta: () => null,
    affected: (d) => (d.has(channel) ? [SELF_KEY] : null),
    metaAffected: () => false,
  };
}

export function createViewSources(state: ViewState): ViewSourceFactory {
  return (spec: ViewSpec) => {
    switch (spec.view) {
      case 'floor': return floorSource(state, spec.floorId, Array.isArray(spec.layers) ? spec.layers : []);
      case 'structure': return structureSource(state);
      case 'people': return spec.playback ? state.playback(spec) : peopleSource(state);
      case 'rooms': return spec.playback ? state.playback(spec) : roomsSource(state);
      case 'connection': return singleton('connection', state.connection);
      case 'session': return singleton('session', state.session);
      case 'asset': return spec.playback ? state.playback(spec) : assetSource(state, String(spec.assetId));
      case 'notifications': return {
        keys: () => state.store.notifications.keys(),
        entry: (key) => state.store.notifications.get(key),
        meta: () => null,
        affected: (d) => (d.has('session') ? 'all' : d.get('notifications') ?? null),
        metaAffected: () => false,
      };
      case 'feed': return {
        keys: () => state.feed().map((e) => String(e.seq)),
        entry: (key) => state.feed().find((e) => String(e.seq) === key),
        meta: () => null,
        affected: (d) => (d.has('feed') ? 'all' : null),
        metaAffected: () => false,
      };
      case 'report': return state.report(spec);
      case 'search': return state.search(spec);
      case 'roomDisplay': return roomDisplaySource(state, String(spec.roomId), state.roomDisplay);
      case 'route': return routeSource(state, state.routing, spec);
      case 'playback': return state.playback(spec);
      default: throw new TypeError(`Unknown view ${(spec as { view?: unknown })?.view as string}`);
    }
  };
}
