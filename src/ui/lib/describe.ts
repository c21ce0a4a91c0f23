// Words for what the viewer shows, so nothing is told by colour alone: the
// kind of status (drawn as a mark), type names and each asset's accessible name.

import type { DrawState } from '../../shared/api.js';

/** The kind of a status word, drawn as a mark on the asset (AssetNode's StatusMark). */
export type StatusKind = 'none' | 'busy' | 'booked' | 'unknown';

const BUSY = /\b(occupied|in use|busy|taken|overdue|exceeded|alarm|critical|high)\b/i;
const BOOKED = /\b(reserved|booked|pending|waiting)\b/i;
const UNKNOWN = /\b(unknown|missing|offline|expired|stale|no data|n\/a)\b/i;

/** The kind of a status word; 'occupied and reserved' counts as busy. */
export function statusKind(status: string | null | undefined): StatusKind {
  if (!status) return 'none';
  if (BUSY.test(status)) return 'busy';
  if (BOOKED.test(status)) return 'booked';
  if (UNKNOWN.test(status)) return 'unknown';
  return 'none';
}

const TYPE_WORDS: Record<string, string> = {
  room: 'Room', zone: 'Zone', zone_auto: 'Zone', floor_hole: 'Floor opening', floor_outline: 'Floor outline',
  portal: 'Portal', employee: 'Co-worker', auto_tag: 'Tracked item', ticket: 'Ticket', voice: 'Voice',
  container: 'Asset', sensor: 'Sensor', shape: 'Shape', building: 'Building', floor: 'Floor',
};

const SYMBOL_WORDS: Record<string, string> = { desk: 'Desk', locker: 'Locker', portal: 'Portal', sensor: 'Sensor' };

export function typeWord(entry: Pick<DrawState, 'type' | 'symbol'>): string {
  if (entry.type === 'auto_tag') return TYPE_WORDS.auto_tag!;
  return (entry.symbol && SYMBOL_WORDS[entry.symbol]) ?? TYPE_WORDS[entry.type] ?? entry.type;
}

/** The accessible name of a drawn asset: type, name, status, value. */
export function accessibleName(entry: DrawState): string {
  const parts = [`${typeWord(entry)} ${entry.name}`.trim()];
  if (entry.status) parts.push(entry.status);
  if (entry.value !== null && entry.value !== undefined && entry.value !== '') {
    parts.push(`${entry.value}${entry.unit ? ` ${entry.unit}` : ''}`);
  }
  if (entry.missingSymbol) parts.push('missing');
  if (entry.greyedOut) parts.push('no recent data');
  if (entry.decoration) parts.push(`wearing ${entry.decoration.replace(/[_-]+/g, ' ')}`);
  return parts.join(', ');
}

export function formatTime(ms: number, timeZone?: string): string {
  try {
    return new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', timeZone }).format(ms);
  } catch {
    return new Date(ms).toISOString().slice(11, 16);
  }
}

export function formatDateTime(ms: number, timeZone?: string): string {
  try {
    return new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short', timeZone }).format(ms);
  } catch {
    return new Date(ms).toISOString();
  }
}
