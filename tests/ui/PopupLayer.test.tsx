import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { usePopupLayer } from '../../src/ui/components/PopupLayer.js';

afterEach(cleanup);

describe('usePopupLayer', () => {
  // `open` is in the floor context every drawn asset reads: a new one per render re-rendered the whole floor
  it('keeps open and close the same across renders and tells the latest onOpenAsset', () => {
    const container = { current: document.createElement('div') };
    const svg = { current: null };
    const first = vi.fn();
    const second = vi.fn();
    const { result, rerender } = renderHook(({ onOpenAsset }) => usePopupLayer(container, svg, onOpenAsset), { initialProps: { onOpenAsset: first } });
    const { open, close } = result.current;
    rerender({ onOpenAsset: second });
    expect(result.current.open).toBe(open);
    expect(result.current.close).toBe(close);
    act(() => result.current.open('desk-1', null));
    expect(second).toHaveBeenCalledWith('desk-1');
    expect(first).not.toHaveBeenCalled();
    expect(result.current.popup?.id).toBe('desk-1');
    expect(result.current.close).toBe(close);
    act(() => result.current.close());
    expect(second).toHaveBeenLastCalledWith(null);
    expect(result.current.popup).toBeNull();
  });
});
