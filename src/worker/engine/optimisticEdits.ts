// The expected result of each optimistic intent, as edits of the views that
// show it (views/optimistic.ts): a booking turns the room reserved on the
// map, in the room list, in its popup and on its display; a vote, a rename,
// a manual location and a closed ticket show at once. Computed from the same
// rules as the truth (roomStatus), so the draft looks like what will come.

import { SELF_KEY, type ViewSpec } from '../../shared/api.js';
import type { ResolvedConfig } from '../../shared/config.js';
import { roomStatusColor, roomStatusKind, roomStatusWord, type RoomStatus } from '../../shared/rules/roomStatus.js';
import type { Id, ReservationEvent } from '../../shared/types.js';
import type { AssetFacts } from '../derive/assetFacts.js';
import type { OptimisticEdit } from '../views/optimistic.js';

type Entry = Record<string, unknown>;
const forAsset = (view: 'asset' | 'roomDisplay', id: Id) => (spec: ViewSpec) =>
  spec.view === view && (view === 'asset' ? (spec as { assetId: Id }).assetId : (spec as { roomId: Id }).roomId) === id;

/** A booking made now: the room as it will be once the reservation arrives. */
export function bookingEdits(roomId: Id, facts: AssetFacts | null, config: ResolvedConfig, event: ReservationEvent): OptimisticEdit[] {
  const now = facts?.room?.status;
  const occupied = now?.kind === 'index' && now.occupied;
  const status: RoomStatus = { kind: 'index', index: Math.min(occupied ? 3 : 1, config.statusColors.room.length - 1), occupied, reserved: true };
  const color = roomStatusColor(status, config.statusColors);
  const word = roomStatusWord(status);
  const kind = roomStatusKind(status);
  return [
    {
      view: 'floor', key: roomId, recipe: (d) => {
        d.statusKind = kind;
        // the map colours and words a room only on its status layers
        if (d.color !== null) d.color = color;
        if (typeof d.status === 'string') d.status = word;
      },
    },
    {
      view: 'rooms', key: roomId, recipe: (d) => {
        Object.assign(d, { statusKind: kind, status: word, color, free: false, statusIndex: status.index, activeEvent: event });
      },
    },
    {
      view: 'asset', key: SELF_KEY, spec: forAsset('asset', roomId), recipe: (d) => {
        d.statusKind = kind;
        const room = d.room as Entry | null;
        if (room) room.free = false;
        (d.actions as Entry).book = false;
        const reservation = d.reservation as Entry | null;
        if (reservation) reservation.active = event;
      },
    },
    {
      view: 'roomDisplay', key: SELF_KEY, spec: forAsset('roomDisplay', roomId), recipe: (d) => {
        Object.assign(d, { status: word, statusKind: kind, color, current: event, bookMinutes: [] });
        const agenda = d.agenda as ReservationEvent[];
        agenda.push(event);
        agenda.sort((a, b) => a.start - b.start);
      },
    },
  ];
}

/** The viewer's vote on a ticket or voice: counts and their own choice. */
export function voteEdits(assetId: Id, direction: 1 | -1 | 0): OptimisticEdit[] {
  return [{
    view: 'asset', key: SELF_KEY, spec: forAsset('asset', assetId), recipe: (d) => {
      const votes = d.votes as { up: number; down: number; mine: 1 | -1 | 0 } | null;
      if (!votes) return;
      if (votes.mine === 1) votes.up -= 1;
      if (votes.mine === -1) votes.down -= 1;
      if (direction === 1) votes.up += 1;
      if (direction === -1) votes.down += 1;
      votes.mine = direction;
    },
  }];
}

/** A new name wherever the asset is named. */
export function renameEdits(assetId: Id, previous: string, name: string): OptimisticEdit[] {
  return [
    { view: 'floor', key: assetId, recipe: (d) => { d.name = name; if (d.label === previous) d.label = name; } },
    { view: 'rooms', key: assetId, recipe: (d) => { d.name = name; } },
    { view: 'asset', key: SELF_KEY, spec: forAsset('asset', assetId), recipe: (d) => { d.name = name; } },
  ];
}

/** The viewer placed by hand: their people entry moves there. */
export function manualLocationEdits(userId: Id, locationId: Id, place: { floorId: Id; x: number; y: number }, now: number): OptimisticEdit[] {
  return [{
    view: 'people', key: userId, recipe: (d) => {
      Object.assign(d, { locationId, floorId: place.floorId, x: place.x, y: place.y, visible: true, manual: true, lastSeen: now });
    },
  }];
}

/** A ticket moved to closed. */
export function closeTicketEdits(ticketId: Id): OptimisticEdit[] {
  return [{
    view: 'asset', key: SELF_KEY, spec: forAsset('asset', ticketId), recipe: (d) => {
      const ticket = d.ticket as Entry | null;
      if (ticket) ticket.status = 'closed';
      (d.actions as Entry).closeTicket = false;
    },
  }];
}

/** A ticket or voice being created (the `seq`-th): drawn where it was put, marked as being sent, until the server's asset arrives. */
export function createTicketEdits(request: { kind: 'ticket' | 'voice'; floorId: Id; x: number; y: number; name: string; text: string; unpublished: boolean }, seq: number): OptimisticEdit[] {
  const key = `pending-${request.kind}:${seq}`;
  const layers = request.kind === 'ticket' ? ['info', 'service'] : ['info'];
  return [{
    view: 'floor',
    key,
    spec: (spec) => spec.view === 'floor' && spec.floorId === request.floorId && spec.layers.some((l) => layers.includes(l)),
    create: () => ({
      id: key, kind: request.kind, statusKind: 'none', layers: [...layers], x: request.x, y: request.y, angle: 0,
      width: 1.5, depth: 1.5, outline: null, color: null, alpha: 1, greyedOut: false, missingSymbol: false,
      name: request.name, label: request.name, text: request.text, status: 'sending', unpublished: request.unpublished,
    }),
    recipe: () => undefined,
    // the server's asset: one of this kind, put at this very spot under this name
    arrived: (entry) => {
      const e = entry as { id?: unknown; kind?: unknown; x?: unknown; y?: unknown; name?: unknown };
      return e.id !== key && e.kind === request.kind && e.x === request.x && e.y === request.y && e.name === request.name;
    },
  }];
}
