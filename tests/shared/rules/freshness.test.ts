import { describe, expect, it } from 'vitest';
import {
  computeFreshness, DEFAULT_TIMEOUT_ACTIONS, fadeAlpha, freshnessRecheckAt, isTimedOut, timeoutActionFor,
  type FreshnessAsset,
} from '../../../src/shared/rules/freshness.js';
import { DAY_MS } from '../helpers.js';

const asset = (type: string, extra: Partial<FreshnessAsset> = {}): FreshnessAsset => ({
  type, timeout_action: null, privacy_filtered: false, local: false, ...extra,
});
// validity from 0 to 100 s: fading starts at 25 s (after 25 % of validity)
const value = { time: 0, valid_to: 100_000 };

describe('freshness', () => {
  describe('timeoutActionFor', () => {
    it('skips employees, auto tags and tickets, fades voices, marks containers missing, else nothing', () => {
      expect(DEFAULT_TIMEOUT_ACTIONS).toEqual({ employee: 'skip', auto_tag: 'skip', ticket: 'skip', voice: 'fade_out', container: 'missing' });
      expect(timeoutActionFor(asset('employee'))).toBe('skip');
      expect(timeoutActionFor(asset('auto_tag'))).toBe('skip');
      expect(timeoutActionFor(asset('ticket'))).toBe('skip');
      expect(timeoutActionFor(asset('voice'))).toBe('fade_out');
      expect(timeoutActionFor(asset('container'))).toBe('missing');
      expect(timeoutActionFor(asset('desk'))).toBe('none');
      expect(timeoutActionFor(asset('constructor'))).toBe('none');
    });

    it("lets the asset's own timeout_action override its type's", () => {
      expect(timeoutActionFor(asset('employee', { timeout_action: 'grey_out' }))).toBe('grey_out');
      expect(timeoutActionFor(asset('desk', { timeout_action: 'fade_out' }))).toBe('fade_out');
    });
  });

  describe('isTimedOut', () => {
    it('is timed out only when now is strictly past valid_to', () => {
      expect(isTimedOut(value, 100_000)).toBe(false);
      expect(isTimedOut(value, 100_001)).toBe(true);
      expect(isTimedOut(null, 1e15)).toBe(false);
    });
  });

  describe('fadeAlpha', () => {
    it('is 1 at the start of validity', () => {
      expect(fadeAlpha(value, 0)).toBe(1);
    });

    it('is still 1 at 25 % of validity, where the fade begins', () => {
      expect(fadeAlpha(value, 25_000)).toBe(1);
      expect(fadeAlpha(value, 25_001)).toBeLessThan(1);
    });

    it('falls linearly, reaching 0.6 halfway through the fade', () => {
      expect(fadeAlpha(value, 62_500)).toBeCloseTo(0.6, 12);
    });

    it('is exactly the minimum 0.2 at the end of validity', () => {
      expect(fadeAlpha(value, 100_000)).toBe(0.2);
    });

    it('drops below the minimum once past valid_to, down to 0', () => {
      expect(fadeAlpha(value, 100_001)).toBeLessThan(0.2);
      expect(fadeAlpha(value, 1_000_000)).toBe(0);
    });
  });

  describe('freshnessRecheckAt', () => {
    it('re-checks at valid_to + 1', () => {
      expect(freshnessRecheckAt(value, 10)).toBe(100_001);
    });

    it('caps the re-check at one week (6048e5 ms) from now', () => {
      const now = 1_000;
      expect(freshnessRecheckAt({ time: 0, valid_to: now + 30 * DAY_MS }, now)).toBe(now + 6048e5);
      expect(freshnessRecheckAt({ time: 0, valid_to: now + 6048e5 - 1 }, now)).toBe(now + 6048e5);
      expect(freshnessRecheckAt({ time: 0, valid_to: now + 6048e5 }, now)).toBe(now + 6048e5);
    });

    it('has nothing to re-check once timed out or without a value', () => {
      expect(freshnessRecheckAt(value, 100_001)).toBeNull();
      expect(freshnessRecheckAt(null, 0)).toBeNull();
    });
  });

  describe('computeFreshness', () => {
    it('draws a fresh desk normally', () => {
      expect(computeFreshness(asset('desk'), value, 50_000)).toEqual({
        timedOut: false, action: 'none', alpha: 1, greyedOut: false, missingSymbol: false,
        visible: true, hiddenReason: null, fading: false, recheckAt: 100_001,
      });
    });

    it('keeps drawing a timed-out asset without an action', () => {
      const f = computeFreshness(asset('desk'), value, 200_000);
      expect(f).toMatchObject({ timedOut: true, visible: true, alpha: 1, recheckAt: null });
    });

    it('does not draw a timed-out employee (skip)', () => {
      expect(computeFreshness(asset('employee'), value, 100_000).visible).toBe(true);
      const f = computeFreshness(asset('employee'), value, 100_001);
      expect(f).toMatchObject({ timedOut: true, visible: false, hiddenReason: 'timed_out' });
    });

    it('fades a voice and stops drawing it when its alpha falls below 0.2', () => {
      expect(computeFreshness(asset('voice'), value, 25_000)).toMatchObject({ alpha: 1, visible: true, fading: false });
      expect(computeFreshness(asset('voice'), value, 62_500)).toMatchObject({ visible: true, fading: true });
      expect(computeFreshness(asset('voice'), value, 100_000)).toMatchObject({ alpha: 0.2, visible: true });
      expect(computeFreshness(asset('voice'), value, 100_001)).toMatchObject({ visible: false, hiddenReason: 'faded', timedOut: true });
    });

    it('greys out a timed-out asset whose action is grey_out', () => {
      const a = asset('desk', { timeout_action: 'grey_out' });
      expect(computeFreshness(a, value, 100_000).greyedOut).toBe(false);
      expect(computeFreshness(a, value, 100_001)).toMatchObject({ greyedOut: true, visible: true });
    });

    it('draws a missing symbol for a timed-out container', () => {
      expect(computeFreshness(asset('container'), value, 100_001)).toMatchObject({ missingSymbol: true, visible: true });
      expect(computeFreshness(asset('container'), value, 99_999).missingSymbol).toBe(false);
    });

    it('does not draw a privacy-filtered asset unless it is local', () => {
      expect(computeFreshness(asset('employee', { privacy_filtered: true }), value, 1)).toMatchObject({ visible: false, hiddenReason: 'privacy' });
      expect(computeFreshness(asset('employee', { privacy_filtered: true, local: true }), value, 1).visible).toBe(true);
    });

    it('treats an asset without a value as fresh', () => {
      expect(computeFreshness(asset('employee'), null, 1e15)).toMatchObject({ timedOut: false, visible: true, recheckAt: null });
    });
  });
});
