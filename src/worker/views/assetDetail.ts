// The `asset` view: everything one open popup shows (AssetDetail of
// src/shared/api.ts), derived on demand for that one asset only, so the floor
// view stays lean. The actions the user may take are decided here, from the
// roles and the asset, so the UI never re-derives permissions.

import { MAP_LAYERS, type MapLayer } from '../../shared/constants.js';
import type { AssetActions, AssetDetail } from '../../shared/api.js';
import { canSeeUnpublished } from '../../shared/roles.js';
import { upcomingEvents } from '../../shared/rules/reservations.js';
import { isSensorLayer, RESERVATION_SENSOR_TYPE, SENSOR_LAYERS } from '../../shared/kinds.js';
import type { Id, ReservationEvent, Role, Sensor } from '../../shared/types.js';
import type { AssetFacts } from '../derive/assetFacts.js';
import { formatValue, hiddenByOf, lookOf } from '../derive/drawState.js';
import { assetHistory, assetVotes, historyQuantity } from '../derive/history.js';
import { SENSOR_SCALES } from '../derive/sensorScales.js';
import { choosePosition } from '../store/people.js';
import { sensorsOf, type Store } from '../store/store.js';
import { userDisplayName } from '../store/userEntities.js';

/** Every layer: the popup tells the asset's whole status, whatever the map shows. */
const ALL_LAYERS: ReadonlySet<MapLayer> = new Set(MAP_LAYERS);

export interface DetailContext {
  store: Store;
  roles: readonly Role[];
  viewerUserId: Id | null;
  now: number;
}

function ticketValue(value: unknown): AssetDetail['ticket'] {
  const v = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const str = (x: unknown) => (typeof x === 'string' && x ? x : null);
  return { label: str(v.label), status: str(v.status), email: str(v.email) };
}

function valueOf(facts: AssetFacts): AssetDetail['value'] {
  // the asset's default sensor first: the quantity its history lists too
  const preferred = facts.asset.default_sensor_type;
  const order = preferred && isSensorLayer(preferred) ? [preferred, ...SENSOR_LAYERS.filter((l) => l !== preferred)] : SENSOR_LAYERS;
  for (const layer of order) {
    const env = facts.sensors[layer];
    if (env) {
      return { text: `${formatValue(env.value)}${env.unit ? ` ${env.unit}` : ''}`, quantity: SENSOR_SCALES[layer].title, unit: env.unit };
    }
  }
  const own = facts.asset.value;
  if (typeof own === 'number' && Number.isFinite(own)) {
    return { text: `${formatValue(own)}${facts.asset.unit ? ` ${facts.asset.unit}` : ''}`, quantity: null, unit: facts.asset.unit };
  }
  if (typeof own === 'string' && own.trim()) return { text: own, quantity: null, unit: facts.asset.unit };
  return null;
}

/** The room's bookings not over yet, from its reservation sensor's latest value. */
function upcomingOf(sensors: readonly Sensor[], now: number): ReservationEvent[] {
  const events = sensors.find((s) => s.type === RESERVATION_SENSOR_TYPE)?.last_measurement?.events;
  return Array.isArray(events) ? upcomingEvents(events, now) : [];
}

function actionsOf(facts: AssetFacts, ctx: DetailContext, events: Array<ReservationEvent | null>): AssetActions {
  const { roles } = ctx;
  const edit = roles.includes('edit');
  const kind = facts.kind;
  const ticketStatus = kind === 'ticket' ? ticketValue(facts.asset.value)?.status : null;
  return {
    book: kind === 'room' && !!facts.room?.reservationSensorId && facts.config.assetBookingFeature && !events[0],
    cancellable: events
      .filter((e): e is ReservationEvent => !!e && (edit || (ctx.viewerUserId !== null && e.user_id === ctx.viewerUserId)))
      .map((e) => e.booking_ref),
    vote: kind === 'ticket' || kind === 'voice',
    rename: edit && kind !== 'employee' && kind !== 'auto_tag',
    closeTicket: kind === 'ticket' && (edit || roles.includes('service')) && ticketStatus !== 'closed',
    publish: canSeeUnpublished(roles) && kind !== 'employee' && kind !== 'auto_tag',
  };
}

/** The popup's details of a visible asset, or undefined when the asset is not (or no longer) shown to this user. */
export function assetDetail(facts: AssetFacts | null, ctx: DetailContext): AssetDetail | undefined {
  if (!facts || !facts.reachable || !facts.freshness.visible || facts.superseded) return undefined;
  const { asset, room, kind } = facts;
  const look = lookOf(facts, ALL_LAYERS);
  const sensors = sensorsOf(ctx.store, asset);
  const reservation = room?.reservation ?? null;
  const capacity = Number(asset.config.capacity ?? asset.categories.capacity);
  let person: AssetDetail['person'] = null;
  if ((kind === 'employee' || kind === 'auto_tag') && facts.user) {
    const position = choosePosition(ctx.store, facts.user.id, ctx.now);
    const here = position?.assetId === asset.id ? position : null;
    person = { userId: facts.user.id, name: userDisplayName(facts.user), since: here?.time ?? null, manual: here?.manual ?? false };
  }
  const device = facts.device;
  return {
    id: asset.id,
    kind,
    type: asset.type,
    subtype: asset.subtype,
    name: asset.name,
    floorId: facts.floorId,
    status: look.status,
    statusKind: look.statusKind,
    value: valueOf(facts),
    text: kind === 'ticket' || kind === 'voice' || kind === 'employee' || kind === 'auto_tag' ? asset.speech_bubble : null,
    noRecentData: facts.freshness.greyedOut || facts.freshness.missingSymbol,
    unpublished: asset.unpublished,
    hiddenBy: facts.hiddenBy && !asset.unpublished ? hiddenByOf(facts.hiddenBy) : null,
    popup: { width: asset.popup_width, height: asset.popup_height, type: asset.popup_type },
    battery: device?.battery ?? null,
    lastCommunication: device?.lastCommunication ?? null,
    reservation: reservation ? { text: reservation.text, active: reservation.active, next: reservation.next, upcoming: upcomingOf(sensors, ctx.now) } : null,
    room: room ? {
      free: room.status.kind === 'index' && !room.status.occupied && !room.status.reserved,
      capacity: Number.isFinite(capacity) && capacity > 0 ? capacity : null,
    } : null,
    person,
    ticket: kind === 'ticket' ? ticketValue(asset.value) : null,
    history: assetHistory(ctx.store, asset, sensors),
    historyOf: historyQuantity(asset, sensors),
    votes: assetVotes(ctx.store, asset),
    actions: actionsOf(facts, ctx, [reservation?.active ?? null, reservation?.next ?? null]),
  };
}
