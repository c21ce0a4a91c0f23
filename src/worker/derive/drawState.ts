// DrawState of an asset for a view's set of layers (DESIGN §4): the UI only
// draws what this returns. Colour precedence: grey-out, the asset's
// overriding colour, an active environment layer, room status, desk usage,
// zone kind, the asset's shade. Hidden assets get no entry at all, so a
// privacy-filtered position never leaves the worker.

import type { DrawState, Legend } from '../../shared/api.js';
import type { MapLayer } from '../../shared/constants.js';
import { zoneKind, zoneLabel, type ResolvedConfig } from '../../shared/config.js';
import { cleanDeskLegendStops } from '../../shared/rules/cleanDesk.js';
import type { Rgb } from '../../shared/types.js';
import type { AssetFacts } from './assetFacts.js';
import { SENSOR_LAYERS, type AssetKind } from './classify.js';
import { scaleSpecFor, sensorLegend } from './sensorScales.js';

/** Zone kind colours (light fills, the label carries the kind). */
export const ZONE_COLORS: Record<string, string> = {
  generic: '#cfd8dc',
  communication: '#81d4fa',
  collaboration: '#a5d6a7',
  concentration: '#b39ddb',
  chilling: '#ffcc80',
  privacy: '#eeeeee',
};

const SYMBOLS: Partial<Record<AssetKind, string>> = {
  desk: 'desk', locker: 'locker', portal: 'portal', ticket: 'ticket', voice: 'voice', sensor: 'sensor',
  employee: 'employee', auto_tag: 'employee', container: 'container', other: 'info',
};

const rgb = (c: Rgb) => `rgb(${c[0]}, ${c[1]}, ${c[2]})`;

/** Below this battery level a device says 'battery low' in its status words. */
export const LOW_BATTERY_PERCENT = 20;

function formatValue(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

export function toDrawState(facts: AssetFacts, layers: ReadonlySet<MapLayer>): DrawState | undefined {
  const { asset, freshness, kind, room, desk, config } = facts;
  if (!facts.reachable || !freshness.visible || facts.superseded) return undefined;
  const drawn = facts.layers.filter((l) => layers.has(l));
  if (drawn.length === 0) return undefined;

  const has = (l: MapLayer) => layers.has(l) && facts.layers.includes(l);
  const status: string[] = [];
  let color: string | null = null;
  let text: string | null = asset.speech_bubble;
  let value: number | string | null = typeof asset.value === 'number' || typeof asset.value === 'string' ? asset.value : null;
  let unit: string | null = asset.unit;

  const envLayer = SENSOR_LAYERS.find((l) => has(l) && facts.sensors[l]);
  if (envLayer) {
    const env = facts.sensors[envLayer]!;
    color = env.color;
    value = env.value;
    unit = env.unit;
    text = `${formatValue(env.value)}${env.unit ? ` ${env.unit}` : ''}`;
    if (env.timedOut) status.push('no recent data');
  }
  if (room && (has('room_reservation') || has('rooms'))) {
    color ??= room.color;
    status.push(room.word);
    if (room.reservation && has('room_reservation')) text = room.reservation.text;
  }
  if (desk && has('desk_usage')) {
    color ??= desk.color;
    status.push(desk.word);
  }
  if (kind === 'zone' && has('zones')) {
    color ??= ZONE_COLORS[asset.subtype === 'privacy' ? 'privacy' : zoneKind(asset.subtype, config)] ?? ZONE_COLORS.generic!;
  }
  if (asset.overriding_color) color = rgb(asset.overriding_color);
  else if (!color && asset.shade) color = rgb(asset.shade);
  const device = facts.device && (has('devices') || has('monitoring')) ? facts.device : null;
  if (device?.battery !== null && device?.battery !== undefined && device.battery < LOW_BATTERY_PERCENT) status.push('battery low');
  if (freshness.greyedOut) { color = config.statusColors.missing; status.push('timed out'); }
  if (freshness.missingSymbol) status.push('missing');

  const label = kind === 'zone' && !asset.name ? zoneLabel(asset.subtype, config) : asset.name || null;
  const state: DrawState = {
    id: asset.id,
    type: asset.type,
    subtype: asset.subtype,
    name: asset.name,
    layers: drawn,
    x: asset.x,
    y: asset.y,
    angle: asset.angles[2],
    width: asset.shape?.width ?? asset.width,
    depth: asset.shape?.depth ?? asset.depth,
    outline: asset.outline,
    visible: true,
    color,
    alpha: freshness.alpha,
    greyedOut: freshness.greyedOut,
    missingSymbol: freshness.missingSymbol,
    label,
    text,
    symbol: freshness.missingSymbol ? 'missing' : SYMBOLS[kind] ?? null,
    status: status.length ? status.join(', ') : null,
    value,
    unit,
    popup: { width: asset.popup_width, height: asset.popup_height, type: asset.popup_type },
  };
  if (kind === 'employee' || kind === 'auto_tag') {
    state.avatarUrl = facts.user?.avatar_url ?? null;
    state.decoration = facts.decoration;
    if (has('co-workers-heatmap')) state.heat = facts.heat ?? 0;
  }
  if (device) {
    state.battery = device.battery;
    state.lastCommunication = device.lastCommunication;
  }
  if (facts.history) state.history = facts.history;
  if (facts.votes) state.votes = facts.votes;
  if (room?.reservation && has('room_reservation')) {
    state.activeEvent = room.reservation.active;
    state.nextEvent = room.reservation.next;
  }
  return state;
}

const ROOM_STATUS_LABELS = ['free', 'reserved', 'occupied', 'occupied and reserved'];

/** Legends of the active scale- and status-coloured layers, in MAP_LAYERS order. */
export function legendsFor(layers: ReadonlySet<MapLayer>, config: ResolvedConfig): Legend[] {
  const out: Legend[] = [];
  const roomLayer = layers.has('room_reservation') ? 'room_reservation' : layers.has('rooms') ? 'rooms' : null;
  if (roomLayer) {
    out.push({
      layer: roomLayer,
      title: 'Room status',
      unit: null,
      stops: [
        ...config.statusColors.room.map((c, i) => ({ value: i, color: c, label: ROOM_STATUS_LABELS[i] ?? `status ${i}` })),
        { value: -1, color: config.statusColors.missing, label: 'no data' },
      ],
    });
  }
  if (layers.has('desk_usage')) {
    out.push({ layer: 'desk_usage', title: 'Desk usage (clean desk)', unit: null, stops: cleanDeskLegendStops(config.cleanDeskPolicy, config) });
  }
  for (const layer of SENSOR_LAYERS) if (layers.has(layer)) out.push(sensorLegend(layer, scaleSpecFor(layer, config)));
  return out;
}
