// The store's drawable assets by id, with stable slots: a slot holds whatever
// record its id has now (or none), so the sensor index can hold assets as
// objects and a live reading reaches its assets without a lookup each (issue
// 14), while a record replaced or deleted by any write is seen at once.

import type { Asset, Id } from '../../shared/types.js';

/** One asset id's current record, kept in step by the map that handed it out. */
export interface AssetSlot {
  readonly id: Id;
  record: Asset | undefined;
}

export class AssetMap extends Map<Id, Asset> {
  /** only ids some index holds a slot of (a reading's path), not every asset */
  private readonly slots = new Map<Id, AssetSlot>();

  /** The slot of `id` (the same object while the map is not cleared), holding its record if there is one. */
  slot(id: Id): AssetSlot {
    let slot = this.slots.get(id);
    if (!slot) this.slots.set(id, (slot = { id, record: this.get(id) }));
    return slot;
  }

  override set(id: Id, asset: Asset): this {
    super.set(id, asset);
    // Map's constructor may call set before the field exists; this map is always made empty
    const slot = this.slots?.get(id);
    if (slot) slot.record = asset;
    return this;
  }

  override delete(id: Id): boolean {
    const slot = this.slots.get(id);
    if (slot) slot.record = undefined;
    return super.delete(id);
  }

  override clear(): void {
    for (const slot of this.slots.values()) slot.record = undefined;
    this.slots.clear();
    super.clear();
  }

  /** Forgets the slots of ids without a record (after the index holding them was rebuilt). */
  dropEmptySlots(): void {
    for (const [id, slot] of this.slots) if (!slot.record) this.slots.delete(id);
  }
}
