import { describe, expect, it } from 'vitest';
import {
  cleanDeskColor, cleanDeskLegendStops, cleanDeskPhase, cleanDeskRatio, createCleanDeskScale,
} from '../../../src/shared/rules/cleanDesk.js';
import { BASE_CONFIG, createBaseConfig } from '../../../src/shared/config.js';

function rgb(css: string): { r: number; g: number; b: number; text: string } {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(css);
  const parts = hex ? hex.slice(1).map((h) => parseInt(h, 16)) : /^rgb\((\d+), (\d+), (\d+)\)$/.exec(css)!.slice(1).map(Number);
  const [r, g, b] = parts as [number, number, number];
  return { r, g, b, text: `rgb(${r}, ${g}, ${b})` };
}
const colorAt = (i: number) => rgb(BASE_CONFIG.cleanDesk.colors[i]!).text;

describe('cleanDesk', () => {
  describe('cleanDeskRatio', () => {
    it('is the share of the 120-minute policy since the desk was last occupied', () => {
      expect(cleanDeskRatio(0, false, 60 * 60_000, 120)).toBe(0.5);
      expect(cleanDeskRatio(0, false, 120 * 60_000, 120)).toBe(1);
    });
    it('is 0 while occupied and unknown without a last occupancy', () => {
      expect(cleanDeskRatio(0, true, 1e9, 120)).toBe(0);
      expect(cleanDeskRatio(null, false, 1e9, 120)).toBeNull();
    });
  });

  describe('cleanDeskColor', () => {
    it('takes the configured colour exactly at each threshold 0, 0.08, 0.081, 0.999, 1', () => {
      [0, 0.08, 0.081, 0.999, 1].forEach((t, i) => expect(cleanDeskColor(t), `at ${t}`).toBe(colorAt(i)));
    });

    it('interpolates in RGB between thresholds', () => {
      const a = rgb(colorAt(2));
      const b = rgb(colorAt(3));
      const mid = rgb(cleanDeskColor((0.081 + 0.999) / 2));
      expect(mid.r).toBeCloseTo((a.r + b.r) / 2, 0);
      expect(mid.g).toBeCloseTo((a.g + b.g) / 2, 0);
    });

    it('clamps ratios outside 0..1 to the end colours', () => {
      expect(cleanDeskColor(-1)).toBe(colorAt(0));
      expect(cleanDeskColor(5)).toBe(colorAt(4));
    });

    it('follows a configured palette', () => {
      const config = createBaseConfig();
      config.cleanDesk.colors = ['#000000', '#000000', '#ffffff', '#ffffff', '#ff0000'];
      expect(cleanDeskColor(0.5, config)).toBe('rgb(255, 255, 255)');
      expect(createCleanDeskScale(config)(1)).toBe('rgb(255, 0, 0)');
    });
  });

  describe('cleanDeskPhase', () => {
    it('is a short break up to 0.08, should be cleared until 1, and exceeded from 1', () => {
      expect(cleanDeskPhase(0)).toBe('short_break');
      expect(cleanDeskPhase(0.08)).toBe('short_break');
      expect(cleanDeskPhase(0.0801)).toBe('awaiting_clearing');
      expect(cleanDeskPhase(0.999)).toBe('awaiting_clearing');
      expect(cleanDeskPhase(1)).toBe('policy_exceeded');
      expect(cleanDeskPhase(0.5, true)).toBe('in_use');
    });
  });

  describe('cleanDeskLegendStops', () => {
    it('names each phase in words with the minutes of the 120-minute policy it spans', () => {
      expect(cleanDeskLegendStops(120).map((s) => s.label)).toEqual([
        'Short break (0–10 min)', 'Should be cleared (10–120 min)', 'Clean desk policy exceeded (over 120 min)',
      ]);
    });
    it('shows the colour each phase starts with', () => {
      expect(cleanDeskLegendStops(120).map((s) => s.color)).toEqual([colorAt(0), colorAt(2), colorAt(4)]);
    });
  });
});
