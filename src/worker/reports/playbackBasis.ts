// What a kept replay was built from (docs/reports.md "Reopening a replay"):
// the live records of the location at the time it was opened. The store
// replaces a record on every change and never edits one (readings and
// heartbeats are not records), so a reopen tells by identity alone whether
// the replay still shows the floor as it is.

import type { Id } from '../../shared/types.js';
import type { Store } from '../store/store.js';

/** The live records a replay was built from: it is reused only while they are still the live ones. */
export interface Basis {
  assets: Map<Id, unknown>;
  sensors: Map<Id, unknown>;
  floors: Map<Id, unknown>;
  buildings: Map<Id, unknown>;
  users: Map<Id, unknown>;
  locations: Map<Id, unknown>;
}

export function basisOf(live: Store): Basis {
  return {
    assets: new Map(live.assets), sensors: new Map(live.sensors), floors: new Map(live.floors), buildings: new Map(live.buildings),
    users: new Map(live.users), locations: new Map(live.locations),
  };
}

/** Every record of `live` is the very one `kept` holds (records are replaced on change, never edited; readings are not records). */
function sameRecords(kept: ReadonlyMap<Id, unknown>, live: ReadonlyMap<Id, unknown>): boolean {
  if (kept.size !== live.size) return false;
  for (const [id, record] of live) if (kept.get(id) !== record) return false;
  return true;
}

export function unchanged(basis: Basis, live: Store): boolean {
  return sameRecords(basis.assets, live.assets) && sameRecords(basis.sensors, live.sensors) && sameRecords(basis.floors, live.floors)
    && sameRecords(basis.buildings, live.buildings) && sameRecords(basis.users, live.users) && sameRecords(basis.locations, live.locations);
}
