// The top bar. Wide screens show everything in one bar: the brand, the
// choosers, the finder, who is signed in. Phone-size screens (compact) keep
// one row of touch-sized controls: a menu button named by the floor shown,
// and the finder; the menu holds the choosers, the account and the layers, and
// drops over the top of the map (a part of the map stays in sight below it). It closes on Escape (focus back to its button), on a
// press outside the bar and when a floor is chosen (the shell closes it).

import { useEffect, useId, useLayoutEffect, useRef, type ReactNode } from 'react';

export interface TopBarProps {
  compact: boolean;
  /** the compact menu is open */
  menuOpen: boolean;
  onMenu(open: boolean): void;
  /** the floor shown, in words ("Floor 2, Building A"), or null while none is */
  placeName: string | null;
  choosers: ReactNode;
  finder: ReactNode;
  account: ReactNode;
  /** the layer switches: in the compact menu (wide screens have them beside the map) */
  layers: ReactNode;
}

export function TopBar({ compact, menuOpen, onMenu, placeName, choosers, finder, account, layers }: TopBarProps) {
  const menuId = useId();
  const bar = useRef<HTMLElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const open = compact && menuOpen;

  // a press outside the bar (on the map, a panel) closes the menu
  useEffect(() => {
    if (!open) return undefined;
    const onDown = (event: PointerEvent) => {
      if (!bar.current?.contains(event.target as Node)) onMenu(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open, onMenu]);
  // closed while focus was in it (a floor chosen): focus goes back to the button, not to the page
  useLayoutEffect(() => {
    if (!open && menu.current?.contains(document.activeElement)) toggle.current?.focus();
  }, [open]);

  if (!compact) {
    return (
      <header className="top-bar">
        <span className="brand">Storey</span>
        {choosers}
        {finder}
        {account}
      </header>
    );
  }
  return (
    <header
      className="top-bar compact"
      ref={bar}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open && menu.current?.contains(event.target as Node)) {
          event.stopPropagation();
          onMenu(false);
          toggle.current?.focus();
        }
      }}
    >
      <button
        ref={toggle}
        type="button"
        className="menu-toggle"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={placeName ? `Menu, ${placeName}` : 'Menu'}
        onClick={() => onMenu(!open)}
      >
        <span className="menu-icon" aria-hidden="true">☰</span>
        <span className="menu-place">{placeName ?? 'Menu'}</span>
      </button>
      <div id={menuId} ref={menu} className="top-menu" role="group" aria-label="Menu" hidden={!open}>
        {choosers}
        {account}
        {layers}
      </div>
      {finder}
    </header>
  );
}
