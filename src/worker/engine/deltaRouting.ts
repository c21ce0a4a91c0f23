// Routes what a batch changed to whoever must react: derived facts and
// configuration caches are dropped for exactly the changed assets, views are
// told which keys are dirty, the feed hears of activity alerts and the
// persister queues the touched entities.

import type { Id } from '../../shared/types.js';
import type { ConfigResolver } from '../derive/configResolver.js';
import type { FactsCache } from '../derive/factsCache.js';
import type { Persister } from '../storage/index.js';
import type { StoreDelta } from '../store/delta.js';
import { withPersonSiblings } from '../store/people.js';
import type { Store } from '../store/store.js';
import type { ViewHub } from '../views/viewHub.js';
import type { Feed } from './feed.js';
import type { HiddenDescendants } from './hiddenDescendants.js';

export interface DeltaRouting {
  store: Store;
  config: ConfigResolver;
  facts: FactsCache;
  hub: ViewHub;
  feed: Feed;
  persister: Persister;
  viewerUserId(): Id | null;
  /** what stands in an asset published or unpublished is derived again with it (hiddenDescendants.ts) */
  hidden?: HiddenDescendants;
}


/** Role, location or session changes: every view re-derives (its patch is still a diff). */
export function markEverythingChanged(r: DeltaRouting): void {
  r.hidden?.reset();
  r.config.invalidate();
  r.facts.invalidateAll();
  for (const channel of ['assets', 'structure', 'users', 'notifications', 'session', 'connection'] as const) r.hub.markDirty(channel);
}

export function routeDelta(r: DeltaRouting, delta: StoreDelta): void {
  if (delta.all || delta.structure) {
    r.hidden?.reset();
    r.config.invalidate();
    r.facts.invalidateAll();
    r.hub.markDirty('assets');
    r.hub.markDirty('structure');
    r.hub.markDirty('session');
  } else {
    // only when some asset changed: an empty mark still wakes every view that listens to 'assets'. A person's
    // readings come as their asset's change (store/measurements.ts): their position may move to another of
    // their assets, so those are derived afresh too
    if (delta.assets.size) {
      for (const id of delta.assets) r.config.forget(id);
      const ids = withPersonSiblings(r.store, delta.assets);
      // a room published or unpublished: the desks standing in it are marked (or no longer) as hidden with it
      if (r.hidden) for (const id of r.hidden.changed(delta.assets)) ids.add(id);
      r.facts.invalidate(ids);
      r.hub.markDirty('assets', ids);
    }
    // only readings changed: standing facts are kept (the readings counted on the assets' slots mark their
    // facts for a refresh, store/measurements.ts), and views that show no readings are not woken
    if (delta.values.size) r.hub.markDirty('values', delta.values);
    if (delta.beats.size) {
      const changed = r.facts.beat(delta.beats);
      if (changed.length) r.hub.markDirty('values', changed);
    }
  }
  if (delta.users.size) {
    r.hub.markDirty('users', delta.users);
    const viewer = r.viewerUserId();
    if (viewer && delta.users.has(viewer)) r.hub.markDirty('session');
  }
  if (delta.notifications.size) r.hub.markDirty('notifications', delta.notifications);
  for (const a of delta.activity) {
    const name = r.store.assets.get(a.assetId)?.name || a.assetId;
    r.feed.post('info', 'stream', `Activity on ${name} (${a.sensorType})`);
  }
  if (delta.persist.size) r.persister.noteMarks(delta.persist);
}
