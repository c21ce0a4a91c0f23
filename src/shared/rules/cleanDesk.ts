// Clean-desk colours (spec §9): a d3 colour scale over the share of the
// clean-desk policy time (cleanDeskPolicy minutes of working hours, hourStart
// to hourEnd in the location's zone) that has passed since a desk was last
// left. Thresholds 0, 0.08, 0.081, 0.999, 1; docs/domain.md has the phases.

import { scaleLinear, type ScaleLinear } from 'd3-scale';
import { interpolateRgb } from 'd3-interpolate';
import { BASE_CONFIG, type BaseConfig } from '../config.js';
import { addDaysToKey, calendarDay, dateKeyOf, overlapMs, workingWindow, type CalendarDay } from '../reports/calendar.js';

const MINUTE_MS = 60_000;

export type CleanDeskPhase = 'in_use' | 'short_break' | 'awaiting_clearing' | 'policy_exceeded';

export const CLEAN_DESK_PHASE_LABELS: Readonly<Record<CleanDeskPhase, string>> = {
  in_use: 'In use',
  short_break: 'Short break',
  awaiting_clearing: 'Should be cleared',
  policy_exceeded: 'Clean desk policy exceeded',
};

type CleanDeskConfig = Pick<BaseConfig, 'cleanDesk'>;

/**
 * Share of the policy elapsed since the desk was last occupied: 0 while
 * occupied (or just left), 1 when the policy time has passed. Not clamped.
 */
export function cleanDeskRatio(
  lastOccupiedAt: number | null,
  occupiedNow: boolean,
  now: number,
  policyMinutes: number,
  hours?: WorkingHours,
): number | null {
  if (occupiedNow) return 0;
  if (lastOccupiedAt === null || policyMinutes <= 0) return null;
  const elapsed = hours ? workingMsBetween(lastOccupiedAt, now, hours) : Math.max(0, now - lastOccupiedAt);
  return elapsed / (policyMinutes * MINUTE_MS);
}

/** The working hours of spec §9 in a location's zone: only these minutes count toward the clean-desk policy. */
export interface WorkingHours {
  timeZone: string;
  hourStart: number;
  hourEnd: number;
}

/** Days looked at, at most: a desk left longer ago counts as long past the policy anyway. */
const MAX_DAYS = 14;
const dayMemo = new Map<string, CalendarDay>();

/** The local day, memoized: every desk of a location asks for the same few days. */
function dayOf(key: string, timeZone: string): CalendarDay {
  const memoKey = `${timeZone}|${key}`;
  let day = dayMemo.get(memoKey);
  if (!day) {
    if (dayMemo.size > 256) dayMemo.clear();
    day = calendarDay(key, timeZone);
    dayMemo.set(memoKey, day);
  }
  return day;
}

/** ms of [from, to) inside the working hours (hourStart ≤ local hour < hourEnd) of each local day, DST-aware. */
export function workingMsBetween(from: number, to: number, hours: WorkingHours): number {
  if (!(to > from)) return 0;
  let total = 0;
  let key = dateKeyOf(from, hours.timeZone);
  const last = dateKeyOf(to, hours.timeZone);
  for (let i = 0; i < MAX_DAYS; i++) {
    const day = dayOf(key, hours.timeZone);
    total += overlapMs(from, to, workingWindow(day, hours.hourStart, hours.hourEnd));
    if (key === last) break;
    key = addDaysToKey(key, 1);
  }
  return total;
}

/**
 * Phases between the thresholds: [0, 0.08] a short break (green), (0.08, 1)
 * the desk should be cleared (yellow turning orange), ≥ 1 the policy is
 * exceeded (red). The steps 0.08→0.081 and 0.999→1 are near-jumps on purpose:
 * crossing into a new phase is visible at once.
 */
export function cleanDeskPhase(ratio: number, occupiedNow = false, config: CleanDeskConfig = BASE_CONFIG): CleanDeskPhase {
  if (occupiedNow) return 'in_use';
  const t = config.cleanDesk.thresholds;
  if (ratio <= t[1]!) return 'short_break';
  if (ratio < t[4]!) return 'awaiting_clearing';
  return 'policy_exceeded';
}

export function createCleanDeskScale(config: CleanDeskConfig = BASE_CONFIG): ScaleLinear<string, string> {
  return scaleLinear<string>()
    .domain(config.cleanDesk.thresholds)
    .range(config.cleanDesk.colors)
    .interpolate(interpolateRgb)
    .clamp(true);
}

/**
 * Scales per clean-desk configuration object: a location's resolved config is
 * one object for all its desks, and building a d3 scale per desk per reading
 * cost more than the rest of the desk's derivation (issue 14).
 */
const scales = new WeakMap<CleanDeskConfig['cleanDesk'], ScaleLinear<string, string>>();

/** CSS colour (`rgb(r, g, b)`) of a ratio; ratios outside [0, 1] take the end colours. */
export function cleanDeskColor(ratio: number, config: CleanDeskConfig = BASE_CONFIG): string {
  let scale = scales.get(config.cleanDesk);
  if (!scale) {
    scale = createCleanDeskScale(config);
    scales.set(config.cleanDesk, scale);
  }
  return scale(ratio);
}

/**
 * Legend stops of the clean-desk layer, one per phase after the desk was left,
 * in words with the minutes they span. The raw thresholds come in near pairs
 * (0.08/0.081, 0.999/1) that round to the same minute, so they are not listed
 * one by one; each phase shows the colour it starts with.
 */
export function cleanDeskLegendStops(policyMinutes: number, config: CleanDeskConfig = BASE_CONFIG): Array<{ value: number; color: string; label: string }> {
  const scale = createCleanDeskScale(config);
  const t = config.cleanDesk.thresholds;
  const minutes = (ratio: number) => Math.round(ratio * policyMinutes);
  return [
    { value: t[0]!, color: scale(t[0]!), label: `${CLEAN_DESK_PHASE_LABELS.short_break} (${minutes(t[0]!)}–${minutes(t[1]!)} min)` },
    { value: t[2]!, color: scale(t[2]!), label: `${CLEAN_DESK_PHASE_LABELS.awaiting_clearing} (${minutes(t[2]!)}–${minutes(t[4]!)} min)` },
    { value: t[4]!, color: scale(t[4]!), label: `${CLEAN_DESK_PHASE_LABELS.policy_exceeded} (over ${minutes(t[4]!)} min)` },
  ];
}
