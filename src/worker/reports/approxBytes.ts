// About how many bytes a value of plain data takes on the heap: what the
// report service counts against the budget of the runs it keeps for a
// reopen. An estimate of V8's layout (a pointer per field or element, a
// header per object, two bytes a character at most), close enough to
// compare runs and bound their sum; never a measure of the heap.

const HEADER_BYTES = 24;
const SLOT_BYTES = 8;

export function approxBytes(value: unknown): number {
  switch (typeof value) {
    case 'string': return HEADER_BYTES + 2 * value.length;
    case 'number': return SLOT_BYTES;
    case 'object': {
      if (value === null) return 0;
      if (ArrayBuffer.isView(value)) return HEADER_BYTES + value.byteLength;
      let bytes = HEADER_BYTES;
      if (Array.isArray(value)) {
        for (const item of value) bytes += SLOT_BYTES + approxBytes(item);
        return bytes;
      }
      if (value instanceof Map) {
        for (const [k, v] of value) bytes += 3 * SLOT_BYTES + approxBytes(k) + approxBytes(v);
        return bytes;
      }
      for (const key in value) bytes += SLOT_BYTES + approxBytes((value as Record<string, unknown>)[key]);
      return bytes;
    }
    default: return 0;
  }
}
