// Says that the floor is still being drawn while a large arrival of assets
// (its first data, the saved floor on reopen) is drawn over a few frames
// (lib/revealOrder.ts): a floor half drawn must not pass for the whole floor.

import { useEffect, useEffectEvent, useSyncExternalStore } from 'react';
import type { RevealStore } from '../lib/revealOrder.js';

export interface DrawProgressProps {
  reveal: RevealStore;
  /** assets of the whole floor */
  total: number;
  /** everything is drawn (also at once, when it was small) */
  onDone(): void;
}

export function DrawProgress({ reveal, total, onDone }: DrawProgressProps) {
  const pending = useSyncExternalStore(reveal.subscribe, reveal.pending, reveal.pending);
  const drawing = pending > 0;
  const done = useEffectEvent(onDone);
  useEffect(() => {
    if (!drawing) done();
  }, [drawing]);
  if (!drawing) return null;
  return (
    <div className="viewer-status drawing-floor" role="status">
      Drawing the floor… <progress max={total} value={Math.max(0, total - pending)} aria-label="Floor drawn" />
    </div>
  );
}
