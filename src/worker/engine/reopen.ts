// A reopen serves the saved location in parts (docs/engine.md "Reopen"): the
// shared part and the shown floor (or its saved view) at once, the rest after
// the first floor snapshot, the other floors only if live data is late.

import type { DrawState, ViewSpec } from '../../shared/api.js';
import type { Id } from '../../shared/types.js';
import type { ChangeBatch, Clock, Logger } from '../ports.js';
import type { FactsCache } from '../derive/factsCache.js';
import { SHARED_PART, type SavedView } from '../storage/index.js';
import { clearLocationData, clearStore, type Store } from '../store/store.js';
import type { ViewHub } from '../views/viewHub.js';
import type { CacheFlow } from './cacheFlow.js';
import type { Navigation } from './navigation.js';
import type { EngineState } from './state.js';
import type { ViewSaver } from './viewSaver.js';

/** a reopen reads the rest of the saved location once the first floor snapshot went out, or after this long without one */
const REST_RESTORE_FALLBACK_MS = 300;
/**
 * A reopen reads the floors other than the shown one this long after the shown one, unless live data
 * replaced the saved location first (then they are never read) or another floor or the finder is opened
 * (then at once): read beside the live load they were about half of the engine worker's work while the
 * page reveals the floor, and they pushed the live data back (issue 14, docs/engine.md "Reopen").
 */
export const REST_OTHER_FLOORS_MS = 3_000;

/** What the reopen writes through: the engine's one write path. */
export interface ReopenWrites {
  /** applies batches read from the cache; the asset ids they touched */
  applyCached(batches: ChangeBatch[]): Set<Id>;
  everythingChanged(): void;
  rederiveUsers(): void;
}

export interface ReopenOptions {
  state: EngineState;
  store: Store;
  cache: CacheFlow;
  navigation: Navigation;
  facts: FactsCache;
  hub: ViewHub;
  viewSaver: ViewSaver;
  clock: Clock;
  logger: Logger;
  writes: ReopenWrites;
}

export interface Reopen {
  /**
   * Serves a cached location at once, unless a newer switch, a sign-out or live data came first: the shared
   * part and the shown floor's part (or, with a saved view of that floor, only the shared part), then the rest
   * once a floor snapshot went out. True when the store now serves it.
   */
  serve(userId: Id, organizationId: Id, locationId: Id, view?: SavedView | null): Promise<boolean>;
  /** a view was subscribed: a floor's first snapshot lets the rest be read; another floor or the finder wants every floor */
  viewOpened(spec: ViewSpec): void;
  /** the saved view of a floor, while it stands in for the floor's part */
  savedFloorView(floorId: Id, layers: readonly string[]): Map<string, DrawState> | null;
  /** live data replaced the saved location: nothing more is read */
  liveArrived(): void;
  /** a switch, a sign-out or a session end: the reopen in flight is dropped */
  forget(): void;
}

export function createReopen(options: ReopenOptions): Reopen {
  const { state, store, cache, navigation, facts, hub, viewSaver, clock, logger, writes } = options;
  const reopen = state.reopen;

  function wantOtherFloors(floorId?: Id): void {
    // the floor served first (its part, or its saved view) is not another floor; the shown floor is not asked:
    // a floor switch makes the new floor the shown one before its viewer subscribes
    if (!reopen.restoring || (floorId !== undefined && (reopen.restoredParts.has(floorId) || reopen.savedView?.floorId === floorId))) return;
    reopen.otherFloorsNow = true;
    reopen.openOtherFloors?.();
  }

  async function serve(userId: Id, organizationId: Id, locationId: Id, view: SavedView | null = null): Promise<boolean> {
    const mine = state.epoch;
    const wanted = () => mine === state.epoch && !state.locationLive;
    const locationOnly = store.organizations.has(organizationId);
    reopen.restoring = true;
    reopen.otherFloorsNow = false;
    const hint = navigation.chosenFloorId();
    const restored = await cache.restore(userId, locationId, locationOnly, wanted, {
      parts(meta) {
        const floorId = hint ?? meta.floorId ?? null;
        return floorId && view?.floorId !== floorId ? [SHARED_PART, floorId] : [SHARED_PART];
      },
    });
    // the last request wins: a sign-out, another switch or the live load came first
    if (!restored || !wanted()) {
      if (mine === state.epoch) reopen.restoring = false;
      return false;
    }
    if (locationOnly) clearLocationData(store); else clearStore(store);
    store.organizationId = organizationId;
    store.locationId = locationId;
    writes.applyCached(restored.batches);
    state.fromCache = true;
    state.cachedUserId = userId;
    reopen.savedView = view ? { floorId: view.floorId, layers: view.layers, entries: new Map(Object.entries(view.entries as Record<string, DrawState>)) } : null;
    reopen.restoredParts = new Set(restored.parts);
    writes.everythingChanged();
    writes.rederiveUsers();
    const rest = restored.allParts.filter((p) => !reopen.restoredParts.has(p));
    if (rest.length === 0) { reopen.restoring = false; return true; }
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      reopen.restRestore = null;
      clock.clearTimeout(fallback);
      void restoreRest(userId, locationId, rest, wanted)
        .catch((error: unknown) => logger.warn('Serving the saved location failed', error))
        .finally(() => { if (mine === state.epoch) reopen.restoring = false; });
    };
    // the first floor snapshot goes out before the worker parses the rest; without one, soon anyway
    const fallback = clock.setTimeout(start, REST_RESTORE_FALLBACK_MS);
    reopen.restRestore = () => { clock.clearTimeout(fallback); clock.setTimeout(start, 0); };
    return true;
  }

  /** The rest of a reopen: the other parts of the saved location, the shown floor first, one at a time; the other floors wait (REST_OTHER_FLOORS_MS). */
  async function restoreRest(userId: Id, locationId: Id, parts: string[], wanted: () => boolean): Promise<void> {
    const shown = navigation.floor(state.roles)?.id ?? null;
    const ordered = [...parts].sort((a, b) => Number(b === shown) - Number(a === shown));
    let others: Promise<void> | null = null;
    for (const part of ordered) {
      if (part !== shown && part !== SHARED_PART && !reopen.otherFloorsNow) {
        others ??= new Promise<void>((resolve) => {
          const timer = clock.setTimeout(() => open(), REST_OTHER_FLOORS_MS);
          const open = () => { clock.clearTimeout(timer); reopen.openOtherFloors = null; resolve(); };
          reopen.openOtherFloors = open;
        });
        await others;
      }
      if (!wanted()) return;
      const merged = await cache.restore(userId, locationId, false, wanted, { parts: () => [part], merge: true });
      if (!merged || !wanted()) return;
      const added = writes.applyCached(merged.batches);
      reopen.restoredParts.add(part);
      facts.invalidate(added);
      if (reopen.savedView?.floorId === part) {
        // the saved view gives way to the floor itself; keys it showed that are gone must go too
        reopen.savedView = null;
        hub.markDirty('assets');
      } else hub.markDirty('assets', added);
      hub.markDirty('structure');
    }
    state.searchIndex?.reset();
    writes.rederiveUsers();
  }

  return {
    serve,
    viewOpened(spec) {
      if (spec.view === 'floor') {
        // the first floor snapshot of a reopen is out: now the rest may be read; another floor wants them all
        reopen.restRestore?.();
        wantOtherFloors(spec.floorId);
      } else if (spec.view === 'search') wantOtherFloors(); // the finder searches every floor
    },
    savedFloorView(floorId, layers) {
      const saved = reopen.savedView;
      if (!saved || !state.fromCache || reopen.restoredParts.has(floorId) || saved.floorId !== floorId) return null;
      if (saved.layers.length !== layers.length || saved.layers.some((l, i) => l !== layers[i])) return null;
      return saved.entries;
    },
    liveArrived() {
      reopen.savedView = null;
      reopen.restRestore = null;
      // the other floors' wait ends: live data has them (restoreRest stops, nothing is read)
      reopen.openOtherFloors?.();
    },
    forget() {
      reopen.savedView = null;
      reopen.restoredParts = new Set();
      reopen.restRestore = null;
      reopen.openOtherFloors?.();
      reopen.restoring = false;
      viewSaver.stop();
    },
  };
}
