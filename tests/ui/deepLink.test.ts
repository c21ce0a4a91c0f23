import { describe, expect, it } from 'vitest';
import { DEFAULT_LAYERS, MAP_LAYERS } from '../../src/shared/constants.js';
import { formatDeepLink, parseDeepLink, QS_PARSE_OPTIONS } from '../../src/ui/lib/deepLink.js';

describe('deepLink', () => {
  describe('parseDeepLink', () => {
    it('reads location, floor, layers and the highlighted asset', () => {
      expect(parseDeepLink('?location=l1&floor=f2&layers=desks,co2&asset=a7')).toEqual({
        location: 'l1', floor: 'f2', layers: ['desks', 'co2'], asset: 'a7',
      });
    });
    it('falls back to the default layers when the link has none', () => {
      expect(parseDeepLink('').layers).toEqual([...DEFAULT_LAYERS]);
      expect(DEFAULT_LAYERS).toEqual(['floorplan', 'info', 'desk_usage', 'room_reservation', 'co-workers']);
    });
    it('keeps an explicitly empty layer list empty', () => {
      expect(parseDeepLink('?layers=').layers).toEqual([]);
    });
    it('drops unknown layers and malformed ids', () => {
      const link = parseDeepLink('?layers=desks,<script>,co2&floor=../x&location[a]=1');
      expect(link.layers).toEqual(['desks', 'co2']);
      expect(link.floor).toBeNull();
      expect(link.location).toBeNull();
    });
    it('parses with the spec limits: depth 5, array limit 20, parameter limit 1000', () => {
      expect(QS_PARSE_OPTIONS).toMatchObject({ depth: 5, arrayLimit: 20, parameterLimit: 1000 });
    });
    it('accepts all 25 layers given as an array past the array limit', () => {
      const search = '?' + MAP_LAYERS.map((l, i) => `layers[${i}]=${l}`).join('&');
      expect(parseDeepLink(search).layers).toEqual([...MAP_LAYERS]);
    });
  });

  describe('formatDeepLink', () => {
    it('round-trips through parseDeepLink', () => {
      const link = { location: 'l1', floor: 'f2', layers: ['co2', 'desks'] as const, asset: 'a7' };
      const text = formatDeepLink({ ...link, layers: [...link.layers] });
      expect(text).toBe('?location=l1&floor=f2&layers=desks,co2&asset=a7');
      expect(parseDeepLink(text)).toEqual({ ...link, layers: ['desks', 'co2'] });
    });
  });
});
