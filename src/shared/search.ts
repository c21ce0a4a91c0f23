// The asset finder's words (docs/ui.md "Asset finder"): how text is folded
// (case and diacritics: Mäkelä ↔ makela), the result groups with their names
// for people, and the words that name a group or a live status rather than
// an asset, which the worker turns into filters instead of text to match.

import type { AssetKind, StatusKind } from './kinds.js';

export const SEARCH_GROUPS = [
  'person', 'room', 'desk', 'locker', 'zone', 'ticket', 'voice', 'sensor', 'device', 'portal',
] as const;
export type SearchGroup = (typeof SEARCH_GROUPS)[number];

export const SEARCH_GROUP_LABELS: Readonly<Record<SearchGroup, string>> = {
  person: 'Co-workers', room: 'Rooms', desk: 'Desks', locker: 'Lockers', zone: 'Zones', ticket: 'Tickets',
  voice: 'Voices', sensor: 'Sensors', device: 'Devices', portal: 'Lifts, stairs and passages',
};

/** The group an asset kind is found in; null for kinds nobody searches for (outlines, holes) or found as people. */
export function searchGroupOf(kind: AssetKind): SearchGroup | null {
  switch (kind) {
    case 'room': case 'desk': case 'locker': case 'zone': case 'ticket': case 'voice': case 'sensor': case 'portal':
      return kind;
    case 'container': case 'auto_tag': case 'shape': case 'other':
      return 'device';
    default:
      return null;
  }
}

/** Lower case without diacritics, so "Mäkelä", "MAKELA" and "makela" read the same. */
export function foldText(text: string): string {
  // most names are plain ASCII: skip the Unicode decomposition for them
  return /^[\x00-\x7f]*$/.test(text) ? text.toLowerCase() : text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Words that name a group (singular and plural; the finder also forgives one typo in them). */
export const GROUP_WORDS: Readonly<Record<string, SearchGroup>> = {
  person: 'person', people: 'person', persons: 'person', coworker: 'person', coworkers: 'person', colleague: 'person', colleagues: 'person', employee: 'person', employees: 'person',
  room: 'room', rooms: 'room', desk: 'desk', desks: 'desk', locker: 'locker', lockers: 'locker', zone: 'zone', zones: 'zone',
  ticket: 'ticket', tickets: 'ticket', voice: 'voice', voices: 'voice', sensor: 'sensor', sensors: 'sensor',
  device: 'device', devices: 'device', portal: 'portal', portals: 'portal', lift: 'portal', lifts: 'portal', elevator: 'portal', stairs: 'portal',
};

/** Words that name a live status (what the sensors say now), matched against the asset's status kind. */
export const STATUS_WORDS: Readonly<Record<string, StatusKind>> = {
  free: 'free', available: 'free', vacant: 'free', empty: 'free',
  occupied: 'busy', busy: 'busy', used: 'busy', inuse: 'busy',
  booked: 'booked', reserved: 'booked',
  offline: 'unknown', nodata: 'unknown', stale: 'unknown',
  attention: 'attention', alert: 'attention', alerts: 'attention',
};
