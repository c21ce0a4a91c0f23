import { describe, expect, it } from 'vitest';
import type { DrawState } from '../../../src/shared/api.js';
import { DRAW_STATE_FIELDS, sameDrawState } from '../../../src/worker/derive/drawState.js';

// The floor view's comparison of a new draw state with the one sent (views/viewHub.ts `same`): a field it
// missed would leave the map drawing an old look, so every field of DrawState is changed in turn.

const base = (): DrawState => ({
  id: 'r1', kind: 'room', statusKind: 'free', layers: ['rooms', 'room_reservation'], x: 4, y: 3, angle: 90, width: 6, depth: 4,
  outline: [[0, 0], [6, 0], [6, 4], [0, 4]], color: '#4caf50', alpha: 1, greyedOut: false, missingSymbol: false, name: 'Aurora',
  label: 'Aurora', text: null, status: 'free', unpublished: false, hiddenBy: { id: 'z1', kind: 'zone', name: 'Wing' },
  avatarUrl: null, decoration: null, heat: 0.25,
});

/** a value of the field other than the base's, of its type */
const changed: { [K in keyof DrawState]-?: DrawState[K] } = {
  id: 'r2', kind: 'desk', statusKind: 'busy', layers: ['rooms'], x: 5, y: 4, angle: 0, width: 7, depth: 5,
  outline: [[0, 0], [6, 0], [6, 5], [0, 4]], color: '#f44336', alpha: 0.5, greyedOut: true, missingSymbol: true, name: 'Borealis',
  label: 'Borealis', text: '21 °C', status: 'occupied', unpublished: true, hiddenBy: { id: 'z1', kind: 'zone', name: 'East wing' },
  avatarUrl: 'https://example.com/a.png', decoration: 'star', heat: 0.5,
};

describe('sameDrawState', () => {
  it('tells a draw state from one with any single field changed', () => {
    expect(DRAW_STATE_FIELDS.sort()).toEqual(Object.keys(changed).sort());
    for (const field of DRAW_STATE_FIELDS) {
      const other = { ...base(), [field]: changed[field] } as DrawState;
      expect(sameDrawState(base(), other), field).toBe(false);
      expect(sameDrawState(other, base()), field).toBe(false);
    }
  });

  it('takes a copy with new lists of the same items, and a field absent as one undefined, as the same', () => {
    const a = base();
    const b: DrawState = { ...a, layers: [...a.layers], outline: a.outline!.map(([x, y]) => [x, y]), hiddenBy: { ...a.hiddenBy! } };
    expect(sameDrawState(a, b)).toBe(true);
    const { heat: _heat, hiddenBy: _hiddenBy, ...without } = a;
    expect(sameDrawState({ ...without, heat: undefined, hiddenBy: undefined }, without as DrawState)).toBe(true);
    // no outline against one, and a hidden-by against none
    expect(sameDrawState({ ...a, outline: null }, a)).toBe(false);
    expect(sameDrawState(without as DrawState, { ...without, hiddenBy: a.hiddenBy } as DrawState)).toBe(false);
  });
});
