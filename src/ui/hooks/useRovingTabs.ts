// The WAI-ARIA tabs pattern's keyboard (APG "Tabs"): the tab list is one tab
// stop (roving tabindex: the selected tab, or the one the arrows moved to),
// Left/Right move between tabs (wrapping), Home/End go to the first and last.
// With automatic activation a tab moved to is selected at once; with manual
// activation the arrows move focus only and Enter or Space (the tab is a
// button) selects. The side panels and the narrow map's legends use it.

import { useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';

export interface RovingTabsOptions<T extends string> {
  ids: readonly T[];
  /** the selected tab (the panel shown), or the one last shown when none is */
  selected: T;
  /** selection follows focus (automatic activation) */
  automatic: boolean;
  onSelect(id: T): void;
}

export interface RovingTabs<T extends string> {
  /** spread on the element with role="tablist" */
  listProps: { onKeyDown(event: KeyboardEvent<HTMLElement>): void; onBlur(event: FocusEvent<HTMLElement>): void };
  /** tabIndex and ref for one tab */
  tabProps(id: T): { tabIndex: number; ref(el: HTMLElement | null): void; onFocus(): void };
}

const MOVES: Record<string, (i: number, n: number) => number> = {
  ArrowRight: (i, n) => (i + 1) % n,
  ArrowLeft: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_i, n) => n - 1,
};

export function useRovingTabs<T extends string>({ ids, selected, automatic, onSelect }: RovingTabsOptions<T>): RovingTabs<T> {
  // the focused tab while focus is in the list (with manual activation, not necessarily the selected one)
  const [moved, setMoved] = useState<T | null>(null);
  const elements = useRef(new Map<T, HTMLElement>());
  const stop = moved !== null && ids.includes(moved) ? moved : ids.includes(selected) ? selected : ids[0];

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const move = MOVES[event.key];
    if (!move || event.altKey || event.ctrlKey || event.metaKey || ids.length === 0) return;
    const from = ids.findIndex((id) => elements.current.get(id) === event.target);
    if (from < 0) return;
    event.preventDefault();
    const next = ids[move(from, ids.length)]!;
    elements.current.get(next)?.focus();
    if (automatic) onSelect(next);
  };
  // focus leaving the list: the tab stop goes back to the selected tab
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setMoved(null);
  };

  return {
    listProps: { onKeyDown, onBlur },
    tabProps: (id) => ({
      tabIndex: id === stop ? 0 : -1,
      onFocus: () => setMoved(id),
      ref: (el) => {
        if (el) elements.current.set(id, el);
        else elements.current.delete(id);
      },
    }),
  };
}
