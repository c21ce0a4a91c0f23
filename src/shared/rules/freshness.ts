// Asset freshness (spec §4): whether the latest value has timed out, what the
// asset's timeout action does about it, the fade-out alpha, whether it is
// drawn at all, and when to look again. Pure: `now` is an argument.

import { FADE_OUT_MIN_ALPHA, FADE_OUT_PORTION, MAX_RECHECK_DELAY_MS } from '../constants.js';
import type { Asset, TimeoutAction } from '../types.js';

/** Default action by asset type; types not listed take no action. */
export const DEFAULT_TIMEOUT_ACTIONS: Readonly<Record<string, TimeoutAction>> = {
  employee: 'skip',
  auto_tag: 'skip',
  ticket: 'skip',
  voice: 'fade_out',
  container: 'missing',
};

/** The part of a measurement value freshness needs. */
export interface ValidityWindow {
  time: number;
  valid_to: number;
}

export type FreshnessAsset = Pick<Asset, 'type' | 'timeout_action' | 'privacy_filtered' | 'local'>;

export type HiddenReason = 'privacy' | 'timed_out' | 'faded';

export interface Freshness {
  timedOut: boolean;
  action: TimeoutAction;
  /** 1 unless the action is fade_out */
  alpha: number;
  greyedOut: boolean;
  missingSymbol: boolean;
  visible: boolean;
  hiddenReason: HiddenReason | null;
  /** fade_out assets inside their fading window; the engine may redraw them on its timeline */
  fading: boolean;
  /** when the state changes next without new data (valid_to + 1, capped at a week), or null */
  recheckAt: number | null;
}

/** The asset's own timeout_action, else the default of its type, else 'none'. */
export function timeoutActionFor(asset: Pick<Asset, 'type' | 'timeout_action'>): TimeoutAction {
  if (asset.timeout_action) return asset.timeout_action;
  return Object.hasOwn(DEFAULT_TIMEOUT_ACTIONS, asset.type) ? DEFAULT_TIMEOUT_ACTIONS[asset.type]! : 'none';
}

/** Timed out when now is strictly past valid_to. */
export function isTimedOut(value: ValidityWindow | null | undefined, now: number): boolean {
  return !!value && now > value.valid_to;
}

/**
 * Fade-out alpha: 1 during the first 25 % of validity, then falling linearly
 * to exactly FADE_OUT_MIN_ALPHA (0.2) at valid_to, and on below it (to 0)
 * afterwards at the same rate — which is what makes a timed-out fading asset
 * "below minimum" and so not drawn.
 */
export function fadeAlpha(value: ValidityWindow, now: number): number {
  const duration = value.valid_to - value.time;
  if (duration <= 0) return now > value.valid_to ? 0 : 1;
  const fadeLength = duration * FADE_OUT_PORTION;
  const fadeStart = value.valid_to - fadeLength;
  if (now <= fadeStart) return 1;
  const alpha = FADE_OUT_MIN_ALPHA + ((1 - FADE_OUT_MIN_ALPHA) * (value.valid_to - now)) / fadeLength;
  return Math.max(0, alpha);
}

/** valid_to + 1 (the first instant it is timed out), at most a week from now; null once timed out. */
export function freshnessRecheckAt(value: ValidityWindow | null | undefined, now: number): number | null {
  if (!value || now > value.valid_to) return null;
  return Math.min(value.valid_to + 1, now + MAX_RECHECK_DELAY_MS);
}

export function computeFreshness(asset: FreshnessAsset, latestValue: ValidityWindow | null | undefined, now: number): Freshness {
  const action = timeoutActionFor(asset);
  const timedOut = isTimedOut(latestValue, now);
  const alpha = action === 'fade_out' && latestValue ? fadeAlpha(latestValue, now) : 1;
  const fading = action === 'fade_out' && !timedOut && alpha < 1;
  let hiddenReason: HiddenReason | null = null;
  if (asset.privacy_filtered && !asset.local) hiddenReason = 'privacy';
  else if (timedOut && action === 'skip') hiddenReason = 'timed_out';
  else if (alpha < FADE_OUT_MIN_ALPHA) hiddenReason = 'faded';
  return {
    timedOut,
    action,
    alpha,
    greyedOut: timedOut && action === 'grey_out',
    missingSymbol: timedOut && action === 'missing',
    visible: hiddenReason === null,
    hiddenReason,
    fading,
    recheckAt: freshnessRecheckAt(latestValue, now),
  };
}
