// The one write path: every store change (live, cached, action answers, users
// derived again) goes through applyBatch and its delta is routed on. `apply`
// is the ingest hot path: add no closure, allocation or call per batch here.

import type { Id } from '../../shared/types.js';
import type { ConfigResolver } from '../derive/configResolver.js';
import type { FactsCache } from '../derive/factsCache.js';
import type { ChangeBatch, ChangeSink, Logger } from '../ports.js';
import { bookingsBefore, roomsWithPastChanged } from '../reports/liveBookings.js';
import type { PlaybackService } from '../reports/playback.js';
import type { ReportService } from '../reports/reportService.js';
import { noteForSearch } from '../search/searchDocs.js';
import type { Persister } from '../storage/index.js';
import { applyBatch } from '../store/applyBatch.js';
import { createDelta, type StoreDelta } from '../store/delta.js';
import type { Store } from '../store/store.js';
import { syncAllUserEntities } from '../store/userEntities.js';
import type { CorrectedClock } from '../sync/timeSync.js';
import type { ViewHub } from '../views/viewHub.js';
import { markEverythingChanged, routeDelta, type DeltaRouting } from './deltaRouting.js';
import type { Feed } from './feed.js';
import { createHiddenDescendants } from './hiddenDescendants.js';
import type { EngineState } from './state.js';
import type { ViewSaver } from './viewSaver.js';

export interface WritePathOptions {
  state: EngineState;
  store: Store;
  config: ConfigResolver;
  facts: FactsCache;
  hub: ViewHub;
  feed: Feed;
  persister: Persister;
  corrected: CorrectedClock;
  reports: ReportService;
  playback: PlaybackService;
  viewSaver: ViewSaver;
  /** validation warnings go to the feed too */
  storeLogger: Logger;
  /** live data replaced the saved location: the reopen reads nothing more */
  liveArrived(): void;
  saveSession(): Promise<void>;
}

export interface WritePath {
  /** the sink the session feeds (and actions' answers) */
  sink: ChangeSink;
  apply(batch: ChangeBatch): void;
  /** applies batches read from the cache; what came from storage is stored already. The asset ids touched */
  applyCached(batches: ChangeBatch[]): Set<Id>;
  /** the users' local entities derived again (the viewer, their location, a switch) */
  rederiveUsers(): void;
  /** every view and fact is stale (a switch, a session end, new settings) */
  everythingChanged(): void;
}

export function createWritePath(options: WritePathOptions): WritePath {
  const { state, store, config, facts, hub, feed, persister, corrected, reports, playback, viewSaver, storeLogger } = options;
  const viewerUserId = () => state.session?.state().ctx.userId ?? null;

  const routing: DeltaRouting = { store, config, facts, hub, feed, persister, viewerUserId, hidden: createHiddenDescendants(store) };
  const everythingChanged = () => {
    state.searchIndex?.reset();
    markEverythingChanged(routing);
  };
  const afterDelta = (delta: StoreDelta) => {
    routeDelta(routing, delta);
    if (state.searchIndex) noteForSearch(state.searchIndex, delta, store);
  };
  const correctedNow = () => corrected.now();
  const applyOptions = () => ({
    logger: storeLogger,
    now: correctedNow,
    manualLocationTimeoutMs: config.location().manualLocationTimeout,
  });

  function apply(batch: ChangeBatch) {
    if (state.disposed) return;
    // a room report of today open on the screen follows bookings others change (its popup's "Earlier")
    const bookings = reports.followsBookings() ? bookingsBefore(store, batch.changes) : null;
    // readings mark their assets in the hub's next flush and their sensors in the persister's queue directly
    const delta = applyBatch(store, batch, applyOptions(), createDelta(hub.pending('values'), persister.queue()));
    afterDelta(delta);
    if (delta.removed) {
      // a ticket closed away, a voice removed: a reload right after must not draw it again from this device
      persister.soon();
      viewSaver.soon();
    }
    if (bookings) {
      const changed = roomsWithPastChanged(store, bookings, corrected.now());
      if (changed.length) reports.bookingsChangedLive(changed);
    }
    // kept replays take live readings too, late ones the store leaves out (a replay of today shows the server's history)
    if (batch?.scope?.kind === 'location' && batch.scope.locationId === store.locationId) playback.takeLive(batch.changes);
    const locationLoad = batch?.scope?.kind === 'location' && batch.scope.locationId === store.locationId
      && batch.changes.some((c) => c.collection === 'assets' && c.kind === 'initial');
    if (locationLoad) {
      // live data replaced the saved location
      state.locationLive = true;
      state.fromCache = false;
      options.liveArrived();
      viewSaver.start();
      rederiveUsers();
      reports.locationReady();
      // a reload follows a gap of the live stream: late readings sent meanwhile reached no replay
      playback.liveReloaded();
      hub.markDirty('structure');
      hub.markDirty('session');
      hub.markDirty('connection');
      void options.saveSession();
    }
  }

  function rederiveUsers() {
    const delta = createDelta();
    syncAllUserEntities(store, delta, applyOptions());
    afterDelta(delta);
  }

  function applyCached(batches: ChangeBatch[]): Set<Id> {
    const changed = new Set<Id>();
    for (const batch of batches) {
      const delta = applyBatch(store, batch, applyOptions());
      delta.persist.clear();
      afterDelta(delta);
      for (const id of delta.assets) changed.add(id);
    }
    return changed;
  }

  return { sink: { apply }, apply, applyCached, rederiveUsers, everythingChanged };
}
