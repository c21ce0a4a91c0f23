// The side panels of a replay (docs/reports.md "Side panels in a replay"):
// People and Rooms as they were at the replay's instant, read from the same
// shadow store as the replayed floor and derived by the live rules
// (personEntry, roomEntry), so a panel never says "free" of a room the map
// shows busy. A replay is read-only: no room is bookable in it.

import type { PersonEntry, RoomEntry } from '../../shared/api.js';
import type { Id } from '../../shared/types.js';
import type { AssetFacts } from '../derive/assetFacts.js';
import type { Store } from '../store/store.js';
import { personEntry, roomEntry } from '../views/sources.js';
import type { Dirty, ViewSource } from '../views/viewHub.js';

/** A replay as its panels read it, at its current instant. */
export interface PanelReplay {
  store: Store;
  floorId: Id;
  time: number;
  /** the day is read: before that nobody is placed and nothing is known */
  ready: boolean;
  /** the facts of an asset at the instant, or null when it is not on a floor the viewer may see */
  facts(id: Id): AssetFacts | null;
}

/** Everyone of the organization, placed where a reading placed them at the instant (the live people rules). */
export function replayPeopleSource(read: () => PanelReplay, viewerUserId: () => Id | null, dirty: (d: Dirty) => boolean): ViewSource {
  return {
    keys: () => read().store.users.keys(),
    entry(key): PersonEntry | undefined {
      const r = read();
      if (!r.ready) return undefined;
      return personEntry({ store: r.store, facts: { get: (id) => r.facts(id) }, now: () => r.time, viewerUserId }, key);
    },
    meta: () => null,
    affected: (d) => (dirty(d) ? 'all' : null),
    metaAffected: () => false,
  };
}

/** The replayed floor's rooms at the instant (only its sensors are replayed), none bookable. */
export function replayRoomsSource(read: () => PanelReplay, dirty: (d: Dirty) => boolean): ViewSource {
  return {
    *keys() {
      const r = read();
      if (!r.ready) return;
      for (const id of r.store.assetsByFloor.get(r.floorId) ?? []) if (r.store.assets.get(id)?.type === 'room') yield id;
    },
    entry(key): RoomEntry | undefined {
      const r = read();
      const entry = r.ready ? roomEntry(r.facts(key), r.store) : undefined;
      return entry && { ...entry, bookable: false };
    },
    meta: () => null,
    affected: (d) => (dirty(d) ? 'all' : null),
    metaAffected: () => false,
  };
}
