// Plausible readings for every sensor layer of spec §2, shared by the seeded
// history and the simulator so both tell the same story: a working day
// warms and fills the office, nights are quiet.

import { HOUR_END, HOUR_START } from '../../src/shared/constants.js';
import type { Prng } from './prng.js';

export const ENVIRONMENT_TYPES = ['tvoc', 'temperature', 'humidity', 'co2', 'illuminance', 'pressure', 'loudness'] as const;
export const OTHER_SENSOR_LAYERS = ['satisfaction', 'stress', 'service', 'devices', 'monitoring', 'mesh'] as const;

export const SENSOR_UNITS: Record<string, string | null> = {
  tvoc: 'ppb', temperature: '°C', humidity: '%', co2: 'ppm', illuminance: 'lx', pressure: 'hPa', loudness: 'dB',
  satisfaction: '%', stress: '%', service: null, devices: 'count', monitoring: '%', mesh: 'dBm',
  occupancy: null, reservation: null, location: null,
};

/** ms each kind of reading stays valid */
export const VALIDITY_MS: Record<string, number> = {
  occupancy: 15 * 60_000,
  location: 10 * 60_000,
  reservation: 24 * 3_600_000,
  environment: 30 * 60_000,
  other: 60 * 60_000,
};

export function validityOf(type: string): number {
  return VALIDITY_MS[type] ?? ((ENVIRONMENT_TYPES as readonly string[]).includes(type) ? VALIDITY_MS.environment! : VALIDITY_MS.other!);
}

/** 0 at night, rising to 1 mid-day within working hours */
export function dayActivity(localHour: number): number {
  if (localHour < HOUR_START || localHour > HOUR_END) return 0;
  return Math.sin(((localHour - HOUR_START) / (HOUR_END - HOUR_START)) * Math.PI);
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

export function sensorReading(type: string, localHour: number, rng: Prng): number {
  return readingAt(type, dayActivity(localHour), rng);
}

/** A plausible reading of `type` at an activity level from 0 (empty office) to 1 (busiest hour). */
export function readingAt(type: string, a: number, rng: Prng): number {
  switch (type) {
    case 'temperature': return round(20.5 + 2.5 * a + rng.range(-0.4, 0.4), 1);
    case 'humidity': return round(35 + 8 * a + rng.range(-3, 3), 0);
    case 'co2': return Math.round(420 + 650 * a * rng.range(0.6, 1.3));
    case 'tvoc': return Math.round(60 + 300 * a * rng.range(0.5, 1.4));
    case 'illuminance': return Math.round(a > 0 ? 300 + 250 * a + rng.range(-40, 40) : rng.range(0, 15));
    case 'pressure': return round(1013 + rng.range(-6, 6), 1);
    case 'loudness': return round(32 + 25 * a + rng.range(-4, 4), 0);
    case 'satisfaction': return Math.round(70 + rng.range(-20, 20));
    case 'stress': return Math.round(20 + 30 * a + rng.range(-10, 10));
    case 'service': return rng.chance(0.1) ? 1 : 0;
    case 'devices': return Math.round(40 * a * rng.range(0.5, 1.5));
    case 'monitoring': return Math.round(95 + rng.range(-5, 5));
    case 'mesh': return Math.round(-60 + rng.range(-20, 10));
    case 'occupancy': return rng.chance(0.15 + 0.6 * a) ? 1 : 0;
    default: return round(rng.next(), 3);
  }
}
