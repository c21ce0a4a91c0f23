// The map's pan and zoom kept between the viewers of one floor: the live floor
// and its replays are separate viewers (Shell keys them apart, each with its own
// mirror), so without this, opening "Play back a day", picking another day or
// going back to live would fit the whole floor again and lose where the person
// was looking (docs/ui.md "The view across live and replay").

import type { Viewport } from './viewport.js';

export interface KeptView {
  floorId: string;
  view: Viewport;
  /** whether the view was the floor fitted: the next viewer fits again (its legends or cover may differ) */
  fitted: boolean;
}

export interface ViewKeeper {
  get(): KeptView | null;
  set(kept: KeptView): void;
}

export function createViewKeeper(): ViewKeeper {
  let kept: KeptView | null = null;
  return {
    get: () => kept,
    set(next) {
      kept = next;
    },
  };
}

/** The view a new viewer of `floorId` starts from: the kept one when it is that floor's and not a fit, else null (fit). */
export function keptViewFor(keeper: ViewKeeper | null | undefined, floorId: string): Viewport | null {
  const kept = keeper?.get();
  return kept && kept.floorId === floorId && !kept.fitted ? kept.view : null;
}
