// Colour scales of the environment layers (d3-scale over d3-interpolate) and
// their legends. The stops are common comfort bands (docs/engine.md); a
// location may override them with config.sensorScales[type].

import { interpolateRgb } from 'd3-interpolate';
import { scaleLinear, type ScaleLinear } from 'd3-scale';
import type { Legend } from '../../shared/api.js';
import { SENSOR_LAYER_TITLES, type SensorLayer } from '../../shared/kinds.js';

export interface ScaleSpec {
  title: string;
  unit: string | null;
  domain: number[];
  colors: string[];
}

const GREEN = '#43a047';
const YELLOW = '#fdd835';
const ORANGE = '#fb8c00';
const RED = '#e53935';
const BLUE = '#1e88e5';

export const SENSOR_SCALES: Record<SensorLayer, ScaleSpec> = {
  temperature: { title: SENSOR_LAYER_TITLES.temperature, unit: '°C', domain: [16, 20, 23, 27], colors: [BLUE, GREEN, YELLOW, RED] },
  co2: { title: SENSOR_LAYER_TITLES.co2, unit: 'ppm', domain: [400, 800, 1200, 2000], colors: [GREEN, YELLOW, ORANGE, RED] },
  humidity: { title: SENSOR_LAYER_TITLES.humidity, unit: '%', domain: [15, 30, 60, 80], colors: [ORANGE, GREEN, GREEN, BLUE] },
  tvoc: { title: SENSOR_LAYER_TITLES.tvoc, unit: 'ppb', domain: [0, 220, 660, 2200], colors: [GREEN, YELLOW, ORANGE, RED] },
  illuminance: { title: SENSOR_LAYER_TITLES.illuminance, unit: 'lx', domain: [0, 300, 500, 1500], colors: ['#424242', ORANGE, YELLOW, '#fffde7'] },
  pressure: { title: SENSOR_LAYER_TITLES.pressure, unit: 'hPa', domain: [970, 1000, 1025, 1050], colors: [BLUE, GREEN, GREEN, ORANGE] },
  loudness: { title: SENSOR_LAYER_TITLES.loudness, unit: 'dB', domain: [30, 45, 60, 80], colors: [GREEN, YELLOW, ORANGE, RED] },
  // share of satisfied (or stressed) answers, as the sensors report them
  satisfaction: { title: SENSOR_LAYER_TITLES.satisfaction, unit: '%', domain: [0, 50, 75, 100], colors: [RED, ORANGE, YELLOW, GREEN] },
  stress: { title: SENSOR_LAYER_TITLES.stress, unit: '%', domain: [0, 25, 50, 100], colors: [GREEN, YELLOW, ORANGE, RED] },
};

const scales = new Map<SensorLayer, ScaleLinear<string, string>>();

function scaleOf(layer: SensorLayer, spec: ScaleSpec): ScaleLinear<string, string> {
  if (spec !== SENSOR_SCALES[layer]) return build(spec);
  let s = scales.get(layer);
  if (!s) { s = build(spec); scales.set(layer, s); }
  return s;
}

function build(spec: ScaleSpec): ScaleLinear<string, string> {
  return scaleLinear<string>().domain(spec.domain).range(spec.colors).interpolate(interpolateRgb).clamp(true);
}

/** The location's spec for a layer: config.sensorScales[layer] when well-formed, else the default. */
export function scaleSpecFor(layer: SensorLayer, config: Record<string, unknown>): ScaleSpec {
  const custom = (config.sensorScales as Record<string, Partial<ScaleSpec>> | undefined)?.[layer];
  const base = SENSOR_SCALES[layer];
  if (!custom || !Array.isArray(custom.domain) || !Array.isArray(custom.colors)
    || custom.domain.length !== custom.colors.length || custom.domain.length < 2
    || !custom.domain.every((v) => typeof v === 'number' && Number.isFinite(v))) return base;
  return { ...base, ...custom } as ScaleSpec;
}

/** Colours of the default scales by value: live values repeat, interpolating each time does not pay. */
const colorMemo = new Map<SensorLayer, Map<number, string>>();
const COLOR_MEMO_SIZE = 4096;

export function sensorColor(layer: SensorLayer, value: number, spec: ScaleSpec = SENSOR_SCALES[layer]): string {
  if (spec !== SENSOR_SCALES[layer]) return scaleOf(layer, spec)(value);
  let memo = colorMemo.get(layer);
  if (!memo) { memo = new Map(); colorMemo.set(layer, memo); }
  let color = memo.get(value);
  if (color === undefined) {
    color = scaleOf(layer, spec)(value);
    if (memo.size >= COLOR_MEMO_SIZE) memo.clear();
    memo.set(value, color);
  }
  return color;
}

export function sensorLegend(layer: SensorLayer, spec: ScaleSpec = SENSOR_SCALES[layer]): Legend {
  const scale = scaleOf(layer, spec);
  return {
    layer,
    title: spec.title,
    unit: spec.unit,
    stops: spec.domain.map((value) => ({ value, color: scale(value), label: spec.unit ? `${value} ${spec.unit}` : String(value) })),
  };
}

/** A sensor value as a number, or null (booleans and words are not on a scale). */
export function numericValue(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}
