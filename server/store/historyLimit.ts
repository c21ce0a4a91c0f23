// Which readings of a batch the store would keep. It keeps the newest
// HISTORY_MAX_ROWS rows of each sensor (store.ts): a reading is inserted after
// the rows of the same time and the oldest row goes once there are too many.
// So the rows kept at the end are the newest by (time, order of arrival), and a
// reading is kept when fewer than that many rows and batch items come after
// it. The ingest route refuses a batch with a reading it would not keep,
// rather than answer "accepted" for it (docs/server.md "Late readings").

import type { Id } from '../../src/shared/types.js';

/** Rows of a sensor at or before `time` in ascending `rows`: the index of the first later row. */
function firstLater(rows: ReadonlyArray<{ time: number }>, time: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid]!.time > time) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The index in `items` of the first reading the store would drop on arrival
 * (older than the newest `cap` of its sensor, stored rows and this batch
 * together), or -1 when it keeps them all.
 */
export function firstUnkeptReading(
  items: ReadonlyArray<{ sensorId: Id; time: number }>,
  rowsOf: (sensorId: Id) => ReadonlyArray<{ time: number }> | undefined,
  cap: number,
): number {
  const bySensor = new Map<Id, number[]>();
  items.forEach((item, i) => {
    const list = bySensor.get(item.sensorId);
    if (list) list.push(i);
    else bySensor.set(item.sensorId, [i]);
  });
  let first = -1;
  for (const [sensorId, indexes] of bySensor) {
    const rows = rowsOf(sensorId) ?? [];
    if (rows.length + indexes.length <= cap) continue;
    // this batch's readings of the sensor from newest to oldest; a later item of the same time is the newer
    const order = [...indexes].sort((a, b) => items[b]!.time - items[a]!.time || b - a);
    order.forEach((i, newer) => {
      const after = rows.length - firstLater(rows, items[i]!.time) + newer;
      if (after >= cap && (first < 0 || i < first)) first = i;
    });
  }
  return first;
}
