// Words for what the viewer shows, so nothing is told by colour alone: kind
// names and each asset's accessible name, from the typed draw state (the UI
// never parses status words: the worker sends statusKind).

import type { DrawState, HiddenBy } from '../../shared/api.js';
import type { AssetKind } from '../../shared/kinds.js';

const KIND_WORDS: Record<AssetKind, string> = {
  room: 'Room', zone: 'Zone', floor_outline: 'Floor outline', floor_hole: 'Floor opening', portal: 'Portal',
  employee: 'Co-worker', auto_tag: 'Tracked item', ticket: 'Ticket', voice: 'Voice', container: 'Asset',
  sensor: 'Sensor', desk: 'Desk', locker: 'Locker', shape: 'Shape', other: 'Asset',
};

/** The kind of an asset in words. */
export function kindWord(kind: AssetKind): string {
  return KIND_WORDS[kind] ?? 'Asset';
}

/** Whether a name already begins with its kind's word ("Desk 0.4", "locker 12"): then it is not said twice. */
export function namesItsKind(name: string, kind: string): boolean {
  return name.length >= kind.length && name.slice(0, kind.length).toLowerCase() === kind.toLowerCase() && !/[\p{L}]/u.test(name.charAt(kind.length));
}

/** The unpublished asset another stands in, named with its kind once: "room F0-R1". */
export function hiddenByName(hiddenBy: HiddenBy): string {
  const kind = kindWord(hiddenBy.kind ?? 'other');
  return namesItsKind(hiddenBy.name, kind) ? hiddenBy.name : `${kind.toLowerCase()} ${hiddenBy.name}`.trim();
}

/** The accessible name of a drawn asset: kind (unless its name says it), name, status, the text drawn. */
export function accessibleName(entry: DrawState): string {
  const kind = kindWord(entry.kind);
  const parts = [namesItsKind(entry.name, kind) ? entry.name : `${kind} ${entry.name}`.trim()];
  if (entry.unpublished) parts.push('unpublished');
  else if (entry.hiddenBy) parts.push(`hidden: in unpublished ${hiddenByName(entry.hiddenBy)}`);
  if (entry.status) parts.push(entry.status);
  if (entry.text && entry.text !== entry.name) parts.push(entry.text);
  if (entry.decoration) parts.push(`wearing ${entry.decoration.replace(/[_-]+/g, ' ')}`);
  return parts.join(', ');
}

// one format everywhere: the time helpers live in timeFormat.ts
export { formatDateTime, formatDay, formatEndTime, formatTime, formatTimeRange, formatWhen } from './timeFormat.js';
