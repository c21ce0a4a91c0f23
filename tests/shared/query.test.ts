import { describe, expect, it } from 'vitest';
import { QUERY_PARSE_OPTIONS, parseQuery, queryList, stringifyQuery } from '../../src/shared/query.js';

describe('query', () => {
  it('parses with depth 5, array limit 20 and parameter limit 1000', () => {
    expect(QUERY_PARSE_OPTIONS).toMatchObject({ depth: 5, arrayLimit: 20, parameterLimit: 1000 });
  });

  describe('parseQuery', () => {
    it('reads repeated keys and a leading ?', () => {
      expect(parseQuery('?type=desk&sensor_id=1&sensor_id=2')).toEqual({ type: 'desk', sensor_id: ['1', '2'] });
    });

    it('nests no deeper than 5 levels', () => {
      const parsed = parseQuery('a[b][c][d][e][f][g]=1') as any;
      expect(parsed.a.b.c.d.e.f).toEqual({ '[g]': '1' });
    });

    it('keeps arrays under 20 items and turns larger ones into objects instead of huge arrays', () => {
      expect(parseQuery('a[19]=x')).toEqual({ a: ['x'] });
      expect(parseQuery('a[20]=x')).toEqual({ a: { 20: 'x' } });
      const twenty = Array.from({ length: 20 }, (_, i) => `s=${i}`).join('&');
      const twentyOne = `${twenty}&s=20`;
      expect(Array.isArray(parseQuery(twenty).s)).toBe(true);
      expect(Array.isArray(parseQuery(twentyOne).s)).toBe(false);
    });

    it('reads at most 1000 parameters', () => {
      const query = Array.from({ length: 1200 }, (_, i) => `p${i}=${i}`).join('&');
      expect(Object.keys(parseQuery(query))).toHaveLength(1000);
    });
  });

  describe('stringifyQuery', () => {
    it('repeats array keys and skips nulls', () => {
      expect(stringifyQuery({ start: 1, limit: 20000, sensor_id: ['a', 'b'], end: null })).toBe('start=1&limit=20000&sensor_id=a&sensor_id=b');
    });

    it('round-trips through parseQuery', () => {
      const params = { location_id: '7', filter_expired: 'true', sensor_id: ['1', '2'] };
      expect(parseQuery(stringifyQuery(params))).toEqual(params);
    });
  });

  describe('queryList', () => {
    it('reads a repeatable parameter as a list whether qs made a string, an array or an object', () => {
      const many = Array.from({ length: 25 }, (_, i) => `sensor_id=${i}`).join('&');
      expect(queryList(parseQuery(many).sensor_id)).toEqual(Array.from({ length: 25 }, (_, i) => String(i)));
      expect(queryList(parseQuery('sensor_id=a&sensor_id=b').sensor_id)).toEqual(['a', 'b']);
      expect(queryList(parseQuery('sensor_id=a').sensor_id)).toEqual(['a']);
      expect(queryList(undefined)).toEqual([]);
      expect(queryList({ x: { nested: 1 } })).toEqual([]);
    });
  });
});
