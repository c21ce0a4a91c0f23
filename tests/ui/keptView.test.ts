import { describe, expect, it } from 'vitest';
import { createViewKeeper, keptViewFor } from '../../src/ui/lib/keptView.js';

describe('keptView', () => {
  it("starts a new viewer from the kept view of its floor, and fits when it was a fit, another floor's or none", () => {
    const keeper = createViewKeeper();
    expect(keptViewFor(keeper, 'f1')).toBeNull();
    expect(keptViewFor(null, 'f1')).toBeNull();
    keeper.set({ floorId: 'f1', view: { x: 10, y: -20, k: 3 }, fitted: false });
    expect(keptViewFor(keeper, 'f1')).toEqual({ x: 10, y: -20, k: 3 });
    expect(keptViewFor(keeper, 'f2')).toBeNull();
    keeper.set({ floorId: 'f1', view: { x: 1, y: 1, k: 1 }, fitted: true });
    expect(keptViewFor(keeper, 'f1')).toBeNull();
  });
});
