// Picking a point on the map, for a ticket's place or one's own location: on
// the live floor only, ended by Escape wherever the focus is, and giving the
// focus back to the button that started it (docs/ui.md, keyboard).

import { useEffect, useRef, useState, type RefObject } from 'react';

export type PickKind = 'ticket' | 'location';

export function usePointPick(mapRef: RefObject<HTMLElement | null>, playbackDay: string | null, writable: boolean) {
  const [pick, setPick] = useState<PickKind | null>(null);
  // a point being picked on the map is for the live floor
  useEffect(() => { if (playbackDay) setPick(null); }, [playbackDay]);
  // a pick started by a button gives the focus back to it when it ends (the map takes the focus meanwhile:
  // the arrow keys move its marker), unless the person took the focus somewhere else
  const pickOpener = useRef<HTMLElement | null>(null);
  const startPick = (kind: PickKind | null) => {
    if (kind) pickOpener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setPick(kind);
  };
  useEffect(() => {
    if (pick) return;
    const opener = pickOpener.current;
    pickOpener.current = null;
    const active = document.activeElement;
    const inMap = !active || active === document.body || !!mapRef.current?.contains(active);
    if (opener?.isConnected && inMap) opener.focus();
  }, [pick, mapRef]);
  // Escape ends picking a point, wherever the focus is (the button that started it says "(cancel)" too)
  useEffect(() => {
    if (!pick) return;
    const onKey = (event: KeyboardEvent) => { if (event.key === 'Escape') setPick(null); };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [pick]);
  // picking one's place writes it on the click: not while the server cannot take it
  useEffect(() => {
    if (!writable && pick === 'location') setPick(null);
  }, [writable, pick]);
  return { pick, setPick, startPick };
}
