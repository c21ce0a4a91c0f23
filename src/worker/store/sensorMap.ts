// The store's sensors by id, with one entry per sensor id holding what a live
// reading needs: the record, its recent values and the slots of the assets it
// feeds. A reading finds all three with one lookup instead of one per map
// (issue 14: a reading's cost is the large tables it misses in), and the map
// keeps each entry in step with every set, delete and clear of a record.

import type { Id, MeasurementValue, Sensor } from '../../shared/types.js';
import type { AssetSlot } from './assetMap.js';

/** One sensor id: its record (if loaded), its recent live values and the assets it feeds. */
export interface SensorEntry {
  /** the stored id: the very string the maps hold as key */
  readonly id: Id;
  record: Sensor | undefined;
  /** the last few values received live, newest first (popup history; not persisted) */
  recent: MeasurementValue[];
  /** the assets it provides data for, as their slots, in the order the index linked them */
  fed: AssetSlot[];
  /**
   * the one asset it feeds when it feeds exactly one (most sensors), else null: a reading reaches it
   * without touching the list, one object fewer to miss per reading (issue 14); kept by feed and unfeed
   */
  only: AssetSlot | null;
  /**
   * The last reading whose fields the entry keeps (`seenTime`, `seenValidTo`, `seenValue`): while the record's
   * `last_measurement` is this very object, a new reading is compared with them and never reads the last
   * reading itself, an object written a reading ago and by now elsewhere in the heap (issue 14). Anything else
   * that sets `last_measurement` (a load, a record replaced) leaves it behind, and the object is read then.
   */
  seen: MeasurementValue | null;
  seenTime: number;
  seenValidTo: number;
  seenValue: unknown;
  /** the same for the record's `last_status`: its battery level while it is this very object */
  seenStatus: Sensor['last_status'] | null;
  seenBattery: number | null;
}

export class SensorMap extends Map<Id, Sensor> {
  /** ids with a record or some asset linked (a provider an asset names may not be loaded yet) */
  private readonly byId = new Map<Id, SensorEntry>();

  /** The entry of `id`, or undefined when it has neither a record nor an asset it feeds. */
  entry(id: Id): SensorEntry | undefined {
    return this.byId.get(id);
  }

  /** The entry of `id`, made (empty) when there is none: the index links assets to it. */
  link(id: Id): SensorEntry {
    let entry = this.byId.get(id);
    if (!entry) {
      entry = { id, record: super.get(id), recent: [], fed: [], only: null, seen: null, seenTime: 0, seenValidTo: 0, seenValue: null, seenStatus: null, seenBattery: null };
      this.byId.set(id, entry);
    }
    return entry;
  }

  /** Adds an asset the sensor `id` feeds (its entry made when there is none). */
  feed(id: Id, slot: AssetSlot): void {
    const entry = this.link(id);
    entry.fed.push(slot);
    entry.only = entry.fed.length === 1 ? slot : null;
  }

  /** Removes an asset the sensor `id` fed; the entry of an id nobody loaded goes once it feeds nothing. */
  unfeed(id: Id, assetId: Id): void {
    const entry = this.byId.get(id);
    if (!entry) return;
    const at = entry.fed.findIndex((slot) => slot.id === assetId);
    if (at < 0) return;
    entry.fed.splice(at, 1);
    entry.only = entry.fed.length === 1 ? entry.fed[0]! : null;
    if (entry.fed.length === 0 && !entry.record) this.byId.delete(id);
  }

  override set(id: Id, sensor: Sensor): this {
    super.set(id, sensor);
    // Map's constructor may call set before the field exists; this map is always made empty
    if (this.byId) this.link(id).record = sensor;
    return this;
  }

  override delete(id: Id): boolean {
    const entry = this.byId.get(id);
    if (entry) {
      // a deleted sensor's history goes with it; a sensor of the same id made later starts afresh
      entry.record = undefined;
      entry.recent = [];
      if (entry.fed.length === 0) this.byId.delete(id);
    }
    return super.delete(id);
  }

  override clear(): void {
    this.byId.clear();
    super.clear();
  }

  /** Forgets every asset link (the index is being rebuilt); entries of ids without a record go. */
  unlinkAll(): void {
    for (const [id, entry] of this.byId) {
      if (entry.record) { entry.fed = []; entry.only = null; }
      else this.byId.delete(id);
    }
  }

  /** Ids linked to at least one asset (diagnostics and tests: the index's keys). */
  *linkedIds(): IterableIterator<Id> {
    for (const [id, entry] of this.byId) if (entry.fed.length) yield id;
  }
}
