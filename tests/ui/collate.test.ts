// The app's one collator (lib/collate.ts) sorts as localeCompare does.
import { describe, expect, it } from 'vitest';
import { compareText, prepareCollator } from '../../src/ui/lib/collate.js';

describe('compareText', () => {
  it('orders names as localeCompare does, accents and case included', () => {
    const names = ['Émile', 'eve', 'Zoë', 'adam', 'Ängel', 'Eve', 'zack', 'Ada'];
    prepareCollator();
    expect([...names].sort(compareText)).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(compareText('a', 'a')).toBe(0);
  });
});
