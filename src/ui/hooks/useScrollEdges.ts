// Says on a horizontally scrolling element whether more of it lies beyond
// either edge (`data-more-left`, `data-more-right`), so its style can fade that
// edge: on a phone the panels' tabs run past the screen in one row, and a tab
// cut at the edge read as a layout fault rather than as a row that scrolls.

import { useLayoutEffect, type RefObject } from 'react';

/** Half a pixel of rounding is not more to scroll. */
const EDGE_PX = 1;

export function useScrollEdges(ref: RefObject<HTMLElement | null>, enabled: boolean): void {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const mark = () => {
      const more = enabled && el.scrollWidth - el.clientWidth > EDGE_PX;
      el.toggleAttribute('data-more-left', more && el.scrollLeft > EDGE_PX);
      el.toggleAttribute('data-more-right', more && el.scrollLeft + el.clientWidth < el.scrollWidth - EDGE_PX);
    };
    mark();
    if (!enabled) return;
    el.addEventListener('scroll', mark, { passive: true });
    // the width changes with the screen's turn and the sheet's button, a tab's with its text
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(mark);
    observer?.observe(el);
    for (const child of el.children) observer?.observe(child);
    return () => {
      el.removeEventListener('scroll', mark);
      observer?.disconnect();
    };
  }, [ref, enabled]);
}
