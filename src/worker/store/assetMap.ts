// The store's drawable assets by id, with stable slots: a slot holds whatever
// record its id has now (or none), so the sensor index can hold assets as
// objects and a live reading reaches its assets without a lookup each (issue
// 14), while a record replaced or deleted by any write is seen at once.

import type { Asset, Id } from '../../shared/types.js';

/** Asset types that stand for a person (one position per person, chosen among their assets). */
export const PERSON_TYPES: ReadonlySet<string> = new Set(['employee', 'auto_tag']);

/** One asset id's current record, kept in step by the map that handed it out. */
export interface AssetSlot {
  readonly id: Id;
  record: Asset | undefined;
  /**
   * what a reading asks of the record, kept here so that most readings never touch it (issue 14): whether it
   * stands for a person, and whether it watches sensor types for activity (`alert_on_activity`, which only
   * store/measurements.ts changes in place, and keeps this in step)
   */
  person: boolean;
  watching: boolean;
  /**
   * moves with every record set or removed under the id and every reading applied to it
   * (store/measurements.ts): the facts cache derives again what it derived at another version, so a reading
   * marks an asset's facts without a lookup (issue 14), and a record gone or replaced is never served
   */
  version: number;
  /**
   * moves as `version` does, except for a reading that only repeats a desk's occupancy (store/measurements.ts
   * `repeatsOccupancy`): a view drawing the desk from facts derived at this count, still fresh, shows the
   * same and need not derive them again (issue 14, ingest slice 7); the facts cache keeps the count it derived at
   */
  looks: number;
}

export class AssetMap extends Map<Id, Asset> {
  /** only ids some index holds a slot of (a reading's path), not every asset */
  private readonly slots = new Map<Id, AssetSlot>();

  /** The slot of `id` (the same object while the map is not cleared), holding its record if there is one. */
  slot(id: Id): AssetSlot {
    let slot = this.slots.get(id);
    if (!slot) {
      const record = this.get(id);
      this.slots.set(id, (slot = { id, record, version: 0, looks: 0, person: false, watching: false }));
      if (record) noteRecord(slot, record);
    }
    return slot;
  }

  override set(id: Id, asset: Asset): this {
    super.set(id, asset);
    // Map's constructor may call set before the field exists; this map is always made empty
    const slot = this.slots?.get(id);
    if (slot) { slot.record = asset; slot.version += 1; slot.looks += 1; noteRecord(slot, asset); }
    return this;
  }

  override delete(id: Id): boolean {
    const slot = this.slots.get(id);
    if (slot) { slot.record = undefined; slot.version += 1; slot.looks += 1; }
    return super.delete(id);
  }

  override clear(): void {
    for (const slot of this.slots.values()) { slot.record = undefined; slot.version += 1; slot.looks += 1; }
    this.slots.clear();
    super.clear();
  }

  /** Forgets the slots of ids without a record (after the index holding them was rebuilt). */
  dropEmptySlots(): void {
    for (const [id, slot] of this.slots) if (!slot.record) this.slots.delete(id);
  }
}

function noteRecord(slot: AssetSlot, asset: Asset): void {
  slot.person = PERSON_TYPES.has(asset.type);
  slot.watching = asset.alert_on_activity.length > 0;
}
