// DrawState of an asset for a view's set of layers (DESIGN §4): the UI only
// draws what this returns. Colour precedence: grey-out, the asset's
// overriding colour, an active environment layer, room status, desk usage,
// zone kind, the asset's shade. Hidden assets get no entry at all, so a
// privacy-filtered position never leaves the worker.

import type { DrawState, HiddenBy, Legend } from '../../shared/api.js';
import { HEATMAP_COLORS, type MapLayer } from '../../shared/constants.js';
import { zoneKind, zoneLabel, type ResolvedConfig } from '../../shared/config.js';
import { SENSOR_LAYERS, type StatusKind } from '../../shared/kinds.js';
import { cleanDeskLegendStops, type CleanDeskPhase } from '../../shared/rules/cleanDesk.js';
import type { Asset, Rgb } from '../../shared/types.js';
import { DESK_PHASE_KINDS, type AssetFacts, type SensorFacts } from './assetFacts.js';
import { assetKind, shownLayers } from './classify.js';
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

const rgb = (c: Rgb) => `rgb(${c[0]}, ${c[1]}, ${c[2]})`;

/** Below this battery level a device says 'battery low' in its status words. */
export const LOW_BATTERY_PERCENT = 20;

export function formatValue(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** What one asset shows on the given layers: colour, status in words and as a kind, the text drawn. */
export interface AssetLook {
  color: string | null;
  status: string | null;
  statusKind: StatusKind;
  /** text drawn on the map */
  text: string | null;
}

/** The asset is on `layer` and the view shows it. */
function shows(facts: AssetFacts, layers: ReadonlySet<MapLayer>, layer: MapLayer): boolean {
  return layers.has(layer) && facts.layers.includes(layer);
}

/** Status words joined as the UI shows them ("occupied, battery low"). */
const withWord = (status: string | null, word: string) => (status === null ? word : `${status}, ${word}`);

/** The look of an asset for a set of active layers; shared by the draw state and the popup's detail. */
export function lookOf(facts: AssetFacts, layers: ReadonlySet<MapLayer>): AssetLook {
  // runs for every changed asset of every flush: no closures or arrays per call
  const { asset, freshness, kind, room, desk, config } = facts;
  let status: string | null = null;
  let statusKind: StatusKind = 'none';
  let color: string | null = null;
  let text: string | null = kind === 'ticket' || kind === 'voice' ? asset.speech_bubble ?? asset.name : null;

  let env: SensorFacts | undefined;
  // most assets read no environment layer: their empty sensor facts end each step before the layer lookups
  for (const l of SENSOR_LAYERS) {
    if (facts.sensors[l] && shows(facts, layers, l)) { env = facts.sensors[l]; break; }
  }
  if (env) {
    color = env.color;
    text = `${formatValue(env.value)}${env.unit ? ` ${env.unit}` : ''}`;
    if (env.timedOut) { status = withWord(status, 'no recent data'); statusKind = 'unknown'; }
  }
  if (room && (shows(facts, layers, 'room_reservation') || shows(facts, layers, 'rooms'))) {
    color ??= room.color;
    status = withWord(status, room.word);
    if (statusKind === 'none') statusKind = room.statusKind;
  }
  if (desk && shows(facts, layers, 'desk_usage')) {
    color ??= desk.color;
    status = withWord(status, desk.word);
    if (statusKind === 'none') statusKind = desk.statusKind;
  }
  if (kind === 'zone' && shows(facts, layers, 'zones')) {
    color ??= ZONE_COLORS[asset.subtype === 'privacy' ? 'privacy' : zoneKind(asset.subtype, config)] ?? ZONE_COLORS.generic!;
  }
  if (asset.overriding_color) color = rgb(asset.overriding_color);
  else if (!color && asset.shade) color = rgb(asset.shade);
  const device = facts.device && (shows(facts, layers, 'devices') || shows(facts, layers, 'monitoring')) ? facts.device : null;
  if (device?.battery !== null && device?.battery !== undefined && device.battery < LOW_BATTERY_PERCENT) {
    status = withWord(status, 'battery low');
    if (statusKind === 'none' || statusKind === 'free') statusKind = 'attention';
  }
  if (freshness.greyedOut) { color = config.statusColors.missing; status = withWord(status, 'timed out'); statusKind = 'unknown'; }
  if (freshness.missingSymbol) { status = withWord(status, 'missing'); statusKind = 'unknown'; }
  return { color, status, statusKind, text };
}

/**
 * The status kind lookOf gives when every layer is on, without building words
 * and colours: the finder filters thousands of assets by it per query.
 */
export function statusKindOf(facts: AssetFacts): StatusKind {
  const { freshness, room, desk, device } = facts;
  if (freshness.greyedOut || freshness.missingSymbol) return 'unknown';
  let kind: StatusKind = 'none';
  for (const layer of SENSOR_LAYERS) {
    const env = facts.sensors[layer];
    if (env) { if (env.timedOut) kind = 'unknown'; break; }
  }
  if (kind === 'none' && room) kind = room.statusKind;
  if (kind === 'none' && desk && facts.layers.includes('desk_usage')) kind = desk.statusKind;
  const battery = device && (facts.layers.includes('devices') || facts.layers.includes('monitoring')) ? device.battery : null;
  if (battery !== null && battery < LOW_BATTERY_PERCENT && (kind === 'none' || kind === 'free')) kind = 'attention';
  return kind;
}

export function toDrawState(facts: AssetFacts, layers: ReadonlySet<MapLayer>): DrawState | undefined {
  const { asset, freshness, kind, config } = facts;
  if (!facts.reachable || !freshness.visible || facts.superseded) return undefined;
  const drawn = shownLayers(facts.layers, layers);
  if (drawn.length === 0) return undefined;
  const look = lookOf(facts, layers);
  const label = kind === 'zone' && !asset.name ? zoneLabel(asset.subtype, config) : asset.name || null;
  const state: DrawState = {
    id: asset.id,
    kind,
    statusKind: look.statusKind,
    layers: drawn,
    x: asset.x,
    y: asset.y,
    angle: asset.angles[2],
    width: asset.shape?.width ?? asset.width,
    depth: asset.shape?.depth ?? asset.depth,
    outline: asset.outline,
    color: look.color,
    alpha: freshness.alpha,
    greyedOut: freshness.greyedOut,
    missingSymbol: freshness.missingSymbol,
    name: asset.name,
    label,
    text: look.text,
    status: look.status,
    unpublished: asset.unpublished,
  };
  if (facts.hiddenBy && !asset.unpublished) state.hiddenBy = hiddenByOf(facts.hiddenBy);
  if (kind === 'employee' || kind === 'auto_tag') {
    state.avatarUrl = facts.user?.avatar_url ?? null;
    state.decoration = facts.decoration;
    if (layers.has('co-workers-heatmap') && facts.layers.includes('co-workers-heatmap')) state.heat = facts.heat ?? 0;
  }
  return state;
}

/**
 * The draw state again after only readings and time moved (`facts.standing`
 * is that of the facts `prev` was drawn from, so the asset, its kind, layers,
 * user and configuration are the same): `prev` itself when nothing it shows
 * changed, so views compare nothing and keep the object; else a copy with the
 * readings' part made anew. Equal to what toDrawState gives for `facts`.
 */
export function redrawState(prev: DrawState, facts: AssetFacts, layers: ReadonlySet<MapLayer>): DrawState | undefined {
  const { freshness } = facts;
  if (!freshness.visible) return undefined;
  const look = lookOf(facts, layers);
  const heat = prev.heat === undefined ? undefined : facts.heat ?? 0;
  if (look.statusKind === prev.statusKind && look.color === prev.color && look.text === prev.text && look.status === prev.status
    && freshness.alpha === prev.alpha && freshness.greyedOut === prev.greyedOut && freshness.missingSymbol === prev.missingSymbol
    && heat === prev.heat) return prev;
  const state: DrawState = {
    ...prev,
    statusKind: look.statusKind,
    color: look.color,
    alpha: freshness.alpha,
    greyedOut: freshness.greyedOut,
    missingSymbol: freshness.missingSymbol,
    text: look.text,
    status: look.status,
  };
  if (heat !== undefined) state.heat = heat;
  return state;
}

/**
 * Every field of a draw state, each compared by `sameDrawState`: a field added to DrawState fails to compile
 * here until it is listed, and the test of `sameDrawState` changes each listed field in turn.
 */
export const DRAW_STATE_FIELDS = Object.keys({
  id: 1, kind: 1, statusKind: 1, layers: 1, x: 1, y: 1, angle: 1, width: 1, depth: 1, outline: 1, color: 1, alpha: 1, greyedOut: 1,
  missingSymbol: 1, name: 1, label: 1, text: 1, status: 1, unpublished: 1, hiddenBy: 1, avatarUrl: 1, decoration: 1, heat: 1,
} satisfies Record<keyof DrawState, 1>) as Array<keyof DrawState>;

const sameList = <T>(a: readonly T[], b: readonly T[]) => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

function sameOutline(a: DrawState['outline'], b: DrawState['outline']): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]![0] !== b[i]![0] || a[i]![1] !== b[i]![1]) return false;
  return true;
}

const sameHiddenBy = (a: HiddenBy | undefined, b: HiddenBy | undefined) =>
  a === b || (!!a && !!b && a.id === b.id && a.kind === b.kind && a.name === b.name);

/**
 * Whether two draw states draw the same: every field, the lists by their items. What the view hub compares a
 * floor entry with what it sent by (a field absent and one undefined draw alike); a generic deep comparison
 * walked the keys of both, looked each up and listed them again per entry of every flush (issue 14).
 */
export function sameDrawState(a: DrawState, b: DrawState): boolean {
  return a === b || (
    a.id === b.id && a.kind === b.kind && a.statusKind === b.statusKind && a.x === b.x && a.y === b.y && a.angle === b.angle
    && a.width === b.width && a.depth === b.depth && a.color === b.color && a.alpha === b.alpha && a.greyedOut === b.greyedOut
    && a.missingSymbol === b.missingSymbol && a.name === b.name && a.label === b.label && a.text === b.text && a.status === b.status
    && a.unpublished === b.unpublished && a.avatarUrl === b.avatarUrl && a.decoration === b.decoration && a.heat === b.heat
    && (a.layers === b.layers || sameList(a.layers, b.layers)) && sameOutline(a.outline, b.outline) && sameHiddenBy(a.hiddenBy, b.hiddenBy)
  );
}

const ROOM_STATUS_LABELS = ['free', 'reserved', 'occupied', 'occupied and reserved'];

const LEFT_PHASES: readonly CleanDeskPhase[] = ['short_break', 'awaiting_clearing', 'policy_exceeded'];

/**
 * Desk usage as the map colours it (assetFacts.deskFacts): free, occupied,
 * then the clean-desk phases after a desk was left, and no data — each with
 * the status mark drawn on such a desk.
 */
function deskUsageStops(config: ResolvedConfig): Legend['stops'] {
  const colors = config.statusColors;
  const phases = cleanDeskLegendStops(config.cleanDeskPolicy, config);
  return [
    { value: 0, color: colors.room[0] ?? colors.missing, label: 'Free', mark: 'free' },
    { value: 1, color: colors.room[2] ?? colors.missing, label: 'Occupied', mark: 'busy' },
    ...phases.map((stop, i) => ({ ...stop, value: 2 + i, label: `Left: ${stop.label}`, mark: DESK_PHASE_KINDS[LEFT_PHASES[i]!] })),
    { value: 5, color: colors.missing, label: 'No data', mark: 'unknown' },
  ];
}

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
  if (layers.has('desk_usage')) out.push({ layer: 'desk_usage', title: 'Desk usage', unit: null, stops: deskUsageStops(config) });
  if (layers.has('co-workers-heatmap')) {
    out.push({
      layer: 'co-workers-heatmap',
      title: 'Co-worker heatmap',
      unit: null,
      stops: [
        { value: 0, color: HEATMAP_COLORS[0], label: 'one person, or seen a while ago' },
        { value: 1, color: HEATMAP_COLORS[1], label: 'a few people' },
        { value: 2, color: HEATMAP_COLORS[2], label: 'many people, seen just now' },
      ],
    });
  }
  for (const layer of SENSOR_LAYERS) if (layers.has(layer)) out.push(sensorLegend(layer, scaleSpecFor(layer, config)));
  return out;
}

/** The unpublished asset another stands in, as the map and the popup name it. */
export function hiddenByOf(asset: Asset): HiddenBy {
  return { id: asset.id, kind: assetKind(asset), name: asset.name };
}
