import { act, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createViewMirror, sameData } from '../../src/ui/engine/viewMirror.js';
import { shallowEqual, useViewSelector } from '../../src/ui/hooks/useViewSelector.js';

type Entry = { id: string; x: number; outline: number[][]; color: string };

function setup(isEqual?: (a: unknown, b: unknown) => boolean) {
  const mirror = createViewMirror<Entry, null>();
  mirror.apply({ type: 'snapshot', version: 1, entries: { a: { id: 'a', x: 1, outline: [[0, 0], [1, 1]], color: 'red' } }, meta: null });
  let renders = 0;
  function Node() {
    const shape = useViewSelector(mirror, 'a', (e) => (e ? { x: e.x, outline: e.outline } : null), isEqual as never);
    renders += 1;
    return <span>{shape?.x}</span>;
  }
  const view = render(<Node />);
  const patch = (version: number, entry: Entry) => act(() => { mirror.apply({ type: 'patch', version, upserted: { a: entry }, removed: [] }); });
  return { view, patch, renders: () => renders };
}

describe('useViewSelector', () => {
  it('does not re-render a node when only fields it does not draw change', () => {
    const { patch, renders } = setup(sameData);
    expect(renders()).toBe(1);
    // a live status change: new colour, the same shape (in new arrays, as a patch brings them)
    patch(2, { id: 'a', x: 1, outline: [[0, 0], [1, 1]], color: 'green' });
    expect(renders()).toBe(1);
  });

  it('re-renders when a drawn field changes', () => {
    const { view, patch, renders } = setup(sameData);
    patch(2, { id: 'a', x: 5, outline: [[0, 0], [1, 1]], color: 'red' });
    expect(renders()).toBe(2);
    expect(view.container.textContent).toBe('5');
  });

  it('compares shallowly by default', () => {
    expect(shallowEqual({ a: 1, b: 'x' }, { a: 1, b: 'x' })).toBe(true);
    expect(shallowEqual({ a: [1] }, { a: [1] })).toBe(false);
    expect(shallowEqual(null, null)).toBe(true);
  });
});
